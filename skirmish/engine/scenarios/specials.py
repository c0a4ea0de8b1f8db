"""What every scenario gets: typed reading of its `special` keys, and the Day of Black Sun's eclipse.

`SpecialReader` collects every problem in a scenario's `special` table before raising one
`DataError` naming the file and the key; `ScenarioSpecials` is the base of every shipped victory
kind (`registry.VICTORY`), so an eclipse (`no_bending_element`) can darken any scenario.

The rule objects hold only configuration read from the scenario. Everything that changes during a
game lives in `game.state.extra`, so it is hashed, snapshotted, undone and replayed with the rest
of the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skirmish.data.errors import DataError, Problem
from skirmish.engine.core.flow import Step
from skirmish.engine.core.state import ModelState
from skirmish.engine.scenarios.base import ScenarioRules

if TYPE_CHECKING:
    from skirmish.data.scenario import Scenario
    from skirmish.engine.core.context import Ctx

ELEMENTS = ("air", "water", "earth", "fire")


# ----------------------------------------------------------------- reading `special`
class SpecialReader:
    """Typed access to `scenario.special`, collecting every problem before raising one `DataError`."""

    def __init__(self, scenario_name: str, special: dict[str, Any]) -> None:
        self.name = scenario_name
        self.special = special
        self.problems: list[Problem] = []

    def problem(self, key: str, message: str) -> None:
        self.problems.append(Problem(self.name, f"special.{key}", message))

    def has(self, key: str) -> bool:
        return key in self.special

    def get_int(
        self, key: str, default: int | None = None, *, lo: int | None = None, hi: int | None = None
    ) -> int:
        if key not in self.special:
            if default is None:
                self.problem(key, "is required")
                return lo if lo is not None else 0
            return default
        v = self.special[key]
        if isinstance(v, bool) or not isinstance(v, int):
            self.problem(key, f"must be a whole number, not {v!r}")
            return default if default is not None else (lo if lo is not None else 0)
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            self.problem(
                key,
                f"must be from {'-inf' if lo is None else lo} to {'inf' if hi is None else hi}, not {v}",
            )
        return v

    def get_str(self, key: str, default: str | None = None, *, choices: tuple[str, ...] = ()) -> str:
        if key not in self.special:
            if default is None:
                self.problem(key, "is required")
                return ""
            return default
        v = self.special[key]
        if not isinstance(v, str) or not v:
            self.problem(key, f"must be a non-empty string, not {v!r}")
            return default or ""
        if choices and v not in choices:
            self.problem(key, f"`{v}` is not one of {', '.join(choices)}")
        return v

    def get_bool(self, key: str, default: bool) -> bool:
        v = self.special.get(key, default)
        if not isinstance(v, bool):
            self.problem(key, f"must be true or false, not {v!r}")
            return default
        return v

    def get_ints(self, key: str, default: list[int] | None = None) -> list[int]:
        if key not in self.special:
            if default is None:
                self.problem(key, "is required")
                return []
            return default
        v = self.special[key]
        if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            self.problem(key, f"must be a list of whole numbers, not {v!r}")
            return default or []
        return list(v)

    def get_strs(self, key: str, default: list[str] | None = None) -> list[str]:
        if key not in self.special:
            if default is None:
                self.problem(key, "is required")
                return []
            return default
        v = self.special[key]
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            self.problem(key, f"must be a list of strings, not {v!r}")
            return default or []
        return list(v)

    def done(self) -> None:
        if self.problems:
            raise DataError(self.problems)


def side_index(game: Ctx, name: str, reader: SpecialReader, key: str) -> int:
    """The player seated on the scenario side called `name`."""
    for i, side in enumerate(game.scenario.sides):
        if side.name == name:
            return i
    reader.problem(
        key, f"no side is named `{name}` (sides: {', '.join(s.name for s in game.scenario.sides)})"
    )
    return 0


def file_problems(scenario: Scenario, path: str) -> list[Problem]:
    """What `skirmish validate` finds in a scenario file's `special` beyond what a game reads: an
    eclipse turn after the file's own turn limit (a game shortened by `--turns` just ends first)."""
    turns = scenario.special.get("no_bending_turns")
    if not isinstance(turns, list):
        return []
    return [
        Problem(path, "special.no_bending_turns", f"turn {t} is after the last of the {scenario.turns} turns")
        for t in turns
        if isinstance(t, int) and not isinstance(t, bool) and t > scenario.turns
    ]


# ----------------------------------------------------------------- every scenario: the eclipse
class ScenarioSpecials(ScenarioRules):
    """The default rules plus the Day of Black Sun's eclipse, for any scenario naming one.

    Special keys `no_bending_element` (an element) and `no_bending_turns` (turn numbers): during
    those turns no weapon or ability of that element can be used — no shot, no active ability, no
    reaction (the engine asks `element_blocked` when it lists and checks them).
    """

    def __init__(self, game: Ctx) -> None:
        super().__init__(game)
        reader = SpecialReader(game.scenario.name, game.scenario.special)
        self.eclipse_element: str | None = None
        self.eclipse_turns: frozenset[int] = frozenset()
        if reader.has("no_bending_element") or reader.has("no_bending_turns"):
            self.eclipse_element = reader.get_str("no_bending_element", choices=ELEMENTS)
            turns = reader.get_ints("no_bending_turns")
            if not turns:
                reader.problem("no_bending_turns", "name at least one turn")
            # A turn after the game's last never comes: `--turns` or a campaign chapter may shorten
            # a scenario past its eclipse. The file's own limit is checked by `file_problems`.
            for t in turns:
                if t < 1:
                    reader.problem("no_bending_turns", f"turn {t} is not a turn (turns count from 1)")
            self.eclipse_turns = frozenset(turns)
        self.read(reader)
        reader.done()

    def read(self, reader: SpecialReader) -> None:
        """Subclasses read their own `special` keys here (problems are collected, then raised)."""
        return None

    def eclipse(self) -> bool:
        return self.eclipse_element is not None and self.game.state.turn in self.eclipse_turns

    def element_blocked(self, model: ModelState, element: str | None) -> bool:
        return element is not None and self.eclipse() and str(element) == self.eclipse_element

    def on_step(self, step: str) -> None:
        if step == Step.AP_ROLL and self.eclipse_element is not None:
            t = self.game.state.turn
            if t in self.eclipse_turns and t - 1 not in self.eclipse_turns:
                self.game.emit(
                    "eclipse",
                    f"The eclipse begins: no {self.eclipse_element}bending while the sun "
                    f"is dark (turns {', '.join(map(str, sorted(self.eclipse_turns)))})",
                )
            elif t - 1 in self.eclipse_turns and t not in self.eclipse_turns:
                self.game.emit("eclipse", f"The eclipse ends: {self.eclipse_element}bending returns")
