"""The Avatar Duel's build step (R-X2): every Avatar builds up to four techniques behind its shield,
in player order but hidden from the others until revealed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.engine.core.actions import Action, Build
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.core.state import ModelState
from skirmish.engine.effects import moving
from skirmish.engine.scenarios.duel.base import DuelBase
from skirmish.engine.scenarios.duel.pieces import NAMES, BuildError, Piece, check_build, parse_build
from skirmish.engine.scenarios.duel.templates import candidate_texts

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx


class DuelBuild(DuelBase):
    """The build step: its begin hook, its candidates and the `Build` action."""

    def _begin_build(self, game: Ctx) -> None:
        moving.end_glides(game)
        st = self.st
        st["round"] += 1
        st["tech"], st["built"], st["exchanges"] = {}, [], []
        st["exhausted"], st["passes"] = False, 0
        game.emit("duel", f"Round {st['round']}: every Avatar builds its techniques behind the shield")

    def _can_build(self, game: Ctx, player: int) -> bool:
        m = self.avatar(player)
        return m is not None and m.id not in self.st["built"]

    def _banned(self) -> str | None:
        return self.eclipse_element if self.eclipse() else None

    def _build_candidates(self, game: Ctx, player: int) -> list[Action]:
        m = self.avatar(player)
        if m is None or m.id in self.st["built"]:
            return []
        texts = candidate_texts(
            may_unground=self.may_unground(m),
            native=self.native(m),
            banned=self._banned(),
            airborne=moving.airborne(m),
        )
        return [Build(m.id, t) for t in texts]

    def check_build_text(self, m: ModelState, text: str) -> list[tuple[Piece, ...]]:
        try:
            techs = parse_build(text)
            check_build(
                techs,
                may_unground=self.may_unground(m),
                specials=self.setting.specials,
                native=self.native(m),
                airborne=moving.airborne(m),
            )
        except BuildError as exc:
            raise IllegalAction("R-X2", f"{m.name}'s build: {exc}") from None
        banned = self._banned()
        for t in techs:
            for p in t:
                if p.element == banned:
                    raise IllegalAction("R-X2", f"no {banned}bending during the eclipse: {p.words}")
        return techs

    def _do_build(self, game: Ctx, action: Build) -> None:
        s = game.state
        m = game.model(action.model, rule="R-X2")
        if m.player != s.active_player:
            raise IllegalAction("R-X2", f"{m.name} belongs to another player")
        if not m.active:
            raise IllegalAction("R-P5", f"{m.name} is out of the duel")
        if m.id in self.st["built"]:
            raise IllegalAction("R-X2", f"{m.name} has already built this round")
        techs = self.check_build_text(m, action.techniques)
        self.st["tech"][m.id] = [
            {"name": NAMES[k], "pieces": [p.token for p in t], "revealed": False, "attacked": False}
            for k, t in enumerate(techs)
        ]
        self.st["built"].append(m.id)
        n = len(techs)
        game.emit(
            "build",
            f"{m.name} builds {n} technique{'s' if n != 1 else ''} behind the shield",
            (m.id,),
        )
        s.players[m.player].done = True
        game.after_player_action()
