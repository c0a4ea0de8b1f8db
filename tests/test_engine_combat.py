"""Combat Phase on a real table (R-C1..R-C6), every outcome through `Game.apply` with forced dice.

The board is the shipped `open_battle` scenario: `watch_hill` (height 1, no cover), `bamboo_grove`
(dense, x 32-42, y 14-22), `old_ruins` (medium, x 28-36, y 30-36), `tall_grass` (light, x 17-21,
y 20-27), `standing_stone` (impassable, sight-blocking, x 22-25, y 12-15). Models not in a
situation are taken off the table so only the situation plays.
"""

from __future__ import annotations

import pytest
from helpers_engine import (
    advance_past,
    advance_to,
    assert_illegal,
    events,
    keep_only,
    last_event,
    m,
    new_game,
    place,
    rolls_since,
    troupe,
    with_count,
    with_profile,
)

from skirmish.engine.core.actions import Charge, CounterCharge, Decline, EndStep, Shoot, TakeCover
from skirmish.engine.steps.melee import melee_score
from skirmish.engine.steps.shooting import shot_scores, shot_specs

SOKKA_WITH_BOW = with_profile(troupe("team_avatar"), "sokka", weapons=["sword", "bow"])
"""Shipped Sokka (Ranged 2, as Model A of the seed) with the standard 18" bow instead of his 12"
boomerang: on the shipped table the hill's edge is ~16" from the grove, beyond a boomerang."""


def _shooting_game(**opts: object):
    g = new_game(troupes=[SOKKA_WITH_BOW, troupe("zuko_hunting_party")], options=opts or None)
    keep_only(g, ["p0.sokka", "p0.katara", "p1.zuko"])
    return g


# --- R-C1: the seed's worked example, end to end -------------------------------------------------


def test_r_c1_seed_worked_example_on_the_hill_friend_near_target_limping_in_dense_cover() -> None:
    g = _shooting_game()
    # Sokka on watch_hill (no cover), Katara 2" away (edge to edge), Zuko in the bamboo grove.
    place(g, {"p0.sokka": (14.5, 20.0), "p0.katara": (14.5, 23.0), "p1.zuko": (33.0, 18.0)})
    sokka, katara, zuko = m(g, "p0.sokka"), m(g, "p0.katara"), m(g, "p1.zuko")
    assert g.distance(sokka, katara) == pytest.approx(2.0)
    assert g.cover(sokka) == 0 and g.height(sokka) > g.height(zuko)
    assert g.cover_piece(zuko) == "bamboo_grove" and g.cover(zuko) == 3
    advance_to(g, "shooting", 0)
    zuko.limping = True
    attack, dodge = shot_scores(g, sokka, zuko, next(s for s in shot_specs(g, sokka) if s.name == "bow"))
    assert attack.base_total == 2 and dodge.base_total == 2  # 2 +1 +1 -2 and 2 +1 +1 -2
    start = len(g.dice.history)
    g.dice.force(3, 2, 1)  # shoot 3, dodge 2, Zuko's medium-armour save 1 (fails)
    g.apply(Shoot("p0.sokka", "p1.zuko", "bow"))
    assert rolls_since(g, start) == [3, 2, 1]
    shot = last_event(g, "shot")
    assert "= 5" in shot.text and "= 4" in shot.text and shot.text.endswith("hit")
    for name in (
        "higher ground",
        'friend within 5"',
        "target in dense cover",
        "shooter in the open",
        "limping",
    ):
        assert name in shot.text
    assert zuko.hp == zuko.profile.hp - 1 and sokka.fired


def test_r_c1_tie_is_dodged_through_the_engine() -> None:
    g = _shooting_game()
    place(g, {"p0.sokka": (14.5, 20.0), "p0.katara": (14.5, 23.0), "p1.zuko": (33.0, 18.0)})
    advance_to(g, "shooting", 0)
    m(g, "p1.zuko").limping = True
    g.dice.force(2, 2)  # 4 vs 4: dodged, no save rolled
    start = len(g.dice.history)
    g.apply(Shoot("p0.sokka", "p1.zuko", "bow"))
    assert rolls_since(g, start) == [2, 2]
    assert last_event(g, "shot").text.endswith("dodged")
    assert m(g, "p1.zuko").hp == m(g, "p1.zuko").profile.hp


