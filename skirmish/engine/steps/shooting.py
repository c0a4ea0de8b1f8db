"""Ranged combat (R-C1), simultaneous fire and removal of ranged casualties (R-C2), R-C6."""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.engine.core.actions import Action, Shoot
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.core.flow import Step, StepSpec, step
from skirmish.engine.core.state import ModelState
from skirmish.engine.effects.damage import remove_casualties
from skirmish.engine.effects.reactions import offer_reaction
from skirmish.engine.effects.senses import finds_hidden
from skirmish.engine.effects.shots import (
    ShotSpec,
    attack_floor,
    can_fire,
    cheapest_shot,
    firing,
    open_targets,
    resolve,
    shot_scores,
    shot_scores_each,
    shot_specs,
)

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx


def begin_shooting(game: Ctx) -> None:
    for m in game.state.models:
        m.fired = False


def has_options(game: Ctx, player: int) -> bool:
    """Some model may fire: it can, has a shot it can pay for, and sees a target (one sight batch)."""
    shooters = [m for m in firing(game, game.player_models(player)) if cheapest_shot(game, m) <= m.ap]
    if not shooters:
        return False
    # `targetable`, with sight asked for every pair in one batch (R-C1, R-C6).
    targets = open_targets(game, shooters)
    return game.sees_any_of(shooters, targets)


def candidates(game: Ctx, player: int) -> list[Action]:
    """Every Shoot the player may declare (R-C1, R-C6, R-P4): by shooter, weapon, then target.

    Who may be targeted does not depend on the weapon, so each shooter's targets are found once;
    sight for every (shooter, open target) pair is asked in one batch (`sees_each`); a shot is
    listed when its attack score before the die is above 0 (no Impossible Shot), which needs no
    scores for a weapon whose lowest possible score is above 0 (`attack_floor`: in
    four_kingdoms_melee a random game lists some 60 shots at each of its 110 shooting decisions)."""
    out: list[Action] = []
    premeasure = game.options.premeasure
    shooters: list[ModelState] = []
    weapons: list[list[ShotSpec]] = []
    for m in firing(game, game.player_models(player)):
        specs = [spec for spec in shot_specs(game, m) if spec.ap_cost <= m.ap]
        if specs:
            shooters.append(m)
            weapons.append(specs)
    targets = open_targets(game, shooters)
    seen = iter(game.sees_each([(m, t) for m, ts in zip(shooters, targets, strict=True) for t in ts]))
    for m, specs, ts in zip(shooters, weapons, targets, strict=True):
        visible = [t for t in ts if next(seen)]
        for spec in specs:
            pool = [t for t in visible if not premeasure or game.distance(m, t) <= spec.range]
            if attack_floor(game, m, spec) > 0:
                out.extend(Shoot(m.id, t.id, spec.name) for t in pool)
                continue
            for t, (attack, _) in zip(pool, shot_scores_each(game, m, pool, spec), strict=True):
                if attack.base_total > 0:
                    out.append(Shoot(m.id, t.id, spec.name))
    return out


def _blocked_element(game: Ctx, m: ModelState, name: str) -> bool:
    """Whether `name` is one of the model's ranged attacks that the scenario forbids bending now."""
    arm = game.armoury(m)
    item: object = arm.weapon_by_name().get(name) if name in m.profile.weapons else None
    if item is None and name in m.profile.abilities:
        item = arm.ability_by_name().get(name)
    element = getattr(item, "element", None)
    return element is not None and game.rules.element_blocked(m, str(element))


