"""Bending reactions (R-X2): the answers a target may pay for before the dice of a bending attack roll,
offered as a pending decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.data.armoury import Ability
from skirmish.engine.core.actions import Action, Decline, React
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.core.flow import PendingSpec
from skirmish.engine.core.state import ModelState, Pending, abilities_of
from skirmish.engine.effects.moving import airborne
from skirmish.engine.effects.shots import WEAK_TO, ShotSpec, resolve, shot_specs

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx


REACTIONS = {"reaction_block", "reaction_deflect", "reaction_reflect", "redirect"}


# ----------------------------------------------------------------- reactions (R-X2)
def _power(spec: ShotSpec) -> int:
    """An attack's power for Block (R-X2): its damage, as the ability texts define it."""
    return spec.damage


def reaction_options(game: Ctx, shooter: ModelState, target: ModelState, spec: ShotSpec) -> list[Ability]:
    """Reactions `target` could pay for against this bending attack."""

    if spec.element is None or not target.active:
        return []
    out = []
    weak = WEAK_TO.get(target.profile.elements[0].value) if target.profile.elements else None
    for a in abilities_of(target, game.armoury(target)):
        if (
            a.effect not in REACTIONS
            or a.ap_cost > target.ap
            or target.buffs.get(f"used:{a.name}")
            or game.rules.element_blocked(target, a.element)
        ):
            continue
        if a.effect == "reaction_block":
            if _power(spec) > int(a.params.get("power", 1)):
                continue
            if airborne(shooter) and not airborne(target):
                continue  # airborne attacks are blocked only by airborne defenders
        elif a.effect == "reaction_deflect":
            # The deflecting technique's own element decides its weakness (a waterbender's
            # Water Deflect fails against fire), else the defender's native element.
            own = WEAK_TO.get(str(a.element)) if a.element else weak
            if spec.element == own:
                continue
        elif a.effect == "redirect" and "lightning" not in spec.name:
            continue
        out.append(a)
    return out


def offer_reaction(game: Ctx, shooter: ModelState, target: ModelState, spec: ShotSpec) -> bool:
    """Offer the target's player a reaction before the dice; True when the shot now waits for the answer."""
    if not game.options.bending_reactions or not reaction_options(game, shooter, target, spec):
        return False
    game.state.pending = Pending("reaction", target.player, target.id, shooter.id, {"spec": spec.name})
    game.emit("offer", f"{target.name} may react to {shooter.name}'s {spec.title}", (target.id, shooter.id))
    return True


def _pending_spec(game: Ctx) -> tuple[ModelState, ModelState, ShotSpec]:

    p = game.state.pending
    assert p is not None and p.kind == "reaction"
    target, shooter = game.model(p.model), game.model(p.target)
    spec = next(sp for sp in shot_specs(game, shooter) if sp.name == p.data["spec"])
    return shooter, target, spec


def pending_actions(game: Ctx) -> list[Action]:
    shooter, target, spec = _pending_spec(game)
    return [*(React(target.id, a.name) for a in reaction_options(game, shooter, target, spec)), Decline()]


def do_react(game: Ctx, action: React) -> None:

    p = game.state.pending
    if p is None or p.kind != "reaction":
        raise IllegalAction("R-X2", "no attack is waiting for a reaction")
    shooter, target, spec = _pending_spec(game)
    if action.model != target.id:
        raise IllegalAction("R-X2", f"only {target.name} may react")
    a = next((x for x in reaction_options(game, shooter, target, spec) if x.name == action.ability), None)
    if a is None:
        raise IllegalAction("R-X2", f"{target.name} cannot use `{action.ability}` against {spec.title}")
    game.state.pending = None
    target.ap -= a.ap_cost
    target.buffs[f"used:{a.name}"] = 1
    ids = (target.id, shooter.id)
    if a.effect in ("reaction_block", "reaction_deflect"):
        verb = "blocks" if a.effect == "reaction_block" else "deflects"
        game.emit("reaction", f"{target.name} {verb} {shooter.name}'s {spec.title} with {a.title}", ids)
        return
    game.emit("reaction", f"{target.name} turns {shooter.name}'s {spec.title} back with {a.title}", ids)
    resolve(game, target, shooter, spec)


def do_decline(game: Ctx, action: Decline) -> None:
    """The target lets the bending attack come: it resolves now."""
    shooter, target, spec = _pending_spec(game)
    game.state.pending = None
    game.emit("decline", f"{target.name} does not react", (target.id,))
    resolve(game, shooter, target, spec)


PENDING: tuple[PendingSpec, ...] = (
    PendingSpec(
        "reaction",
        frozenset({"React", "Decline"}),
        generate=pending_actions,
        decline=do_decline,
        handlers={"React": do_react},
    ),
)
"""A bending attack waiting for its target's answer (R-X2)."""
