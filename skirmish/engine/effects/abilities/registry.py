"""The ability effects by name (R-P4): one `Effect` object each, registered from its own file.

An ability in troupe data names an `effect` and tunes it with `params`; the engine used to resolve
every effect in one if/elif chain and list the names in four places. Here an effect is one object
that says what it needs (a target, a point), who it may be used on, when it is usable, what it
refuses, and what it does — and `use.py` does the rest (the checks every ability shares, paying,
the log). The parameter schema stays in the data layer (`skirmish.data.effects.EFFECTS`), the one
list troupe files are validated against; `register` refuses an effect that is not in it, so the
two cannot drift.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, TypeVar

from skirmish.data.effects import EFFECTS as SCHEMA
from skirmish.data.effects import Param
from skirmish.engine.core.actions import UseAbility
from skirmish.engine.effects.senses import finds_hidden
from skirmish.engine.effects.shots import can_fire

if TYPE_CHECKING:
    from skirmish.data.armoury import Ability
    from skirmish.engine.core.context import Ctx
    from skirmish.engine.core.state import ModelState


def ability_range(a: Ability, default: float) -> float:
    """An ability's range in inches: its data's `range`, or `default` when it names none."""
    return float(a.range) if a.range is not None else default


def reach(a: Ability) -> float:
    """The range of an aimed ability (6" when its data names none)."""
    return ability_range(a, 6.0)


class Effect:
    """One ability effect. Subclasses set `name` (a key of the data layer's schema) and the flags,
    and override what differs; the defaults are those of an effect on the user alone.
    """

    name: ClassVar[str]
    aimed: ClassVar[bool] = False
    """Aimed at an enemy like a shot (R-C1, R-C6): see `Aimed`."""
    counts_as_shot: ClassVar[bool] = False
    """Used in the shooting step, it is the model's one shot of the Combat Phase (R-C6)."""
    needs_target: ClassVar[bool] = False
    """`UseAbility.target` names the model it is used on, one of `targets(...)`."""
    needs_point: ClassVar[bool] = False
    """`UseAbility.at` names a point on the table, checked by `check(...)`."""

    @property
    def params(self) -> dict[str, Param]:
        """The parameters this effect reads, with their types and bounds (the data layer's schema)."""
        return SCHEMA[self.name]

    def targets(self, ctx: Ctx, m: ModelState, a: Ability, *, measured: bool = True) -> list[ModelState]:
        """Who `m` may use `a` on now (only for `needs_target`). `measured=False` leaves out a range
        the player cannot know before declaring (aimed abilities without `premeasure`)."""
        return []

    def is_target(self, ctx: Ctx, m: ModelState, a: Ability, t: ModelState, *, measured: bool = True) -> bool:
        """`t in targets(ctx, m, a, measured=measured)` for a model `t` of the game: an effect
        whose targets are each judged alone answers for `t` without judging the others."""
        return t in self.targets(ctx, m, a, measured=measured)

    def usable(self, ctx: Ctx, m: ModelState, a: Ability) -> bool:
        """Conditions of this effect beyond those every ability shares (step, element, AP, once a turn)."""
        return m.active

    def candidates(self, ctx: Ctx, m: ModelState, a: Ability) -> list[UseAbility]:
        """The legal uses of `a` by `m` now, for `legal_actions` (its checks already passed)."""
        if self.needs_target:
            return [UseAbility(m.id, a.name, target=t.id) for t in self.targets(ctx, m, a)]
        return [UseAbility(m.id, a.name)]

    def has_use(self, ctx: Ctx, m: ModelState, a: Ability) -> bool:
        """`bool(candidates(ctx, m, a))`: the phase machine asks after every action whether a
        player has anything left to do, and needs no list of uses for it (nor every target)."""
        if self.needs_target and type(self).candidates is Effect.candidates:
            return self.any_target(ctx, m, a)
        return bool(self.candidates(ctx, m, a))

    def any_target(self, ctx: Ctx, m: ModelState, a: Ability) -> bool:
        """`bool(targets(ctx, m, a))`; an effect whose targets cost to find stops at the first."""
        return bool(self.targets(ctx, m, a))

    def check(self, ctx: Ctx, m: ModelState, a: Ability, action: UseAbility) -> str | None:
        """Why this use is refused (R-P4), in words, beyond the shared checks and the target's; or None."""
        return None

    def resolve(
        self, ctx: Ctx, m: ModelState, a: Ability, target: ModelState | None, action: UseAbility
    ) -> None:
        """Do what the ability does: it is validated and paid for."""
        raise NotImplementedError(self.name)


def _aimed_at(ctx: Ctx, m: ModelState, a: Ability, t: ModelState, premeasure: bool) -> bool:
    """Whether `m` may aim `a` at `t` (`Aimed.targets`): an active enemy, in range when it may be
    measured, not locked in melee unless the option allows, and seen (R-C1, R-C6)."""
    return (
        t.active
        and ctx.enemies(m, t)
        and (not premeasure or ctx.distance(m, t) <= ability_range(a, 6.0))
        and (ctx.options.shoot_into_melee or not ctx.in_melee(t))
        and ctx.sees(m, t)  # last: the one question that may search for a line
    )


class Aimed(Effect):
    """An ability aimed at an enemy like a shot (R-C1, R-C6): a visible target not locked in melee
    (unless the option allows), declared before measuring — wasted when out of range unless
    `premeasure` — and a Perception test against a model Taking Cover (R-M4, R-M5).
    """

    aimed = True
    needs_target = True

    def targets(self, ctx: Ctx, m: ModelState, a: Ability, *, measured: bool = True) -> list[ModelState]:
        # The range is not known before declaring (R-C1) unless premeasuring is on.
        premeasure = ctx.options.premeasure and measured
        return [t for t in ctx.state.models if _aimed_at(ctx, m, a, t, premeasure)]

    def any_target(self, ctx: Ctx, m: ModelState, a: Ability) -> bool:
        # `targets` stopped at the first: sight is the costly question, asked of fewer enemies.
        premeasure = ctx.options.premeasure
        return any(_aimed_at(ctx, m, a, t, premeasure) for t in ctx.state.models)

    def is_target(self, ctx: Ctx, m: ModelState, a: Ability, t: ModelState, *, measured: bool = True) -> bool:
        # `targets` keeps each model by `_aimed_at` alone, so `t` is among them exactly when it passes.
        if type(self).targets is not Aimed.targets:  # an effect with targets of its own
            return super().is_target(ctx, m, a, t, measured=measured)
        return _aimed_at(ctx, m, a, t, ctx.options.premeasure and measured)

    def usable(self, ctx: Ctx, m: ModelState, a: Ability) -> bool:
        if ctx.state.step == "shooting":
            # R-C2 simultaneous fire: a model KO'd earlier in this shooting step still uses a ranged
            # ability, as it still fires its bow; one not yet fired (R-C6), not locked in melee.
            return can_fire(ctx, m)
        return m.active

    def resolve(
        self, ctx: Ctx, m: ModelState, a: Ability, target: ModelState | None, action: UseAbility
    ) -> None:
        assert target is not None
        if ctx.state.step == "shooting" and self.counts_as_shot:
            m.fired = True  # a ranged ability is the model's one shot this phase (R-C6)
        if aim(ctx, m, a, target):
            self.land(ctx, m, a, target)

    def land(self, ctx: Ctx, m: ModelState, a: Ability, target: ModelState) -> None:
        """What the ability does once it reaches `target` (in range, the Perception test passed)."""
        raise NotImplementedError(self.name)


def aim(ctx: Ctx, m: ModelState, a: Ability, target: ModelState) -> bool:
    """An aimed ability, declared and paid: measure now (R-C1), then the Perception test (R-M4, R-M5).

    False when it is spent without effect: the target proved out of range (only possible without
    `premeasure`, which refuses such a target first) or the test failed. The order is that of a
    shot (`shooting.do_shoot`), so the two never disagree on which die is rolled when.
    """
    ids = (m.id, target.id)
    distance, rng = ctx.distance(m, target), ability_range(a, 6.0)
    if distance > rng:
        ctx.emit(
            "shot_wasted",
            f'{m.name} uses {a.title} on {target.name}: {distance:.1f}" is beyond its {rng:g}" '
            "— the ability is wasted",
            ids,
        )
        return False
    return finds_hidden(ctx, m, target, f"use {a.title} on {target.name}", "the ability is spent")


EFFECTS: dict[str, Effect] = {}
"""Every active effect by name, filled by `register` as `effects.abilities` imports each effect's file."""

E = TypeVar("E", bound=type[Effect])


def register(cls: E) -> E:
    """Class decorator: make `cls` the effect of its `name`. The name must be in the data layer's
    schema (`skirmish.data.effects.EFFECTS`), so a troupe file can name it and its parameters are
    checked at load."""
    if cls.name not in SCHEMA:
        raise ValueError(f"effect `{cls.name}` has no parameter schema in skirmish/data/effects.py")
    if cls.name in EFFECTS and type(EFFECTS[cls.name]) is not cls:
        raise ValueError(f"effect `{cls.name}` is registered twice")
    EFFECTS[cls.name] = cls()
    return cls
