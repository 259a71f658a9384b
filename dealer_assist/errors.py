"""Errors written for the person at the table: each says what is wrong and what to do."""

from __future__ import annotations


class DealerAssistError(Exception):
    """Base of every error the app shows to a person instead of a traceback."""


class RuleViolation(DealerAssistError):
    """An input the rules forbid. The message is for the dealer ("9h already dealt to seat 3")."""

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule

    @property
    def message(self) -> str:
        return str(self.args[0])


class BadInput(DealerAssistError):
    """Input that cannot be read at all: an unknown card, a malformed log line, a bad setting."""


class HandLogError(DealerAssistError):
    """A hand log that cannot be replayed; names the line (1-based) and the reason."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason
