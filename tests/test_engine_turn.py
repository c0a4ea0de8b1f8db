"""The turn (R-T1..R-T4) on shipped scenarios: phase order, player order, many players, game end."""

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
    scenario,
    troupe,
)

from skirmish.bots.runner import play_out, seat_bots
from skirmish.data.scenario import Victory
from skirmish.engine.core.actions import Advance, Charge, EndStep, Move, Shoot, TakeCover
from skirmish.engine.game import Game
from skirmish.engine.rulebook import STANDARD

TURN = STANDARD.turn
STEP_INDEX = {s.name: i for i, s in enumerate(TURN)}

PHASES = ("move", "combat", "end")


# --- R-T1: Move Phase -> Combat Phase -> End Phase, steps in order ------------------------------------


def test_r_t1_the_turn_table_is_move_combat_end_with_the_seeds_steps() -> None:
    assert [s.phase for s in TURN] == sorted((s.phase for s in TURN), key=PHASES.index)
    assert [s.name for s in TURN] == [
        "ap_roll", "movement", "take_cover", "shooting", "ranged_casualties", "charges", "melee",
        "melee_casualties", "advances", "scoring", "turn_end",
    ]  # fmt: skip


def test_r_t1_a_bot_game_visits_the_steps_of_each_turn_in_order() -> None:
    g = new_game(seed=5, turns=2)
    bots = seat_bots(g, ["heuristic", "random"])
    observed: list[tuple[int, str]] = []
    while not g.over:
        observed.append((g.state.turn, g.state.step))
        g.apply(bots[g.state.active_player].choose(g))
    for source in (observed, [(e.turn, e.step) for e in g.log]):
        for turn in (1, 2):
            steps = [STEP_INDEX[st] for t, st in source if t == turn and st in STEP_INDEX]
            assert steps == sorted(steps), f"turn {turn} steps out of order"
    logged = {e.step for e in g.log if e.turn == 1}
    assert logged >= {"ap_roll", "movement", "shooting", "charges", "scoring"}
    turns = [e.turn for e in g.log]
    assert turns == sorted(turns) and g.state.turn == 2 and g.over


def test_r_t1_actions_outside_their_step_are_refused_naming_the_step_rule() -> None:
    g = new_game()
    keep_only(g, ["p0.sokka", "p1.zuko"])
    place(g, {"p0.sokka": (28.0, 8.0), "p1.zuko": (28.0, 16.0)})
    assert_illegal(g, Move("p0.sokka", ((28.0, 8.0), (28.0, 9.0))), "R-T1", "Deployment")
    advance_to(g, "movement", 0)
    assert_illegal(g, Shoot("p0.sokka", "p1.zuko", "boomerang"), "R-M2", "not allowed")
    assert_illegal(g, Charge("p0.sokka", "p1.zuko"), "R-M2", "not allowed")
    assert_illegal(g, Advance("p0.sokka", ((28.0, 8.0), (28.0, 9.0))), "R-M2", "not allowed")
    advance_to(g, "shooting", 0)
    assert_illegal(g, Move("p0.sokka", ((28.0, 8.0), (28.0, 9.0))), "R-C1", "not allowed")
    assert_illegal(g, TakeCover("p0.sokka"), "R-C1", "not allowed")
    advance_to(g, "charges", 0)
    assert_illegal(g, Shoot("p0.sokka", "p1.zuko", "boomerang"), "R-C3", "not allowed")


# --- R-T2: player order ---------------------------------------------------------------------------------


def test_r_t2_fixed_order_who_moves_first_goes_first_in_every_phase_and_turn() -> None:
    g = new_game()
    keep_only(g, ["p0.sokka", "p1.zuko"])
    place(g, {"p0.sokka": (28.0, 8.0), "p1.zuko": (28.0, 20.0)})
    for turn in (1, 2):
        for step in ("movement", "shooting", "charges"):
            advance_to(g, step, turn=turn)
            assert g.state.active_player == 0 and g.state.order == [0, 1]
            g.apply(EndStep())
            assert g.state.step == step and g.state.active_player == 1
    assert not events(g, "priority")


