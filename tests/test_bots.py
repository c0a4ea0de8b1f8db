"""The bots: deterministic given the seed, always legal, and the heuristic beats the random bot.

The full 200-game figure is `heuristic_vs_random_win_rate` in `benchmarks/run.py`; this test plays a
smaller, fixed sample so a regression in the heuristic shows up in CI.
"""

from __future__ import annotations

import pytest

from skirmish.bots import make_bot
from skirmish.bots.runner import play_out, seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.game import Game


def _game(seed: int, policies: list[str]) -> Game:
    scenario = find_scenario("open_battle")
    troupes = [find_troupe(s.troupe) for s in scenario.sides]
    game = Game(scenario, troupes, seed=seed, bots=policies, record_log=False)
    return play_out(game, seat_bots(game, policies))


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_r_t4_bots_are_deterministic_given_the_seed(policy: str) -> None:
    a = _game(5, [policy, policy])
    b = _game(5, [policy, policy])
    assert a.over and b.over
    assert a.hash() == b.hash()
    assert a.history == b.history


def test_unknown_policy_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown bot policy 'clever'"):
        make_bot("clever", 0, 0)


def test_heuristic_beats_random_in_most_games() -> None:
    games = 12
    wins = 0
    for seed in range(games):
        seat = seed % 2
        policies = ["heuristic", "random"] if seat == 0 else ["random", "heuristic"]
        g = _game(1000 + seed, policies)
        wins += g.state.winning_team == g.state.players[seat].team
    assert wins >= 9, f"heuristic won only {wins} of {games}"
