"""Reading files a person hands the program (hand logs, settings, time logs) within bounds.

A file can carry a number with a million digits, an exponent that takes minutes to expand,
nesting ten thousand levels deep, or a hundred megabytes in one line. None of that is a hand
or a table: every such file is refused with a message that says what is wrong, before any of it
is worked on, so a crafted file can neither hang the program nor crash it.
"""

from __future__ import annotations

import json
import math
import sys
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from dealer_assist.errors import BadInput

#: The largest whole number a file may hold (cents, stacks, counts): 10^13 cents is $100
#: billion, far above any table, and any sum of such amounts still fits the database's 64 bits.
MAX_INT = 10**13
#: Characters in one number as written (a decimal fee percent, a float that will be refused).
MAX_NUMBER_CHARS = 40
#: How deep objects and lists may nest (a table settings file needs 4 levels).
MAX_DEPTH = 16
#: Characters in one text value, and in one line of a hand log.
MAX_STRING = 10_000
MAX_LINE = 100_000
#: A hand log holds one hand: lines and bytes far above any real hand.
MAX_LOG_LINES = 20_000
MAX_LOG_BYTES = 16 * 1024 * 1024
#: A table settings file.
MAX_SETTINGS_BYTES = 1024 * 1024


def _int(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > len(str(MAX_INT)):
        raise BadInput(f"the number {text[:20]}… has {len(digits)} digits: no amount or count "
                       f"is larger than {MAX_INT:,}")
    value = int(text)
    if abs(value) > MAX_INT:
        raise BadInput(f"the number {value} is too large: no amount or count is larger than "
                       f"{MAX_INT:,}")
    return value


def _float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise BadInput(f"the number {text[:20]}… is too long to be a setting or an amount")
    value = float(text)
    if not math.isfinite(value):
        raise BadInput(f"the number {text} is too large")
    return value


def _constant(text: str) -> float:
    raise BadInput(f"{text} is not a number a file may hold")


def check_value(value: Any, *, where: str) -> Any:
    """``value`` (parsed JSON or TOML) within the bounds: depth, whole numbers, text lengths."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise BadInput(f"{where} nests more than {MAX_DEPTH} levels deep: no hand or "
                               "table setting does")
            children = item.values() if isinstance(item, dict) else item
            stack.extend((c, depth + 1) for c in children)
            if isinstance(item, dict):
                stack.extend((k, depth + 1) for k in item)
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int):
            if abs(item) > MAX_INT:
                raise BadInput(f"{where}: the number {str(item)[:20]}… is too large (no amount "
                               f"or count is larger than {MAX_INT:,})")
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise BadInput(f"{where}: {item} is not a number a file may hold")
        elif isinstance(item, str) and len(item) > MAX_STRING:
            raise BadInput(f"{where}: a text of {len(item):,} characters is too long")
    return value


def loads_json(text: str, *, where: str) -> Any:
    """``json.loads`` within the bounds; raises ``json.JSONDecodeError`` for bad syntax and
    :class:`BadInput` for a value out of bounds."""
    try:
        value = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except RecursionError as exc:
        raise BadInput(f"{where} nests too deeply: no hand or table setting does") from exc
    return check_value(value, where=where)


def loads_toml(text: str, *, where: str) -> Any:
    """``tomllib.loads`` within the bounds; raises ``tomllib.TOMLDecodeError`` for bad syntax."""
    try:
        value = tomllib.loads(text, parse_float=_float)
    except RecursionError as exc:
        raise BadInput(f"{where} nests too deeply: no table setting does") from exc
    except ValueError as exc:
        if isinstance(exc, tomllib.TOMLDecodeError):
            raise
        raise BadInput(f"{where} holds a number too large to be a setting ({exc})") from exc
    return check_value(value, where=where)


def read_text(path: str | Path, *, what: str, max_bytes: int) -> str:
    """A whole small text file (settings, time log): a folder, a binary file or one too big is
    refused with a message, never a traceback."""
    p = Path(path)
    with _open(p, what) as f:
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise BadInput(f"{p} is larger than {max_bytes // 1024:,} KiB: it is not a {what}")
    return _decode(data, p, what)


def _open(p: Path, what: str) -> BinaryIO:
    try:
        if p.is_dir():
            raise BadInput(f"{p} is a folder, not a {what}")
        return p.open("rb")
    except FileNotFoundError as exc:
        raise BadInput(f"no such file: {p}") from exc
    except OSError as exc:
        raise BadInput(f"cannot read {p}: {exc.strerror or exc}") from exc


def _decode(data: bytes, p: Path | str, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{p} is not a text {what} (not UTF-8)") from exc


def log_lines(path: str | Path, *, what: str = "hand log") -> Iterator[str]:
    """The lines of a hand log (``-``: standard input), read as they are used rather than all
    at once, and refused past :data:`MAX_LOG_BYTES`, :data:`MAX_LOG_LINES` or a line longer
    than :data:`MAX_LINE`."""
    if str(path) == "-":
        yield from _lines(sys.stdin.buffer, "standard input", what)
        return
    p = Path(path)
    with _open(p, what) as f:
        yield from _lines(f, p, what)


def _lines(f: BinaryIO, name: Path | str, what: str) -> Iterator[str]:
    total = 0
    for n, raw in enumerate(iter(lambda: f.readline(MAX_LINE + 1), b""), start=1):
        total += len(raw)
        if len(raw) > MAX_LINE:
            raise BadInput(f"{name} line {n} is longer than {MAX_LINE:,} characters: not a "
                           f"{what}")
        if n > MAX_LOG_LINES or total > MAX_LOG_BYTES:
            raise BadInput(f"{name} is longer than any one hand ({MAX_LOG_LINES:,} lines, "
                           f"{MAX_LOG_BYTES // 2**20} MiB): a {what} holds one hand")
        yield _decode(raw, f"{name} line {n}", what).rstrip("\r\n")


def json_lines(lines: Iterable[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """The one reader of JSON Lines (hand logs, time logs, imports): each non-blank line's
    number (from 1) and its object, within the bounds above; a line that is not valid JSON, not
    an object, or past a bound raises :class:`HandLogError` naming the line."""
    from dealer_assist.errors import HandLogError

    for n, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            obj = loads_json(raw, where="the line")
        except json.JSONDecodeError as exc:
            raise HandLogError(n, f"not valid JSON ({exc.msg}, column {exc.colno})") from exc
        except BadInput as exc:
            raise HandLogError(n, str(exc)) from exc
        if not isinstance(obj, dict):
            raise HandLogError(n, "an event must be a JSON object")
        yield n, obj


def check_output_file(path: str | Path, *, what: str) -> Path:
    """A file the program is about to write (a report, an anchors file, a hand log): refused
    unless it is a new file in an existing folder or a regular file already there. A device, a
    pipe, a folder or a symbolic link at the path is never replaced or written through."""
    p = Path(path)
    if p.is_symlink():
        raise BadInput(f"{p} is a symbolic link: name the file itself (nothing is written "
                       f"through a link); nothing was {what}")
    if p.is_dir():
        raise BadInput(f"{p} is a folder: name a file to write; nothing was {what}")
    if p.exists() and not p.is_file():
        raise BadInput(f"{p} is not a regular file (a device or a pipe): name a file; nothing "
                       f"was {what}")
    if not p.parent.is_dir():
        raise BadInput(f"the folder {p.parent} does not exist (there is no folder to write "
                       f"{p.name} in): create it or choose another; nothing was {what}")
    return p
