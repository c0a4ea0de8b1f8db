"""Chi Block (R-P4): an enemy in reach (base contact unless the data says) can spend no AP next turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.battlefield.measure import CONTACT
from skirmish.engine.effects.abilities.registry import Effect, ability_range, register

if TYPE_CHECKING:
    from skirmish.data.armoury import Ability
    from skirmish.engine.core.actions import UseAbility
    from skirmish.engine.core.context import Ctx
    from skirmish.engine.core.state import ModelState


@register
class ChiBlock(Effect):
    name = "chi_block"
    needs_target = True

    def targets(self, ctx: Ctx, m: ModelState, a: Ability, *, measured: bool = True) -> list[ModelState]:
        return [
            t
            for t in ctx.state.models
            if t.active and ctx.enemies(m, t) and ctx.distance(m, t) <= ability_range(a, CONTACT)
        ]

    def resolve(
        self, ctx: Ctx, m: ModelState, a: Ability, target: ModelState | None, action: UseAbility
    ) -> None:
        assert target is not None
        target.chi_blocked = 1
        ctx.emit(
            "ability", f"{m.name} uses {a.title}: {target.name} can spend no AP next turn", (m.id, target.id)
        )
