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
            name = name[:60] + "…" + name[-60:]
        where = f"{name}: {self.field}" if self.field else name
        return f"{where}: {self.message}"

    def to_json(self) -> dict[str, str]:
        """The problem in `--json` output (docs/json.md): the three parts of its stderr line."""
        return {"file": self.file, "field": self.field, "message": self.message}


MAX_NAME = 280
"""A file name longer than this could never be shown whole in a command line's error line (300
characters at most, `cli.errors.MAX_LINE`): it is shown as its first and last 60 characters, so
the field and the reason still fit. Any shorter name is shown whole."""


class DataError(ValueError):
    """A data file (or several) could not be loaded; `problems` lists every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its problems (a worker's error crosses back to the parent whole): the
        default would rebuild it from the joined text, a string where the list was."""
        return (type(self), (self.problems,), self.__dict__)
