"""Move Phase on the real `open_battle` table (R-M1..R-M5), through `Game.apply` with forced dice."""

from __future__ import annotations

import pytest
from helpers_engine import (
    advance_to,
    assert_illegal,
    end_steps,
    events,
    keep_only,
    last_event,
    m,
    new_game,
    place,
    rolls_since,
)

from skirmish.engine.core.actions import Charge, EndStep, Move, Shoot, TakeCover


def _moves_game(**positions: tuple[float, float]):
    g = new_game()
    ids = [k.replace("__", ".") for k in positions]
    keep_only(g, ids)
    place(g, {k.replace("__", "."): v for k, v in positions.items()})
    return g


# --- R-M1: the Ability Point bonus roll ------------------------------------------------------------


def test_r_m1_each_player_rolls_a_d3_and_every_model_adds_it_to_its_ap() -> None:
    g = new_game()
    assert g.state.step == "deploy"
    start = len(g.dice.history)
    g.dice.force(2, 3)  # avatar rolls 2, fire_nation 3
    end_steps(g, 2)  # both players accept the deployment: turn 1 begins with the AP roll
    assert g.state.turn == 1 and g.state.step == "movement"
    rolled = g.dice.history[start : start + 2]
    assert [(r.sides, r.value) for r in rolled] == [(3, 2), (3, 3)]
    assert [p.ap_roll for p in g.state.players] == [2, 3]
    for x in g.state.models:
        assert x.ap == x.profile.ap + (2 if x.player == 0 else 3)
    texts = [e.text for e in events(g, "ap_roll")]
    assert texts == ["avatar rolls 2 for bonus AP", "fire_nation rolls 3 for bonus AP"]


def test_r_m1_unspent_ap_is_lost_at_the_end_of_the_turn() -> None:
    g = _moves_game(p0__sokka=(10.0, 10.0), p1__zuko=(40.0, 40.0))
    g.dice.force(3, 1)
    end_steps(g, 2)
    assert m(g, "p0.sokka").ap == 2 + 3
    g.dice.force(1, 1)
    advance_to(g, "movement", 0, turn=2)
    assert m(g, "p0.sokka").ap == 2 + 1  # not 5 + 3: last turn's AP did not carry over


# --- R-M2: standard movement ---------------------------------------------------------------------


def test_r_m2_players_move_in_order_each_all_their_models_before_the_next() -> None:
    g = _moves_game(p0__sokka=(10.0, 10.0), p0__katara=(14.0, 10.0), p1__zuko=(40.0, 40.0))
    advance_to(g, "movement", 0)
    assert_illegal(g, Move("p1.zuko", ((40.0, 40.0), (40.0, 38.0))), "R-M2", "not the player to act")
    g.apply(Move("p0.sokka", ((10.0, 10.0), (10.0, 14.0))))
    assert g.state.active_player == 0  # Katara may still move
    g.apply(Move("p0.katara", ((14.0, 10.0), (14.0, 13.0))))
    assert g.state.active_player == 0
    g.apply(EndStep())
    assert g.state.step == "movement" and g.state.active_player == 1
    assert_illegal(g, Move("p0.katara", ((14.0, 13.0), (14.0, 14.0))), "R-M2", "not the player to act")
    g.apply(Move("p1.zuko", ((40.0, 40.0), (40.0, 35.0))))
    assert tuple(g.state.xy[m(g, "p1.zuko").index]) == (40.0, 35.0)


def test_r_m2_a_model_moves_once_up_to_its_move_along_a_legal_path() -> None:
    g = _moves_game(p0__sokka=(10.0, 10.0), p1__zuko=(40.0, 40.0))
    advance_to(g, "movement", 0)
    assert_illegal(g, Move("p0.sokka", ((10.0, 10.0), (10.0, 16.5))), "R-M2", "allowance")
    g.apply(Move("p0.sokka", ((10.0, 10.0), (10.0, 16.0))))  # exactly Move 6
    assert 'moves 6.0"' in last_event(g, "move").text
    assert_illegal(g, Move("p0.sokka", ((10.0, 16.0), (10.0, 17.0))), "R-M2", "already moved")


def test_r_m2_path_length_counts_not_straight_line_distance() -> None:
    g = _moves_game(p0__sokka=(10.0, 10.0), p1__zuko=(40.0, 40.0))
    advance_to(g, "movement", 0)
    # Ends 4" away in a straight line, but the dog-leg path is 3 + 3.6 = 6.6" long.
    bent = ((10.0, 10.0), (10.0, 13.0), (13.6, 13.0))
    assert_illegal(g, Move("p0.sokka", bent), "R-M2", "allowance")
    g.apply(Move("p0.sokka", ((10.0, 10.0), (10.0, 13.0), (12.9, 13.0))))  # 5.9"
    assert tuple(g.state.xy[m(g, "p0.sokka").index]) == pytest.approx((12.9, 13.0))


