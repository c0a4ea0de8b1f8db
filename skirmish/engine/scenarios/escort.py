"""Victory `escort` (R-T4): the escorted model must leave the table by the named edge."""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.engine.core.flow import Step
from skirmish.engine.core.state import ModelState
from skirmish.engine.scenarios.specials import ScenarioSpecials, SpecialReader, side_index

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx

EDGES = ("north", "south", "east", "west")
EDGE_TOUCH = 0.05
"""Inches of slack for a base 'touching' a table edge (paths keep bases just on the table)."""


def touches_edge(game: Ctx, m: ModelState, edge: str) -> bool:
    """Whether the model's base touches the named table edge (north is y = board height)."""
    x, y = game.state.xy[m.index].tolist()
    r = float(game.state.radii[m.index])
    w, h = game.scenario.board.width, game.scenario.board.height
    if edge == "north":
        return y + r >= h - EDGE_TOUCH
    if edge == "south":
        return y - r <= EDGE_TOUCH
    if edge == "east":
        return x + r >= w - EDGE_TOUCH
    return x - r <= EDGE_TOUCH


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
        # Teams never change in a game: the escort's enemies are found once.
        team = g.state.players[self.player].team
        self._enemy_indices = tuple(m.index for m in g.state.models if g.team(m) != team)

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
        x, y = g.state.xy[m.index].tolist()
        if g.state.players[player].team == self.escort_team:
            w, h = g.scenario.board.width, g.scenario.board.height
            r = float(g.state.radii[m.index]) + 1e-6  # the base touching the edge, still on the table
            exit_point = {"north": (x, h - r), "south": (x, r), "west": (r, y), "east": (w - r, y)}[self.edge]
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
        elif not self._enemy_left():
            st.update(outcome="clear", why=f"no enemy is left to stop {m.name} reaching the {self.edge} edge")
        else:
            return ""
        g.emit("escort", str(st["why"]), (m.id,))
        return str(st["why"])

    def _enemy_left(self) -> bool:
        """Whether any model of another team is still active (asked at every step)."""
        models = self.game.state.models
        return any(models[i].active for i in self._enemy_indices)

    def on_step(self, step: str) -> None:
        super().on_step(step)
        if step != Step.DEPLOY and not self.game.over:
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
