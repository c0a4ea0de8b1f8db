"""Push (R-C6, R-P4): aimed like a shot — and the model's shot — the target is pushed straight away
from the user by `distance` (stopped by terrain and models), then takes `damage` if any."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from skirmish.battlefield.physics import push
from skirmish.engine.effects.abilities.registry import Aimed, register
from skirmish.engine.effects.damage import inflict

if TYPE_CHECKING:
    from skirmish.data.armoury import Ability
    from skirmish.engine.core.context import Ctx
    from skirmish.engine.core.state import ModelState


@register
class Push(Aimed):
    name = "push"
    counts_as_shot = True

    def land(self, ctx: Ctx, m: ModelState, a: Ability, target: ModelState) -> None:
        s = ctx.state
        ids = (m.id, target.id)
        direction = s.xy[target.index] - s.xy[m.index]
        if float(np.hypot(*direction)) < 1e-9:
            direction = np.array([0.0, 1.0])
        before = s.xy[target.index].copy()
        new_xy = push(
            ctx.table,
            target.index,
            direction,
            float(a.params.get("distance", 3)),
            s.xy,
            s.radii,
            ignore=ctx.gone_mask(),
        )
        s.xy[target.index] = new_xy
        ctx.placed(target.index)
        if ctx.logging:
            moved = float(np.hypot(*(new_xy - before)))
            ctx.emit("ability", f'{m.name} uses {a.title}: {target.name} is pushed {moved:.1f}"', ids)
        damage = int(a.params.get("damage", 0))
        if damage > 0:
            inflict(
                ctx,
                target,
                damage,
                shield_breaker=bool(a.params.get("shield_breaker", False)),
                by=m,
                source=a.title,
            )
