"""Problems found in data files, reported one per line naming the file and the field path."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One problem: where it is (file, dotted field path) and what is wrong."""

    file: str
    field: str
    message: str

    def __str__(self) -> str:
        name = self.file
        if len(name) > MAX_NAME:  # cut in the middle, so the field and the reason still fit the line
            name = name[: MAX_NAME // 2] + "…" + name[-(MAX_NAME // 2) :]
        where = f"{name}: {self.field}" if self.field else name
        return f"{where}: {self.message}"


MAX_NAME = 120
"""A file name longer than this is shown cut in its line (a command line's error lines are capped)."""


class DataError(ValueError):
    """A data file (or several) could not be loaded; `problems` lists every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))
