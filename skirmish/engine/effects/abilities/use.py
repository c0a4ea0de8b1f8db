"""Using an ability (R-P4): what every ability shares — when it may be used, the checks and their
order, paying — with the effect itself looked up by name in the registry.

Ability data names an `effect`; each effect is implemented once, in its own file, so a new ability
in a troupe file needs no code. Each ability may be used once per turn by each model, in the step
its `timing` names, and costs its AP. Reactions (R-X2) are not used on their own: they are offered
when a model is attacked (`effects.reactions`).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from skirmish.engine.core.actions import UseAbility
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.core.state import ModelState, abilities_of
from skirmish.engine.effects.abilities.registry import EFFECTS, Effect, ability_range
from skirmish.engine.effects.shots import can_fire

if TYPE_CHECKING:
    from skirmish.data.armoury import Ability
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


def _usable(ctx: Ctx, m: ModelState, a: Ability) -> bool:
    effect = EFFECTS.get(a.effect)
    if effect is None or TIMING_STEP.get(a.timing.value) != ctx.state.step:
        return False
    return _usable_now(ctx, m, a, effect, f"used:{a.name}")


def _usable_now(ctx: Ctx, m: ModelState, a: Ability, effect: Effect, used: str) -> bool:
    """`_usable` for an ability already known to be an action of the current step (`used` is the
    buff that marks it used this turn)."""
    if ctx.rules.element_blocked(m, a.element):
        return False
    if m.ap < a.ap_cost or m.buffs.get(used):
        return False
    return effect.usable(ctx, m, a)


_StepAbilities = list[tuple["Ability", Effect, str]]
"""A model's abilities used in one step: each with its effect and the buff that marks it used."""


def _actions_now(ctx: Ctx, m: ModelState) -> _StepAbilities:
    """The model's abilities that are actions of the current step, with their effects and used
    buffs: a model's abilities never change during a game, so each step's list is made once (the
    phase machine asks after every action; callers only read it)."""
    cache: dict[str, dict[str, _StepAbilities]] = ctx.memo.setdefault("ability_steps", {})
    by_step = cache.get(m.id)
    if by_step is None:
        by_step = cache[m.id] = {}
        for a in abilities_of(m, ctx.armoury(m)):
            effect, when = EFFECTS.get(a.effect), TIMING_STEP.get(a.timing.value)
            if effect is not None and when is not None:
                by_step.setdefault(when, []).append((a, effect, f"used:{a.name}"))
    return by_step.get(ctx.state.step, [])


def candidates(ctx: Ctx, player: int, effects: Collection[str] | None = None) -> list[UseAbility]:
    """The player's ability uses now, model by model in armoury order; with `effects`, only the
    abilities with one of those effects (the others' uses, an Earth Wall's points among them, are
    never worked out: a bot that uses only some effects asks this)."""
    out: list[UseAbility] = []
    for m in ctx.player_models(player):
        for a, effect, used in _actions_now(ctx, m):
            if (effects is None or a.effect in effects) and _usable_now(ctx, m, a, effect, used):
                out.extend(effect.candidates(ctx, m, a))
    return out


def has_options(ctx: Ctx, player: int) -> bool:
    """`bool(candidates(ctx, player))`, stopping at the first ability with a use; abilities used on
    oneself are asked first, those whose uses need a target or a point (sight, a wall's footing)
    only if none is."""
    later: list[tuple[ModelState, Ability, Effect]] = []
    for m in ctx.player_models(player):
        for a, effect, used in _actions_now(ctx, m):
            if not _usable_now(ctx, m, a, effect, used):
                continue
            if effect.needs_target or effect.needs_point:
                later.append((m, a, effect))
            elif effect.has_use(ctx, m, a):
                return True
    return any(effect.has_use(ctx, m, a) for m, a, effect in later)


def _simultaneous_fire(ctx: Ctx, m: ModelState) -> bool:
    """R-C2: in the shooting step a model KO'd earlier in this step still fires (and aims abilities)."""
    return ctx.state.step == "shooting" and can_fire(ctx, m)


def do_use(ctx: Ctx, action: UseAbility) -> None:
    s = ctx.state
    m = ctx.model(action.model, rule="R-P4")
    if m.player != s.active_player:
        raise IllegalAction("R-P4", f"{m.name} belongs to another player")
    a = next((x for x in abilities_of(m, ctx.armoury(m)) if x.name == action.ability), None)
    effect = EFFECTS.get(a.effect) if a is not None else None
    if not m.active and not (effect is not None and effect.aimed and _simultaneous_fire(ctx, m)):
        raise IllegalAction("R-P5", f"{m.name} is KO'd")
    if a is None:
        raise IllegalAction("R-P4", f"{m.name} has no ability `{action.ability}`")
    if a.effect == "ranged_attack":
        raise IllegalAction("R-C1", f"{a.title} is a ranged attack: declare it with Shoot")
    if effect is None:
        how = {
            "passive": "it is always in effect",
            "reaction": "it is offered as a reaction when the model is attacked",
            "distraction": "use Disengage in the End Phase",
            "sense": "it is always in effect",
        }.get(a.effect if a.effect in ("distraction", "sense") else a.timing.value, "it is not an action")
        raise IllegalAction("R-P4", f"{a.title} is not used on its own: {how}")
    step = TIMING_STEP.get(a.timing.value)
    if step != s.step:
        when = ctx.step_title(step) if step is not None else a.timing.value
        raise IllegalAction("R-P4", f"{a.title} is used in the {when} step, not now")
    if m.ap < a.ap_cost:
        raise IllegalAction("R-P4", f"{a.title} costs {a.ap_cost} AP; {m.name} has {m.ap}")
    if m.buffs.get(f"used:{a.name}"):
        raise IllegalAction("R-P4", f"{m.name} has already used {a.title} this turn")
    if not _usable(ctx, m, a):
        raise IllegalAction("R-P4", f"{m.name} cannot use {a.title} now")
    target = None
    if effect.needs_target:
        if action.target is None:
            raise IllegalAction("R-P4", f"{a.title} needs a target model")
        target = ctx.model(action.target, rule="R-P4")
        if not effect.is_target(ctx, m, a, target):
            if effect.aimed and effect.is_target(ctx, m, a, target, measured=False):
                distance = ctx.distance(m, target)  # premeasuring is on: the range is known first
                raise IllegalAction(
                    "R-C1",
                    f'{target.name} is {distance:.1f}" away, beyond {a.title}\'s {ability_range(a, 6.0):g}"',
                )
            why = "sight, side, melee" if effect.aimed else f'range {ability_range(a, 0):g}", sight, side'
            raise IllegalAction("R-P4", f"{target.name} is not a valid target of {a.title} ({why})")
    if effect.needs_point and action.at is None:
        raise IllegalAction("R-P4", f"{a.title} needs a point")
    problem = effect.check(ctx, m, a, action)
    if problem:
        raise IllegalAction("R-P4", problem)
    # Validated: pay and resolve.
    m.ap -= a.ap_cost
    m.buffs[f"used:{a.name}"] = 1
    effect.resolve(ctx, m, a, target, action)
