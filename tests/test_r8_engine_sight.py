"""Round 8, the engine's own work: sight questions asked without building their pairs (R-B3).

- `sees_any_of(askers, targets)` is `sees_any` of the flattened pairs: the same answer, and the
  same pair store afterwards (the same pairs solved), on the shooting step's own shooters and
  open targets and on random groups of models, after every action of bot games on three
  scenarios (open_battle has Seismic Sense).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.core.state import ModelState
from skirmish.engine.effects.shots import cheapest_shot, firing, open_targets
from skirmish.engine.game import Game

SCENARIOS = ["open_battle", "four_kingdoms_melee", "escort_the_avatar"]


def _game(name: str, seed: int, policy: str) -> tuple[Game, list[Any]]:
    sc = find_scenario(name)
    troupes = [find_troupe(side.troupe) for side in sc.sides]
    pols = [policy] * len(sc.sides)
    game = Game(sc, troupes, seed=seed, bots=pols, record_log=False, transactional=False)
    return game, seat_bots(game, pols)


def _store(game: Game) -> tuple[Any, ...]:
    s = game._pair_sight()
    return (s.pts, s.on, s.xy.tolist(), s.on_mask.tolist(), s.known, s.vis, s.fanned)


def _groups(game: Game, rng: random.Random) -> list[tuple[list[ModelState], list[list[ModelState]]]]:
    """The shooting step's shooters and open targets for each player, and a random group."""
    models = game.state.models
    out = []
    for p in range(len(game.state.players)):
        shooters = [m for m in firing(game, game.player_models(p)) if cheapest_shot(game, m) <= m.ap]
        out.append((shooters, open_targets(game, shooters)))
    askers = rng.sample(models, min(len(models), rng.randint(0, 4)))
    out.append((askers, [rng.sample(models, rng.randint(0, min(6, len(models)))) for _ in askers]))
    return out


def _flat(askers: list[ModelState], targets: list[list[ModelState]]) -> list[tuple[ModelState, ModelState]]:
    return [(a, t) for a, ts in zip(askers, targets, strict=True) for t in ts]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_r_b3_sees_any_of_is_sees_any_of_the_pairs(scenario: str) -> None:
    rng = random.Random(8)
    for seed, policy in ((3, "heuristic"), (4, "random")):
        game, bots = _game(scenario, seed, policy)
        steps = 0
        while not game.over and steps < 80:
            for askers, targets in _groups(game, rng):
                if steps % 20 == 0:
                    # Both on copies of the same position: the same answer and the same pairs solved.
                    fast, ref = game.fork(), game.fork()
                    fa = [fast.state.models[a.index] for a in askers]
                    ft = [[fast.state.models[t.index] for t in ts] for ts in targets]
                    ra = [ref.state.models[a.index] for a in askers]
                    rt = [[ref.state.models[t.index] for t in ts] for ts in targets]
                    assert fast.sees_any_of(fa, ft) == ref.sees_any(_flat(ra, rt))
                    assert _store(fast) == _store(ref)
                else:
                    assert game.sees_any_of(askers, targets) == game.sees_any(_flat(askers, targets))
            bot = bots[game.state.active_player]
            assert bot is not None
            game.apply(bot.choose(game))
            steps += 1