def test_r_m2_path_may_not_cross_other_bases_impassable_terrain_or_leave_the_table() -> None:
    g = _moves_game(p0__sokka=(23.5, 8.0), p0__katara=(14.0, 4.0), p1__zuko=(40.0, 40.0))
    advance_to(g, "movement", 0)
    # Through the standing stone (x 22-25, y 12-15).
    assert_illegal(g, Move("p0.sokka", ((23.5, 8.0), (23.5, 14.0))), "R-M2", "impassable")
    # Ending on the stone.
    assert_illegal(g, Move("p0.sokka", ((23.5, 8.0), (23.5, 12.0))), "R-M2", "impassable")
    # Off the table.
    assert_illegal(g, Move("p0.katara", ((14.0, 4.0), (14.0, 2.0), (14.0, 0.3))), "R-M2", "leaves the table")
    # Through a friend's base.
    g.apply(Move("p0.katara", ((14.0, 4.0), (18.5, 7.8))))
    assert_illegal(g, Move("p0.sokka", ((23.5, 8.0), (17.6, 8.0))), "R-M2", "base")
    # The path must start where the model stands.
    assert_illegal(g, Move("p0.sokka", ((20.0, 8.0), (19.0, 8.0))), "R-M2", "start")


def test_r_m2_flying_model_ignores_impassable_terrain() -> None:
    g = _moves_game(p0__appa=(23.5, 8.5), p1__zuko=(40.0, 40.0))
    advance_to(g, "movement", 0)
    g.apply(Move("p0.appa", ((23.5, 8.5), (23.5, 16.5))))  # over the standing stone
    assert tuple(g.state.xy[m(g, "p0.appa").index]) == (23.5, 16.5)


def test_r_m2_limping_model_moves_half_its_move() -> None:
    g = _moves_game(p0__sokka=(10.0, 10.0), p1__zuko=(40.0, 40.0))
    advance_to(g, "movement", 0)
    m(g, "p0.sokka").limping = True
    assert_illegal(g, Move("p0.sokka", ((10.0, 10.0), (10.0, 13.5))), "R-M2", "allowance")
    g.apply(Move("p0.sokka", ((10.0, 10.0), (10.0, 13.0))))


def test_r_m2_legal_move_candidates_all_apply() -> None:
    g = _moves_game(p0__sokka=(10.0, 10.0), p0__toph=(30.0, 12.0), p1__zuko=(35.0, 24.0))
    advance_to(g, "movement", 0)
    moves = [a for a in g.legal_actions() if isinstance(a, Move)]
    assert {"p0.sokka", "p0.toph"} <= {a.model for a in moves}
    for a in moves:
        g.apply(a)
        assert g.undo()


# --- R-M3: no contact in the Move Phase; a model in melee stays ----------------------------------


def test_r_m3_no_model_moves_into_base_contact_with_an_enemy() -> None:
    g = _moves_game(p0__sokka=(10.0, 10.0), p1__zuko=(10.0, 15.0))
    advance_to(g, "movement", 0)
    assert_illegal(g, Move("p0.sokka", ((10.0, 10.0), (10.0, 14.0))), "R-M3", "contact")
    g.apply(Move("p0.sokka", ((10.0, 10.0), (10.0, 13.9))))  # 0.1" short of contact is fine


def test_r_m3_model_in_melee_does_not_move() -> None:
    g = _moves_game(p0__sokka=(10.0, 10.0), p0__katara=(5.0, 5.0), p1__zuko=(10.0, 11.0))
    advance_to(g, "movement", 0)
    assert not any(isinstance(a, Move) and a.model == "p0.sokka" for a in g.legal_actions())
    assert_illegal(g, Move("p0.sokka", ((10.0, 10.0), (10.0, 8.0))), "R-M3", "in melee")


# --- R-M4: Taking Cover -----------------------------------------------------------------------------


def _in_ruins():
    # Katara stands in old_ruins (medium cover) from the start of the Move Phase; Sokka in the open.
    g = _moves_game(p0__katara=(31.0, 32.0), p0__sokka=(10.0, 10.0), p1__zuko=(31.0, 24.0))
    return g


def test_r_m4_only_a_model_that_began_in_medium_or_dense_cover_may_take_cover() -> None:
    g = _in_ruins()
    advance_to(g, "take_cover", 0)
    assert TakeCover("p0.katara") in g.legal_actions()
    assert TakeCover("p0.sokka") not in g.legal_actions()
    assert_illegal(g, TakeCover("p0.sokka"), "R-M4", "did not begin")
    g.apply(TakeCover("p0.katara"))
    katara = m(g, "p0.katara")
    assert katara.taking_cover and katara.ap == 0 and "Takes Cover" in last_event(g, "take_cover").text


