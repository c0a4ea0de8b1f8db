"""Reading the Pursuit's `special` keys into a `PursuitConfig` (R-X3), every problem at once.

The campaign reads a chapter's overrides through the same `parse_config`, so a bad Box names its
file and key exactly as a bad scenario does.
"""

from __future__ import annotations

from skirmish.data.scenario import Scenario
from skirmish.data.troupe import Troupe
from skirmish.engine.scenarios.pursuit.config import (
    EFFECTS,
    HERO_KO,
    KINDS,
    TRIGGERS,
    AdversaryAbility,
    AdversaryReward,
    Card,
    Objective,
    PursuitConfig,
)
from skirmish.engine.scenarios.specials import SpecialReader


def _amount(reader: SpecialReader, key: str, text: str, lo: int = 0) -> int:
    try:
        v = int(text)
    except ValueError:
        reader.problem(key, f"amount `{text}` is not a whole number")
        return lo
    if v < lo or v > 99:
        reader.problem(key, f"amount {v} must be from {lo} to 99")
    return v


def _split(reader: SpecialReader, key: str, text: str, n: int, shape: str) -> list[str] | None:
    parts = text.split(":")
    if len(parts) != n or not all(parts):
        reader.problem(key, f"`{text}`: write {shape}")
        return None
    return parts


def _known(reader: SpecialReader, key: str, text: str, what: str, value: str, known: tuple[str, ...]) -> bool:
    if value not in known:
        reader.problem(key, f"`{text}`: unknown {what} `{value}` (known: {', '.join(known)})")
        return False
    return True


