"""Shooting, melee, saves and Perception tests of the rules layer (R-C1, R-C4, R-S1, R-S2, R-M5, R-P5).

The seed's two worked examples are rebuilt from real profiles (the shipped troupe files and the
standard armoury) and the situation's modifiers, with the seed's dice forced.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skirmish.data.catalogue import content_root
from skirmish.data.errors import DataError
from skirmish.data.loader import load_troupe, standard_armoury
from skirmish.data.troupe import Profile
from skirmish.rules.combat import (
    TAKING_COVER_SAVE,
    ImpossibleShot,
    apply_hit,
    combat_score,
    dodge_score,
    melee_exchanges,
    perception_test,
    resolve_shot,
    roll_combat_scores,
    roll_saves,
    shooting_score,
)
from skirmish.rules.dice import Dice, ForcedDiceExhausted
from skirmish.rules.modifiers import Modifier

ROOT = Path(__file__).resolve().parents[1]
CONTENT = content_root()


def _shipped_profiles() -> list[Profile]:
    """Every profile of every shipped troupe file, in file order."""
    out: list[Profile] = []
    for path in sorted((CONTENT / "troupes").glob("*.toml")):
        try:
            out.extend(entry.profile for entry in load_troupe(path).models)
        except DataError:  # a file being edited elsewhere; the data tests report it
            continue
    return out


def _find(pred: Callable[[Profile], bool]) -> Profile:
    """The first shipped profile matching `pred` (tests stay valid while troupe files are retuned)."""
    for profile in _shipped_profiles():
        if pred(profile):
            return profile
    pytest.skip("no shipped profile fits this example")


def _troupe_items(kind: str) -> dict[str, Any]:
    """Troupe-specific armour or shields of the shipped troupes, by name."""
    items: dict[str, Any] = {}
    for path in sorted((CONTENT / "troupes").glob("*.toml")):
        try:
            items.update({item.name: item for item in getattr(load_troupe(path).armoury, kind)})
        except DataError:
            continue
    return items


# --- R-C1: the shooting roll -------------------------------------------------------------------


def test_r_c1_seed_worked_example_shot_5_vs_4_hits() -> None:
    """Ranged 2 on a hill with a friend 2" away vs Dodge 2 in dense cover and Limping; dice 3 and 2."""
    shooter = _find(lambda p: p.ranged == 2)
    target = _find(lambda p: p.dodge == 2)
    assert (shooter.ranged, target.dodge) == (2, 2)
    attack = shooting_score(
        shooter.ranged,
        [
            Modifier("higher ground", +1),
            Modifier('friend within 5"', +1),
            Modifier("target in dense cover", -2),
        ],
    )
    dodge = dodge_score(
        target.dodge,
        [
            Modifier("in dense cover", +1),
            Modifier("shooter in the open", +1),
            Modifier("limping", -2),
        ],
    )
    dice = Dice.forced([3, 2])
    shot = resolve_shot(dice, attack, dodge)
    assert (shot.attack.total, shot.dodge.total) == (5, 4)
    assert shot.hit and not shot.auto_hit
    assert [(r.purpose, r.value) for r in dice.history] == [("shoot", 3), ("dodge", 2)]
    # Positive modifiers are listed before negative ones, as the seed asks.
    assert (
        shot.attack.explain()
        == '3 + Ranged 2 + higher ground 1 + friend within 5" 1 − target in dense cover 2 = 5'
    )
    assert "hit" in shot.explain()


def test_r_c1_tie_is_dodged() -> None:
    shot = resolve_shot(Dice.forced([3, 4]), shooting_score(3, []), dodge_score(2, []))
    assert shot.attack.total == shot.dodge.total == 6
    assert not shot.hit
    assert "tie" in shot.explain()


def test_r_c1_strictly_higher_hits_and_lower_misses() -> None:
    assert resolve_shot(Dice.forced([4, 4]), shooting_score(3, []), dodge_score(2, [])).hit
    assert not resolve_shot(Dice.forced([1, 3]), shooting_score(3, []), dodge_score(2, [])).hit


@pytest.mark.parametrize("ranged, mods", [(0, []), (1, [Modifier("target in dense cover", -2)]), (-1, [])])
def test_r_c1_impossible_shot_raises_before_any_die(ranged: int, mods: list[Modifier]) -> None:
    dice = Dice.forced([6, 1])
    with pytest.raises(ImpossibleShot, match="R-C1"):
        resolve_shot(dice, shooting_score(ranged, mods), dodge_score(2, []))
    assert dice.history == [] and dice.pending_forced == 2
    assert issubclass(ImpossibleShot, ValueError)


def test_r_c1_target_that_cannot_dodge_is_hit_without_a_dodge_die() -> None:
    dice = Dice.forced([1])  # strict: a dodge die would raise ForcedDiceExhausted
    dodge = dodge_score(1, [Modifier("limping", -2)])
    shot = resolve_shot(dice, shooting_score(1, []), dodge)
    assert shot.hit and shot.auto_hit
    assert shot.dodge.die is None
    assert [r.purpose for r in dice.history] == ["shoot"]


