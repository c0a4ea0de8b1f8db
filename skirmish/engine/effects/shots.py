"""A shot (R-C1, R-X1): what a model shoots with, the scores with every modifier named, and the roll —
for weapons, ranged abilities, aimed abilities and reflected attacks alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from skirmish.engine.core.log import score_data
from skirmish.engine.core.state import ModelState, abilities_of, ranged_weapons
from skirmish.engine.effects.damage import inflict
from skirmish.rules.combat import ShotRoll, dodge_score, resolve_shot, shooting_score
from skirmish.rules.modifiers import Modifier, Score

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx


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


def shot_specs(game: Ctx, m: ModelState) -> list[ShotSpec]:
    """The model's ranged weapons and ranged-attack abilities usable this turn (element rules apply)."""
    cache = game.memo.setdefault("shot_specs", {})
    key = (m.id, game.state.turn)
    found = cache.get(key)
    if found is None:
        found = cache[key] = _shot_specs(game, m)
    return found


def cheapest_shot(game: Ctx, m: ModelState) -> float:
    """The least AP any of `shot_specs(game, m)` costs (infinity when it has none), kept as those
    are (per model and turn): "has a shot it can pay for" is `cheapest_shot(game, m) <= m.ap`,
    which the shooting step's option check asks of each shooter after every action."""
    cache: dict[tuple[str, int], float] = game.memo.setdefault("shot_cost", {})
    key = (m.id, game.state.turn)
    cost = cache.get(key)
    if cost is None:
        cost = cache[key] = min((float(sp.ap_cost) for sp in shot_specs(game, m)), default=math.inf)
    return cost


def _shot_specs(game: Ctx, m: ModelState) -> list[ShotSpec]:
    # What a model shoots with never changes during a game; which of it the scenario blocks may.
    every: dict[str, list[ShotSpec]] = game.memo.setdefault("shot_specs_all", {})
    specs = every.get(m.id)
    if specs is None:
        specs = every[m.id] = _all_shot_specs(game, m)
    return [sp for sp in specs if not game.rules.element_blocked(m, sp.element)]


def _all_shot_specs(game: Ctx, m: ModelState) -> list[ShotSpec]:
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
    return specs


def effective_cover(game: Ctx, target: ModelState, shooter: ModelState | None = None) -> int:
    """Cover rank that counts for a shot at `target`: none when its cover has been nullified."""
    if shooter is not None and target.buffs.get(f"exposed:{shooter.id}"):
        return 0
    return game.cover(target)


def shot_scores(game: Ctx, shooter: ModelState, target: ModelState, spec: ShotSpec) -> tuple[Score, Score]:
    """Shooting and Dodge scores before the dice, every modifier named (R-C1, R-X1).

    The scores are a function of a few facts (`shot_scores_each`: the two profiles' stats, the
    covers, higher ground, a friend near, the weapon's bonus, the buffs, the weakness, Limping),
    and a game asks the same facts again and again (the candidates, the bots' odds, the shot
    itself): the game keeps the scores of each set of facts it has seen (`memo["shot_scores"]`),
    keyed on those facts exactly, so the same facts give the same (immutable) scores without
    building them again."""
    return shot_scores_each(game, shooter, (target,), spec)[0]


SCORE_MEMO = 4096
"""Sets of shot facts whose scores a game keeps (cleared when full; a game meets a few dozen)."""


def shot_scores_each(
    game: Ctx, shooter: ModelState, targets: Sequence[ModelState], spec: ShotSpec
) -> list[tuple[Score, Score]]:
    """`[shot_scores(game, shooter, t, spec) for t in targets]`, the shooter's facts read once."""
    memo: dict[tuple[object, ...], tuple[Score, Score]] = game.memo.setdefault("shot_scores", {})
    ranged, s_cover = shooter.profile.ranged, game.cover(shooter)
    s_height, friend = game.height(shooter), game.friend_within(shooter, 5.0)
    ranged_buff = shooter.buffs.get("ranged", 0)
    weakness = game.options.weakness_cycle and spec.element
    out: list[tuple[Score, Score]] = []
    for target in targets:
        weak = None
        if weakness and target.profile.elements and WEAK_TO[target.profile.elements[0].value] == spec.element:
            weak = f"{spec.element} against {target.profile.elements[0].value}"
        # Everything `scores_of_facts` reads, in its argument order.
        facts = (
            ranged,
            target.profile.dodge,
            s_cover,
            effective_cover(game, target, shooter),
            s_height > game.height(target),
            friend,
            spec.title,
            spec.bonus,
            ranged_buff,
            weak,
            target.buffs.get("dodge", 0),
            target.limping,
        )
        found = memo.get(facts)
        if found is None:
            if len(memo) >= SCORE_MEMO:
                memo.clear()
            found = memo[facts] = scores_of_facts(*facts)
        out.append(found)
    return out


def attack_floor(game: Ctx, shooter: ModelState, spec: ShotSpec) -> int:
    """The lowest Shooting score before the die (`base_total`) that `shooter` can have with `spec`
    at any target now (R-C1): its own part of `scores_of_facts` (Ranged, firing from cover, a
    friend within 5", the weapon's bonus, the ranged buff) and the worst a target can add (-2 for
    its cover; higher ground and the weakness add +1 or nothing). Above 0, no target of this
    weapon is an Impossible Shot, so a list of shots need not score them."""
    return (
        shooter.profile.ranged
        + (game.cover(shooter) >= 2)
        + game.friend_within(shooter, 5.0)
        + spec.bonus
        + shooter.buffs.get("ranged", 0)
        - 2
    )


