"""Abilities (R-P4) and bending reactions (R-X2), resolved by a small set of generic effects.

Ability data names an `effect`; this module implements each effect once, so a new ability in a
troupe file needs no code. Each ability may be used once per turn by each model, in the step its
`timing` names, and costs its AP.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import shapely

from skirmish.battlefield.measure import CONTACT
from skirmish.battlefield.physics import push
from skirmish.data.armoury import Ability
from skirmish.data.scenario import Cover, Terrain
from skirmish.engine.core.actions import UseAbility
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.core.state import ModelState, abilities_of
from skirmish.engine.effects.damage import heal, inflict
from skirmish.engine.effects.senses import finds_hidden
from skirmish.engine.effects.shots import can_fire

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx

TIMING_STEP = {
    "move": "movement",
    "take_cover": "take_cover",
    "shooting": "shooting",
    "charges": "charges",
    "melee": "charges",
    "end": "advances",
}
"""The step in which an ability of each timing is used (melee abilities just before the melee is fought)."""

ACTIVE_EFFECTS = {"heal", "wall", "push", "glide", "chi_block", "nullify_cover", "buff", "limp"}
AIMED = ("push", "nullify_cover", "limp")
"""Abilities aimed at an enemy like a shot (R-C1, R-C6): a visible target, declared before measuring
(wasted when out of range unless `premeasure`), a Perception test against a model Taking Cover."""
SHOTS = ("push", "limp")
"""Aimed abilities that are the model's one shot of the Combat Phase when used in the shooting step.
Nullifying cover is not: it only serves the model's own shot (ruling in docs/rules.md, R-C6)."""


def _usable(game: Ctx, m: ModelState, a: Ability) -> bool:
    if a.effect not in ACTIVE_EFFECTS or TIMING_STEP.get(a.timing.value) != game.state.step:
        return False
    if game.rules.element_blocked(m, a.element):
        return False
    if m.ap < a.ap_cost or m.buffs.get(f"used:{a.name}"):
        return False
    if game.state.step == "shooting" and a.effect in AIMED:
        # R-C2 simultaneous fire: a model KO'd earlier in this shooting step still uses a ranged
        # ability, as it still fires its bow; one not yet fired (R-C6), not locked in melee.
        return can_fire(game, m)
    if not m.active:
        return False
    if a.effect == "glide":
        return not m.moved and not m.taking_cover and not game.in_melee(m)
    return True


def _range(a: Ability, default: float) -> float:
    return float(a.range) if a.range is not None else default


def reach(a: Ability) -> float:
    """The range of an aimed ability (6" when its data names none)."""
    return _range(a, 6.0)


def _targets(game: Ctx, m: ModelState, a: Ability, *, measured: bool = True) -> list[ModelState]:
    """Who `a` may be used on now. `measured=False` leaves out the premeasured range of aimed abilities."""
    s = game.state
    if a.effect == "heal":
        return [
            t
            for t in s.models
            if t.active
            and not game.enemies(m, t)
            and t.hp < t.profile.hp
            and (t is m or game.distance(m, t) <= _range(a, 2.0))
        ]
    if a.effect in AIMED:
        # Aimed like a shot: a visible enemy, not one locked in melee unless the option allows (R-C6).
        # The range is not known before declaring (R-C1) unless premeasuring is on.
        premeasure = game.options.premeasure and measured
        return [
            t
            for t in s.models
            if t.active
            and game.enemies(m, t)
            and game.sees(m, t)
            and (not premeasure or game.distance(m, t) <= _range(a, 6.0))
            and (game.options.shoot_into_melee or not game.in_melee(t))
        ]
    if a.effect == "chi_block":
        return [
            t
            for t in s.models
            if t.active and game.enemies(m, t) and game.distance(m, t) <= _range(a, CONTACT)
        ]
    return []


def _wall_point(game: Ctx, m: ModelState, a: Ability) -> tuple[float, float] | None:
    """A useful place for a wall: between the model and its nearest enemy, within range."""
    s = game.state
    foes = [t for t in s.models if t.active and game.enemies(m, t)]
    if not foes:
        return None
    here = s.xy[m.index]
    t = min(foes, key=lambda f: float(np.hypot(*(s.xy[f.index] - here))))
    d = s.xy[t.index] - here
    n = float(np.hypot(*d))
    if n < 1e-9:
        return None
    reach = min(_range(a, 6.0), max(1.5, n / 2))
    p = here + d / n * reach
    return (float(p[0]), float(p[1]))


def candidates(game: Ctx, player: int) -> list[UseAbility]:
    out: list[UseAbility] = []
    for m in game.player_models(player):
        for a in abilities_of(m, game.armoury(m)):
            if not _usable(game, m, a):
                continue
            if a.effect in ("heal", "chi_block", *AIMED):
                out.extend(UseAbility(m.id, a.name, target=t.id) for t in _targets(game, m, a))
            elif a.effect == "wall":
                at = _wall_point(game, m, a)
                if at is not None and _wall_problem(game, m, a, at) is None:
                    out.append(UseAbility(m.id, a.name, at=at))
            else:
                out.append(UseAbility(m.id, a.name))
    return out


