"""Refusals and undo (design principles 3 and 8): every illegal action raises `IllegalAction` naming
its rule and leaves the state hash, history, log and dice exactly as they were; undo takes back
actions but never a die."""

from __future__ import annotations

import pytest
from helpers_engine import advance_to, assert_illegal, keep_only, m, new_game, place

from skirmish.engine.core.actions import (
    Advance,
    Charge,
    CounterCharge,
    Decline,
    Deploy,
    Disengage,
    EndStep,
    Move,
    React,
    Shoot,
    TakeCover,
    UseAbility,
)
from skirmish.engine.game import Game


def _table() -> Game:
    g = new_game()
    keep_only(g, ["p0.sokka", "p0.katara", "p0.toph", "p1.zuko", "p1.fire_soldier_1"])
    place(g, {"p0.sokka": (28.0, 8.0), "p0.katara": (30.0, 8.0), "p0.toph": (10.0, 8.0),
              "p1.zuko": (28.0, 14.5), "p1.fire_soldier_1": (12.0, 40.0)})  # fmt: skip
    return g


def test_r_t1_deployment_refusals() -> None:
    g = new_game()
    assert_illegal(g, Deploy("p0.sokka", (24.0, 20.0)), "R-T1", "deployment zone")
    assert_illegal(g, Deploy("p1.zuko", (24.0, 44.0)), "R-T1", "another player")
    assert_illegal(g, Deploy("p0.sokka", tuple(g.state.xy[m(g, "p0.aang").index])), "R-M2", "overlap")
    assert_illegal(g, Deploy("p0.nobody", (5.0, 5.0)), "R-T1", "no model")
    g.apply(Deploy("p0.sokka", (5.0, 5.0)))
    assert tuple(g.state.xy[m(g, "p0.sokka").index]) == (5.0, 5.0)


MOVEMENT_REFUSALS = [
    (Move("p0.ghost", ((1.0, 1.0), (2.0, 2.0))), "R-M2"),
    (Move("p1.zuko", ((28.0, 14.5), (28.0, 18.0))), "R-M2"),
    (Move("p0.sokka", ((28.0, 8.0), (28.0, 30.0))), "R-M2"),
    (Move("p0.sokka", ((28.0, 8.0), (28.0, 13.5))), "R-M3"),
    (Move("p0.sokka", ((27.0, 8.0), (27.0, 9.0))), "R-M2"),
    (Move("p0.sokka", ((28.0, 8.0), (float("nan"), 9.0))), "R-M2"),
    (Move("p0.sokka", ((28.0, 8.0), (29.9, 8.0))), "R-M2"),  # onto Katara
    (Shoot("p0.sokka", "p1.zuko", "boomerang"), "R-M2"),
    (Charge("p0.sokka", "p1.zuko"), "R-M2"),
    (TakeCover("p0.sokka"), "R-M2"),
    (CounterCharge("p1.zuko", "p0.sokka"), "R-M2"),
    (Decline(), "R-M2"),
    (React("p0.katara", "water_deflect"), "R-M2"),
    (Advance("p0.sokka", ((28.0, 8.0), (28.0, 9.0))), "R-M2"),
    (Disengage("p0.sokka", ((28.0, 8.0), (28.0, 7.0))), "R-M2"),
    (Deploy("p0.sokka", (5.0, 5.0)), "R-M2"),
    (UseAbility("p0.toph", "earth_wall"), "R-P4"),  # needs a point
    (UseAbility("p0.toph", "earth_wall", at=(10.0, 40.0)), "R-P4"),  # out of range
    (UseAbility("p0.toph", "earth_shove", target="p1.zuko"), "R-P4"),  # shooting-step ability
    (UseAbility("p0.toph", "flying_kick"), "R-P4"),  # not hers
    (UseAbility("p0.sokka", "boomerang_throw", target="p1.zuko"), "R-C1"),  # declared with Shoot
]


@pytest.mark.parametrize("action, rule", MOVEMENT_REFUSALS, ids=[repr(a) for a, _ in MOVEMENT_REFUSALS])
def test_r_m2_refused_actions_in_the_movement_step_change_nothing(action, rule: str) -> None:
    g = _table()
    advance_to(g, "movement", 0)
    assert_illegal(g, action, rule)