def test_r_c1_range_guessing_a_declared_shot_out_of_range_is_wasted() -> None:
    g = _shooting_game()
    # Katara's water lash reaches 6"; Zuko stands ~9" away in the open.
    place(g, {"p0.sokka": (5.0, 40.0), "p0.katara": (28.0, 10.0), "p1.zuko": (28.0, 20.0)})
    advance_to(g, "shooting", 0)
    start = len(g.dice.history)
    g.apply(Shoot("p0.katara", "p1.zuko", "water_lash"))
    assert len(g.dice.history) == start  # no die: the shot is spent, not rolled
    assert m(g, "p0.katara").fired
    assert "wasted" in last_event(g, "shot_wasted").text
    assert_illegal(g, Shoot("p0.katara", "p1.zuko", "water_lash"), "R-C6", "already fired")


def test_r_c1_premeasure_option_refuses_an_out_of_range_shot_and_lists_only_shots_in_range() -> None:
    g = _shooting_game(premeasure=True)
    place(g, {"p0.sokka": (5.0, 40.0), "p0.katara": (28.0, 10.0), "p1.zuko": (28.0, 20.0)})
    advance_to(g, "shooting", 0)
    legal = g.legal_actions()
    assert Shoot("p0.katara", "p1.zuko", "water_lash") not in legal
    assert_illegal(g, Shoot("p0.katara", "p1.zuko", "water_lash"), "R-C1", "beyond")
    assert not m(g, "p0.katara").fired


def test_r_c1_impossible_shot_cannot_be_declared() -> None:
    # Fire soldier Ranged 1, shooting from the open into the dense grove: 1 - 2 = -1 before the die.
    g = new_game()
    keep_only(g, ["p0.katara", "p1.fire_soldier_1"])
    place(g, {"p0.katara": (34.0, 18.0), "p1.fire_soldier_1": (34.0, 26.0)})
    advance_to(g, "shooting", 1)
    assert Shoot("p1.fire_soldier_1", "p0.katara", "fire_jab") not in g.legal_actions()
    assert_illegal(g, Shoot("p1.fire_soldier_1", "p0.katara", "fire_jab"), "R-C1", "Impossible Shot")


def test_r_c1_target_that_cannot_dodge_is_hit_without_a_dodge_die() -> None:
    # Iroh (Dodge 1) limping in the open, shooter in cover: 1 - 2 = -1: no dodge die, a hit.
    g = new_game()
    keep_only(g, ["p0.katara", "p1.iroh"])
    place(g, {"p0.katara": (30.0, 31.0), "p1.iroh": (30.0, 26.0)})  # Katara in old_ruins (medium)
    advance_to(g, "shooting", 0)
    m(g, "p1.iroh").limping = True
    start = len(g.dice.history)
    g.dice.force(1, 1)  # shoot 1, then Iroh's robes save 1
    g.apply(Shoot("p0.katara", "p1.iroh", "water_lash"))
    assert rolls_since(g, start) == [1, 1]
    assert "cannot dodge" in last_event(g, "shot").text
    assert m(g, "p1.iroh").hp == 3


def test_r_c1_players_shoot_in_order_first_player_then_second() -> None:
    g = _shooting_game()
    place(g, {"p0.sokka": (28.0, 8.0), "p0.katara": (30.0, 8.0), "p1.zuko": (29.0, 15.0)})
    advance_to(g, "shooting", 0)
    assert g.state.order == [0, 1]
    assert_illegal(g, Shoot("p1.zuko", "p0.sokka", "fire_jab"), "R-C1", "another player")
    g.apply(EndStep())
    assert g.state.step == "shooting" and g.state.active_player == 1
    assert_illegal(g, Shoot("p0.sokka", "p1.zuko", "bow"), "R-C1", "another player")