def test_r_t2_priority_roll_option_orders_players_highest_first_each_turn() -> None:
    g = new_game(options={"priority_roll": True})
    keep_only(g, ["p0.sokka", "p1.zuko"])
    place(g, {"p0.sokka": (28.0, 8.0), "p1.zuko": (28.0, 20.0)})
    g.dice.force(2, 5, 1, 1)  # priority: avatar 2, fire_nation 5; then the AP rolls
    end_steps(g, 2)
    assert g.state.turn == 1 and g.state.order == [1, 0]
    assert last_event(g, "priority").text == "Priority roll: fire_nation, avatar"
    assert [r.purpose for r in last_event(g, "priority").rolls] == ["priority avatar", "priority fire_nation"]
    assert g.state.step == "movement" and g.state.active_player == 1
    for step in ("shooting", "charges"):
        advance_to(g, step, turn=1)
        assert g.state.active_player == 1
    g.dice.force(6, 3)
    advance_to(g, "movement", turn=2)
    assert g.state.order == [0, 1] and g.state.active_player == 0


def test_r_t2_priority_roll_ties_are_rolled_again() -> None:
    g = new_game(options={"priority_roll": True})
    g.dice.force(4, 4, 1, 6)  # a tie at 4; the re-roll 1 vs 6
    end_steps(g, 2)
    assert g.state.order == [1, 0]
    assert [r.value for r in last_event(g, "priority").rolls] == [4, 4, 1, 6]


def test_r_t2_priority_roll_among_four_players_rerolls_only_the_tied() -> None:
    g = new_game("four_kingdoms_melee", options={"priority_roll": True})
    g.dice.force(3, 5, 5, 1, 2, 6)  # p1 and p2 tie at 5; re-roll: p1 2, p2 6
    end_steps(g, 4)
    assert g.state.order == [2, 1, 0, 3]


# --- R-T3: two or more players, sides ----------------------------------------------------------------


def test_r_t3_four_players_each_roll_ap_and_act_in_order() -> None:
    g = new_game("four_kingdoms_melee")
    assert len(g.state.players) == 4 and g.state.order == [0, 1, 2, 3]
    assert len({g.team(m_) for m_ in g.state.models}) == 4  # free for all: four teams
    g.dice.force(1, 2, 3, 1)
    end_steps(g, 4)
    assert [p.ap_roll for p in g.state.players] == [1, 2, 3, 1]
    for p in range(4):
        assert g.state.step == "movement" and g.state.active_player == p
        g.apply(EndStep())
    assert g.state.step != "movement"


def _allied_melee() -> Game:
    sc = scenario("four_kingdoms_melee")
    sides = [s.model_copy(update={"team": t}) for s, t in zip(sc.sides, (0, 0, 1, 1), strict=True)]
    sc = sc.model_copy(update={"sides": sides, "turns": 2})
    return Game(sc, [troupe(s.troupe) for s in sc.sides], seed=3)


def test_r_t3_allies_on_one_side_are_not_enemies() -> None:
    g = _allied_melee()
    bumi, zhao, pakku = m(g, "p0.bumi"), m(g, "p1.zhao"), m(g, "p2.pakku")
    assert not g.enemies(bumi, zhao) and g.enemies(bumi, pakku)
    keep_only(g, ["p0.bumi", "p1.zhao", "p2.pakku"], sentinels=["p3.gyatso"])
    place(g, {"p0.bumi": (20.0, 10.0), "p1.zhao": (24.0, 10.0), "p2.pakku": (22.0, 16.0)})
    advance_to(g, "shooting", 0)
    assert_illegal(g, Shoot("p0.bumi", "p1.zhao", "rock_fist"), "R-C1", "not an enemy")
    assert all(getattr(a, "target", None) != "p1.zhao" for a in g.legal_actions())
    advance_to(g, "charges", 0)
    assert_illegal(g, Charge("p0.bumi", "p1.zhao"), "R-C3", "not an enemy")


def test_r_t3_game_ends_when_one_side_of_allies_is_left() -> None:
    g = _allied_melee()
    keep_only(g, ["p0.bumi", "p1.zhao", "p2.pakku"], sentinels=[])
    place(g, {"p0.bumi": (20.0, 10.0), "p1.zhao": (24.0, 10.0), "p2.pakku": (22.0, 16.0)})
    advance_to(g, "shooting", 0)
    m(g, "p2.pakku").hp = 1
    g.dice.force(6, 1, 1)  # Bumi's rock fist hits Pakku; his furs fail: KO'd, the last of team 1
    g.apply(Shoot("p0.bumi", "p2.pakku", "rock_fist"))
    if g.state.pending is not None:
        from skirmish.engine.core.actions import Decline

        g.apply(Decline())
    advance_to(g, "turn_end") if not g.over else None
    assert g.over and g.state.result_reason == "only one side has models on the table"
    assert g.state.winning_team == 0 and g.state.winner == 0  # two players win together
    assert g.result()["winning_team"] == 0