def has_options(game: Ctx, player: int) -> bool:
    return bool(candidates(game, player))


def _wall_piece(
    game: Ctx, m: ModelState, a: Ability, at: tuple[float, float]
) -> tuple[Terrain, shapely.Polygon]:
    s = game.state
    length, width = float(a.params.get("length", 4)), float(a.params.get("width", 1))
    d = np.asarray(at) - s.xy[m.index]
    angle = math.atan2(d[1], d[0]) + math.pi / 2 if np.hypot(*d) > 1e-9 else 0.0
    ux, uy = math.cos(angle), math.sin(angle)
    vx, vy = -uy, ux
    hl, hw = length / 2, width / 2
    pts = [
        (at[0] + sx * hl * ux + sy * hw * vx, at[1] + sx * hl * uy + sy * hw * vy)
        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    ]
    pts = [(round(x, 6), round(y, 6)) for x, y in pts]
    n = len(game.state.terrain_added)
    terrain = Terrain(
        name=f"{a.name}_{n + 1}",
        polygon=[list(p) for p in pts],
        cover=Cover.none,
        blocks_sight=True,
        impassable=True,
    )
    return terrain, shapely.Polygon(pts)


def _wall_problem(game: Ctx, m: ModelState, a: Ability, at: tuple[float, float]) -> str | None:
    s = game.state
    if not all(math.isfinite(v) for v in at):
        return "the point must be finite"
    if float(np.hypot(at[0] - s.xy[m.index, 0], at[1] - s.xy[m.index, 1])) - s.radii[m.index] > _range(
        a, 6.0
    ):
        return f'the wall must rise within {_range(a, 6.0):g}" of {m.name}'
    terrain, poly = _wall_piece(game, m, a, at)
    minx, miny, maxx, maxy = poly.bounds
    if minx < 0 or miny < 0 or maxx > game.scenario.board.width or maxy > game.scenario.board.height:
        return "the wall must stand on the table"
    dist = np.asarray(shapely.distance(poly, shapely.points(s.xy)))
    for o in s.models:
        if o.on_table and dist[o.index] < s.radii[o.index]:
            return f"the wall would land on {o.name}"
    return None


def _simultaneous_fire(game: Ctx, m: ModelState) -> bool:
    """R-C2: in the shooting step a model KO'd earlier in this step still fires (and aims abilities)."""
    return game.state.step == "shooting" and can_fire(game, m)


def _aim(game: Ctx, m: ModelState, a: Ability, target: ModelState) -> bool:
    """An aimed ability, declared and paid: measure now (R-C1), then the Perception test (R-M4, R-M5).

    False when it is spent without effect: the target proved out of range (only possible without
    `premeasure`, which refuses such a target first) or the test failed. The order is that of a
    shot (`shooting.do_shoot`), so the two never disagree on which die is rolled when.
    """
    ids = (m.id, target.id)
    distance, reach = game.distance(m, target), _range(a, 6.0)
    if distance > reach:
        game.emit(
            "shot_wasted",
            f'{m.name} uses {a.title} on {target.name}: {distance:.1f}" is beyond its {reach:g}" '
            "— the ability is wasted",
            ids,
        )
        return False
    return finds_hidden(game, m, target, f"use {a.title} on {target.name}", "the ability is spent")


