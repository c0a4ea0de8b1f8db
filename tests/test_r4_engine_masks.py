"""The out-of-play mask is kept per arrangement (R-C2, R-P5): it must always be the mask computed
afresh from the models (KO'd or removed), through KOs, removals, refusals and undos, and be
read-only so no caller can change the copy the next caller gets."""

from __future__ import annotations

import numpy as np
import pytest

from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.core.actions import Move
from skirmish.engine.game import Game


def _fresh(game: Game) -> np.ndarray:
    return np.array([not m.active for m in game.state.models], dtype=bool)


@pytest.mark.parametrize("scenario", ["open_battle", "the_pursuit", "avatar_duel"])
def test_r_c2_the_kept_out_of_play_mask_is_always_the_fresh_one(scenario: str) -> None:
    sc = find_scenario(scenario)
    troupes = [find_troupe(side.troupe) for side in sc.sides]
    pols = ["heuristic"] * len(sc.sides)
    game = Game(sc, troupes, seed=4, bots=pols, record_log=False)
    bots = seat_bots(game, pols)
    steps = 0
    while not game.over and steps < 400:
        gone = game.gone_mask()
        assert np.array_equal(gone, _fresh(game))
        assert not gone.flags.writeable
        bot = bots[game.state.active_player]
        assert bot is not None
        action = bot.choose(game)
        mover = next((m for m in game.state.models if m.player == game.state.active_player), None)
        if mover is not None:  # a refusal's snapshot and restore in between
            game.refusal(Move(mover.id, [[-5.0, -5.0], [-6.0, -6.0]]))
            assert np.array_equal(game.gone_mask(), _fresh(game))
        game.apply(action)
        if steps % 7 == 3 and game.can_undo:
            game.undo()
            assert np.array_equal(game.gone_mask(), _fresh(game))
            game.apply(action)
        steps += 1
    assert game.over
    assert np.array_equal(game.gone_mask(), _fresh(game))
