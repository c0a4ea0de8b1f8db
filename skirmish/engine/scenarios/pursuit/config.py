"""The Pursuit's vocabulary (R-X3): its effects, triggers and objective kinds, the cards, the
adversaries' abilities and rewards, the objectives and the whole configuration, with their words
for players. Pure data: nothing here reads a game.
"""

from __future__ import annotations

from dataclasses import dataclass

EFFECTS = (
    "tracking",
    "hurt_active",
    "hurt_all",
    "reinforce",
    "drain_ap",
    "discard_active",
    "calm",
    "heal_active",
    "heal_all",
)
TRIGGERS = ("on_tracking", "each_turn", "on_discard")
KINDS = ("reach", "hold", "defeat")
HERO_KO = ("stun", "ko")
KEY = "pursuit"

PURSUIT_KEYS = frozenset(
    {
        "tracking_start",
        "tracking_length",
        "events_per_turn",
        "events_extra_at",
        "event_deck",
        "adversary_stack",
        "active_adversaries",
        "adversary_abilities",
        "adversary_rewards",
        "adversary_side",
        "objectives",
        "objective_reward_tracking",
        "lay_low_tracking",
        "hero_side",
        "hero_order",
        "hero_ko",
        "stun_tracking",
        "campaign",
        "chapter",
    }
)
"""Every `special` key the Pursuit reads (a campaign chapter may override any of them)."""

TRIGGER_WORDS = {
    "on_tracking": "Each time an effect adds any number of Tracking",
    "each_turn": "At the start of each turn",
    "on_discard": "Each time an effect makes a hero discard",
}


def effect_words(effect: str, amount: int) -> str:
    """An effect as a card says it, for players (never the `hurt_active 2` id)."""
    n = amount
    s = "" if n == 1 else "s"
    if effect == "tracking":
        return f"add {n} Tracking" if n >= 0 else f"remove {-n} Tracking"
    return {
        "hurt_active": f"the active hero loses {n} Health",
        "hurt_all": f"each hero loses {n} Health",
        "reinforce": f"{n} defeated soldier{s} go{'es' if n == 1 else ''} back under the adversary stack",
        "drain_ap": f"each hero discards {n} card{s} ({n} AP fewer this turn)",
        "discard_active": f"the active hero discards {n} card{s} ({n} AP fewer this turn)",
        "calm": "nothing happens",
        "heal_active": f"the active hero gains {n} Health",
        "heal_all": f"each hero gains {n} Health",
    }[effect]


def title_of(name: str) -> str:
    return name.replace("_", " ").title()


@dataclass(frozen=True)
class Card:
    """A Fire Nation event card: `name:effect:amount`."""

    name: str
    effect: str
    amount: int

    @property
    def title(self) -> str:
        return title_of(self.name)

    def words(self) -> str:
        return f"{self.title}: {effect_words(self.effect, self.amount)}"


@dataclass(frozen=True)
class AdversaryAbility:
    """`model:trigger:effect:amount`: the adversary `model` (a profile name) does `effect` on `trigger`
    while it is active on the table."""

    model: str
    trigger: str
    effect: str
    amount: int

    def words(self) -> str:
        return f"{TRIGGER_WORDS[self.trigger]}, {effect_words(self.effect, self.amount)}."


@dataclass(frozen=True)
class AdversaryReward:
    """`model:effect:amount`: gained at once when the adversary `model` is defeated."""

    model: str
    effect: str
    amount: int

    def words(self) -> str:
        return effect_words(self.effect, self.amount).capitalize() + "."


@dataclass(frozen=True)
class Objective:
    """`name:kind:target[:amount]`, in story order."""

    name: str
    kind: str
    target: str
    amount: int

    @property
    def title(self) -> str:
        return self.name.replace("_", " ").capitalize()

    def describe(self) -> str:
        place = title_of(self.target)
        if self.kind == "reach":
            return f"a hero ends a turn in {place}"
        if self.kind == "hold":
            return f"heroes hold {place} with no adversary in it for {self.amount} turn(s) in a row"
        return f"defeat {place}"


@dataclass(frozen=True)
class PursuitConfig:
    tracking_start: int
    tracking_length: int
    events_per_turn: int
    events_extra_at: tuple[int, ...]
    deck: tuple[Card, ...]
    stack: tuple[str, ...]
    active_adversaries: int
    abilities: tuple[AdversaryAbility, ...]
    rewards: tuple[AdversaryReward, ...]
    adversary_side: str
    objectives: tuple[Objective, ...]
    objective_reward_tracking: int
    lay_low_tracking: int
    hero_side: str
    hero_order: tuple[str, ...]
    hero_ko: str
    stun_tracking: int

    def cards_at(self, tracking: int) -> int:
        """Fire Nation cards revealed when a turn starts with the ship token at `tracking`."""
        return self.events_per_turn + sum(1 for t in self.events_extra_at if tracking >= t)
