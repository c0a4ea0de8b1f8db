"""The mover kept per model (`effects.moving.mover_of`, R-M2): whenever it is handed out it is
the mover built afresh from the game — the same table, the game's own position and radius
arrays, the model's enemies, whether it flies now (a glide), who is out of play — through moves,
pushes, KOs, walls, refusals and undos, and its enemy row cannot be written."""

from __future__ import annotations

import numpy as np
import pytest

from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.core.actions import Move
from skirmish.engine.effects.moving import flies, mover_of
from skirmish.engine.game import Game


def _check(game: Game) -> None:
    s = game.state
    for m in s.models:
        kept = mover_of(game, m)
        assert kept.table is game.table and kept.index == m.index
        assert kept.xy is s.xy and kept.radii is s.radii
        assert kept.enemy is not None and np.array_equal(kept.enemy, game.enemy_mask(m))
        assert not kept.enemy.flags.writeable
        assert kept.flying == flies(m)
        assert kept.ignore is not None and np.array_equal(kept.ignore, [not o.active for o in s.models])


@pytest.mark.parametrize("scenario", ["open_battle", "siege_of_ba_sing_se", "the_pursuit"])
def test_r_m2_the_kept_mover_is_the_fresh_one(scenario: str) -> None:
    sc = find_scenario(scenario)
    troupes = [find_troupe(side.troupe) for side in sc.sides]
    for pol in ("heuristic", "random"):
        pols = [pol] * len(sc.sides)
        game = Game(sc, troupes, seed=6, bots=pols, record_log=False)
        bots = seat_bots(game, pols)
        steps = 0
        while not game.over and steps < 300:
            _check(game)
            bot = bots[game.state.active_player]
            assert bot is not None
            action = bot.choose(game)
            mover = next((m for m in game.state.models if m.player == game.state.active_player), None)
            if mover is not None:  # a refusal's snapshot and restore in between
                game.refusal(Move(mover.id, [[-5.0, -5.0], [-6.0, -6.0]]))
                _check(game)
            game.apply(action)
            if steps % 7 == 3 and game.can_undo:
                game.undo()
                _check(game)
                game.apply(action)
            steps += 1
