"""Tallies that merge exactly (integers only, whatever order the workers finish in) and the
95% confidence intervals the dossier prints."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``k`` of ``n`` (good near 0 and 1 too)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high


def mean_interval(n: int, total: int, squares: int, z: float = Z95) -> tuple[float, float, float]:
    """The mean and its 95% interval (normal approximation, sample standard deviation)."""
    if n <= 0:
        return 0.0, 0.0, 0.0
    mean = total / n
    if n == 1:
        return mean, mean, mean
    var = max(0.0, (squares - total * total / n) / (n - 1))
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


@dataclass(slots=True)
class Numbers:
    """A number per hand: count, sum, sum of squares, extremes, and (for money) how often
    each value came, for the median and the 95th percentile."""

    n: int = 0
    total: int = 0
    squares: int = 0
    low: int | None = None
    high: int | None = None
    values: Counter[int] | None = None

    def add(self, v: int) -> None:
        self.n += 1
        self.total += v
        self.squares += v * v
        if self.low is None or v < self.low:
            self.low = v
        if self.high is None or v > self.high:
            self.high = v
        if self.values is not None:
            self.values[v] += 1

    def merge(self, other: Numbers) -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares
        for v in (other.low, other.high):
            if v is not None:
                self.low = v if self.low is None else min(self.low, v)
                self.high = v if self.high is None else max(self.high, v)
        if other.values is not None:
            if self.values is None:
                self.values = Counter()
            self.values.update(other.values)

    def interval(self) -> tuple[float, float, float]:
        return mean_interval(self.n, self.total, self.squares)

    def quantile(self, q: float) -> int | None:
        """The smallest value at or below which a share ``q`` of the hands lie."""
        if not self.values or self.n == 0:
            return None
        need = math.ceil(q * self.n)
        seen = 0
        for v in sorted(self.values):
            seen += self.values[v]
            if seen >= need:
                return v
        return self.high


@dataclass(slots=True)
class Shares:
    """Yes/no per hand: how many hands it applied to and how many said yes."""

    n: int = 0
    k: int = 0

    def add(self, yes: bool) -> None:
        self.n += 1
        self.k += 1 if yes else 0

    def merge(self, other: Shares) -> None:
        self.n += other.n
        self.k += other.k

    def interval(self) -> tuple[float, float, float]:
        low, high = wilson(self.k, self.n)
        return (self.k / self.n if self.n else 0.0), low, high


@dataclass(slots=True)
class Categories:
    """One name per hand: how often each came."""

    n: int = 0
    counts: Counter[str] = field(default_factory=Counter)

    def add(self, name: str) -> None:
        self.n += 1
        self.counts[name] += 1

    def merge(self, other: Categories) -> None:
        self.n += other.n
        self.counts.update(other.counts)


@dataclass(slots=True)
class Ratio:
    """Two numbers per hand, for a rate per unit of the second (the fee per hour: fee per
    hand over seconds per hand), with the delta-method interval of the ratio of means."""

    n: int = 0
    a: int = 0
    b: int = 0
    aa: int = 0
    bb: int = 0
    ab: int = 0

    def add(self, a: int, b: int) -> None:
        self.n += 1
        self.a += a
        self.b += b
        self.aa += a * a
        self.bb += b * b
        self.ab += a * b

    def merge(self, other: Ratio) -> None:
        self.n += other.n
        self.a += other.a
        self.b += other.b
        self.aa += other.aa
        self.bb += other.bb
        self.ab += other.ab

    def interval(self, scale: float = 1.0) -> tuple[float, float, float]:
        """``scale`` × mean(a) / mean(b), with its 95% interval."""
        if self.n <= 1 or self.b == 0:
            r = scale * self.a / self.b if self.b else 0.0
            return r, r, r
        n = self.n
        ma, mb = self.a / n, self.b / n
        va = (self.aa - self.a * self.a / n) / (n - 1)
        vb = (self.bb - self.b * self.b / n) / (n - 1)
        cab = (self.ab - self.a * self.b / n) / (n - 1)
        r = ma / mb
        var = (va - 2 * r * cab + r * r * vb) / (n * mb * mb)
        half = Z95 * math.sqrt(max(0.0, var))
        return scale * r, scale * (r - half), scale * (r + half)
