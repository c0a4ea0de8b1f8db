"""The option checks' table reads (R-C1, R-C2, R-C3, R-C6, R-P5): `melee_flags`, `active_flags`,
`enemy_rows`, `firing`, `open_targets` and `foe_pairs` answer what `in_melee`, `active`,
`enemies`, `can_fire`, `open_target` and `_foe` answer one model at a time, after every action
of bot games (moves, pushes, KOs in the shooting step, removals), with targets in melee shot at
or not."""

from __future__ import annotations

import pytest

from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.effects.shots import (
    can_fire,
    cheapest_shot,
    firing,
    open_targets,
    open_targets_reference,
    shot_specs,
)
from skirmish.engine.game import Game
from skirmish.engine.steps.charges import _foe, foe_pairs


def _check(game: Game) -> None:
    models = game.state.models
    assert game.melee_flags() == [game.in_melee(m) for m in models]
    assert game.active_flags() == [m.active for m in models]
    assert game.enemy_rows() == [[game.enemies(a, b) for b in models] for a in models]
    for p in range(len(game.state.players)):
        mine = game.player_models(p)
        assert mine == [m for m in models if m.player == p] and mine is not game.player_models(p)
        assert firing(game, mine) == [m for m in mine if can_fire(game, m)]
        assert open_targets(game, mine) == open_targets_reference(game, mine)
    assert open_targets(game, models) == open_targets_reference(game, models)
    for m in models:
        assert (cheapest_shot(game, m) <= m.ap) == any(sp.ap_cost <= m.ap for sp in shot_specs(game, m))
    assert foe_pairs(game, models) == [(m, t) for m in models for t in models if _foe(game, m, t)]


@pytest.mark.parametrize("into_melee", [False, True])
@pytest.mark.parametrize("scenario", ["open_battle", "four_kingdoms_melee", "escort_the_avatar"])
def test_r_c6_table_reads_equal_the_questions(scenario: str, into_melee: bool) -> None:
    sc = find_scenario(scenario)
    troupes = [find_troupe(side.troupe) for side in sc.sides]
    options = sc.options.model_copy(update={"shoot_into_melee": into_melee})
    for seed, pol in ((5, "heuristic"), (6, "random")):
        pols = [pol] * len(sc.sides)
        game = Game(sc, troupes, seed=seed, options=options, bots=pols, record_log=False, transactional=False)
        bots = seat_bots(game, pols)
        steps = 0
        while not game.over and steps < 250:
            _check(game)
            bot = bots[game.state.active_player]
            assert bot is not None
            game.apply(bot.choose(game))
            steps += 1