def test_r_c1_score_builders_name_their_stat_and_drop_empty_modifiers() -> None:
    s = shooting_score(2, [Modifier("higher ground", 1), Modifier("nothing", 0)])
    assert (s.stat_name, s.base_total, len(s.modifiers)) == ("Ranged", 3, 1)
    assert dodge_score(2, []).stat_name == "Dodge"
    assert combat_score(0, []).stat_name == "Combat"


# --- R-C4: melee -------------------------------------------------------------------------------


def _warrior(name: str, **kw: object) -> Profile:
    """A rank-and-file warrior of the seed's example: no Combat skill (R-P1 default 0)."""
    data = dict(name=name, title=name.title(), move=6, ap=1, ranged=0, dodge=1, hp=1, perception=3, points=10)
    data.update(kw)
    return Profile.model_validate(data)


def _melee_modifiers(me: Profile, enemy: Profile, situation: dict[str, bool | int]) -> list[Modifier]:
    """The R-C4 melee modifiers, computed from the profiles (via the armoury) and the situation."""
    weapons = standard_armoury().weapon_by_name()
    mods = []
    if situation.get("charged"):
        mods.append(Modifier("charged", 1))
    if any(weapons[w].two_hand for w in me.weapons):
        mods.append(Modifier("two hand weapons", 1))
    if situation.get("in_cover"):
        mods.append(Modifier("in medium/dense cover", 1))
    friends = int(situation.get("friends", 0))
    if friends:
        mods.append(Modifier("friends in this melee", friends))
    if enemy.shield is not None:
        mods.append(Modifier("enemy has a shield", -1))
    if situation.get("charged_into_cover"):
        mods.append(Modifier("charged into cover", -1))
    if situation.get("fired"):
        mods.append(Modifier("fired this Combat Phase", -1))
    return mods


def test_r_c4_seed_worked_example_two_warriors_against_one() -> None:
    """Scores 3 and 5 against 4: the warrior on 3 and the lone warrior each take a hit."""
    a1 = _warrior("a1", weapons=["dual_swords"])
    a2 = _warrior("a2", weapons=["dual_swords"])
    b = _warrior("b", weapons=["sword"], shield="buckler")
    charging = {"charged": True, "friends": 1, "charged_into_cover": True}
    scores = {
        "a1": combat_score(a1.combat, _melee_modifiers(a1, b, charging)),
        "a2": combat_score(a2.combat, _melee_modifiers(a2, b, charging)),
        "b": combat_score(b.combat, _melee_modifiers(b, a1, {"in_cover": True, "fired": True})),
    }
    dice = Dice.forced([2, 4, 4])
    rolled = roll_combat_scores(dice, scores)
    assert {k: s.total for k, s in rolled.items()} == {"a1": 3, "a2": 5, "b": 4}
    assert [r.purpose for r in dice.history] == ["melee"] * 3
    hits = melee_exchanges({k: s.total for k, s in rolled.items()}, [("a1", "b"), ("a2", "b")])
    assert hits == [("b", "a1"), ("a2", "b")]
    # Each loser rolls its saves: a1 has none and falls; b's buckler (5+) fails on a 2.
    save_dice = Dice.forced([2])
    on_a1 = apply_hit(save_dice, a1.hp, 1, None, None, taking_cover=False, shield_breaker=False)
    on_b = apply_hit(save_dice, b.hp, 1, None, 5, taking_cover=False, shield_breaker=False)
    assert on_a1.ko and on_b.ko and on_a1.saves.rolls == ()


def test_r_c4_tie_inflicts_nothing_and_order_follows_contacts() -> None:
    totals = {"x": 4, "y": 4, "z": 2}
    assert melee_exchanges(totals, [("x", "y")]) == []
    assert melee_exchanges(totals, [("z", "x"), ("y", "z")]) == [("x", "z"), ("y", "z")]
    assert melee_exchanges(totals, []) == []


def test_r_c4_one_model_compares_its_one_score_with_each_enemy() -> None:
    totals = {"hero": 5, "e1": 4, "e2": 6, "e3": 5}
    hits = melee_exchanges(totals, [("hero", "e1"), ("hero", "e2"), ("hero", "e3")])
    assert hits == [("hero", "e1"), ("e2", "hero")]


# --- R-S1 / R-S2: saves ------------------------------------------------------------------------


def test_r_s1_armour_and_shield_are_separate_dice_any_success_saves() -> None:
    # Light armour 5+ and a buckler 5+: the seed's arrow example.
    res = roll_saves(Dice.forced([2, 5]), 5, 5, taking_cover=False, shield_breaker=False)
    assert [(r.name, r.need, r.die, r.success) for r in res.rolls] == [
        ("armour", 5, 2, False),
        ("shield", 5, 5, True),
    ]
    assert res.saved
    both_fail = roll_saves(Dice.forced([4, 4]), 5, 5, taking_cover=False, shield_breaker=False)
    assert not both_fail.saved


def test_r_s1_all_save_dice_are_rolled_together_even_after_a_success() -> None:
    dice = Dice.forced([6, 1, 1])
    res = roll_saves(dice, 6, 5, taking_cover=True, shield_breaker=False)
    assert [r.name for r in res.rolls] == ["armour", "shield", "cover"]
    assert res.saved and dice.pending_forced == 0