COMBAT_REFUSALS = [
    (Shoot("p0.sokka", "p1.zuko", "sword"), "R-P3"),  # a melee weapon
    (Shoot("p0.sokka", "p1.zuko", "bow"), "R-P3"),  # not his
    (Shoot("p0.sokka", "p0.katara", "boomerang"), "R-C1"),  # a friend
    (Shoot("p0.sokka", "p1.nobody", "boomerang"), "R-C1"),
    (Shoot("p1.zuko", "p0.sokka", "fire_jab"), "R-C1"),  # not his turn
    (Shoot("p0.katara", "p1.zuko", "water_whip"), "R-P4"),  # costs AP she has not got (set to 0)
    (Move("p0.sokka", ((28.0, 8.0), (28.0, 9.0))), "R-C1"),
]


@pytest.mark.parametrize("action, rule", COMBAT_REFUSALS, ids=[repr(a) for a, _ in COMBAT_REFUSALS])
def test_r_c1_refused_actions_in_the_shooting_step_change_nothing(action, rule: str) -> None:
    g = _table()
    advance_to(g, "shooting", 0)
    m(g, "p0.katara").ap = 0
    assert_illegal(g, action, rule)


def test_r_c3_refused_charges_change_nothing() -> None:
    g = _table()
    advance_to(g, "charges", 0)
    assert_illegal(g, Charge("p0.sokka", "p0.katara"), "R-C3", "not an enemy")
    assert_illegal(g, Charge("p0.sokka", "p1.ghost"), "R-C3", "no model")
    assert_illegal(g, CounterCharge("p1.zuko", "p0.sokka"), "R-C3")
    assert_illegal(g, Decline(), "R-C3")
    g.apply(Charge("p0.sokka", "p1.zuko"))
    assert_illegal(g, Charge("p0.sokka", "p1.fire_soldier_1"), "R-C3")


# --- undo (principle 8) ----------------------------------------------------------------------------


def test_undo_takes_back_moves_in_reverse_and_restores_the_hash() -> None:
    g = _table()
    advance_to(g, "movement", 0)
    assert not g.can_undo and not g.undo()
    h0 = g.hash()
    g.apply(Move("p0.sokka", ((28.0, 8.0), (26.0, 8.0))))
    h1 = g.hash()
    g.apply(Move("p0.katara", ((30.0, 8.0), (32.0, 8.0))))
    assert g.can_undo and g.undo()
    assert g.hash() == h1 and tuple(g.state.xy[m(g, "p0.katara").index]) == (30.0, 8.0)
    assert g.undo() and g.hash() == h0
    assert tuple(g.state.xy[m(g, "p0.sokka").index]) == (28.0, 8.0)
    # Undone actions can be played again, and differently.
    g.apply(Move("p0.sokka", ((28.0, 8.0), (28.0, 5.0))))
    assert tuple(g.state.xy[m(g, "p0.sokka").index]) == (28.0, 5.0)


def test_undo_of_end_step_returns_the_turn_to_the_player_who_passed() -> None:
    g = _table()
    advance_to(g, "movement", 0)
    hist = len(g.history)
    g.apply(EndStep())
    assert g.state.active_player == 1
    assert g.undo() and g.state.active_player == 0 and len(g.history) == hist


def test_undo_stops_at_dice_a_roll_is_a_commit_point() -> None:
    g = _table()
    advance_to(g, "shooting", 0)
    g.dice.force(1, 6)
    g.apply(Shoot("p0.sokka", "p1.zuko", "boomerang"))  # rolls dice
    assert not g.can_undo and not g.undo()
    g2 = _table()
    advance_to(g2, "movement", 1)  # passing into the next turn rolls the AP dice: no undo past it
    g2.apply(Move("p1.zuko", ((28.0, 14.5), (28.0, 19.0))))
    assert g2.undo()
    while g2.state.step != "shooting":
        g2.apply(EndStep())
    assert g2.can_undo  # no dice since the move
    advance_to(g2, "movement", 0, turn=2)
    assert not g2.can_undo


def test_undo_restores_the_log_and_the_dice_position() -> None:
    g = _table()
    advance_to(g, "movement", 0)
    log, rolls, state = len(g.log), len(g.dice.history), g.dice.state
    g.apply(Move("p0.sokka", ((28.0, 8.0), (26.0, 8.0))))
    g.undo()
    assert (len(g.log), len(g.dice.history), g.dice.state) == (log, rolls, state)
