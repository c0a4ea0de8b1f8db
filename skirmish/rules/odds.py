"""Exact odds of a shot or a melee exchange (design principle 5: chance is explicit).

Nothing here samples. Two D6 give 36 equally likely pairs, so the chance that one score beats
another is an integer count out of 36, read from a table of the difference of two D6 built once
at import. Saves are independent D6, so the chance that none succeeds is a product of integers
over a power of 6. Each answer is therefore an exact fraction (integer numerator and denominator),
turned into a float by one correctly rounded division at the end: the fast path used by the bots
and the exact `Fraction` path used by the tests are the same numbers.

The command line, the UI's hover odds and the bots' expectations all call these functions.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

from skirmish.rules.combat import TAKING_COVER_SAVE
from skirmish.rules.combat import check_save as _check_save

_FACES = range(1, 7)

# _WIN[k + 11] = number of the 36 pairs (d1, d2) with d1 - d2 > k, for k in -11..11 (clamped outside).
_WIN: tuple[int, ...] = tuple(sum(1 for a in _FACES for b in _FACES if a - b > k) for k in range(-11, 12))


def _win_count(margin: int) -> int:
    """How many of the 36 pairs of D6 (mine, theirs) give `margin + mine > theirs`."""
    k = -margin
    if k < -11:
        return 36
    if k > 11:
        return 0
    return _WIN[k + 11]


def _check_positive(flag: str, value: int, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{flag}: {what} is a whole number, not {value!r}")
    if value < 1:
        raise ValueError(f"{flag}: {what} is at least 1, not {value}")


def _check_score(flag: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{flag}: a score is a whole number, not {value!r}")


def _unsaved(
    armour: int | None, shield: int | None, taking_cover: bool, shield_breaker: bool
) -> tuple[int, int]:
    """(numerator, denominator) of the chance that no applicable save succeeds (R-S1, R-S2).

    A save of N+ fails on N - 1 faces of 6; the saves are separate dice, so failures multiply.
    """
    num, den = 1, 1
    if not shield_breaker:
        if armour is not None:
            num *= armour - 1
            den *= 6
        if shield is not None:
            num *= shield - 1
            den *= 6
    if taking_cover:
        num *= TAKING_COVER_SAVE - 1
        den *= 6
    return num, den


def unsaved_probability(
    armour: int | None, shield: int | None, taking_cover: bool = False, shield_breaker: bool = False
) -> Fraction:
    """The exact chance that a hit gets through every save that applies (R-S1, R-S2)."""
    _check_save("--armour", armour)
    _check_save("--shield", shield)
    num, den = _unsaved(armour, shield, taking_cover, shield_breaker)
    return Fraction(num, den)


def hit_probability(attack: int, dodge: int) -> Fraction:
    """The exact chance that a shot with `attack` (before the die) hits a target with `dodge` (R-C1).

    0 for an Impossible Shot, 1 when the target cannot dodge; otherwise the shooter needs a
    strictly higher total (a tie is dodged).
    """
    _check_score("--attack", attack)
    _check_score("--dodge", dodge)
    if attack <= 0:
        return Fraction(0)
    if dodge <= 0:
        return Fraction(1)
    return Fraction(_win_count(attack - dodge), 36)


@dataclass(frozen=True, slots=True)
class ShotOdds:
    """Exact odds of one shot, as floats: `wound` is a hit no save stops, `ko` a wound that ends the model."""

    impossible: bool
    hit: float
    wound: float
    ko: float

    def as_dict(self) -> dict[str, bool | float]:
        """The JSON object of `skirmish odds shoot --json` (cli.md)."""
        return {"impossible": self.impossible, "hit": self.hit, "wound": self.wound, "ko": self.ko}


_IMPOSSIBLE = ShotOdds(True, 0.0, 0.0, 0.0)


def shot_odds(
    attack: int,
    dodge: int,
    armour: int | None = None,
    shield: int | None = None,
    taking_cover: bool = False,
    shield_breaker: bool = False,
    damage: int = 1,
    hp: int = 1,
) -> ShotOdds:
    """Exact odds of one shot (R-C1, R-S1, R-S2); `attack`/`dodge` are stat + modifiers before the die.

    Raises `ValueError` naming the command-line flag for an argument out of range (a save outside
    2..6, damage or hp below 1). Uncached and allocation-light: it is called in bots' inner loops.
    """
    _check_score("--attack", attack)
    _check_score("--dodge", dodge)
    _check_save("--armour", armour)
    _check_save("--shield", shield)
    _check_positive("--damage", damage, "damage")
    _check_positive("--hp", hp, "HP")
    if attack <= 0:
        return _IMPOSSIBLE
    if dodge <= 0:
        hit_num, hit_den = 1, 1
    else:
        hit_num, hit_den = _win_count(attack - dodge), 36
    save_num, save_den = _unsaved(armour, shield, taking_cover, shield_breaker)
    wound = (hit_num * save_num) / (hit_den * save_den)
    return ShotOdds(False, hit_num / hit_den, wound, wound if damage >= hp else 0.0)


cached_shot_odds = functools.lru_cache(maxsize=65536)(shot_odds)
"""`shot_odds` memoised, for callers that ask the same questions again and again (bots, UI hover)."""


@dataclass(frozen=True, slots=True)
class MeleeOdds:
    """Exact odds of one 1-v-1 melee exchange (R-C4): who hits, who is wounded, who is KO'd."""

    attacker_hits: float
    defender_hits: float
    tie: float
    defender_wounded: float
    attacker_wounded: float
    defender_ko: float
    attacker_ko: float

    def as_dict(self) -> dict[str, float]:
        """The JSON object of `skirmish odds melee --json` (cli.md)."""
        return {
            "attacker_hits": self.attacker_hits,
            "defender_hits": self.defender_hits,
            "tie": self.tie,
            "defender_wounded": self.defender_wounded,
            "attacker_wounded": self.attacker_wounded,
            "defender_ko": self.defender_ko,
            "attacker_ko": self.attacker_ko,
        }