def do_shoot(game: Ctx, action: Shoot) -> None:
    s = game.state
    shooter = game.model(action.model, rule="R-C1")
    if shooter.player != s.active_player:
        raise IllegalAction("R-C1", f"{shooter.name} belongs to another player")
    if shooter.removed:
        raise IllegalAction("R-C2", f"{shooter.name} has been removed as a casualty")
    if shooter.fired:
        raise IllegalAction("R-C6", f"{shooter.name} has already fired this Combat Phase")
    if not game.options.shoot_into_melee and game.in_melee(shooter):
        raise IllegalAction("R-C6", f"{shooter.name} is in melee and cannot shoot")
    spec = next((sp for sp in shot_specs(game, shooter) if sp.name == action.weapon), None)
    if spec is None and _blocked_element(game, shooter, action.weapon):
        raise IllegalAction(
            "R-P4", f"{shooter.name} cannot use `{action.weapon}` now (its element cannot be bent this turn)"
        )
    if spec is None:
        raise IllegalAction(
            "R-P3", f"{shooter.name} has no ranged weapon or ranged ability `{action.weapon}`"
        )
    if spec.ap_cost > shooter.ap:
        raise IllegalAction("R-P4", f"{spec.title} costs {spec.ap_cost} AP; {shooter.name} has {shooter.ap}")
    target = game.model(action.target, rule="R-C1")
    if not game.enemies(shooter, target):
        raise IllegalAction("R-C1", f"{target.name} is not an enemy")
    if not target.active:
        raise IllegalAction("R-C2", f"{target.name} is KO'd and can no longer be targeted")
    if not game.options.shoot_into_melee and game.in_melee(target):
        raise IllegalAction("R-C6", f"{target.name} is in melee and cannot be shot at")
    if not game.sees(shooter, target):
        raise IllegalAction("R-B3", f"{shooter.name} cannot see {target.name}")
    attack, dodge = shot_scores(game, shooter, target, spec)
    if attack.base_total <= 0:
        raise IllegalAction("R-C1", f"Impossible Shot: {attack.explain()} is not above 0")
    distance = game.distance(shooter, target)
    if game.options.premeasure and distance > spec.range:
        raise IllegalAction(
            "R-C1", f'{target.name} is {distance:.1f}" away, beyond {spec.title}\'s {spec.range:g}"'
        )
    # Declared: from here on the shot is spent whatever happens.
    shooter.fired = True
    shooter.ap -= spec.ap_cost
    ids = (shooter.id, target.id)
    if distance > spec.range:
        game.emit(
            "shot_wasted",
            f'{shooter.name} fires {spec.title} at {target.name}: {distance:.1f}" is beyond '
            f'its {spec.range:g}" — the shot is wasted',
            ids,
            weapon=spec.name,
            distance=distance,
            range=spec.range,
        )
        return
    if not finds_hidden(game, shooter, target, f"fire at {target.name}", "the shot is lost", shot=True):
        return
    if offer_reaction(game, shooter, target, spec):
        return
    # Nothing the scores read has changed since they were worked out above: the Perception test
    # only rolls, and no reaction was offered.
    resolve(game, shooter, target, spec, (attack, dodge))


def _skip_shooting(game: Ctx, player: int) -> str:
    mine = [m for m in game.player_models(player) if m.active]
    ready = [m for m in mine if can_fire(game, m) and shot_specs(game, m)]
    if not ready:
        return "no model can shoot (fired, in melee or no ranged attack)"
    if not any(game.sees(m, t) and game.enemies(m, t) and t.active for m in ready for t in game.state.models):
        return "no one in sight"
    return "no target to shoot at (AP too low or targets in melee)"


STEPS: tuple[StepSpec, ...] = (
    step(
        Step.SHOOTING,
        "combat",
        "Projectiles and ranged combat",
        "R-C1",
        "Shoot",
        "UseAbility",
        begin=begin_shooting,
        generate=candidates,
        has_options=has_options,
        handlers={"Shoot": do_shoot},
        skip_words="shooting",
        skip_reason=_skip_shooting,
    ),
    step(Step.RANGED_CASUALTIES, "combat", "Removal of ranged casualties", "R-C2", begin=remove_casualties),
)
"""Ranged combat and the removal of its casualties (R-C1, R-C2)."""