def do_use(game: Ctx, action: UseAbility) -> None:
    s = game.state
    m = game.model(action.model, rule="R-P4")
    if m.player != s.active_player:
        raise IllegalAction("R-P4", f"{m.name} belongs to another player")
    a = next((x for x in abilities_of(m, game.armoury(m)) if x.name == action.ability), None)
    if not m.active and not (a is not None and a.effect in AIMED and _simultaneous_fire(game, m)):
        raise IllegalAction("R-P5", f"{m.name} is KO'd")
    if a is None:
        raise IllegalAction("R-P4", f"{m.name} has no ability `{action.ability}`")
    if a.effect == "ranged_attack":
        raise IllegalAction("R-C1", f"{a.title} is a ranged attack: declare it with Shoot")
    if a.effect not in ACTIVE_EFFECTS:
        how = {
            "passive": "it is always in effect",
            "reaction": "it is offered as a reaction when the model is attacked",
            "distraction": "use Disengage in the End Phase",
            "sense": "it is always in effect",
        }.get(a.effect if a.effect in ("distraction", "sense") else a.timing.value, "it is not an action")
        raise IllegalAction("R-P4", f"{a.title} is not used on its own: {how}")
    step = TIMING_STEP.get(a.timing.value)
    if step != s.step:
        when = game.step_title(step) if step is not None else a.timing.value
        raise IllegalAction("R-P4", f"{a.title} is used in the {when} step, not now")
    if m.ap < a.ap_cost:
        raise IllegalAction("R-P4", f"{a.title} costs {a.ap_cost} AP; {m.name} has {m.ap}")
    if m.buffs.get(f"used:{a.name}"):
        raise IllegalAction("R-P4", f"{m.name} has already used {a.title} this turn")
    if not _usable(game, m, a):
        raise IllegalAction("R-P4", f"{m.name} cannot use {a.title} now")
    target = None
    if a.effect in ("heal", "chi_block", *AIMED):
        if action.target is None:
            raise IllegalAction("R-P4", f"{a.title} needs a target model")
        target = game.model(action.target, rule="R-P4")
        if target not in _targets(game, m, a):
            if a.effect in AIMED and target in _targets(game, m, a, measured=False):
                distance = game.distance(m, target)  # premeasuring is on: the range is known first
                raise IllegalAction(
                    "R-C1", f'{target.name} is {distance:.1f}" away, beyond {a.title}\'s {_range(a, 6.0):g}"'
                )
            why = "sight, side, melee" if a.effect in AIMED else f'range {_range(a, 0):g}", sight, side'
            raise IllegalAction("R-P4", f"{target.name} is not a valid target of {a.title} ({why})")
    if a.effect == "wall":
        if action.at is None:
            raise IllegalAction("R-P4", f"{a.title} needs a point")
        problem = _wall_problem(game, m, a, action.at)
        if problem:
            raise IllegalAction("R-P4", problem)
    # Validated: pay and resolve.
    m.ap -= a.ap_cost
    m.buffs[f"used:{a.name}"] = 1
    ids = (m.id,) if target is None else (m.id, target.id)
    if a.effect in AIMED:
        assert target is not None
        if s.step == "shooting" and a.effect in SHOTS:
            m.fired = True  # a ranged ability is the model's one shot this phase (R-C6)
        if not _aim(game, m, a, target):
            return
    if a.effect == "heal":
        assert target is not None
        got = heal(game, target, int(a.params.get("amount", 1)))
        game.emit("ability", f"{m.name} uses {a.title}: {target.name} regains {got} HP", ids)
    elif a.effect == "nullify_cover":
        assert target is not None
        target.buffs[f"exposed:{m.id}"] = 1
        game.emit(
            "ability",
            f"{m.name} uses {a.title}: {target.name} counts as in the open to {m.name}'s shots this turn",
            ids,
        )
    elif a.effect == "limp":
        assert target is not None
        turns = int(a.params.get("turns", 1))
        target.limping = True
        # Limping until the end of the target's next turn: cleared at the Move Phase after that.
        s.extra.setdefault("limp_until", {})[target.id] = s.turn + turns
        game.emit("ability", f"{m.name} uses {a.title}: {target.name} is Limping (half Move, −2 Dodge)", ids)
    elif a.effect == "chi_block":
        assert target is not None
        target.chi_blocked = 1
        game.emit("ability", f"{m.name} uses {a.title}: {target.name} can spend no AP next turn", ids)
    elif a.effect == "glide":
        m.glide = True
        m.buffs["move"] = m.buffs.get("move", 0) + int(a.params.get("bonus_move", 0))
        game.moved()
        game.emit(
            "ability", f'{m.name} uses {a.title}: flies this move (+{a.params.get("bonus_move", 0)}")', ids
        )
    elif a.effect == "buff":
        stat, amount = str(a.params.get("stat", "combat")), int(a.params.get("amount", 1))
        rng = _range(a, 0.0)
        buffed = [
            t
            for t in s.models
            if t.active and not game.enemies(m, t) and (t is m or game.distance(m, t) <= rng)
        ]
        for t in buffed:
            t.buffs[stat] = t.buffs.get(stat, 0) + amount
        game.emit(
            "ability",
            f"{m.name} uses {a.title}: +{amount} {stat} this turn for " + ", ".join(t.name for t in buffed),
            tuple(t.id for t in buffed),
        )
    elif a.effect == "wall":
        assert action.at is not None
        terrain, _ = _wall_piece(game, m, a, action.at)
        game.add_terrain(game.table.with_piece(terrain))
        s.terrain_added.append(terrain.model_dump(mode="json"))
        game.emit("ability", f"{m.name} raises {a.title} at ({action.at[0]:.1f}, {action.at[1]:.1f})", ids)
    elif a.effect == "push":
        assert target is not None
        direction = s.xy[target.index] - s.xy[m.index]
        if float(np.hypot(*direction)) < 1e-9:
            direction = np.array([0.0, 1.0])
        before = s.xy[target.index].copy()
        new_xy = push(
            game.table,
            target.index,
            direction,
            float(a.params.get("distance", 3)),
            s.xy,
            s.radii,
            ignore=game.gone_mask(),
        )
        s.xy[target.index] = new_xy
        game.moved()
        moved = float(np.hypot(*(new_xy - before)))
        game.emit("ability", f'{m.name} uses {a.title}: {target.name} is pushed {moved:.1f}"', ids)
        damage = int(a.params.get("damage", 0))
        if damage > 0:
            inflict(
                game,
                target,
                damage,
                shield_breaker=bool(a.params.get("shield_breaker", False)),
                by=m,
                source=a.title,
            )