def test_r_c1_line_of_sight_blocked_by_the_standing_stone() -> None:
    g = _shooting_game()
    place(g, {"p0.sokka": (23.5, 9.0), "p0.katara": (5.0, 5.0), "p1.zuko": (23.5, 18.0)})
    advance_to(g, "shooting", 0)
    assert not g.sees(m(g, "p0.sokka"), m(g, "p1.zuko"))
    assert_illegal(g, Shoot("p0.sokka", "p1.zuko", "bow"), "R-B3", "cannot see")


# --- R-C2: simultaneous fire ------------------------------------------------------------------


def test_r_c2_model_kod_by_the_first_player_still_fires_then_is_removed() -> None:
    g = _shooting_game()
    place(g, {"p0.sokka": (28.0, 8.0), "p0.katara": (30.0, 8.0), "p1.zuko": (29.0, 15.0)})
    zuko = m(g, "p1.zuko")
    advance_to(g, "shooting", 0)
    zuko.hp = 1
    g.dice.force(6, 1, 1)  # Sokka hits, Zuko's save fails: KO'd
    g.apply(Shoot("p0.sokka", "p1.zuko", "bow"))
    assert zuko.ko and not zuko.removed
    assert_illegal(g, Shoot("p0.katara", "p1.zuko", "water_lash"), "R-C2", "KO'd")
    g.apply(EndStep())
    assert g.state.active_player == 1 and g.state.step == "shooting"
    assert Shoot("p1.zuko", "p0.sokka", "fire_jab") in g.legal_actions()
    g.dice.force(6, 1, 1)  # Zuko fires back, Sokka's light armour fails
    g.apply(Shoot("p1.zuko", "p0.sokka", "fire_jab"))
    assert m(g, "p0.sokka").hp == 2
    g.apply(EndStep())  # to removal of ranged casualties
    zuko = m(g, "p1.zuko")  # a refused action restores a copy of the state: look the model up again
    assert zuko.removed and "Removed as casualties" in last_event(g, "removed").text
    assert events(g, "removed")[-1].step == "ranged_casualties"


# --- R-C6: distances edge to edge, melee, one shot per phase -------------------------------------


def test_r_c6_ranges_are_measured_base_edge_to_base_edge() -> None:
    g = new_game()
    keep_only(g, ["p0.katara", "p1.iroh"])
    # Centres 6.9" apart, bases 1": 5.9" edge to edge, within Katara's 6" water lash.
    place(g, {"p0.katara": (28.0, 10.0), "p1.iroh": (28.0, 16.9)})
    advance_to(g, "shooting", 0)
    assert g.distance(m(g, "p0.katara"), m(g, "p1.iroh")) == pytest.approx(5.9)
    g.dice.force(6, 1, 6)
    g.apply(Shoot("p0.katara", "p1.iroh", "water_lash"))
    assert not events(g, "shot_wasted") and events(g, "shot")


def test_r_c6_models_in_melee_neither_shoot_nor_are_shot() -> None:
    g = new_game()
    keep_only(g, ["p0.sokka", "p0.katara", "p1.zuko"])
    place(g, {"p0.sokka": (28.0, 10.0), "p1.zuko": (28.0, 11.0), "p0.katara": (30.0, 6.0)})
    advance_to(g, "shooting", 0)
    assert g.in_melee(m(g, "p0.sokka"))
    assert_illegal(g, Shoot("p0.katara", "p1.zuko", "water_lash"), "R-C6", "in melee")
    assert_illegal(g, Shoot("p0.sokka", "p1.zuko", "boomerang"), "R-C6", "in melee")


def test_r_c6_shoot_into_melee_option_allows_it() -> None:
    g = new_game(options={"shoot_into_melee": True})
    keep_only(g, ["p0.sokka", "p0.katara", "p1.zuko"])
    place(g, {"p0.sokka": (28.0, 10.0), "p1.zuko": (28.0, 11.0), "p0.katara": (31.0, 8.0)})
    advance_to(g, "shooting", 0)
    assert Shoot("p0.katara", "p1.zuko", "water_lash") in g.legal_actions()


