"""The turn, declared as data (design principle 7; R-T1).

Each step names the phase it belongs to, whether players act in it (in player order, each until
they pass) or it resolves by itself, and which actions it allows. The game looks up hooks named
after the step (`begin_<step>`, `end_<step>`) so the order of the turn is read from this table,
not buried in control flow.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StepSpec:
    name: str
    phase: str
    title: str
    interactive: bool
    actions: frozenset[str]


def _step(name: str, phase: str, title: str, *actions: str) -> StepSpec:
    return StepSpec(
        name, phase, title, bool(actions), frozenset(actions) | ({"EndStep"} if actions else set())
    )


DEPLOY = _step("deploy", "deploy", "Deployment", "Deploy")

TURN: tuple[StepSpec, ...] = (
    _step("ap_roll", "move", "Ability Point bonus roll"),
    _step("movement", "move", "Standard movement", "Move", "UseAbility"),
    _step("take_cover", "move", "Taking Cover", "TakeCover", "UseAbility"),
    _step("shooting", "combat", "Projectiles and ranged combat", "Shoot", "UseAbility"),
    _step("ranged_casualties", "combat", "Removal of ranged casualties"),
    _step("charges", "combat", "Charges", "Charge", "UseAbility"),
    _step("melee", "combat", "Melee"),
    _step("melee_casualties", "combat", "Removal of melee casualties"),
    _step("advances", "end", "Advances", "Advance", "Disengage", "UseAbility"),
    _step("scoring", "end", "Tallying of Battle Points"),
    _step("turn_end", "end", "Turn ends"),
)

DUEL_TURN: tuple[StepSpec, ...] = (
    TURN[0],
    TURN[1],
    _step("build", "move", "Building techniques behind the shield", "Build"),
    _step("duel", "combat", "ATTACK! and counter-attack"),
    _step("round_end", "end", "The round ends: pieces return"),
    TURN[-1],
)
"""The Avatar Duel's turn (R-X2): move, build in secret, the round of attacks, pieces return. Its
attacks are offered one at a time as pending decisions (`duel_call`, `duel_defend`)."""

STEP_INDEX = {s.name: i for i, s in enumerate(TURN)}
SPECS = {s.name: s for s in (DEPLOY, *TURN, *DUEL_TURN)}
PENDING_ACTIONS = {
    "counter_charge": frozenset({"CounterCharge", "Decline"}),
    "reaction": frozenset({"React", "Decline"}),
    "duel_call": frozenset({"Attack", "Decline"}),
    "duel_defend": frozenset({"Defend", "Decline"}),
}
