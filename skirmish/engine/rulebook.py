"""The rulebook: every step of the game in turn order, the pending decisions, and who handles what.

This is the one module that knows every step (R-T1): `Game` runs a `Rulebook` and imports no step.
`STANDARD` is the game of the rulebook — deployment, then each turn's Move, Combat and End Phase
steps. A scenario that plays its own turn (the Avatar Duel) names its steps (a standard step by
name, its own as `StepSpec`s) and brings its hooks; `for_scenario` composes that rulebook, taking
the standard hooks of any standard step it reuses.

Turn order is a strategy too (R-T2): the fixed order of the sides, or a priority roll each turn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from skirmish.engine.core.actions import Action
from skirmish.engine.core.context import Ctx
from skirmish.engine.core.flow import Handler, PendingSpec, StepSpec
from skirmish.engine.effects import abilities, placing, reactions
from skirmish.engine.scenarios.duel.rules import DUEL_STEPS
from skirmish.engine.steps import charges, deploy, end_phase, melee, movement, shooting


@dataclass(frozen=True)
class Rulebook:
    """A game's steps in order, its pending decisions and the handler of every action kind."""

    deploy: StepSpec
    turn: tuple[StepSpec, ...]
    pending: Mapping[str, PendingSpec]
    handlers: Mapping[str, Handler]
    """Every action kind's handler except EndStep, which the phase machine answers itself."""
    setup: Callable[[Ctx], None]
    """Placing the models before deployment (those the scenario deploys for the players)."""
    anytime_candidates: Callable[[Ctx, int], list[Any]]
    """Actions offered in every interactive step besides the step's own (abilities, R-P4)."""
    anytime_options: Callable[[Ctx, int], bool]
    _index: dict[str, int] = field(init=False, repr=False, compare=False)
    _specs: dict[str, StepSpec] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {sp.name: i for i, sp in enumerate(self.turn)})
        specs = {self.deploy.name: self.deploy, **{sp.name: sp for sp in self.turn}}
        object.__setattr__(self, "_specs", specs)

    def spec(self, name: str) -> StepSpec:
        return self._specs[name]

    def index(self, name: str) -> int:
        return self._index[name]

    def pending_candidates(self, ctx: Ctx, kind: str) -> list[Action]:
        generate = self.pending[kind].generate
        return generate(ctx) if generate is not None else []

    def allowed(self, step: str, pending: str | None) -> frozenset[str]:
        return self.pending[pending].actions if pending is not None else self.spec(step).actions


def _by_kind(specs: Sequence[StepSpec], pending: Sequence[PendingSpec]) -> dict[str, Handler]:
    out: dict[str, Handler] = {"UseAbility": abilities.do_use}
    for sp in specs:
        out.update(sp.handlers)
    for pe in pending:
        out.update(pe.handlers)
    return out


_DEPLOY = deploy.STEPS[0]
_TURN: tuple[StepSpec, ...] = (
    *movement.STEPS,
    *shooting.STEPS,
    *charges.STEPS,
    *melee.STEPS,
    *end_phase.STEPS,
)
_PENDING: tuple[PendingSpec, ...] = (*charges.PENDING, *reactions.PENDING)

STANDARD = Rulebook(
    deploy=_DEPLOY,
    turn=_TURN,
    pending={pe.kind: pe for pe in _PENDING},
    handlers=_by_kind((_DEPLOY, *_TURN), _PENDING),
    setup=placing.auto_deploy,
    anytime_candidates=abilities.candidates,
    anytime_options=abilities.has_options,
)
"""The game of the rulebook: deployment, then the eleven steps of each turn (R-T1)."""


def for_scenario(turn: Sequence[str | StepSpec] | None, ext: Mapping[str, Mapping[str, Any]]) -> Rulebook:
    """The rulebook of a scenario that plays its own turn (`turn`: standard step names or its own
    specs) or adds hooks (`ext`: `begin`, `has_options`, `generators` by step; `handlers` by action
    kind; `pending`, `decline`, `pending_actions` by pending kind). None and {}: `STANDARD`."""
    if turn is None and not ext:
        return STANDARD
    begin, opts, gens = ext.get("begin", {}), ext.get("has_options", {}), ext.get("generators", {})
    specs: list[StepSpec] = []
    for item in turn if turn is not None else STANDARD.turn:
        sp = STANDARD.spec(item) if isinstance(item, str) else item
        changes: dict[str, Any] = {}
        if sp.name in begin:
            changes["begin"] = begin[sp.name]
        if sp.name in opts:
            changes["has_options"] = opts[sp.name]
        if sp.name in gens:
            changes["generate"] = gens[sp.name]
        specs.append(replace(sp, **changes) if changes else sp)
    pending = dict(STANDARD.pending)
    for kind, generate in ext.get("pending", {}).items():
        pending[kind] = PendingSpec(
            kind,
            frozenset(ext.get("pending_actions", {})[kind]),
            generate=generate,
            decline=ext.get("decline", {}).get(kind),
        )
    # Deployment is played by every rulebook, so its handler stays whatever the turn's steps are.
    handlers = {**_by_kind((STANDARD.deploy, *specs), list(pending.values())), **ext.get("handlers", {})}
    return replace(STANDARD, turn=tuple(specs), pending=pending, handlers=handlers)


SPECS: dict[str, StepSpec] = {sp.name: sp for sp in (STANDARD.deploy, *STANDARD.turn, *DUEL_STEPS)}
"""Every step any shipped rulebook plays, by name (titles for screens and logs)."""