def parse_config(scenario: Scenario, troupes: list[Troupe] | None = None) -> PursuitConfig:
    """Read and check the Pursuit's `special` keys; `DataError` lists every problem found.

    With `troupes` (one per side) the model names are checked against them too.
    """
    r = SpecialReader(scenario.name, scenario.special)
    before = len(r.problems)
    start = r.get_int("tracking_start", 1, lo=0, hi=99)
    length = r.get_int("tracking_length", lo=1, hi=99)
    # Compared only when both were read: a bad one is its own problem, not also this one.
    track_ok = len(r.problems) == before
    if track_ok and start >= length:
        r.problem("tracking_start", f"{start} must be below tracking_length {length}")
    per_turn = r.get_int("events_per_turn", 1, lo=0, hi=10)
    before = len(r.problems)
    extra_at = tuple(r.get_ints("events_extra_at", []))
    if track_ok and len(r.problems) == before:
        for i, at in enumerate(extra_at):
            # An extra event comes once Tracking reaches `at`: a value past the track never comes.
            if not 0 <= at <= length:
                r.problem(f"events_extra_at[{i}]", f"{at} is not a Tracking value (0 to {length})")
    deck: list[Card] = []
    for i, text in enumerate(r.get_strs("event_deck")):
        key = f"event_deck[{i}]"
        parts = _split(r, key, text, 3, "name:effect:amount")
        if parts and _known(r, key, text, "effect", parts[1], EFFECTS):
            deck.append(Card(parts[0], parts[1], _amount(r, key, parts[2])))
    if not deck and r.has("event_deck"):
        r.problem("event_deck", "the deck needs at least one card")
    stack = tuple(r.get_strs("adversary_stack", []))
    active_n = r.get_int("active_adversaries", 1, lo=1, hi=20)
    abilities: list[AdversaryAbility] = []
    for i, text in enumerate(r.get_strs("adversary_abilities", [])):
        key = f"adversary_abilities[{i}]"
        parts = _split(r, key, text, 4, "model:trigger:effect:amount")
        if (
            parts
            and _known(r, key, text, "trigger", parts[1], TRIGGERS)
            and _known(r, key, text, "effect", parts[2], EFFECTS)
        ):
            abilities.append(AdversaryAbility(parts[0], parts[1], parts[2], _amount(r, key, parts[3])))
    rewards: list[AdversaryReward] = []
    for i, text in enumerate(r.get_strs("adversary_rewards", [])):
        key = f"adversary_rewards[{i}]"
        parts = _split(r, key, text, 3, "model:effect:amount")
        if parts and _known(r, key, text, "effect", parts[1], EFFECTS):
            rewards.append(AdversaryReward(parts[0], parts[1], _amount(r, key, parts[2], lo=-99)))
    zones = {z.name for z in scenario.scoring.zones}
    objectives: list[Objective] = []
    for i, text in enumerate(r.get_strs("objectives")):
        key = f"objectives[{i}]"
        parts = text.split(":")
        if len(parts) not in (3, 4) or not parts[0] or not parts[2]:
            r.problem(key, f"`{text}`: write name:kind:target[:amount]")
            continue
        kind = parts[1]
        if not _known(r, key, text, "kind", kind, KINDS):
            continue
        amount = _amount(r, key, parts[3], lo=1) if len(parts) == 4 else 1
        if kind in ("reach", "hold") and parts[2] not in zones:
            r.problem(
                key, f"`{text}`: no scoring zone is named `{parts[2]}` (zones: {', '.join(sorted(zones))})"
            )
        objectives.append(Objective(parts[0], kind, parts[2], amount))
    if not objectives and r.has("objectives"):
        r.problem("objectives", "name at least one objective")
    reward = r.get_int("objective_reward_tracking", 0, lo=-99, hi=99)
    lay_low = r.get_int("lay_low_tracking", 0, lo=-5, hi=0)
    adversary_side = r.get_str("adversary_side")
    hero_side = r.get_str("hero_side")
    sides = {s.name: i for i, s in enumerate(scenario.sides)}
    for key, name in (("adversary_side", adversary_side), ("hero_side", hero_side)):
        if name and name not in sides:
            r.problem(key, f"no side is named `{name}` (sides: {', '.join(sides)})")
    if adversary_side and adversary_side == hero_side:
        r.problem("adversary_side", "must differ from hero_side")
    elif (
        adversary_side in sides
        and hero_side in sides
        and scenario.sides[sides[adversary_side]].team == scenario.sides[sides[hero_side]].team != -1
    ):
        r.problem("adversary_side", "the heroes and the adversaries must be on different teams")
    hero_order = tuple(r.get_strs("hero_order", []))
    hero_ko = r.get_str("hero_ko", "stun", choices=HERO_KO)
    stun_tracking = r.get_int("stun_tracking", 1, lo=0, hi=99)
    r.get_str("campaign", "-")
    r.get_int("chapter", 1, lo=1, hi=99)
    if troupes is not None and not r.problems:
        adv = troupes[sides[adversary_side]]
        counts = {e.profile.name: e.count for e in adv.models}
        named: list[tuple[str, list[str]]] = [
            ("adversary_abilities", [a.model for a in abilities]),
            ("adversary_rewards", [w.model for w in rewards]),
            ("adversary_stack", list(stack)),
        ]
        for key, models in named:
            for i, model in enumerate(models):
                if model not in counts:
                    r.problem(f"{key}[{i}]", f"the adversaries' troupe `{adv.name}` has no `{model}`")
        for name in sorted(set(stack)):
            if name in counts and stack.count(name) > counts[name]:
                r.problem(
                    "adversary_stack",
                    f"`{name}` is named {stack.count(name)} times; `{adv.name}` has {counts[name]}",
                )
        for i, o in enumerate(objectives):
            if o.kind == "defeat" and o.target not in counts:
                r.problem(f"objectives[{i}]", f"the adversaries' troupe `{adv.name}` has no `{o.target}`")
            elif o.kind == "defeat" and stack and o.target not in stack:
                r.problem(f"objectives[{i}]", f"`{o.target}` is not in the adversary stack")
    r.done()
    return PursuitConfig(
        start,
        length,
        per_turn,
        extra_at,
        tuple(deck),
        stack,
        active_n,
        tuple(abilities),
        tuple(rewards),
        adversary_side,
        tuple(objectives),
        reward,
        lay_low,
        hero_side,
        hero_order,
        hero_ko,
        stun_tracking,
    )