# --- R-T4: game end and winner ------------------------------------------------------------------------


def _ko_game(turns: int = 6, **opts: object) -> Game:
    g = new_game(turns=turns, options=opts or None)
    keep_only(g, ["p0.sokka", "p1.zuko"])
    place(g, {"p0.sokka": (28.0, 8.0), "p1.zuko": (28.0, 16.0)})
    return g


def _ko_zuko(g: Game) -> None:
    advance_to(g, "shooting", 0)
    m(g, "p1.zuko").hp = 1
    g.dice.force(6, 1, 1)
    g.apply(Shoot("p0.sokka", "p1.zuko", "boomerang"))
    assert m(g, "p1.zuko").ko


def test_r_t4_game_ends_at_the_turn_limit_most_battle_points_wins() -> None:
    g = _ko_game(turns=1)
    _ko_zuko(g)
    while not g.over:
        g.apply(EndStep())
    assert g.state.turn == 1 and g.state.result_reason == "turn limit of 1 reached"
    r = g.result()
    assert r["winner"] == "avatar" and r["battle_points"] == {"avatar": 1, "fire_nation": 0}
    assert "most Battle Points (1 to 0)" in last_event(g, "game_over").text
    assert_illegal(g, EndStep(), "R-T4", "over")
    assert g.legal_actions() == []


def test_r_t4_game_ends_when_only_one_side_has_models_on_the_table() -> None:
    g = new_game()
    keep_only(g, ["p0.sokka", "p1.zuko"], sentinels=["p0.toph"])
    place(g, {"p0.sokka": (28.0, 8.0), "p1.zuko": (28.0, 16.0)})
    _ko_zuko(g)
    while not g.over:
        g.apply(EndStep())
    assert g.state.turn == 1 and g.state.result_reason == "only one side has models on the table"
    assert g.result()["winner"] == "avatar" and g.result()["kos"] == {"avatar": 1, "fire_nation": 0}


def test_r_t4_equal_battle_points_is_a_draw_unless_one_side_is_left_standing() -> None:
    g = _ko_game(turns=1)
    while not g.over:
        g.apply(EndStep())
    assert g.state.winning_team is None and g.state.winner is None
    assert g.result()["winner"] is None and "tied at 0" in last_event(g, "game_over").text


def test_r_t4_last_standing_victory_and_battle_point_tie_broken_by_who_is_left() -> None:
    scoring = scenario().scoring.model_copy(update={"ko_points": 0, "zones": []})
    sc = scenario("open_battle", victory=Victory.last_standing, scoring=scoring)
    g = Game(sc, [troupe("team_avatar"), troupe("zuko_hunting_party")], seed=2)
    keep_only(g, ["p0.sokka", "p1.zuko"], sentinels=[])
    place(g, {"p0.sokka": (28.0, 8.0), "p1.zuko": (28.0, 16.0)})
    _ko_zuko(g)
    while not g.over:
        g.apply(EndStep())
    assert g.state.winner == 0 and "last side standing" in last_event(g, "game_over").text


def test_r_t4_bot_games_always_end_within_the_turn_limit() -> None:
    for seed in (1, 2):
        g = new_game(seed=seed, turns=2)
        play_out(g, seat_bots(g, ["random", "random"]))
        assert g.over and g.state.turn <= 2


@pytest.mark.parametrize("turns", [1, 3])
def test_r_t4_turn_limit_follows_the_scenario(turns: int) -> None:
    g = new_game(turns=turns)
    keep_only(g, ["p0.sokka", "p1.zuko"], sentinels=[])
    place(g, {"p0.sokka": (5.0, 5.0), "p1.zuko": (43.0, 43.0)})
    while not g.over:
        g.apply(EndStep())
    assert g.state.turn == turns and g.state.result_reason == f"turn limit of {turns} reached"
