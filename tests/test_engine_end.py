"""End Phase on the real `open_battle` table (R-E1..R-E4), through `Game.apply` with forced dice."""

from __future__ import annotations

from helpers_engine import (
    advance_past,
    advance_to,
    advance_until,
    assert_illegal,
    events,
    keep_only,
    last_event,
    m,
    new_game,
    place,
    troupe,
    with_profile,
)

from skirmish.engine.core.actions import Advance, Disengage, EndStep, Move, Shoot


def _won_melee(sokka_profile: dict | None = None, extra: dict | None = None):
    """Sokka (28, 10) wins his melee against Zuko (28, 11, 1 HP left) in turn 1."""
    trs = [troupe("team_avatar"), troupe("zuko_hunting_party")]
    if sokka_profile:
        trs[0] = with_profile(trs[0], "sokka", **sokka_profile)
    g = new_game(troupes=trs)
    keep = {"p0.sokka": (28.0, 10.0), "p1.zuko": (28.0, 11.0), **(extra or {})}
    keep_only(g, keep)
    place(g, keep)
    advance_to(g, "charges", 0)
    m(g, "p1.zuko").hp = 1
    return g


# --- R-E1: advances ------------------------------------------------------------------------------


def test_r_e1_winner_of_a_melee_advances_up_to_6_inches_in_any_direction() -> None:
    g = _won_melee()
    g.dice.force(6, 1, 1)  # Sokka 7 vs Zuko 4; Zuko's save fails: KO'd
    advance_to(g, "advances", 0)
    sokka = m(g, "p0.sokka")
    assert m(g, "p1.zuko").removed and sokka.can_advance
    advances = [a for a in g.legal_actions() if isinstance(a, Advance)]
    assert advances and all(a.model == "p0.sokka" for a in advances)
    assert_illegal(g, Advance("p0.sokka", ((28.0, 10.0), (28.0, 16.5))), "R-E1", "allowance")
    g.apply(Advance("p0.sokka", ((28.0, 10.0), (22.0, 10.0))))  # sideways, 6"
    assert tuple(g.state.xy[m(g, "p0.sokka").index]) == (22.0, 10.0)
    assert 'advances 6.0"' in last_event(g, "advance").text


def test_r_e1_advance_may_not_end_in_base_contact_with_an_enemy() -> None:
    g = _won_melee(extra={"p1.iroh": (33.0, 10.0)})
    g.dice.force(6, 1, 1)
    advance_to(g, "advances", 0)
    assert_illegal(g, Advance("p0.sokka", ((28.0, 10.0), (32.0, 10.0))), "R-E1", "contact")
    g.apply(Advance("p0.sokka", ((28.0, 10.0), (31.9, 10.0))))


def test_r_e1_only_a_winner_advances_and_only_once() -> None:
    g = _won_melee(extra={"p0.katara": (10.0, 5.0)})
    g.dice.force(6, 1, 1)
    advance_to(g, "advances", 0)
    assert_illegal(g, Advance("p0.katara", ((10.0, 5.0), (10.0, 8.0))), "R-E1", "did not win")
    g.apply(Advance("p0.sokka", ((28.0, 10.0), (28.0, 7.0))))
    if g.state.step == "advances" and g.state.active_player == 0:
        assert_illegal(g, Advance("p0.sokka", ((28.0, 7.0), (28.0, 6.0))), "R-E1", "already advanced")
    assert not any(isinstance(a, Advance) and a.model == "p0.sokka" for a in g.legal_actions())


def test_r_e1_a_model_that_cannot_advance_does_not() -> None:
    g = _won_melee(sokka_profile={"advance": 0.0})
    g.dice.force(6, 1, 1)
    advance_past(g, "melee_casualties")
    assert m(g, "p1.zuko").removed and not m(g, "p0.sokka").can_advance
    assert not events(g, "advance")


def test_r_e1_no_advance_while_another_enemy_is_still_in_contact() -> None:
    g = _won_melee(extra={"p1.fire_soldier_1": (29.0, 10.0)})
    assert g.in_contact(m(g, "p0.sokka"), m(g, "p1.fire_soldier_1"))
    # Dice in model order: Sokka 6 (-1 shield: 6), Zuko 1 (+1 fans +1 friend: 5), soldier 1 (3).
    # Sokka beats both: Zuko's medium save 1 (KO'd), the soldier's medium 1 and buckler 1 (2 -> 1 HP).
    g.dice.force(6, 1, 1, 1, 1, 1)
    advance_past(g, "melee_casualties")
    assert m(g, "p1.zuko").ko and m(g, "p1.fire_soldier_1").hp == 1
    assert not m(g, "p0.sokka").can_advance and g.in_melee(m(g, "p0.sokka"))


