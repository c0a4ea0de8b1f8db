"""Ranged combat (R-C1), simultaneous fire and removal of ranged casualties (R-C2), R-C6."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from skirmish.engine.core.actions import Action, Shoot
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.core.log import score_data
from skirmish.engine.core.state import ModelState, abilities_of, ranged_weapons
from skirmish.engine.damage import inflict
from skirmish.rules.combat import dodge_score, perception_test, resolve_shot, shooting_score
from skirmish.rules.modifiers import Modifier, Score

if TYPE_CHECKING:
    from skirmish.engine.game import Game

WEAK_TO = {"fire": "water", "water": "fire", "earth": "air", "air": "earth"}
"""R-X1: the element each element is weak to."""


@dataclass(frozen=True)
class ShotSpec:
    """What a model shoots with: a ranged weapon, or an ability whose effect is a ranged attack."""

    name: str
    title: str
    range: float
    damage: int
    shield_breaker: bool
    bonus: int
    element: str | None
    ap_cost: int
    ability: bool


def shot_specs(game: Game, m: ModelState) -> list[ShotSpec]:
    """The model's ranged weapons and ranged-attack abilities usable this turn (element rules apply)."""
    cache = game.__dict__.setdefault("_shot_specs", {})
    key = (m.id, game.state.turn)
    found = cache.get(key)
    if found is None:
        found = cache[key] = _shot_specs(game, m)
    return found


def _shot_specs(game: Game, m: ModelState) -> list[ShotSpec]:
    specs = [
        ShotSpec(w.name, w.title, float(w.range or 0), w.damage, w.shield_breaker, 0, w.element, 0, False)
        for w in ranged_weapons(m, game.armoury(m))
    ]
    for a in abilities_of(m, game.armoury(m)):
        if a.effect == "ranged_attack" and a.timing.value == "shooting":
            p = a.params
            specs.append(
                ShotSpec(
                    a.name,
                    a.title,
                    float(a.range or 0),
                    int(p.get("damage", 1)),
                    bool(p.get("shield_breaker", False)),
                    int(p.get("bonus", 0)),
                    str(p.get("element", a.element)) if (p.get("element") or a.element) else None,
                    a.ap_cost,
                    True,
                )
            )
    return [sp for sp in specs if not game.rules.element_blocked(m, sp.element)]


def begin_shooting(game: Game) -> None:
    for m in game.state.models:
        m.fired = False


def effective_cover(game: Game, target: ModelState, shooter: ModelState | None = None) -> int:
    """Cover rank that counts for a shot at `target`: none when its cover has been nullified."""
    if shooter is not None and target.buffs.get(f"exposed:{shooter.id}"):
        return 0
    return game.cover(target)


def shot_scores(game: Game, shooter: ModelState, target: ModelState, spec: ShotSpec) -> tuple[Score, Score]:
    """Shooting and Dodge scores before the dice, every modifier named (R-C1, R-X1)."""
    attack: list[Modifier] = []
    dodge: list[Modifier] = []
    s_cover, t_cover = game.cover(shooter), effective_cover(game, target, shooter)
    if game.height(shooter) > game.height(target):
        attack.append(Modifier("higher ground", 1))
    if s_cover >= 2:
        attack.append(Modifier("firing from cover", 1))
    if game.friend_within(shooter, 5.0):
        attack.append(Modifier('friend within 5"', 1))
    if t_cover == 0:
        attack.append(Modifier("target in the open", 1))
    elif t_cover == 1:
        attack.append(Modifier("target in light cover", -1))
    else:
        attack.append(Modifier("target in " + ("dense" if t_cover == 3 else "medium") + " cover", -2))
    if spec.bonus:
        attack.append(Modifier(spec.title, spec.bonus))
    if shooter.buffs.get("ranged"):
        attack.append(Modifier("ability bonus", shooter.buffs["ranged"]))
    if (
        game.options.weakness_cycle
        and spec.element
        and target.profile.elements
        and WEAK_TO[target.profile.elements[0].value] == spec.element
    ):
        attack.append(Modifier(f"{spec.element} against {target.profile.elements[0].value}", 1))
    if t_cover >= 2:
        dodge.append(Modifier("in " + ("dense" if t_cover == 3 else "medium") + " cover", 1))
    if s_cover == 0:
        dodge.append(Modifier("shooter in the open", 1))
    if target.buffs.get("dodge"):
        dodge.append(Modifier("ability bonus", target.buffs["dodge"]))
    if target.limping:
        dodge.append(Modifier("limping", -2))
    return shooting_score(shooter.profile.ranged, attack), dodge_score(target.profile.dodge, dodge)


def can_fire(game: Game, m: ModelState) -> bool:
    """R-C2: a model KO'd in this shooting step but not yet removed still fires (simultaneous fire)."""
    if m.removed or m.fired:
        return False
    if m.ko and m.ko_step != f"{game.state.turn}:shooting":
        return False
    return game.options.shoot_into_melee or not game.in_melee(m)


def targetable(game: Game, shooter: ModelState, target: ModelState) -> bool:
    return (
        target.active
        and game.enemies(shooter, target)
        and (game.options.shoot_into_melee or not game.in_melee(target))
        and game.sees(shooter, target)
    )


