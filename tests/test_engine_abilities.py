"""Abilities (R-P4) and bending reactions (R-X2) through `Game.apply` on the real table."""

from __future__ import annotations

from helpers_engine import advance_to, assert_illegal, keep_only, last_event, m, new_game, place, rolls_since

from skirmish.engine.core.actions import Decline, Move, React, Shoot, UseAbility


def test_r_p4_earth_wall_raises_impassable_sight_blocking_terrain_and_undo_takes_it_down() -> None:
    g = new_game()
    keep_only(g, ["p0.toph", "p1.zuko"])
    place(g, {"p0.toph": (10.0, 10.0), "p1.zuko": (10.0, 20.0)})
    advance_to(g, "movement", 0)
    toph, zuko = m(g, "p0.toph"), m(g, "p1.zuko")
    assert g.sees(toph, zuko)
    ap = toph.ap
    h = g.hash()
    g.apply(UseAbility("p0.toph", "earth_wall", at=(10.0, 14.0)))
    assert m(g, "p0.toph").ap == ap - 2 and len(g.state.terrain_added) == 1
    assert len(g.table.pieces) == len(g.base_table.pieces) + 1
    assert_illegal(g, Move("p0.toph", ((10.0, 10.0), (10.0, 15.0))), "R-M2", "impassable")
    assert_illegal(g, UseAbility("p0.toph", "earth_wall", at=(20.0, 10.0)), "R-P4")  # once per turn
    assert g.undo() and g.hash() == h and g.table is g.base_table
    g.apply(Move("p0.toph", ((10.0, 10.0), (10.0, 15.0))))


def test_r_p4_healing_waters_in_the_end_phase_restores_hp_up_to_the_maximum() -> None:
    g = new_game()
    keep_only(g, ["p0.katara", "p0.sokka", "p1.zuko"])
    place(g, {"p0.katara": (10.0, 10.0), "p0.sokka": (11.5, 10.0), "p1.zuko": (40.0, 30.0)})
    advance_to(g, "movement", 0)
    m(g, "p0.sokka").hp = 1
    advance_to(g, "advances", 0)
    assert UseAbility("p0.katara", "healing_waters", target="p0.sokka") in g.legal_actions()
    assert_illegal(
        g, UseAbility("p0.katara", "healing_waters", target="p1.zuko"), "R-P4", "not a valid target"
    )
    g.apply(UseAbility("p0.katara", "healing_waters", target="p0.sokka"))
    assert m(g, "p0.sokka").hp == 2 and "regains 1 HP" in last_event(g, "ability").text


def test_r_x2_air_shield_deflects_a_fire_jab_before_any_die_water_cannot() -> None:
    g = new_game()
    keep_only(g, ["p0.aang", "p0.katara", "p1.zuko"])
    place(g, {"p0.aang": (28.0, 8.0), "p0.katara": (34.0, 8.0), "p1.zuko": (28.0, 14.0)})
    advance_to(g, "shooting", 1)
    start = len(g.dice.history)
    g.apply(Shoot("p1.zuko", "p0.aang", "fire_jab"))
    assert g.state.pending is not None and g.state.pending.kind == "reaction" and g.state.active_player == 0
    assert React("p0.aang", "air_shield") in g.legal_actions()
    assert_illegal(g, React("p0.aang", "air_blast"), "R-X2")
    ap = m(g, "p0.aang").ap
    g.apply(React("p0.aang", "air_shield"))
    assert rolls_since(g, start) == [] and m(g, "p0.aang").ap == ap - 1
    assert "deflects" in last_event(g, "reaction").text and m(g, "p0.aang").hp == 3


def test_r_x2_declined_reaction_lets_the_shot_roll() -> None:
    g = new_game()
    keep_only(g, ["p0.aang", "p0.katara", "p1.zuko"])
    place(g, {"p0.aang": (28.0, 8.0), "p0.katara": (34.0, 8.0), "p1.zuko": (28.0, 14.0)})
    advance_to(g, "shooting", 1)
    g.apply(Shoot("p1.zuko", "p0.aang", "fire_jab"))
    g.dice.force(6, 1, 1)
    g.apply(Decline())
    assert m(g, "p0.aang").hp == 2 and last_event(g, "shot").text.endswith("hit")


def test_r_p4_air_blast_pushes_the_target_and_counts_as_the_models_shot() -> None:
    g = new_game()
    keep_only(g, ["p0.aang", "p1.zuko"])
    place(g, {"p0.aang": (28.0, 8.0), "p1.zuko": (28.0, 12.0)})
    advance_to(g, "shooting", 0)
    g.apply(UseAbility("p0.aang", "air_blast", target="p1.zuko"))
    y = float(g.state.xy[m(g, "p1.zuko").index][1])
    assert y > 12.0 + 1.0 and m(g, "p0.aang").fired
    assert_illegal(g, Shoot("p0.aang", "p1.zuko", "air_swipe"), "R-C6", "already fired")


def test_r_x2_a_model_weak_to_the_element_cannot_deflect_it() -> None:
    g = new_game()
    keep_only(g, ["p0.katara", "p1.zuko"])
    place(g, {"p0.katara": (28.0, 8.0), "p1.zuko": (28.0, 14.0)})
    advance_to(g, "shooting", 1)
    g.dice.force(1, 6)  # water is weak to fire: no deflection is offered, the shot is rolled (and misses)
    g.apply(Shoot("p1.zuko", "p0.katara", "fire_jab"))
    assert g.state.pending is None and last_event(g, "shot").text.endswith("dodged")