# --- R-E2: Combat Distraction ------------------------------------------------------------------------


def _distraction_game(extra: dict | None = None):
    g = new_game()
    keep = {"p0.aang": (28.0, 10.0), "p1.zuko": (28.0, 11.0), **(extra or {})}
    keep_only(g, keep)
    place(g, keep)
    advance_to(g, "charges", 0)
    g.dice.force(3, 1)  # Aang 3+1 = 4, Zuko 1+2+1 = 4: a tie, both stay in melee
    advance_to(g, "advances", 0)
    assert g.in_melee(m(g, "p0.aang"))
    return g


def test_r_e2_combat_distraction_leaves_the_melee_moving_up_to_6_inches_away() -> None:
    g = _distraction_game()
    offered = [a for a in g.legal_actions() if isinstance(a, Disengage)]
    assert [a.model for a in offered] == ["p0.aang"]
    assert_illegal(g, Disengage("p0.aang", ((28.0, 10.0), (28.0, 3.5))), "R-E2", "allowance")
    g.apply(Disengage("p0.aang", ((28.0, 10.0), (28.0, 4.0))))
    assert not g.in_melee(m(g, "p0.aang")) and not g.in_melee(m(g, "p1.zuko"))
    assert "Combat Distraction" in last_event(g, "disengage").text


def test_r_e2_disengage_must_move_away_and_not_into_contact_with_another_enemy() -> None:
    g = _distraction_game(extra={"p1.iroh": (34.0, 10.0)})
    # Through Zuko's base: not away from him.
    assert_illegal(g, Disengage("p0.aang", ((28.0, 10.0), (28.0, 14.0))), "R-E2", "away")
    # Into contact with Iroh.
    assert_illegal(g, Disengage("p0.aang", ((28.0, 10.0), (33.0, 10.0))), "R-E2", "contact")
    g.apply(Disengage("p0.aang", ((28.0, 10.0), (32.5, 8.0))))


def test_r_e2_only_a_model_with_combat_distraction_in_melee_may_disengage() -> None:
    g = new_game()
    keep = {"p0.sokka": (28.0, 10.0), "p1.zuko": (28.0, 11.0), "p0.aang": (10.0, 10.0)}
    keep_only(g, keep)
    place(g, keep)
    advance_to(g, "charges", 0)
    g.dice.force(3, 1)  # Sokka 4 vs Zuko 4: tie
    advance_past(g, "melee_casualties")
    assert not any(isinstance(a, Disengage) for a in g.legal_actions())
    if g.state.step == "advances":
        assert_illegal(g, Disengage("p0.sokka", ((28.0, 10.0), (28.0, 6.0))), "R-E2", "Combat Distraction")
        assert_illegal(g, Disengage("p0.aang", ((10.0, 10.0), (10.0, 6.0))), "R-E2", "not in melee")
    assert g.in_melee(m(g, "p0.sokka"))


# --- R-E3: Battle Points -------------------------------------------------------------------------------


def test_r_e3_a_ko_scores_for_the_player_who_made_it_in_that_turn_only() -> None:
    g = new_game()
    keep_only(g, ["p0.sokka", "p1.zuko"])
    place(g, {"p0.sokka": (28.0, 8.0), "p1.zuko": (28.0, 16.0)})
    advance_to(g, "shooting", 0)
    m(g, "p1.zuko").hp = 1
    g.dice.force(6, 1, 1)
    g.apply(Shoot("p0.sokka", "p1.zuko", "boomerang"))
    advance_to(g, "movement", 0, turn=3)
    bp = {p.name: p.battle_points for p in g.state.players}
    assert bp == {"avatar": [1, 0], "fire_nation": [0, 0]}
    # the score line says why (issue 16): the KO that earned the point
    first = events(g, "score")[0].text
    assert first.startswith("Turn 1 Battle Points: avatar 1 (KO of Prince Zuko: +1; total 1)")


