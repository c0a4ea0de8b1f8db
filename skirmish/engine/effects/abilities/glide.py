"""Glide (R-P4): before moving, the user flies this move and gains `bonus_move` inches."""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.engine.effects.abilities.registry import Effect, register

if TYPE_CHECKING:
    from skirmish.data.armoury import Ability
    from skirmish.engine.core.actions import UseAbility
    from skirmish.engine.core.context import Ctx
    from skirmish.engine.core.state import ModelState


@register
class Glide(Effect):
    name = "glide"

    def usable(self, ctx: Ctx, m: ModelState, a: Ability) -> bool:
        return m.active and not m.moved and not m.taking_cover and not ctx.in_melee(m)

    def resolve(
        self, ctx: Ctx, m: ModelState, a: Ability, target: ModelState | None, action: UseAbility
    ) -> None:
        m.glide = True
        m.buffs["move"] = m.buffs.get("move", 0) + int(a.params.get("bonus_move", 0))
        ctx.moved()
        ctx.emit(
            "ability",
            f'{m.name} uses {a.title}: flies this move (+{a.params.get("bonus_move", 0)}")',
            (m.id,),
        )
