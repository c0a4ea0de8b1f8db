"""Scenario victory conditions and special rules, as hooks the phase machine calls (R-T4, R-E3).

The default rules decide by Battle Points, then last side standing. Scenarios with their own
conditions (escort, the Pursuit, the Duel, the Day of Black Sun) subclass `ScenarioRules`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skirmish.engine.core.flow import StepSpec
from skirmish.engine.core.state import ModelState

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx


class ScenarioRules:
    """Default: most Battle Points wins, ties go to the last side standing, else a draw."""

    def __init__(self, game: Ctx) -> None:
        self.game = game

    def on_step(self, step: str) -> None:
        return None

    def turn_steps(self) -> tuple[str | StepSpec, ...] | None:
        """The steps of a turn, in order (R-T1): None for the rulebook's own turn; the Avatar Duel
        plays its own (standard steps by name, its own as specs; `engine.rulebook.for_scenario`)."""
        return None

    def extensions(self) -> dict[str, dict[str, Any]]:
        """Extra step hooks a scenario brings for its own steps and actions: `begin`, `has_options`,
        `generators` (by step), `handlers` (by action kind), `pending` (by pending kind)."""
        return {}

    def observe(self, player: int) -> Any:
        """The scenario's own state as `player` may know it (`state.extra`, all public by default)."""
        return self.game.state.extra

    def technique_duel(self) -> bool:
        """Whether this game is the Avatar Duel of hidden techniques (bots switch to the duel bot)."""
        return False

    def on_wound(self, target: ModelState, hp_lost: int, by: ModelState | None) -> None:
        return None

    def extra_points(self) -> list[int]:
        return [0] * len(self.game.state.players)

    def status(self) -> str:
        """A line for the banner: the scenario's own track or goal (empty for plain battles)."""
        return ""

    def hints(self, player: int) -> tuple[dict[str, tuple[float, float]], set[str]]:
        """What the scenario asks of `player`, for bots and the UI: a goal point per model id and
        the ids of enemy models that matter most. Default: none (fight and hold the zones)."""
        return {}, set()

    def element_blocked(self, model: ModelState, element: str | None) -> bool:
        """True when `model` may not bend `element` now (the Day of Black Sun's eclipse)."""
        return False

    def absorbs_hit(self, target: ModelState) -> bool:
        """True when a hit about to land on `target` does nothing (a stunned Pursuit hero)."""
        return False

    def stuns(self, target: ModelState) -> bool:
        """True when `target`, brought to 0 HP, is stunned instead of KO'd (the Pursuit's heroes)."""
        return False

    def ends_when_one_side_left(self) -> bool:
        """Whether R-T4's 'only one side on the table' ends the game (the Pursuit plays on)."""
        return True

    def check_end(self) -> str:
        """A reason to end the game now (beyond the turn limit and one side left), or ''."""
        return ""

    def team_points(self) -> dict[int, int]:
        totals: dict[int, int] = {}
        for p in self.game.state.players:
            totals[p.team] = totals.get(p.team, 0) + p.total_points
        return totals

    def winner(self) -> tuple[int | None, str]:
        g = self.game
        left = g.teams_on_table()
        if g.scenario.victory.value == "last_standing" and len(left) == 1:
            return left[0], "last side standing"
        totals = self.team_points()
        best = max(totals.values())
        top = sorted(t for t, v in totals.items() if v == best)
        if len(top) == 1:
            others = sorted((v for t, v in totals.items() if t != top[0]), reverse=True)
            return top[0], f"most Battle Points ({best} to {others[0] if others else 0})"
        standing = [t for t in top if t in left]
        if len(standing) == 1:
            return standing[0], f"Battle Points tied at {best}; last side standing"
        return None, f"Battle Points tied at {best}"