def test_r_e3_a_zone_held_by_one_side_alone_scores_each_turn_contested_scores_nothing() -> None:
    g = new_game()
    keep_only(g, ["p0.sokka", "p1.zuko"])
    # Both inside the shrine (21-27 x 21-27): contested in turn 1.
    place(g, {"p0.sokka": (22.0, 22.0), "p1.zuko": (26.0, 26.0)})
    advance_to(g, "movement", 1, turn=2)
    assert [p.battle_points for p in g.state.players] == [[0], [0]]
    g.apply(Move("p1.zuko", ((26.0, 26.0), (26.0, 31.0))))  # Zuko leaves the shrine
    advance_to(g, "movement", 0, turn=3)
    assert [p.battle_points for p in g.state.players] == [[0, 1], [0, 0]]
    assert g.result()["battle_points"] == {"avatar": 1, "fire_nation": 0}


def test_r_e3_ko_points_rule_option_sets_the_points_per_ko() -> None:
    g = new_game(options={"ko_points": 3})
    keep_only(g, ["p0.sokka", "p1.zuko"])
    place(g, {"p0.sokka": (28.0, 8.0), "p1.zuko": (28.0, 16.0)})
    advance_to(g, "shooting", 0)
    m(g, "p1.zuko").hp = 1
    g.dice.force(6, 1, 1)
    g.apply(Shoot("p0.sokka", "p1.zuko", "boomerang"))
    advance_to(g, "movement", 0, turn=2)
    assert g.state.players[0].battle_points == [3]


# --- R-E4: the turn ends, the next begins with the Move Phase ------------------------------------------


def test_r_e4_turn_ends_and_the_next_begins_with_the_move_phase_statuses_reset() -> None:
    g = new_game()
    keep_only(g, ["p0.sokka", "p1.zuko"])
    place(g, {"p0.sokka": (28.0, 8.0), "p1.zuko": (28.0, 16.0)})
    advance_to(g, "shooting", 0)
    g.dice.force(6, 1, 1)  # a hit: Zuko loses 1 HP
    g.apply(Shoot("p0.sokka", "p1.zuko", "boomerang"))
    zuko, sokka = m(g, "p1.zuko"), m(g, "p0.sokka")
    assert sokka.fired and zuko.lost_hp_turn and zuko.hp == 3
    while g.state.turn == 1:
        g.apply(EndStep())
    assert g.state.turn == 2 and g.state.phase == "move" and g.state.step == "movement"
    turn_log = [e for e in g.log if e.kind == "turn"]
    assert turn_log[-1].text.startswith("Turn 2 begins")
    zuko, sokka = m(g, "p1.zuko"), m(g, "p0.sokka")
    assert not sokka.fired and not zuko.lost_hp_turn and zuko.hp == 3
    assert [e.step for e in g.log if e.turn == 1][-1] in ("scoring", "turn_end", "advances")


def test_r_m4_a_model_taking_cover_that_wins_its_melee_does_not_advance() -> None:
    """R-M4: a model Taking Cover does not move until the next Move Phase, advances included."""
    g = new_game()
    keep_only(g, ["p0.sokka", "p1.fire_soldier_1"])
    place(g, {"p1.fire_soldier_1": (31.0, 31.0), "p0.sokka": (31.0, 26.0)})
    advance_to(g, "take_cover", 1)
    from skirmish.engine.core.actions import Charge, TakeCover

    g.apply(TakeCover("p1.fire_soldier_1"))
    advance_to(g, "charges", 0)
    m(g, "p0.sokka").hp = 1
    g.dice.force(1)  # Sokka's Perception test passes: he charges home
    g.apply(Charge("p0.sokka", "p1.fire_soldier_1"))
    g.dice.force(1, 6, 1)  # Sokka's die 1 loses to the soldier's 6; Sokka's light armour save 1 fails
    h = None
    advance_until(g, lambda g: g.state.step == "advances" or g.state.turn > 1)
    soldier = m(g, "p1.fire_soldier_1")
    assert m(g, "p0.sokka").ko
    if g.state.step == "advances":
        assert soldier.taking_cover
        assert not any(isinstance(a, Advance) and a.model == soldier.id for a in g.legal_actions())
        h = g.hash()
        if g.state.active_player == 1:
            assert_illegal(g, Advance(soldier.id, ((31.0, 31.0), (31.0, 34.0))), "R-M4", "Taking Cover")
    assert not events(g, "advance") and tuple(g.state.xy[soldier.index]) == (31.0, 31.0)
    assert h is None or g.hash() == h