def has_options(game: Game, player: int) -> bool:
    for m in game.player_models(player):
        if can_fire(game, m):
            specs = [sp for sp in shot_specs(game, m) if sp.ap_cost <= m.ap]
            if specs and any(targetable(game, m, t) for t in game.state.models):
                return True
    return False


def candidates(game: Game, player: int) -> list[Action]:
    out: list[Action] = []
    premeasure = game.options.premeasure
    for m in game.player_models(player):
        if not can_fire(game, m):
            continue
        for spec in shot_specs(game, m):
            if spec.ap_cost > m.ap:
                continue
            for t in game.state.models:
                if not targetable(game, m, t):
                    continue
                if premeasure and game.distance(m, t) > spec.range:
                    continue
                attack, _ = shot_scores(game, m, t, spec)
                if attack.base_total > 0:
                    out.append(Shoot(m.id, t.id, spec.name))
    return out


def _blocked_element(game: Game, m: ModelState, name: str) -> bool:
    """Whether `name` is one of the model's ranged attacks that the scenario forbids bending now."""
    arm = game.armoury(m)
    item: object = arm.weapon_by_name().get(name) if name in m.profile.weapons else None
    if item is None and name in m.profile.abilities:
        item = arm.ability_by_name().get(name)
    element = getattr(item, "element", None)
    return element is not None and game.rules.element_blocked(m, str(element))


def do_shoot(game: Game, action: Shoot) -> None:
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
    from skirmish.engine import abilities

    if abilities.offer_reaction(game, shooter, target, spec):
        return
    resolve(game, shooter, target, spec)


def finds_hidden(
    game: Game, m: ModelState, target: ModelState, doing: str, lost: str, *, shot: bool = False
) -> bool:
    """R-M4, R-M5: the Perception test before shooting at, aiming an ability at or charging a model
    Taking Cover; True when `m` may go on (no test needed, or passed). The one place it is rolled
    and logged, so shots, aimed abilities and charges test alike. `shot`: a nullified cover counts."""
    if not target.taking_cover or (spotted if shot else sees_hidden)(game, m, target):
        return True
    start = len(game.dice.history)
    passed, roll = perception_test(game.dice, m.profile.perception)
    game.emit(
        "perception",
        f"{m.name} tests Perception to {doing} (Taking Cover): rolls {roll} vs {m.profile.perception}, "
        + ("passes" if passed else f"fails — {lost}"),
        (m.id, target.id),
        rolls_from=start,
        roll=roll,
        need=m.profile.perception,
        passed=passed,
    )
    return passed


def spotted(game: Game, shooter: ModelState, target: ModelState) -> bool:
    """No Perception test for this shot: Seismic Sense, or the shooter nullified the target's cover
    this turn (its ability already took the test, or needed none: ruling R-C6 in docs/rules.md)."""
    return bool(target.buffs.get(f"exposed:{shooter.id}")) or sees_hidden(game, shooter, target)


def sees_hidden(game: Game, shooter: ModelState, target: ModelState) -> bool:
    """Seismic Sense: no Perception test against a model Taking Cover within its range."""
    from skirmish.engine import abilities

    rng = abilities.sense_range(game, shooter)
    return rng > 0 and game.distance(shooter, target) <= rng


def resolve(game: Game, shooter: ModelState, target: ModelState, spec: ShotSpec) -> None:
    """Roll the opposed shot and, on a hit, the target's saves."""
    attack, dodge = shot_scores(game, shooter, target, spec)
    if attack.base_total <= 0:
        game.emit(
            "impossible",
            f"{shooter.name}'s shot at {target.name} became an Impossible Shot",
            (shooter.id, target.id),
        )
        return
    start = len(game.dice.history)
    roll = resolve_shot(game.dice, attack, dodge)
    if roll.auto_hit:
        text = (
            f"{shooter.name} fires {spec.title}: {roll.attack.explain()}; {target.name} cannot dodge "
            f"({dodge.explain()}) — hit"
        )
    else:
        text = (
            f"{shooter.name} fires {spec.title}: {roll.attack.explain()} vs {target.name} dodges "
            f"{roll.dodge.explain()} — {'hit' if roll.hit else 'dodged'}"
        )
    game.emit(
        "shot",
        text,
        (shooter.id, target.id),
        rolls_from=start,
        weapon=spec.name,
        attack=score_data(roll.attack),
        dodge=score_data(roll.dodge),
        hit=roll.hit,
        auto_hit=roll.auto_hit,
    )
    if roll.hit:
        inflict(game, target, spec.damage, shield_breaker=spec.shield_breaker, by=shooter, source=spec.title)


def remove_casualties(game: Game) -> None:
    """R-C2 / R-C5: models KO'd so far leave the table now."""
    gone = [m for m in game.state.models if m.ko and not m.removed]
    for m in gone:
        m.removed = True
    if gone:
        game.moved()
        game.emit(
            "removed", "Removed as casualties: " + ", ".join(m.name for m in gone), tuple(m.id for m in gone)
        )
