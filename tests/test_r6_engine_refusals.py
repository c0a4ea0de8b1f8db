"""The option checks' quiet refusals (`words=False`, R-M2, R-M3, R-M4, R-C3, R-E1): for every model
at every position of bot games in four scenarios, each `*_refusal` function refuses with
`words=False` exactly when it refuses with its sentence, and then answers `REFUSED`; the `can_*`
checks are `*_refusal(...) is None` (and a positive budget for a move)."""

from __future__ import annotations

import pytest

from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.core.errors import REFUSED
from skirmish.engine.effects.moving import move_budget
from skirmish.engine.game import Game
from skirmish.engine.steps.charges import can_charge, charger_refusal
from skirmish.engine.steps.end_phase import advance_refusal, can_advance
from skirmish.engine.steps.movement import can_move, can_take_cover, cover_refusal, move_refusal

PAIRS = (
    (move_refusal, lambda g, m: can_move(g, m) == (move_refusal(g, m) is None and move_budget(g, m) > 0)),
    (cover_refusal, lambda g, m: can_take_cover(g, m) == (cover_refusal(g, m) is None)),
    (charger_refusal, lambda g, m: can_charge(g, m) == (charger_refusal(g, m) is None)),
    (advance_refusal, lambda g, m: can_advance(g, m) == (advance_refusal(g, m) is None)),
)


@pytest.mark.parametrize(
    "scenario", ["open_battle", "four_kingdoms_melee", "siege_of_ba_sing_se", "the_pursuit"]
)
def test_quiet_refusals_refuse_exactly_when_the_worded_ones_do(scenario: str) -> None:
    sc = find_scenario(scenario)
    troupes = [find_troupe(side.troupe) for side in sc.sides]
    for pol in ("heuristic", "random"):
        pols = [pol] * len(sc.sides)
        game = Game(sc, troupes, seed=8, bots=pols, record_log=False)
        bots = seat_bots(game, pols)
        refused = steps = 0
        while not game.over and steps < 250:
            for m in game.state.models:
                for refusal_of, can in PAIRS:
                    worded, quiet = refusal_of(game, m), refusal_of(game, m, words=False)
                    assert (worded is None) == (quiet is None)
                    assert quiet is None or quiet is REFUSED
                    assert worded is not REFUSED
                    refused += worded is not None
                    assert can(game, m)
            bot = bots[game.state.active_player]
            assert bot is not None
            game.apply(bot.choose(game))
            steps += 1
        assert refused > 0