def test_r_c6_one_shot_per_combat_phase_with_one_weapon_or_ability() -> None:
    g = _shooting_game()
    place(g, {"p0.sokka": (28.0, 8.0), "p0.katara": (30.0, 8.0), "p1.zuko": (29.0, 15.0)})
    advance_to(g, "shooting", 0)
    g.dice.force(1, 6)
    g.apply(Shoot("p0.sokka", "p1.zuko", "bow"))
    assert_illegal(g, Shoot("p0.sokka", "p1.zuko", "boomerang_throw"), "R-C6", "already fired")
    assert not any(a.model == "p0.sokka" for a in g.legal_actions() if isinstance(a, Shoot))


# --- R-M4/R-M5 in combat: Perception against a model Taking Cover ---------------------------------


def _cover_game():
    g = new_game()
    keep_only(g, ["p0.sokka", "p0.katara", "p1.fire_soldier_1", "p1.zuko"])
    # The soldier stands in old_ruins (medium) from the start of the Move Phase.
    place(
        g,
        {
            "p1.fire_soldier_1": (31.0, 31.0),
            "p1.zuko": (45.0, 45.0),
            "p0.sokka": (31.0, 25.0),
            "p0.katara": (27.0, 24.0),
        },
    )
    advance_to(g, "take_cover", 1)
    g.apply(TakeCover("p1.fire_soldier_1"))
    return g


def test_r_m5_failed_perception_test_loses_the_shot_against_a_model_taking_cover() -> None:
    g = _cover_game()
    advance_to(g, "shooting", 0)
    start = len(g.dice.history)
    g.dice.force(4)  # Sokka's Perception is 3: 4 fails
    g.apply(Shoot("p0.sokka", "p1.fire_soldier_1", "boomerang"))
    assert rolls_since(g, start) == [4]
    assert "fails" in last_event(g, "perception").text and not events(g, "shot")
    assert m(g, "p0.sokka").fired  # the shot is spent


def test_r_m4_shot_at_a_model_taking_cover_faces_its_wall_shield_too() -> None:
    g = _cover_game()
    advance_to(g, "shooting", 0)
    soldier = m(g, "p1.fire_soldier_1")
    start = len(g.dice.history)
    # Perception 3 passes, shoot 6 vs dodge 1: hit; saves medium 1, buckler 1, Wall Shield 3 (3+): saved.
    g.dice.force(3, 6, 1, 1, 1, 3)
    g.apply(Shoot("p0.sokka", "p1.fire_soldier_1", "boomerang"))
    assert rolls_since(g, start) == [3, 6, 1, 1, 1, 3]
    assert soldier.hp == 2 and "saves" in last_event(g, "save").text


def test_r_m5_charging_a_model_taking_cover_needs_a_perception_test() -> None:
    g = _cover_game()
    advance_to(g, "charges", 0)
    start = len(g.dice.history)
    g.dice.force(5)  # Sokka Perception 3: fails, the charge is lost where it stands
    before = tuple(g.state.xy[m(g, "p0.sokka").index])
    g.apply(Charge("p0.sokka", "p1.fire_soldier_1"))
    assert rolls_since(g, start) == [5]
    assert tuple(g.state.xy[m(g, "p0.sokka").index]) == before
    assert not m(g, "p0.sokka").charged and m(g, "p0.sokka").charge_declared
    assert_illegal(g, Charge("p0.sokka", "p1.fire_soldier_1"), "R-C3", "already charged")


def test_r_m5_passed_perception_test_lets_the_charge_home() -> None:
    g = _cover_game()
    advance_to(g, "charges", 0)
    g.dice.force(2)
    g.apply(Charge("p0.sokka", "p1.fire_soldier_1"))
    assert m(g, "p0.sokka").charged and g.in_contact(m(g, "p0.sokka"), m(g, "p1.fire_soldier_1"))


