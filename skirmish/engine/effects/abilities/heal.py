"""Heal (R-P4): a friendly model within range (2" unless the data says), or the user, regains HP."""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.engine.effects.abilities.registry import Effect, ability_range, register
from skirmish.engine.effects.damage import heal

if TYPE_CHECKING:
    from skirmish.data.armoury import Ability
    from skirmish.engine.core.actions import UseAbility
    from skirmish.engine.core.context import Ctx
    from skirmish.engine.core.state import ModelState


@register
class Heal(Effect):
    name = "heal"
    needs_target = True

    def targets(self, ctx: Ctx, m: ModelState, a: Ability, *, measured: bool = True) -> list[ModelState]:
        return [
            t
            for t in ctx.state.models
            if t.active
            and not ctx.enemies(m, t)
            and t.hp < t.profile.hp
            and (t is m or ctx.distance(m, t) <= ability_range(a, 2.0))
        ]

    def resolve(
        self, ctx: Ctx, m: ModelState, a: Ability, target: ModelState | None, action: UseAbility
    ) -> None:
        assert target is not None
        got = heal(ctx, target, int(a.params.get("amount", 1)))
        ctx.emit("ability", f"{m.name} uses {a.title}: {target.name} regains {got} HP", (m.id, target.id))
