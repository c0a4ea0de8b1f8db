"""Opposed rolls, saves and damage: the arithmetic of shooting and melee (R-C1, R-C4, R-S1, R-S2, R-M5).

Everything here is a pure function of its arguments and the dice stream: no geometry, no game
state. The engine works out *which* modifiers apply (cover, higher ground, charges...) and hands
the resulting `Score`s to these functions, so the same code serves the engine, the tests (with
forced dice) and anyone checking a ruling by hand. Each die is rolled with a purpose string so the
log can show every roll, failed ones too.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from skirmish.rules.dice import Dice
from skirmish.rules.modifiers import Modifier, Score

TAKING_COVER_SAVE = 3
"""Taking Cover counts as a Wall Shield (3+) that Shield Breaker cannot negate (R-M4, R-S2)."""

MIN_SAVE = 2
MAX_SAVE = 6
"""A save is the D6 score needed, 2+ to 6+ (R-P2): 1+ would never fail and 7+ never succeed."""

K = TypeVar("K", bound=Hashable)


class ImpossibleShot(ValueError):
    """R-C1 ruling: Ranged + modifiers (before the die) is 0 or less, so the shot cannot be declared."""


def check_save(name: str, value: int | None) -> int | None:
    """Return `value` if it is a real save (None or 2..6), else raise a `ValueError` naming `name`.

    Shared with the odds module so the engine, the odds and the CLI agree on what a save is.
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name}: a save is a whole number from {MIN_SAVE} to {MAX_SAVE}, not {value!r}")
    if not MIN_SAVE <= value <= MAX_SAVE:
        raise ValueError(
            f"{name}: a save is the D6 score needed, from {MIN_SAVE} (2+) to {MAX_SAVE} (6+), not {value}"
        )
    return value


def _score(stat_name: str, stat: int, modifiers: Iterable[Modifier]) -> Score:
    # Zero-valued modifiers say nothing and only clutter the log, as in ScoreBuilder.
    return Score(stat_name, stat, tuple(m for m in modifiers if m.value))


def shooting_score(ranged: int, modifiers: Iterable[Modifier]) -> Score:
    """The shooter's score before the die: Ranged plus the shooting modifiers (R-C1)."""
    return _score("Ranged", ranged, modifiers)


def dodge_score(dodge: int, modifiers: Iterable[Modifier]) -> Score:
    """The target's score before the die: Dodge plus the dodge modifiers (R-C1)."""
    return _score("Dodge", dodge, modifiers)


def combat_score(combat: int, modifiers: Iterable[Modifier]) -> Score:
    """A model's melee score before the die: Combat plus the melee modifiers (R-C4)."""
    return _score("Combat", combat, modifiers)


@dataclass(frozen=True)
class ShotRoll:
    """The opposed roll of one shot (R-C1)."""

    attack: Score
    """The shooting score, with its die set."""
    dodge: Score
    """The dodge score, with its die set; `die` is None when the target could not dodge."""
    hit: bool
    auto_hit: bool
    """Dodge + modifiers was 0 or less: the target cannot avoid the shot (ruling in docs/rules.md R-C1)."""

    def explain(self) -> str:
        """E.g. `3 + Ranged 2 + ... = 5 vs 2 + Dodge 2 ... = 4: hit`."""
        if self.auto_hit:
            return f"{self.attack.explain()} vs {self.dodge.explain()} (cannot dodge): hit"
        tie = self.attack.total == self.dodge.total
        verdict = "hit" if self.hit else ("dodged (tie)" if tie else "dodged")
        return f"{self.attack.explain()} vs {self.dodge.explain()}: {verdict}"


def resolve_shot(dice: Dice, attack: Score, dodge: Score) -> ShotRoll:
    """Roll one shot: the attack D6, then the dodge D6 unless the target cannot dodge.

    Raises `ImpossibleShot` before any die is rolled when the shooting score without the die is
    0 or less, so an illegal shot never consumes dice. A tie is dodged (R-C1 ruling): the shooter
    must score strictly higher.
    """
    if attack.base_total <= 0:
        raise ImpossibleShot(
            f"R-C1 Impossible Shot: {attack.explain()} is {attack.base_total} before the die "
            "(it must be above 0 to declare the shot)"
        )
    rolled_attack = attack.with_die(dice.d6("shoot"))
    if dodge.base_total <= 0:
        plain_dodge = Score(dodge.stat_name, dodge.stat, dodge.modifiers, None)
        return ShotRoll(rolled_attack, plain_dodge, hit=True, auto_hit=True)
    rolled_dodge = dodge.with_die(dice.d6("dodge"))
    return ShotRoll(rolled_attack, rolled_dodge, hit=rolled_attack.total > rolled_dodge.total, auto_hit=False)


