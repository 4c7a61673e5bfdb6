"""The one error type users see: a single line, exit code 2, no traceback."""

from __future__ import annotations

EXIT_USAGE = 2


class UserError(Exception):
    """Bad input or an unmet precondition the user can fix.

    Rendered as ``file:line: key: message``, leaving out the parts that are unknown.
    """

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 key: str | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.key = key

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        key = f"{self.key}: " if self.key else ""
        return f"{where}{key}{self.message}".replace("\n", " ")
