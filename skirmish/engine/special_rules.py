"""Scenario-specific rules, chosen by the scenario's `victory` and `special` keys (R-T4, R-X1..R-X3).

`rules_for(game)` picks one `ScenarioRules` subclass per game:

- every scenario gets `ScenarioSpecials`, which adds the Day of Black Sun's eclipse whenever the
  scenario names a `no_bending_element` (so an eclipse can darken any scenario);
- victory `escort`: `EscortRules` (the escorted model leaves by an edge, or is KO'd);
- victory `duel`: `DuelRules` (R-X1/R-X2 are in the engine; this adds the last-Avatar-standing
  victory and the `hp_fraction` tiebreak);
- victory `pursuit`: `PursuitRules` in `scenarios_pursuit` (R-X3).

The rule objects hold only configuration read from the scenario. Everything that changes during a
game lives in `game.state.extra`, so it is hashed, snapshotted, undone and replayed with the rest
of the state.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from skirmish.data.errors import DataError, Problem
from skirmish.engine.core.state import ModelState
from skirmish.engine.scenario_rules import ScenarioRules

if TYPE_CHECKING:
    from skirmish.engine.game import Game

ELEMENTS = ("air", "water", "earth", "fire")
EDGES = ("north", "south", "east", "west")
EDGE_TOUCH = 0.05
"""Inches of slack for a base 'touching' a table edge (paths keep bases just on the table)."""


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


def side_index(game: Game, name: str, reader: SpecialReader, key: str) -> int:
    """The player seated on the scenario side called `name`."""
    for i, side in enumerate(game.scenario.sides):
        if side.name == name:
            return i
    reader.problem(
        key, f"no side is named `{name}` (sides: {', '.join(s.name for s in game.scenario.sides)})"
    )
    return 0


def touches_edge(game: Game, m: ModelState, edge: str) -> bool:
    """Whether the model's base touches the named table edge (north is y = board height)."""
    x, y = (float(v) for v in game.state.xy[m.index])
    r = float(game.state.radii[m.index])
    w, h = game.scenario.board.width, game.scenario.board.height
    if edge == "north":
        return y + r >= h - EDGE_TOUCH
    if edge == "south":
        return y - r <= EDGE_TOUCH
    if edge == "east":
        return x + r >= w - EDGE_TOUCH
    return x - r <= EDGE_TOUCH


# ----------------------------------------------------------------- every scenario: the eclipse
class ScenarioSpecials(ScenarioRules):
    """The default rules plus the Day of Black Sun's eclipse, for any scenario naming one.

    Special keys `no_bending_element` (an element) and `no_bending_turns` (turn numbers): during
    those turns no weapon or ability of that element can be used — no shot, no active ability, no
    reaction (the engine asks `element_blocked` when it lists and checks them).
    """

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        reader = SpecialReader(game.scenario.name, game.scenario.special)
        self.eclipse_element: str | None = None
        self.eclipse_turns: frozenset[int] = frozenset()
        if reader.has("no_bending_element") or reader.has("no_bending_turns"):
            self.eclipse_element = reader.get_str("no_bending_element", choices=ELEMENTS)
            turns = reader.get_ints("no_bending_turns")
            if not turns:
                reader.problem("no_bending_turns", "name at least one turn")
            for t in turns:
                if not 1 <= t <= game.scenario.turns:
                    reader.problem(
                        "no_bending_turns", f"turn {t} is not one of the {game.scenario.turns} turns"
                    )
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
        if step == "ap_roll" and self.eclipse_element is not None:
            t = self.game.state.turn
            if t in self.eclipse_turns and t - 1 not in self.eclipse_turns:
                self.game.emit(
                    "eclipse",
                    f"The eclipse begins: no {self.eclipse_element}bending while the sun "
                    f"is dark (turns {', '.join(map(str, sorted(self.eclipse_turns)))})",
                )
            elif t - 1 in self.eclipse_turns and t not in self.eclipse_turns:
                self.game.emit("eclipse", f"The eclipse ends: {self.eclipse_element}bending returns")