@dataclass(frozen=True)
class SaveRoll:
    """One save die: which save (`armour`, `shield`, `cover`), the score needed, the face, the outcome."""

    name: str
    need: int
    die: int
    success: bool


@dataclass(frozen=True)
class SaveResult:
    """All the save dice rolled against one hit; `saved` when any of them succeeded (R-S1)."""

    rolls: tuple[SaveRoll, ...]
    saved: bool


def applicable_saves(
    armour: int | None, shield: int | None, *, taking_cover: bool, shield_breaker: bool
) -> tuple[tuple[str, int], ...]:
    """The saves that apply to a hit, in rolling order: armour, shield, then Taking Cover's Wall Shield.

    R-S2: Shield Breaker removes armour and shield, never the Taking Cover save. Shared with the
    odds module so the sampled and the exact answers come from one definition.
    """
    check_save("armour", armour)
    check_save("shield", shield)
    saves: list[tuple[str, int]] = []
    if not shield_breaker:
        if armour is not None:
            saves.append(("armour", armour))
        if shield is not None:
            saves.append(("shield", shield))
    if taking_cover:
        saves.append(("cover", TAKING_COVER_SAVE))
    return tuple(saves)


def roll_saves(
    dice: Dice, armour: int | None, shield: int | None, *, taking_cover: bool, shield_breaker: bool
) -> SaveResult:
    """Roll every applicable save on its own die, all together (R-S1); any success stops the hit.

    All applicable dice are rolled even when an earlier one succeeds, as at the table (the seed
    rolls them at the same time on dice of different colours), so the dice stream does not depend
    on the order the saves are read in. No die is rolled for a save that does not apply.
    """
    rolls = []
    saves = applicable_saves(armour, shield, taking_cover=taking_cover, shield_breaker=shield_breaker)
    for name, need in saves:
        face = dice.d6(name)
        rolls.append(SaveRoll(name, need, face, face >= need))
    return SaveResult(tuple(rolls), any(r.success for r in rolls))


@dataclass(frozen=True)
class HitResult:
    """What one hit did: the saves rolled, HP lost, HP left and whether the model is now KO'd."""

    saves: SaveResult
    hp_lost: int
    hp_after: int
    ko: bool


def apply_hit(
    dice: Dice,
    hp: int,
    damage: int,
    armour: int | None,
    shield: int | None,
    *,
    taking_cover: bool,
    shield_breaker: bool,
) -> HitResult:
    """Resolve one hit on a model with `hp` left: roll saves, then lose `damage` HP unless saved (R-S1).

    HP never goes below 0; a model at 0 HP is KO'd.
    """
    if isinstance(hp, bool) or hp < 1:
        raise ValueError(f"hp: a model that can be hit has at least 1 HP, not {hp}")
    if isinstance(damage, bool) or damage < 1:
        raise ValueError(f"damage: a hit deals at least 1 damage, not {damage}")
    saves = roll_saves(dice, armour, shield, taking_cover=taking_cover, shield_breaker=shield_breaker)
    if saves.saved:
        return HitResult(saves, hp_lost=0, hp_after=hp, ko=False)
    after = max(0, hp - damage)
    return HitResult(saves, hp_lost=hp - after, hp_after=after, ko=after == 0)


def melee_exchanges(totals: Mapping[K, int], contacts: Sequence[tuple[K, K]]) -> list[tuple[K, K]]:
    """R-C4: for each pair of opposing models in base contact, the strictly higher score hits the lower.

    Each model's one score (die + Combat + modifiers, in `totals`) is compared with that of every
    enemy it touches, so one model can both deal and take several hits. A tie inflicts nothing
    (ruling). Returns `(winner, loser)` pairs in the order of `contacts`, so the engine applies
    hits in a deterministic order.
    """
    out: list[tuple[K, K]] = []
    for a, b in contacts:
        ta, tb = totals[a], totals[b]
        if ta > tb:
            out.append((a, b))
        elif tb > ta:
            out.append((b, a))
    return out


def perception_test(dice: Dice, perception: int) -> tuple[bool, int]:
    """R-M5 ruling: roll a D6; the test passes on a roll at or below the tester's Perception.

    Returns `(passed, roll)` so the log can show the die.
    """
    roll = dice.d6("perception")
    return roll <= perception, roll


def roll_combat_scores(dice: Dice, scores: Mapping[K, Score]) -> dict[K, Score]:
    """R-C4: every model in a melee rolls one D6 (purpose "melee"), in the order of `scores`.

    The caller passes the models in a deterministic order (e.g. player order, then model id) so
    the same seed always gives the same die to the same model.
    """
    return {key: score.with_die(dice.d6("melee")) for key, score in scores.items()}
