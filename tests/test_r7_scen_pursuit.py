"""Round 7 (slow scenarios): the Pursuit heroes' bot answers the shots' and charges' "enemies that
matter" without working out every hero's goal, and they are `_scenario_hints`' (R-X3)."""

from __future__ import annotations

import pytest

from skirmish.bots.heuristic import HeuristicBot
from skirmish.bots.pursuit import PursuitHeroBot
from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.game import Game


@pytest.mark.parametrize("seed", [1, 2])
def test_r_x3_hint_targets_are_the_scenario_hints_targets(seed: int) -> None:
    sc = find_scenario("the_pursuit")
    game = Game(sc, [find_troupe(side.troupe) for side in sc.sides], seed=seed, record_log=False)
    bots = seat_bots(game, [side.bot or "heuristic" for side in sc.sides])
    checked = 0
    while not game.over:
        for bot in bots:
            assert isinstance(bot, HeuristicBot)
            for player in range(len(game.state.players)):
                assert bot._hint_targets(game, player) == bot._scenario_hints(game, player)[1]
                checked += isinstance(bot, PursuitHeroBot)
        bot = bots[game.state.active_player]
        assert bot is not None
        game.apply(bot.choose(game))
    assert checked > 50
