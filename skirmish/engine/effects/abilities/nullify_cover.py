"""Nullify cover (R-C6): aimed at an enemy, who counts as in the open to the user's shots this turn.

Not the model's shot: it only serves the model's own shot (ruling in docs/rules.md, R-C6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.engine.effects.abilities.registry import Aimed, register

if TYPE_CHECKING:
    from skirmish.data.armoury import Ability
    from skirmish.engine.core.context import Ctx
    from skirmish.engine.core.state import ModelState


@register
class NullifyCover(Aimed):
    name = "nullify_cover"

    def land(self, ctx: Ctx, m: ModelState, a: Ability, target: ModelState) -> None:
        target.buffs[f"exposed:{m.id}"] = 1
        ctx.emit(
            "ability",
            f"{m.name} uses {a.title}: {target.name} counts as in the open to {m.name}'s shots this turn",
            (m.id, target.id),
        )
