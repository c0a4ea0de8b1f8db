"""Limp (R-C6, R-M3): aimed like a shot — and the model's shot — the target is Limping for `turns`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.engine.effects.abilities.registry import Aimed, register

if TYPE_CHECKING:
    from skirmish.data.armoury import Ability
    from skirmish.engine.core.context import Ctx
    from skirmish.engine.core.state import ModelState


@register
class Limp(Aimed):
    name = "limp"
    counts_as_shot = True

    def land(self, ctx: Ctx, m: ModelState, a: Ability, target: ModelState) -> None:
        s = ctx.state
        turns = int(a.params.get("turns", 1))
        target.limping = True
        # Limping until the end of the target's next turn: cleared at the Move Phase after that.
        s.extra.setdefault("limp_until", {})[target.id] = s.turn + turns
        ctx.emit(
            "ability",
            f"{m.name} uses {a.title}: {target.name} is Limping (half Move, −2 Dodge)",
            (m.id, target.id),
        )
