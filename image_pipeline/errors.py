"""The one error type users see: a single line, exit code 2, no traceback."""

from __future__ import annotations

import unicodedata

EXIT_USAGE = 2
# Unicode categories that end a line for some reader (str.splitlines() breaks at \x1c-\x1e, U+0085,
# U+2028 and U+2029 too) or cannot be written as UTF-8 (lone surrogates): control, surrogate, line
# separator, paragraph separator. A message that quotes such a character prints it escaped.
NOT_ONE_LINE = ("Cc", "Cs", "Zl", "Zp")


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
        return _one_line(f"{where}{key}{self.message}")


def _one_line(text: str) -> str:
    text = text.replace("\n", " ")
    return "".join(ascii(c)[1:-1] if unicodedata.category(c) in NOT_ONE_LINE else c for c in text)