# --- R-C3: charges ------------------------------------------------------------------------------


def _charge_game(sokka: tuple[float, float], zuko: tuple[float, float], **opts: object):
    g = new_game(options=opts or None)
    keep_only(g, ["p0.sokka", "p1.zuko"])
    place(g, {"p0.sokka": sokka, "p1.zuko": zuko})
    advance_to(g, "charges", 0)
    return g


def test_r_c3_charge_in_range_moves_into_base_contact() -> None:
    g = _charge_game((10.0, 10.0), (10.0, 16.5))  # 5.5" edge to edge
    g.apply(Charge("p0.sokka", "p1.zuko"))
    sokka, zuko = m(g, "p0.sokka"), m(g, "p1.zuko")
    assert sokka.charged and g.in_contact(sokka, zuko)
    assert "into base contact" in last_event(g, "charge").text


def test_r_c3_charge_range_is_the_path_length_around_impassable_terrain() -> None:
    # Toph senses Zuko through the standing stone (Seismic Sense); the straight gap is 5", but the
    # path around the stone (x 22-25, y 12-15) is longer than her 6" charge: a failed charge.
    g = new_game()
    keep_only(g, ["p0.toph", "p1.zuko"])
    place(g, {"p0.toph": (23.5, 10.5), "p1.zuko": (23.5, 16.5)})
    advance_to(g, "charges", 0)
    toph, zuko = m(g, "p0.toph"), m(g, "p1.zuko")
    assert g.distance(toph, zuko) == pytest.approx(5.0) and g.sees(toph, zuko)
    from skirmish.engine.steps.charges import measure

    found = measure(g, toph, zuko)
    assert found is not None and found[1] > 6.0
    g.apply(Charge("p0.toph", "p1.zuko"))
    assert not m(g, "p0.toph").charged and events(g, "charge_failed")
    assert not g.in_contact(m(g, "p0.toph"), m(g, "p1.zuko"))


def test_r_c3_failed_charge_moves_full_distance_not_into_contact_then_counter_charge() -> None:
    g = _charge_game((10.0, 10.0), (10.0, 19.0))  # 8" edge to edge, charge 6"
    sokka, zuko = m(g, "p0.sokka"), m(g, "p1.zuko")
    start_y = float(g.state.xy[sokka.index][1])
    g.apply(Charge("p0.sokka", "p1.zuko"))
    assert float(g.state.xy[sokka.index][1]) - start_y == pytest.approx(6.0, abs=0.05)
    assert not g.in_contact(sokka, zuko) and not sokka.charged
    assert g.state.pending is not None and g.state.pending.kind == "counter_charge"
    assert g.state.active_player == 1
    assert g.legal_actions() == [CounterCharge("p1.zuko", "p0.sokka"), Decline()]
    assert_illegal(g, EndStep(), "R-C3")
    assert_illegal(g, CounterCharge("p1.zuko", "p0.katara"), "R-C3")
    g.apply(CounterCharge("p1.zuko", "p0.sokka"))
    sokka, zuko = m(g, "p0.sokka"), m(g, "p1.zuko")  # a refused action restores a copy of the state
    assert zuko.charged and not sokka.charged and g.in_contact(sokka, zuko)
    # The melee: Zuko has the charge bonus, Sokka does not.
    assert "charged this turn" in melee_score(g, zuko, [sokka], 0).explain()
    assert "charged this turn" not in melee_score(g, sokka, [zuko], 0).explain()


def test_r_c3_declined_counter_charge_leaves_both_apart() -> None:
    g = _charge_game((10.0, 10.0), (10.0, 19.0))
    g.apply(Charge("p0.sokka", "p1.zuko"))
    g.apply(Decline())
    assert g.state.pending is None and not g.in_melee(m(g, "p0.sokka"))
    assert "declines" in last_event(g, "decline").text