def test_r_m4_a_model_that_moved_may_not_take_cover() -> None:
    # Sokka waits in the bamboo grove so the avatar player has a Taking Cover decision to make.
    g = _moves_game(p0__katara=(31.0, 32.0), p0__sokka=(36.0, 18.0), p1__zuko=(20.0, 40.0))
    advance_to(g, "movement", 0)
    g.apply(Move("p0.katara", ((31.0, 32.0), (31.0, 33.0))))
    advance_to(g, "take_cover", 0)
    assert TakeCover("p0.katara") not in g.legal_actions()
    assert_illegal(g, TakeCover("p0.katara"), "R-M4", "moved")
    g.apply(TakeCover("p0.sokka"))


def test_r_m4_a_model_that_moves_into_cover_may_not_take_cover_this_turn() -> None:
    g = _moves_game(p0__katara=(31.0, 27.0), p0__sokka=(36.0, 18.0), p1__zuko=(20.0, 40.0))
    advance_to(g, "movement", 0)
    assert_illegal(g, TakeCover("p0.sokka"), "R-M2", "not allowed during")  # its own step, after movement
    g.apply(Move("p0.katara", ((31.0, 27.0), (31.0, 32.0))))
    assert g.cover(m(g, "p0.katara")) == 2
    advance_to(g, "take_cover", 0)
    assert m(g, "p0.katara").start_cover == 0
    assert_illegal(g, TakeCover("p0.katara"), "R-M4")


def test_r_m4_taking_cover_model_does_not_charge_and_is_shot_through_a_wall_shield() -> None:
    g = _in_ruins()
    advance_to(g, "take_cover", 0)
    g.apply(TakeCover("p0.katara"))
    advance_to(g, "shooting", 1)
    # Zuko's Fire Blast is a Shield Breaker: it strips armour and shields, never the 3+ Wall Shield.
    m(g, "p1.zuko").ap = 5
    start = len(g.dice.history)
    g.dice.force(1, 6, 1, 3)  # Perception 1 (passes), shoot 6 vs dodge 1, Wall Shield 3: saved
    g.apply(Shoot("p1.zuko", "p0.katara", "fire_blast"))
    # Katara may deflect the bending attack: decline to see the roll.
    if g.state.pending is not None:
        from skirmish.engine.core.actions import Decline

        g.apply(Decline())
    assert rolls_since(g, start) == [1, 6, 1, 3]
    assert [r.purpose for r in g.dice.history[start + 3 :]] == ["cover"]
    assert (
        m(g, "p0.katara").hp == m(g, "p0.katara").profile.hp
        and "cover save rolls 3, needs 3+: saved" in last_event(g, "save").text
    )
    advance_to(g, "charges", 0)
    assert not any(isinstance(a, Charge) and a.model == "p0.katara" for a in g.legal_actions())
    assert_illegal(g, Charge("p0.katara", "p1.zuko"), "R-M4", "Taking Cover")


def test_r_m4_taking_cover_lasts_until_the_start_of_the_next_move_phase() -> None:
    g = _in_ruins()
    advance_to(g, "take_cover", 0)
    g.apply(TakeCover("p0.katara"))
    advance_to(g, "movement", 0, turn=2)
    katara = m(g, "p0.katara")
    assert not katara.taking_cover and katara.ap > 0
    assert Move in {type(a) for a in g.legal_actions() if getattr(a, "model", None) == "p0.katara"}


# --- R-M5: the Perception test itself -------------------------------------------------------------


@pytest.mark.parametrize("roll, passes", [(1, True), (3, True), (4, False), (6, False)])
def test_r_m5_perception_test_passes_on_a_roll_at_or_below_perception(roll: int, passes: bool) -> None:
    g = _in_ruins()
    advance_to(g, "take_cover", 0)
    g.apply(TakeCover("p0.katara"))
    advance_to(g, "shooting", 1)
    g.dice.force(roll)  # Zuko's Perception is 3
    if passes:
        g.dice.force(1, 6)  # then the shot misses: 1 vs 6
    g.apply(Shoot("p1.zuko", "p0.katara", "fire_jab"))
    if g.state.pending is not None:
        from skirmish.engine.core.actions import Decline

        g.apply(Decline())
    perception = last_event(g, "perception")
    assert f"rolls {roll} vs 3" in perception.text
    assert ("passes" in perception.text) is passes
    assert bool(events(g, "shot")) is passes