def test_r_s1_no_die_for_a_save_that_does_not_apply() -> None:
    dice = Dice.forced([])
    res = roll_saves(dice, None, None, taking_cover=False, shield_breaker=False)
    assert res == type(res)((), False)
    assert dice.history == []


def test_r_s1_unsaved_hit_loses_damage_and_ko_at_zero() -> None:
    hit = apply_hit(Dice.forced([3]), 3, 2, 4, None, taking_cover=False, shield_breaker=False)
    assert (hit.hp_lost, hit.hp_after, hit.ko) == (2, 1, False)
    overkill = apply_hit(Dice.forced([1]), 1, 3, 4, None, taking_cover=False, shield_breaker=False)
    assert (overkill.hp_lost, overkill.hp_after, overkill.ko) == (1, 0, True)
    saved = apply_hit(Dice.forced([4]), 2, 2, 4, None, taking_cover=False, shield_breaker=False)
    assert (saved.hp_lost, saved.hp_after, saved.ko, saved.saves.saved) == (0, 2, False, True)


@pytest.mark.parametrize("hp, damage", [(0, 1), (2, 0), (-1, 1)])
def test_r_s1_apply_hit_refuses_nonsense(hp: int, damage: int) -> None:
    with pytest.raises(ValueError):
        apply_hit(Dice.forced([6]), hp, damage, None, None, taking_cover=False, shield_breaker=False)


@pytest.mark.parametrize("bad", [1, 7, 0, 9])
def test_r_s1_save_values_outside_2_to_6_are_refused(bad: int) -> None:
    with pytest.raises(ValueError, match="armour"):
        roll_saves(Dice.forced([6]), bad, None, taking_cover=False, shield_breaker=False)
    with pytest.raises(ValueError, match="shield"):
        roll_saves(Dice.forced([6]), None, bad, taking_cover=False, shield_breaker=False)


def test_r_s2_shield_breaker_drops_armour_and_shield_not_taking_cover() -> None:
    dice = Dice.forced([3])
    res = roll_saves(dice, 3, 3, taking_cover=True, shield_breaker=True)
    assert [(r.name, r.need) for r in res.rolls] == [("cover", TAKING_COVER_SAVE)]
    assert res.saved
    bare = Dice.forced([])
    assert not roll_saves(bare, 3, 3, taking_cover=False, shield_breaker=True).saved
    assert bare.history == []


def test_r_s2_crossbow_is_a_shield_breaker_in_the_armoury() -> None:
    crossbow = standard_armoury().weapon_by_name()["crossbow"]
    soldier = _find(lambda p: p.armour is not None and p.shield is not None)
    armours = {**standard_armoury().armour_by_name(), **_troupe_items("armour")}
    shields = {**standard_armoury().shield_by_name(), **_troupe_items("shields")}
    assert soldier.armour and soldier.shield
    hit = apply_hit(
        Dice.forced([]),
        soldier.hp,
        crossbow.damage,
        armours[soldier.armour].save,
        shields[soldier.shield].save,
        taking_cover=False,
        shield_breaker=crossbow.shield_breaker,
    )
    assert hit.saves.rolls == () and hit.hp_after == soldier.hp - 1


# --- R-M5: Perception --------------------------------------------------------------------------


@pytest.mark.parametrize("roll", range(1, 7))
def test_r_m5_perception_passes_on_roll_at_or_below(roll: int) -> None:
    scout = _find(lambda p: 1 <= p.perception <= 5)
    dice = Dice.forced([roll])
    assert perception_test(dice, scout.perception) == (roll <= scout.perception, roll)
    assert dice.history[0].purpose == "perception"


def test_r_m5_perception_zero_never_passes_six_always_passes() -> None:
    for face in range(1, 7):
        assert not perception_test(Dice.forced([face]), 0)[0]
        assert perception_test(Dice.forced([face]), 6)[0]


# --- R-P5: statuses as the rules arithmetic sees them -----------------------------------------


def test_r_p5_taking_cover_status_gives_a_3_plus_save_on_top_of_own_saves() -> None:
    res = roll_saves(Dice.forced([1, 1, 3]), 6, 6, taking_cover=True, shield_breaker=False)
    assert res.saved and res.rolls[-1].name == "cover"


def test_r_p5_limping_costs_two_dodge_and_ko_status_comes_at_zero_hp() -> None:
    assert dodge_score(3, [Modifier("limping", -2)]).base_total == 1
    assert apply_hit(Dice.forced([]), 1, 1, None, None, taking_cover=False, shield_breaker=False).ko


def test_r_p5_lost_hp_and_fired_statuses_lower_the_combat_score() -> None:
    score = combat_score(2, [Modifier("lost HP this turn", -1), Modifier("fired this Combat Phase", -1)])
    assert score.with_die(3).total == 3


def test_forced_dice_run_out_loudly() -> None:
    with pytest.raises(ForcedDiceExhausted):
        resolve_shot(Dice.forced([4]), shooting_score(2, []), dodge_score(2, []))
