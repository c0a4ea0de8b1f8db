"""Round 8, the engine's own work: sight questions asked without building their pairs (R-B3) and
the pair store synchronised from the placed models (R-B3, R-P5).

- `sees_any_of(askers, targets)` is `sees_any` of the flattened pairs, and `sees_each_of` is
  `sees_each` of them cut per asker: the same answers, and the same pair store afterwards (the
  same pairs solved), on the shooting step's own shooters and open targets and on random groups
  of models, after every action of bot games on three scenarios (open_battle has Seismic Sense).
- `PairSight.sync_placed` leaves the store as `sync` does: a game whose store is always
  synchronised by the full comparison (the reference) is fed the same actions, asked the same
  questions, and its store's positions, presence, known, seen and fanned pairs equal the game's
  after every action.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest

from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.core.state import ModelState
from skirmish.engine.effects.shots import cheapest_shot, firing, open_targets
from skirmish.engine.game import Game
from skirmish.engine.sight_pairs import PairSight

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


def _flat_bools(rows: list[list[bool]]) -> list[bool]:
    return [b for row in rows for b in row]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_r_b3_sees_any_of_and_sees_each_of_are_those_of_the_pairs(scenario: str) -> None:
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
                    assert _flat_bools(fast.sees_each_of(fa, ft)) == ref.sees_each(_flat(ra, rt))
                    assert _store(fast) == _store(ref)
                else:
                    assert game.sees_any_of(askers, targets) == game.sees_any(_flat(askers, targets))
                    each = game.sees_each_of(askers, targets)
                    assert [len(row) for row in each] == [len(ts) for ts in targets]
                    assert _flat_bools(each) == game.sees_each(_flat(askers, targets))
            bot = bots[game.state.active_player]
            assert bot is not None
            game.apply(bot.choose(game))
            steps += 1


def _reference_pair_sight(game: Game) -> PairSight:
    """`_pair_sight` as it was before `sync_placed`: every sync compares every position."""
    store = game._sight_store
    if store is not None and game._sight_store_version == game._version:
        return store
    models = game.state.models
    if store is None or store.table is not game.table or store.n != len(models):
        store = game._sight_store = PairSight(game.table, len(models), game.options.models_block_sight)
    store.sync(game.state.xy, [m.on_table for m in models])
    game._sight_store_version = game._version
    return store


@pytest.mark.parametrize("every", [1, 3])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_r_b3_sync_placed_leaves_the_store_as_sync(scenario: str, every: int) -> None:
    for seed, policy in ((5, "heuristic"), (6, "random")):
        game, bots = _game(scenario, seed, policy)
        ref, ref_bots = _game(scenario, seed, policy)
        ref._pair_sight = functools.partial(_reference_pair_sight, ref)  # type: ignore[method-assign]
        steps = 0
        synced = 0
        while not game.over and steps < 100:
            if steps % every == 0:
                # The same questions of both (a row of sight, then the whole table now and then).
                i = steps % len(game.state.models)
                for g in (game, ref):
                    m = g.state.models[i]
                    for t in g.state.models:
                        g.sees(m, t)
                    if steps % 7 == 0:
                        g.sight()
                assert _store(game) == _store(ref)
                synced += 1
            bot = bots[game.state.active_player]
            assert bot is not None
            action = bot.choose(game)
            # The reference's own bot asks its game the same questions and chooses alike.
            assert ref_bots[ref.state.active_player].choose(ref) == action
            game.apply(action)
            ref.apply(action)
            assert game.hash() == ref.hash()
            steps += 1
        assert synced > 20
