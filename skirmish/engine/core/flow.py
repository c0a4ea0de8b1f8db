"""The turn as data (design principle 7; R-T1): what a step is, and the names of the steps.

A `StepSpec` declares one step: its phase, its title, the rule it plays, the actions players may
take in it (none: it resolves by itself) and its hooks — what happens when it begins, which
candidate actions it offers, whether a player still has something to do, the handler of each of
its actions, and why a player's part of it ended. Each step module (`engine.steps.*`) exports its
specs; `engine.rulebook` puts them in turn order and is the one place that knows every step.

A scenario that plays its own turn (the Avatar Duel) declares its steps with the same type; a
declared step without hooks takes them from the standard step of that name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skirmish.engine.core.actions import Action
    from skirmish.engine.core.context import Ctx

Hook = Callable[["Ctx"], None]
Generator = Callable[["Ctx", int], "list[Action]"]
HasOptions = Callable[["Ctx", int], bool]
Handler = Callable[["Ctx", Any], None]
SkipReason = Callable[["Ctx", int], str]


class Step:
    """The names of the standard steps (and the Duel's), as constants instead of loose strings."""

    DEPLOY = "deploy"
    AP_ROLL = "ap_roll"
    MOVEMENT = "movement"
    TAKE_COVER = "take_cover"
    SHOOTING = "shooting"
    RANGED_CASUALTIES = "ranged_casualties"
    CHARGES = "charges"
    MELEE = "melee"
    MELEE_CASUALTIES = "melee_casualties"
    ADVANCES = "advances"
    SCORING = "scoring"
    TURN_END = "turn_end"
    BUILD = "build"
    DUEL = "duel"
    ROUND_END = "round_end"


@dataclass(frozen=True)
class StepSpec:
    """One step of the turn: its declaration and its hooks (any hook may be absent)."""

    name: str
    phase: str
    title: str
    rule: str = "R-T1"
    actions: frozenset[str] = frozenset()
    """Action kinds a player may take in this step (EndStep included); empty: it resolves by itself."""
    begin: Hook | None = None
    generate: Generator | None = None
    has_options: HasOptions | None = None
    handlers: Mapping[str, Handler] = field(default_factory=dict, compare=False)
    skip_words: str | None = None
    """How the log names this step when a player's part of it ends without a pass ("movement")."""
    skip_reason: SkipReason | None = None

    @property
    def interactive(self) -> bool:
        return bool(self.actions)


def step(name: str, phase: str, title: str, rule: str, *actions: str, **hooks: Any) -> StepSpec:
    """A step declaration; a step with any action also allows EndStep (the player passes)."""
    allowed = frozenset(actions) | ({"EndStep"} if actions else set())
    if "handlers" in hooks:
        hooks["handlers"] = dict(hooks["handlers"])
    return StepSpec(name, phase, title, rule, allowed, **hooks)


@dataclass(frozen=True)
class PendingSpec:
    """A decision one player owes in the middle of another's action (a counter-charge, a reaction)."""

    kind: str
    actions: frozenset[str]
    generate: Callable[[Ctx], list[Action]] | None = None
    decline: Handler | None = None
    handlers: Mapping[str, Handler] = field(default_factory=dict, compare=False)