def scores_of_facts(
    ranged: int,
    dodge_stat: int,
    s_cover: int,
    t_cover: int,
    higher: bool,
    friend: bool,
    title: str,
    bonus: int,
    ranged_buff: int,
    weak: str | None,
    dodge_buff: int,
    limping: bool,
) -> tuple[Score, Score]:
    """The Shooting and Dodge scores of one set of shot facts, every modifier named (R-C1, R-X1):
    the rules' own arithmetic, a pure function of its arguments."""
    attack: list[Modifier] = []
    dodge: list[Modifier] = []
    if higher:
        attack.append(Modifier("higher ground", 1))
    if s_cover >= 2:
        attack.append(Modifier("firing from cover", 1))
    if friend:
        attack.append(Modifier('friend within 5"', 1))
    if t_cover == 0:
        attack.append(Modifier("target in the open", 1))
    elif t_cover == 1:
        attack.append(Modifier("target in light cover", -1))
    else:
        attack.append(Modifier("target in " + ("dense" if t_cover == 3 else "medium") + " cover", -2))
    if bonus:
        attack.append(Modifier(title, bonus))
    if ranged_buff:
        attack.append(Modifier("ability bonus", ranged_buff))
    if weak is not None:
        attack.append(Modifier(weak, 1))
    if t_cover >= 2:
        dodge.append(Modifier("in " + ("dense" if t_cover == 3 else "medium") + " cover", 1))
    if s_cover == 0:
        dodge.append(Modifier("shooter in the open", 1))
    if dodge_buff:
        dodge.append(Modifier("ability bonus", dodge_buff))
    if limping:
        dodge.append(Modifier("limping", -2))
    return shooting_score(ranged, attack), dodge_score(dodge_stat, dodge)


def can_fire(game: Ctx, m: ModelState) -> bool:
    """R-C2: a model KO'd in this shooting step but not yet removed still fires (simultaneous fire)."""
    if m.removed or m.fired:
        return False
    if m.ko and m.ko_step != f"{game.state.turn}:shooting":
        return False
    return game.options.shoot_into_melee or not game.in_melee(m)


def firing(game: Ctx, models: Sequence[ModelState]) -> list[ModelState]:
    """`[m for m in models if can_fire(game, m)]`, melee read from the game's table
    (`melee_flags`) rather than asked model by model: the shooting step's option check asks it
    of a player's models after every action."""
    into = game.options.shoot_into_melee
    melee = game.melee_flags()
    now = f"{game.state.turn}:shooting"
    return [
        m
        for m in models
        if not m.removed and not m.fired and (not m.ko or m.ko_step == now) and (into or not melee[m.index])
    ]


def open_target(game: Ctx, shooter: ModelState, target: ModelState) -> bool:
    """`targetable` but for sight (R-C1): an active enemy, not in melee unless the option allows;
    the shooting step's "may anyone fire" asks sight for all such pairs in one batch."""
    return game.enemies(shooter, target) and _free_target(game, target)


def _free_target(game: Ctx, target: ModelState) -> bool:
    """The target's own part of `open_target`: active, and not in melee unless the option allows."""
    return target.active and (game.options.shoot_into_melee or not game.in_melee(target))


def open_targets(game: Ctx, shooters: Sequence[ModelState]) -> list[list[ModelState]]:
    """Per shooter, `[t for t in models if open_target(game, shooter, t)]`: the target's own part
    is asked once per target, not once per shooter and target."""
    models = game.state.models
    act = game.active_flags()  # `_free_target`, read from the game's tables
    if game.options.shoot_into_melee:
        free = [t for t, a in zip(models, act, strict=True) if a]
    else:
        melee = game.melee_flags()
        free = [t for t, a, busy in zip(models, act, melee, strict=True) if a and not busy]
    foes = game.enemy_rows()
    return [[t for t in free if row[t.index]] for row in [foes[m.index] for m in shooters]]


def open_targets_reference(game: Ctx, shooters: Sequence[ModelState]) -> list[list[ModelState]]:
    """`open_targets` one question at a time: what it is held to."""
    return [[t for t in game.state.models if open_target(game, m, t)] for m in shooters]


def targetable(game: Ctx, shooter: ModelState, target: ModelState) -> bool:
    return open_target(game, shooter, target) and game.sees(shooter, target)


def resolve(
    game: Ctx,
    shooter: ModelState,
    target: ModelState,
    spec: ShotSpec,
    scores: tuple[Score, Score] | None = None,
) -> None:
    """Roll the opposed shot and, on a hit, the target's saves. `scores`: the shot's scores when the
    caller has just worked them out on this same state (nothing has changed since)."""
    attack, dodge = scores if scores is not None else shot_scores(game, shooter, target, spec)
    if attack.base_total <= 0:
        game.emit(
            "impossible",
            f"{shooter.name}'s shot at {target.name} became an Impossible Shot",
            (shooter.id, target.id),
        )
        return
    start = len(game.dice.history)
    roll = resolve_shot(game.dice, attack, dodge)
    if game.logging:
        _log_shot(game, shooter, target, spec, roll, dodge, start)
    if roll.hit:
        inflict(game, target, spec.damage, shield_breaker=spec.shield_breaker, by=shooter, source=spec.title)


def _log_shot(
    game: Ctx,
    shooter: ModelState,
    target: ModelState,
    spec: ShotSpec,
    roll: ShotRoll,
    dodge: Score,
    start: int,
) -> None:
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