def melee_odds(
    attack: int,
    defend: int,
    attacker_armour: int | None = None,
    attacker_shield: int | None = None,
    defender_armour: int | None = None,
    defender_shield: int | None = None,
    attacker_shield_breaker: bool = False,
    defender_shield_breaker: bool = False,
    attacker_damage: int = 1,
    defender_damage: int = 1,
    attacker_hp: int = 1,
    defender_hp: int = 1,
    *,
    attacker_taking_cover: bool = False,
    defender_taking_cover: bool = False,
) -> MeleeOdds:
    """Exact odds of one exchange between two models in base contact (R-C4, R-S1, R-S2).

    `attack` and `defend` are Combat + modifiers before the die. Both roll a D6; the strictly
    higher total hits the other, a tie does nothing. The loser rolls its own saves against the
    winner's weapon (`*_shield_breaker` is the *hitting* model's weapon keyword); a model Taking
    Cover keeps its 3+ cover save when charged (R-M4). KO when the winner's damage takes the
    loser's last HP.
    """
    _check_score("--attack", attack)
    _check_score("--defend", defend)
    _check_save("--attacker-armour", attacker_armour)
    _check_save("--attacker-shield", attacker_shield)
    _check_save("--defender-armour", defender_armour)
    _check_save("--defender-shield", defender_shield)
    _check_positive("--attacker-damage", attacker_damage, "damage")
    _check_positive("--defender-damage", defender_damage, "damage")
    _check_positive("--attacker-hp", attacker_hp, "HP")
    _check_positive("--defender-hp", defender_hp, "HP")
    a_wins = _win_count(attack - defend)
    d_wins = _win_count(defend - attack)
    ties = 36 - a_wins - d_wins
    d_num, d_den = _unsaved(defender_armour, defender_shield, defender_taking_cover, attacker_shield_breaker)
    a_num, a_den = _unsaved(attacker_armour, attacker_shield, attacker_taking_cover, defender_shield_breaker)
    defender_wounded = (a_wins * d_num) / (36 * d_den)
    attacker_wounded = (d_wins * a_num) / (36 * a_den)
    return MeleeOdds(
        attacker_hits=a_wins / 36,
        defender_hits=d_wins / 36,
        tie=ties / 36,
        defender_wounded=defender_wounded,
        attacker_wounded=attacker_wounded,
        defender_ko=defender_wounded if attacker_damage >= defender_hp else 0.0,
        attacker_ko=attacker_wounded if defender_damage >= attacker_hp else 0.0,
    )


cached_melee_odds = functools.lru_cache(maxsize=65536)(melee_odds)
"""`melee_odds` memoised, for callers that ask the same exchanges again and again (bots, UI hover):
a pure function of its arguments, and the odds are immutable."""