def test_r_c3_no_counter_charge_offered_when_the_target_cannot_reach() -> None:
    g = _charge_game((10.0, 5.0), (10.0, 25.0))  # 19" apart: after 6" the gap is 13"
    g.apply(Charge("p0.sokka", "p1.zuko"))
    assert g.state.pending is None and events(g, "charge_failed")


def test_r_c3_premeasure_option_refuses_an_out_of_range_charge() -> None:
    g = _charge_game((10.0, 10.0), (10.0, 19.0), premeasure=True)
    assert Charge("p0.sokka", "p1.zuko") not in g.legal_actions()
    assert_illegal(g, Charge("p0.sokka", "p1.zuko"), "R-C3", "beyond")


def test_r_c3_charges_go_in_player_order_and_once_per_model() -> None:
    g = _charge_game((10.0, 10.0), (10.0, 16.0))
    assert_illegal(g, Charge("p1.zuko", "p0.sokka"), "R-C3", "another player")
    g.apply(Charge("p0.sokka", "p1.zuko"))
    assert_illegal(g, Charge("p0.sokka", "p1.zuko"), "R-C3", "already charged")


# --- R-C4: the seed's melee example and the modifiers ------------------------------------------


def test_r_c4_seed_worked_example_two_warriors_charge_into_cover_against_a_shielded_shooter() -> None:
    """Two Kyoshi warriors (war fans: two hand weapons) charge from the open a Fire Nation soldier
    (buckler) in the old ruins (medium cover) who fired this Combat Phase. The seed's warriors
    use no Combat stat, so Combat is 0 here; all else is the shipped profile. Dice 2, 4 and 4 give
    3 and 5 against 4: the warrior on 3 takes a hit, and so does the lone soldier."""
    kyoshi = with_profile(
        with_count(troupe("kyoshi_warriors"), "kyoshi_warrior", 2), "kyoshi_warrior", combat=0
    )
    fire = with_profile(troupe("zuko_hunting_party"), "fire_soldier", combat=0)
    g = new_game(troupes=[kyoshi, fire])
    w1, w2, soldier = "p0.kyoshi_warrior_1", "p0.kyoshi_warrior_2", "p1.fire_soldier_1"
    keep_only(g, [w1, w2, soldier])
    place(g, {w1: (34.0, 27.5), w2: (28.0, 27.5), soldier: (31.0, 30.5)})
    assert g.cover_piece(m(g, soldier)) == "old_ruins" and g.cover(m(g, soldier)) == 2
    assert g.cover(m(g, w1)) == 0 and g.cover(m(g, w2)) == 0
    advance_to(g, "shooting", 1)
    g.dice.force(1, 6)  # the soldier fires (and misses): "fired this turn"
    g.apply(Shoot(soldier, w1, "fire_jab"))
    advance_to(g, "charges", 0)
    g.apply(Charge(w1, soldier))
    g.apply(Charge(w2, soldier))
    a1, a2, b = m(g, w1), m(g, w2), m(g, soldier)
    assert g.in_contact(a1, b) and g.in_contact(a2, b)
    assert g.cover(a1) == 0 and g.cover(a2) == 0  # they charged from the open and stand in the open
    s1 = melee_score(g, a1, [b], 1)
    s_b = melee_score(g, b, [a1, a2], 0)
    assert s1.base_total == 1 and s_b.base_total == 0
    for name in (
        "charged this turn",
        "two hand weapons",
        "friends in the melee",
        "enemy has a shield",
        "charging into cover",
    ):
        assert name in s1.explain()
    for name in ("in cover", "fired this phase"):
        assert name in s_b.explain()
    start = len(g.dice.history)
    # melee dice in model order (w1, w2, soldier) 2, 4, 4; then w1's kyoshi armour save 1;
    # then the soldier's medium armour and buckler 1, 1.
    g.dice.force(2, 4, 4, 1, 1, 1)
    advance_past(g, "melee")
    assert rolls_since(g, start)[:6] == [2, 4, 4, 1, 1, 1]
    text = last_event(g, "melee").text
    assert "= 3" in text and "= 5" in text and "= 4" in text
    assert "beats" in text
    assert a1.hp == a1.profile.hp - 1 and a2.hp == a2.profile.hp and b.hp == b.profile.hp - 1


