"""Exact odds (R-C1, R-C4, R-S1, R-S2): known values, invariants, a brute-force cross-check, sampling.

The brute force here is written independently of `skirmish.rules.odds`: it walks every face of
every die involved (attack, dodge, each save) with `itertools.product` and counts outcomes with
`Fraction`s, so a slip in the difference table or the save product would show up.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.rules.combat import apply_hit, dodge_score, resolve_shot, shooting_score
from skirmish.rules.dice import Dice
from skirmish.rules.odds import (
    MeleeOdds,
    ShotOdds,
    cached_shot_odds,
    hit_probability,
    melee_odds,
    shot_odds,
    unsaved_probability,
)

FACES = range(1, 7)
scores = st.integers(min_value=-8, max_value=14)
saves = st.one_of(st.none(), st.integers(min_value=2, max_value=6))
small = st.integers(min_value=1, max_value=5)


def _brute_saves(armour: int | None, shield: int | None, cover: bool, breaker: bool) -> Fraction:
    needs = [n for n in (armour, shield) if n is not None and not breaker] + ([3] if cover else [])
    outcomes = list(itertools.product(FACES, repeat=len(needs)))
    fails = sum(1 for faces in outcomes if all(f < n for f, n in zip(faces, needs, strict=True)))
    return Fraction(fails, len(outcomes))


def _brute_shot(
    attack: int,
    dodge: int,
    arm: int | None,
    shd: int | None,
    cover: bool,
    breaker: bool,
    dmg: int,
    hp: int,
) -> tuple[bool, Fraction, Fraction, Fraction]:
    if attack <= 0:
        return True, Fraction(0), Fraction(0), Fraction(0)
    hits = sum(1 for a, d in itertools.product(FACES, FACES) if dodge <= 0 or attack + a > dodge + d)
    hit = Fraction(hits, 36)
    wound = hit * _brute_saves(arm, shd, cover, breaker)
    return False, hit, wound, wound if dmg >= hp else Fraction(0)


# --- known values ------------------------------------------------------------------------------


def test_r_c1_equal_scores_hit_fifteen_in_thirty_six() -> None:
    # Ties are dodged: of 36 pairs, 6 tie and 15 favour each side.
    assert hit_probability(3, 3) == Fraction(15, 36)
    assert shot_odds(3, 3).hit == pytest.approx(15 / 36)


def test_r_c1_impossible_shot_odds_are_all_zero() -> None:
    for attack in (0, -1, -7):
        assert shot_odds(attack, 2) == ShotOdds(True, 0.0, 0.0, 0.0)


def test_r_c1_target_that_cannot_dodge_is_hit_for_certain_but_saves_apply() -> None:
    odds = shot_odds(1, 0, armour=4)
    assert (odds.impossible, odds.hit, odds.wound) == (False, 1.0, 0.5)
    assert shot_odds(1, -3).hit == 1.0


def test_r_c1_hit_chance_saturates_far_apart() -> None:
    assert shot_odds(20, 1).hit == 1.0  # 21 + 1 > 1 + 6 always
    assert shot_odds(1, 20).hit == 0.0
    assert shot_odds(6, 1).hit == 35 / 36  # only 1 vs 6 ties (7 = 7)
    assert shot_odds(1, 6).hit == 0.0


def test_r_s1_unsaved_probability_multiplies_separate_dice() -> None:
    assert unsaved_probability(5, 5, False, False) == Fraction(16, 36)  # the seed's light + buckler
    assert unsaved_probability(None, None, False, False) == 1
    assert unsaved_probability(None, None, True, False) == Fraction(2, 6)
    assert unsaved_probability(4, 3, True, False) == Fraction(3 * 2 * 2, 216)


def test_r_s2_shield_breaker_odds_keep_only_the_taking_cover_save() -> None:
    assert unsaved_probability(3, 3, False, True) == 1
    assert unsaved_probability(3, 3, True, True) == Fraction(1, 3)
    assert shot_odds(4, 2, 3, 3, False, True).wound == shot_odds(4, 2).wound


def test_r_s1_ko_needs_damage_to_reach_hp() -> None:
    assert shot_odds(4, 2, damage=1, hp=2).ko == 0.0
    two = shot_odds(4, 2, damage=2, hp=2)
    assert two.ko == two.wound > 0


@pytest.mark.parametrize(
    "kwargs, flag",
    [
        ({"armour": 9}, "--armour"),
        ({"armour": 1}, "--armour"),
        ({"shield": 7}, "--shield"),
        ({"damage": 0}, "--damage"),
        ({"hp": 0}, "--hp"),
        ({"hp": -2}, "--hp"),
    ],
)
def test_r_s1_shot_odds_refuse_bad_arguments_naming_the_flag(kwargs: dict[str, int], flag: str) -> None:
    with pytest.raises(ValueError, match=flag):
        shot_odds(3, 2, **kwargs)


@pytest.mark.parametrize(
    "kwargs, flag",
    [
        ({"attacker_armour": 8}, "--attacker-armour"),
        ({"defender_shield": 1}, "--defender-shield"),
        ({"attacker_damage": 0}, "--attacker-damage"),
        ({"defender_hp": 0}, "--defender-hp"),
    ],
)
def test_r_c4_melee_odds_refuse_bad_arguments_naming_the_flag(kwargs: dict[str, int], flag: str) -> None:
    with pytest.raises(ValueError, match=flag):
        melee_odds(2, 2, **kwargs)


def test_r_c4_seed_example_odds_of_the_warrior_on_three_against_four() -> None:
    # Before the dice: the first warrior's Combat 0 +3 -2 = +1, the lone warrior's 0 +1 -1 = 0.
    odds = melee_odds(1, 0, defender_shield=5)
    assert odds.attacker_hits == 21 / 36 and odds.defender_hits == 10 / 36 and odds.tie == 5 / 36
    assert odds.defender_wounded == pytest.approx(21 / 36 * 4 / 6)
    assert odds.attacker_wounded == odds.defender_hits


def test_r_c4_melee_shield_breaker_belongs_to_the_hitting_model() -> None:
    plain = melee_odds(2, 2, defender_armour=3, attacker_armour=3)
    breaker = melee_odds(2, 2, defender_armour=3, attacker_armour=3, attacker_shield_breaker=True)
    assert breaker.defender_wounded == plain.attacker_hits  # defender's armour negated
    assert breaker.attacker_wounded == plain.attacker_wounded  # attacker's armour unaffected
    cover = melee_odds(2, 2, defender_armour=3, attacker_shield_breaker=True, defender_taking_cover=True)
    assert cover.defender_wounded == pytest.approx(plain.attacker_hits * 2 / 6)


def test_cached_odds_equal_uncached() -> None:
    assert cached_shot_odds(3, 2, 5, 6, True, False, 2, 2) == shot_odds(3, 2, 5, 6, True, False, 2, 2)


def test_as_dict_has_exactly_the_cli_keys() -> None:
    assert list(shot_odds(3, 2).as_dict()) == ["impossible", "hit", "wound", "ko"]
    assert list(melee_odds(3, 2).as_dict()) == [
        "attacker_hits",
        "defender_hits",
        "tie",
        "defender_wounded",
        "attacker_wounded",
        "defender_ko",
        "attacker_ko",
    ]
    assert isinstance(melee_odds(3, 2), MeleeOdds)


# --- properties --------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(scores, scores, saves, saves, st.booleans(), st.booleans(), small, small)
def test_r_c1_shot_odds_equal_brute_force_enumeration(
    attack: int,
    dodge: int,
    arm: int | None,
    shd: int | None,
    cover: bool,
    breaker: bool,
    dmg: int,
    hp: int,
) -> None:
    odds = shot_odds(attack, dodge, arm, shd, cover, breaker, dmg, hp)
    impossible, hit, wound, ko = _brute_shot(attack, dodge, arm, shd, cover, breaker, dmg, hp)
    assert odds.impossible is impossible
    # Exact fractions become floats by one correctly rounded division: equality, not approx.
    assert (odds.hit, odds.wound, odds.ko) == (float(hit), float(wound), float(ko))


@settings(max_examples=200, deadline=None)
@given(scores, scores, saves, saves, saves, saves, st.booleans(), st.booleans(), small, small, small, small)
def test_r_c4_melee_odds_equal_brute_force_and_sum_to_one(
    attack: int,
    defend: int,
    aa: int | None,
    ash: int | None,
    da: int | None,
    dsh: int | None,
    abreak: bool,
    dbreak: bool,
    adm: int,
    ddm: int,
    ahp: int,
    dhp: int,
) -> None:
    odds = melee_odds(attack, defend, aa, ash, da, dsh, abreak, dbreak, adm, ddm, ahp, dhp)
    pairs = list(itertools.product(FACES, FACES))
    a_hits = Fraction(sum(1 for x, y in pairs if attack + x > defend + y), 36)
    d_hits = Fraction(sum(1 for x, y in pairs if defend + y > attack + x), 36)
    tie = Fraction(sum(1 for x, y in pairs if attack + x == defend + y), 36)
    assert a_hits + d_hits + tie == 1
    assert odds.attacker_hits + odds.defender_hits + odds.tie == pytest.approx(1.0, abs=1e-12)
    assert (odds.attacker_hits, odds.defender_hits, odds.tie) == (float(a_hits), float(d_hits), float(tie))
    d_wound = a_hits * _brute_saves(da, dsh, False, abreak)
    a_wound = d_hits * _brute_saves(aa, ash, False, dbreak)
    assert odds.defender_wounded == float(d_wound) and odds.attacker_wounded == float(a_wound)
    assert odds.defender_ko == (float(d_wound) if adm >= dhp else 0.0)
    assert odds.attacker_ko == (float(a_wound) if ddm >= ahp else 0.0)


@settings(max_examples=200, deadline=None)
@given(scores, scores, saves, saves, st.booleans(), st.booleans())
def test_r_s1_more_armour_never_raises_the_wound_chance(
    attack: int, dodge: int, armour: int | None, shield: int | None, cover: bool, breaker: bool
) -> None:
    base = shot_odds(attack, dodge, armour, shield, cover, breaker).wound
    better = [2] if armour is None else list(range(2, armour))  # a lower save number is better armour
    for a in better:
        assert shot_odds(attack, dodge, a, shield, cover, breaker).wound <= base
    assert shot_odds(attack, dodge, armour, shield, True, breaker).wound <= base


@settings(max_examples=200, deadline=None)
@given(scores, scores, st.integers(min_value=1, max_value=5))
def test_r_c1_better_attack_never_lowers_the_hit_chance(attack: int, dodge: int, step: int) -> None:
    assert shot_odds(attack + step, dodge).hit >= shot_odds(attack, dodge).hit
    assert shot_odds(attack, dodge + step).hit <= shot_odds(attack, dodge).hit


@settings(max_examples=15, deadline=None)
@given(
    st.integers(min_value=1, max_value=6),
    st.integers(min_value=-1, max_value=6),
    saves,
    saves,
    st.booleans(),
    st.booleans(),
    st.integers(min_value=0, max_value=2**32),
)
def test_r_s1_sampled_resolver_agrees_with_exact_odds(
    attack: int, dodge: int, armour: int | None, shield: int | None, cover: bool, breaker: bool, seed: int
) -> None:
    """The real resolver (resolve_shot + apply_hit) on a seeded stream matches the exact odds."""
    n = 3000
    dice = Dice(seed)
    a, d = shooting_score(attack, []), dodge_score(dodge, [])
    hits = wounds = 0
    for _ in range(n):
        shot = resolve_shot(dice, a, d)
        if shot.hit:
            hits += 1
            res = apply_hit(dice, 1, 1, armour, shield, taking_cover=cover, shield_breaker=breaker)
            wounds += res.ko
    exact = shot_odds(attack, dodge, armour, shield, cover, breaker)
    # 5 standard errors of a proportion of n trials (at worst p = 1/2): a false alarm is ~1 in 10^6.
    tol = 5 * (0.25 / n) ** 0.5
    assert abs(hits / n - exact.hit) < tol
    assert abs(wounds / n - exact.wound) < tol
