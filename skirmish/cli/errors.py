"""How the command reports failure: exit 2 for bad input, 1 for an internal error, never a traceback."""

from __future__ import annotations

import sys


class UsageProblem(Exception):
    """Bad input named by the command (a flag, a file, a field): exit 2 with these lines."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        super().__init__("\n".join(lines))


def fail(*lines: str, code: int = 2) -> None:
    for line in lines:
        print(f"skirmish: {line}", file=sys.stderr)
    raise SystemExit(code)