def _melee_game(sokka_xy, zuko_xy):
    g = new_game()
    keep_only(g, ["p0.sokka", "p1.zuko"])
    place(g, {"p0.sokka": sokka_xy, "p1.zuko": zuko_xy})
    return g


def test_r_c4_tie_in_melee_inflicts_nothing() -> None:
    g = _melee_game((28.0, 10.0), (28.0, 11.0))  # already in contact
    advance_to(g, "charges", 0)
    sokka, zuko = m(g, "p0.sokka"), m(g, "p1.zuko")
    # Sokka 1 (Combat 1), Zuko 2 (dual swords): Sokka die 3 -> 4, Zuko die 1 -> 1+2+1 = 4
    g.dice.force(3, 1)
    advance_past(g, "melee")
    assert "no hits (ties)" in last_event(g, "melee").text
    assert sokka.hp == 3 and zuko.hp == 4


def test_r_c4_melee_continues_in_later_turns_and_model_stays_in_melee() -> None:
    g = _melee_game((28.0, 10.0), (28.0, 11.0))
    advance_to(g, "charges", 0)
    g.dice.force(3, 1)  # turn 1: a tie
    advance_to(g, "movement", 0, turn=2)
    from skirmish.engine.core.actions import Move

    assert not any(isinstance(a, Move) and a.model in ("p0.sokka", "p1.zuko") for a in g.legal_actions())
    assert_illegal(g, Move("p0.sokka", ((28.0, 10.0), (28.0, 8.0))), "R-M3", "in melee")
    advance_to(g, "charges", 0, turn=2)
    g.dice.force(6, 1, 1)  # turn 2: Sokka 7 beats Zuko 4, Zuko's medium save fails
    advance_past(g, "melee")
    assert m(g, "p1.zuko").hp == 3 and "beats Prince Zuko" in last_event(g, "melee").text


def test_r_c4_lost_hp_this_turn_lowers_the_combat_score() -> None:
    g = _melee_game((28.0, 10.0), (28.0, 11.0))
    advance_to(g, "charges", 0)
    zuko = m(g, "p1.zuko")
    zuko.lost_hp_turn = True
    assert "lost HP this turn" in melee_score(g, zuko, [m(g, "p0.sokka")], 0).explain()
    assert melee_score(g, zuko, [m(g, "p0.sokka")], 0).base_total == 2  # 2 + 1 (fans) - 1


def test_r_c4_charging_out_of_cover_and_being_in_cover_add_one_each() -> None:
    # Sokka starts in old_ruins (medium) and charges Zuko waiting in the open south of it.
    g = _melee_game((31.0, 31.0), (31.0, 26.0))
    advance_to(g, "charges", 0)
    g.apply(Charge("p0.sokka", "p1.zuko"))
    sokka, zuko = m(g, "p0.sokka"), m(g, "p1.zuko")
    text = melee_score(g, sokka, [zuko], 0).explain()
    assert "charged this turn" in text and "charging out of cover" in text


# --- R-C5: melee casualties ----------------------------------------------------------------------


def test_r_c5_melee_casualty_is_removed_in_its_step_and_winner_may_advance() -> None:
    g = _melee_game((28.0, 10.0), (28.0, 11.0))
    advance_to(g, "charges", 0)
    zuko = m(g, "p1.zuko")
    zuko.hp = 1
    g.dice.force(6, 1, 1)  # Sokka 7 vs Zuko 4; medium save 1 fails: KO'd
    advance_to(g, "advances")
    assert zuko.ko and zuko.removed
    removed = last_event(g, "removed")
    assert removed.step == "melee_casualties" and "Prince Zuko" in removed.text
    assert m(g, "p0.sokka").can_advance
