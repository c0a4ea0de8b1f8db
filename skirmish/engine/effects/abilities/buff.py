"""Buff (R-P4): the user and every friend within range gain `amount` to one profile figure this turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.engine.effects.abilities.registry import Effect, ability_range, register

if TYPE_CHECKING:
    from skirmish.data.armoury import Ability
    from skirmish.engine.core.actions import UseAbility
    from skirmish.engine.core.context import Ctx
    from skirmish.engine.core.state import ModelState


@register
class Buff(Effect):
    name = "buff"

    def resolve(
        self, ctx: Ctx, m: ModelState, a: Ability, target: ModelState | None, action: UseAbility
    ) -> None:
        stat, amount = str(a.params.get("stat", "combat")), int(a.params.get("amount", 1))
        rng = ability_range(a, 0.0)
        buffed = [
            t
            for t in ctx.state.models
            if t.active and not ctx.enemies(m, t) and (t is m or ctx.distance(m, t) <= rng)
        ]
        for t in buffed:
            t.buffs[stat] = t.buffs.get(stat, 0) + amount
        ctx.emit(
            "ability",
            f"{m.name} uses {a.title}: +{amount} {stat} this turn for " + ", ".join(t.name for t in buffed),
            tuple(t.id for t in buffed),
        )
