"""The Pursuit's configuration and changing state, and the questions every other part asks of
them (R-X3): who the heroes and the active adversaries are, the Tracking, the current objective.

Everything that changes lives in `game.state.extra["pursuit"]` (hashed, snapshotted, replayed);
the rule object keeps only the configuration read at the start.
"""

from __future__ import annotations

from typing import Any

from skirmish.data.errors import DataError
from skirmish.engine.core.state import ModelState
from skirmish.engine.scenarios.pursuit.config import KEY, Objective
from skirmish.engine.scenarios.pursuit.parse import parse_config
from skirmish.engine.scenarios.specials import ScenarioSpecials, SpecialReader, side_index


class PursuitBase(ScenarioSpecials):
    """The Pursuit's configuration (`cfg`), its sides and the queries on its state."""

    def read(self, reader: SpecialReader) -> None:
        g = self.game
        try:
            self.cfg = parse_config(g.scenario, g.troupes)
        except DataError as exc:
            reader.problems.extend(exc.problems)
            return
        self.hero_team = g.state.players[side_index(g, self.cfg.hero_side, reader, "hero_side")].team
        self.adversary_team = g.state.players[
            side_index(g, self.cfg.adversary_side, reader, "adversary_side")
        ].team
        self._adversary_indices = tuple(m.index for m in g.state.models if g.team(m) == self.adversary_team)
        g.state.extra.setdefault(
            KEY,
            {
                "tracking": self.cfg.tracking_start,
                "deck": None,
                "discard": [],
                "stack": [],
                "stacked": False,
                "defeated": [],
                "objective": 0,
                "revealed": 0,
                "hold": 0,
                "completed": [],
                "active": None,
                "rotation": 0,
                "stunned": [],
                "laid_low": [],
                "last_cards": [],
                "outcome": "",
                "why": "",
            },
        )

    # ------------------------------------------------------------- queries
    @property
    def st(self) -> dict[str, Any]:
        return self.game.state.extra[KEY]

    @property
    def tracking(self) -> int:
        return int(self.st["tracking"])

    def heroes(self) -> list[ModelState]:
        """Hero models on the table, in `hero_order` then model order."""
        g = self.game
        ms = [m for m in g.state.models if g.team(m) == self.hero_team and m.active]
        order = {name: i for i, name in enumerate(self.cfg.hero_order)}
        return sorted(ms, key=lambda m: (order.get(m.profile.name, len(order)), m.index))

    def adversaries(self) -> list[ModelState]:
        """The adversary side's models, on the table or not, in model order. Asked hundreds of times
        a game (the active adversary); a model's team never changes, so their indices are found once."""
        models = self.game.state.models
        return [models[i] for i in self._adversary_indices]

    def active_adversaries(self) -> list[ModelState]:
        """The adversaries on the table now (in Box 1, one at a time)."""
        return [m for m in self.adversaries() if m.active]

    def is_hero(self, m: ModelState) -> bool:
        return self.game.team(m) == self.hero_team

    def active_hero(self) -> ModelState | None:
        mid = self.st["active"]
        if mid is None:
            return None
        m = self.game.model(mid)
        return m if m.active else None

    def current_objective(self) -> Objective | None:
        i = int(self.st["objective"])
        return self.cfg.objectives[i] if i < len(self.cfg.objectives) and self.st["revealed"] > i else None

    def all_objectives_done(self) -> bool:
        return int(self.st["objective"]) >= len(self.cfg.objectives)

    def adversaries_defeated(self) -> bool:
        return not self.st["stack"] and not self.active_adversaries()

    def _decide(self, outcome: str, why: str) -> None:
        if not self.st["outcome"]:
            self.st["outcome"], self.st["why"] = outcome, why

    def _finish_if_decided(self) -> None:
        if self.st["outcome"] and not self.game.over:
            self.game.finish(str(self.st["why"]))