# ----------------------------------------------------------------- escort
class EscortRules(ScenarioSpecials):
    """Victory `escort`: the escorted model leaving by the exit edge wins for its side at once; the
    model KO'd, or the turn limit passing without an exit, wins for the other side.

    Special keys: `escort_model` (profile name), `escort_side` (side name), `exit_edge`. The exit is
    checked whenever a step begins, i.e. after every move, charge and advance. Battle Points are
    kept for the record only.
    """

    def read(self, reader: SpecialReader) -> None:
        g = self.game
        self.model_name = reader.get_str("escort_model")
        side = reader.get_str("escort_side")
        self.edge = reader.get_str("exit_edge", choices=EDGES)
        self.player = side_index(g, side, reader, "escort_side")
        found = [m for m in g.player_models(self.player) if m.profile.name == self.model_name]
        if not found and not reader.problems:
            reader.problem("escort_model", f"side `{side}`'s troupe has no model `{self.model_name}`")
        self.escort_id = found[0].id if found else ""

    def status(self) -> str:
        m = self.escort
        state = (
            "escaped"
            if self.game.state.extra.get("escort", {}).get("outcome") == "exited"
            else ("KO'd" if not m.active else f"must leave by the {self.edge} edge")
        )
        return f"Escort: {m.name} {state}"

    def hints(self, player: int) -> tuple[dict[str, tuple[float, float]], set[str]]:
        g = self.game
        m = self.escort
        if not m.active:
            return {}, set()
        x, y = (float(v) for v in g.state.xy[m.index])
        w, h = g.scenario.board.width, g.scenario.board.height
        r = float(g.state.radii[m.index]) + 1e-6  # the base touching the edge, still on the table
        exit_point = {"north": (x, h - r), "south": (x, r), "west": (r, y), "east": (w - r, y)}[self.edge]
        if g.state.players[player].team == self.escort_team:
            return {m.id: exit_point}, set()
        hunters = [o for o in g.player_models(player) if o.active]
        return {o.id: (x, y) for o in hunters}, {m.id}

    @property
    def escort(self) -> ModelState:
        return self.game.model(self.escort_id)

    @property
    def escort_team(self) -> int:
        return self.game.state.players[self.player].team

    def _other_team(self) -> int | None:
        others = sorted({p.team for p in self.game.state.players if p.team != self.escort_team})
        return others[0] if others else None

    def _decide(self) -> str:
        """Record the outcome if the escort has left or fallen; the reason, or ''."""
        g, m = self.game, self.escort
        st = g.state.extra.setdefault("escort", {"outcome": "", "why": ""})
        if st["outcome"]:
            return str(st["why"])
        if m.active and touches_edge(g, m, self.edge):
            st.update(outcome="exited", why=f"{m.name} escaped by the {self.edge} edge")
        elif not m.active:
            st.update(outcome="ko", why=f"{m.name} was KO'd before escaping")
        elif not any(o.active and g.team(o) != self.escort_team for o in g.state.models):
            st.update(outcome="clear", why=f"no enemy is left to stop {m.name} reaching the {self.edge} edge")
        else:
            return ""
        g.emit("escort", str(st["why"]), (m.id,))
        return str(st["why"])

    def on_step(self, step: str) -> None:
        super().on_step(step)
        if step != "deploy" and not self.game.over:
            why = self._decide()
            if why:
                self.game.finish(why)

    def check_end(self) -> str:
        return self._decide()

    def winner(self) -> tuple[int | None, str]:
        st = self.game.state.extra.get("escort", {})
        outcome, why = st.get("outcome", ""), st.get("why", "")
        if outcome in ("exited", "clear"):
            return self.escort_team, why
        if outcome == "ko":
            return self._other_team(), why
        return self._other_team(), f"{self.escort.name} did not escape by the {self.edge} edge in time"


# ----------------------------------------------------------------- the Avatar Duel
class DuelRules(ScenarioSpecials):
    """Victory `duel` (R-X1, R-X2): the Avatar who KOs the other wins at once — the last Avatar
    standing is the true Avatar; at the turn limit the larger fraction of HP left wins
    (`duel_tiebreak = "hp_fraction"`), equal fractions are a draw.

    The weakness cycle and the reactions are resolved by the engine (`shooting`, `abilities`); the
    check happens when a step begins, so a model KO'd in the shooting step still fires back first
    (R-C2 simultaneous fire), and two Avatars falling together is a draw.
    """

    def read(self, reader: SpecialReader) -> None:
        self.tiebreak = reader.get_str("duel_tiebreak", "hp_fraction", choices=("hp_fraction",))

    def on_step(self, step: str) -> None:
        super().on_step(step)
        g = self.game
        if step != "deploy" and not g.over and len(g.teams_on_table()) <= 1:
            g.finish("an Avatar has fallen" if g.teams_on_table() else "both Avatars have fallen")

    def hp_fraction(self, team: int) -> Fraction:
        ms = [m for m in self.game.state.models if self.game.team(m) == team]
        total = sum(m.profile.hp for m in ms)
        left = sum(m.hp for m in ms if m.active)
        return Fraction(left, total) if total else Fraction(0)

    def winner(self) -> tuple[int | None, str]:
        g = self.game
        left = g.teams_on_table()
        if len(left) == 1:
            return left[0], "the last Avatar standing is the true Avatar"
        if not left:
            return None, "both Avatars fell together"
        fr = {t: self.hp_fraction(t) for t in sorted({p.team for p in g.state.players})}
        best = max(fr.values())
        top = [t for t, v in fr.items() if v == best]
        text = ", ".join(f"{self._team_name(t)} {float(v):.0%}" for t, v in fr.items())
        if len(top) == 1:
            return top[0], f"more of its HP left ({text})"
        return None, f"equal fractions of HP left ({text})"

    def _team_name(self, team: int) -> str:
        return "/".join(p.name for p in self.game.state.players if p.team == team)


def rules_for(game: Game) -> ScenarioRules:
    victory = game.scenario.victory.value
    if victory == "escort":
        return EscortRules(game)
    if victory == "duel":
        from skirmish.engine.duel.rules import DuelRules as TechniqueDuel

        return TechniqueDuel(game)
    if victory == "pursuit":
        from skirmish.engine.scenarios_pursuit import PursuitRules

        return PursuitRules(game)
    return ScenarioSpecials(game)
