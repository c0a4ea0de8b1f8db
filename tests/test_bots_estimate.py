"""Issue 16 item 2: bots judge ranges by eye (R-C1, R-C3) with a seeded error that grows with
distance, without touching the game's dice; `exact` (the `heuristic` policy) is unchanged.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from helpers_engine import (
    advance_to,
    events,
    keep_only,
    m,
    new_game,
    place,
    scenario,
    troupe,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.bots import make_bot
from skirmish.bots.estimate import SKILLS, DistanceJudge, deviate
from skirmish.bots.heuristic import GuessingBot, HeuristicBot
from skirmish.bots.runner import play_out, seat_bots
from skirmish.cli.main import main
from skirmish.engine.game import Game
from skirmish.sim.games import Matchup, Plan


def _aang_and_zuko(**opts: bool) -> Game:
    g = new_game(options=opts or None)
    keep_only(g, ["p0.aang", "p1.zuko"])
    # 11" edge to edge: beyond Air Blast's 6".
    place(g, {"p0.aang": (28.0, 8.0), "p1.zuko": (28.0, 20.0)})
    return g


def test_r_c1_distance_estimate_is_deterministic_seeded_and_grows_with_distance() -> None:
    judge = DistanceJudge(7, 0, "average")
    assert judge.guess(10.0, 2, 1, 5) == DistanceJudge(7, 0, "average").guess(10.0, 2, 1, 5)
    assert judge.guess(10.0, 2, 1, 5) != DistanceJudge(8, 0, "average").guess(10.0, 2, 1, 5)
    assert DistanceJudge(7, 0, "exact").guess(10.0, 2, 1, 5) == 10.0
    zs = np.array([deviate(3, 0, t, i, j) for t in range(1, 7) for i in range(10) for j in range(10)])
    assert abs(zs.mean()) < 0.15 and 0.85 < zs.std() < 1.15 and np.abs(zs).max() <= 3.0
    errors = {d: [abs(judge.guess(d, t, i, 9) - d) for t in range(1, 7) for i in range(40)] for d in (3, 20)}
    # The same looks, so the error is exactly proportional to the distance.
    assert abs(np.mean(errors[20]) / 20 - np.mean(errors[3]) / 3) < 1e-9 and np.mean(errors[3]) > 0
    assert SKILLS["exact"] == 0.0 and SKILLS["good"] < SKILLS["average"] < SKILLS["poor"]


def test_r_c1_guessing_bot_reads_no_dice_and_is_deterministic() -> None:
    g = _aang_and_zuko()
    advance_to(g, "shooting", 0)
    bot = make_bot("guess", g.seed, 0)
    assert isinstance(bot, GuessingBot)
    state, rolls = g.dice.state, len(g.dice.history)
    first = bot.choose(g)
    assert (g.dice.state, len(g.dice.history)) == (state, rolls)  # the game's dice are untouched
    assert make_bot("guess", g.seed, 0).choose(g) == first == bot.choose(g)


def _bot_game(policy: str, seed: int) -> Game:

    sc = scenario("open_battle", turns=4)
    g = Game(sc, [troupe(s.troupe) for s in sc.sides], seed=seed, bots=[policy, policy])
    play_out(g, seat_bots(g, [policy, policy]))
    return g


def test_r_c1_guessing_bots_waste_shots_exact_bots_never_do() -> None:
    exact = [_bot_game("heuristic", s) for s in (1, 2)]
    assert not any(events(g, "shot_wasted") for g in exact)
    guessed = [_bot_game("guess", s) for s in (1, 2)]
    assert any(events(g, "shot_wasted") for g in guessed)
    again = _bot_game("guess", 1)
    assert again.hash() == guessed[0].hash()  # same seed, same game


def test_r_c1_premeasure_makes_the_guessing_bot_read_exactly() -> None:
    g = _aang_and_zuko(premeasure=True)
    advance_to(g, "shooting", 0)
    a, z = m(g, "p0.aang"), m(g, "p1.zuko")
    assert GuessingBot(1, 0)._read(g, a, z) == g.distance(a, z) == HeuristicBot(1, 0)._read(g, a, z)


def test_r_c1_test_troupes_compare_bots_pairs_exact_and_guessing_bots_on_the_same_seeds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["test-troupes", "team_avatar", "zuko_hunting_party", "--games", "4", "--turns", "3"]
    with pytest.raises(SystemExit):
        main([*argv, "--compare-bots", "guess", "--workers", "1", "--json"])
    report = json.loads(capsys.readouterr().out)
    comp = report["compare"]
    assert report["bots"] == "heuristic" and comp["bots"] == "guess" and comp["games"] == 4
    assert sum(comp["paired"].values()) == 4 and -1.0 <= comp["difference"] <= 1.0
    # The same bots on both rows: the same games, no difference.
    with pytest.raises(SystemExit):
        main([*argv, "--compare-bots", "heuristic", "--workers", "1", "--json"])
    same = json.loads(capsys.readouterr().out)["compare"]
    assert same["difference"] == 0.0 and same["paired"]["only_original_won"] == 0


def test_r_c1_compare_bots_bad_policy_is_one_line_and_the_replay_command_names_the_bots(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["test-troupes", "team_avatar", "zuko_hunting_party", "--compare-bots", "psychic"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--compare-bots psychic" in err[0]
    sc = scenario("open_battle")
    a, b = troupe("team_avatar"), troupe("zuko_hunting_party")
    plan = Plan(sc, (Matchup(a, b, "team_avatar", "zuko_hunting_party", policy="guess"),), sc.options, 1)
    assert "--bots guess" in plan.command(0, 0)


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**63 - 1),
    player=st.integers(0, 7),
    turn=st.integers(1, 50),
    looker=st.integers(0, 40),
    target=st.integers(0, 40),
    true=st.floats(0.0, 100.0),
    skill=st.sampled_from(sorted(SKILLS)),
)
def test_r_c1_a_guess_is_never_negative_and_never_off_by_more_than_three_standard_errors(
    seed: int, player: int, turn: int, looker: int, target: int, true: float, skill: str
) -> None:
    judge = DistanceJudge(seed, player, skill)
    guess = judge.guess(true, turn, looker, target)
    assert guess >= 0.0 and abs(guess - true) <= 3.0 * SKILLS[skill] * true + 1e-9
    assert guess == DistanceJudge(seed, player, skill).guess(true, turn, looker, target)
