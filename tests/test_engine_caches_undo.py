"""The engine's per-arrangement caches (sight by pair, cover, height, distances, melee) stay true
across what moves the world backwards or changes the table: an Earth Wall raised (the table gains a
piece, R-B2/R-B3), `undo()` taking an action back, and a refused action (state unchanged, R-T1).

Each position of two golden replays (one raises Earth Walls, one pushes models) is checked against
answers computed from scratch; after every action that can be taken back it is undone and the
position checked again, then re-applied; and an illegal action is tried and refused before the next check.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from skirmish.battlefield.measure import CONTACT, edge_distances
from skirmish.battlefield.sight import sight_table
from skirmish.engine.core.actions import Move
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.effects.senses import sense_range
from skirmish.engine.game import Game
from skirmish.engine.replay import load_replay

GOLDEN = Path(__file__).parent / "golden"


def _check(game: Game, where: str) -> None:
    s = game.state
    models = s.models
    on = np.array([m.on_table for m in models])
    dist = edge_distances(s.xy, s.radii)
    assert np.array_equal(game.distances(), dist), where
    vis = np.zeros((len(models), len(models)), dtype=bool)
    vis[np.ix_(on, on)] = sight_table(
        game.table, s.xy[on], s.radii[on], block_bases=game.options.models_block_sight
    )
    for m in models:
        rng = sense_range(game, m)
        if rng > 0:
            vis[m.index] |= dist[m.index] <= rng
    got = np.array([[game.sees(a, b) for b in models] for a in models])
    assert np.array_equal(got, vis), where
    assert np.array_equal(game.sight(), vis), where
    rank, _ = game.table.cover_of(s.xy)
    heights = game.table.height_of(s.xy)
    for m in models:
        assert game.cover(m) == (0 if m.profile.flying or m.glide else int(rank[m.index])), where
        assert game.height(m) == float(heights[m.index]), where
        foes = [
            o.index
            for o in models
            if m.active
            and o.active
            and o is not m
            and game.enemies(m, o)
            and dist[m.index, o.index] <= CONTACT
        ]
        assert [o.index for o in game.melee_enemies(m)] == foes, where


@pytest.mark.parametrize("name", ["open_battle_random_s7_t3", "open_battle_heuristic_s11"])
def test_r_b2_r_b3_caches_survive_earth_walls_undo_and_refusals(name: str) -> None:
    replay = load_replay(GOLDEN / f"{name}.json")
    game = replay.new_game(record_log=False, transactional=True)
    walls = 0
    undone = 0
    for i, action in enumerate(replay.actions):
        where = f"{name} before action {i}"
        _check(game, where)
        before = len(game.table.pieces)
        game.apply(action)
        walls += len(game.table.pieces) > before
        _check(game, f"{name} after action {i}")
        if game.undo():  # possible when no die was rolled since (design principle 8)
            undone += 1
            _check(game, f"{name} after undoing action {i}")
            game.apply(action)
        mover = next(m for m in game.state.models if m.on_table)
        with pytest.raises(IllegalAction):  # off the table: refused, nothing changes
            game.apply(Move(mover.id, ((-50.0, -50.0), (-60.0, -60.0))))
        if game.over:
            break
    _check(game, f"{name} at the end")
    assert game.hash() == replay.final_hash
    assert undone > 10
    if name == "open_battle_random_s7_t3":
        assert walls > 0  # the case this test is for: the table gained a piece mid-game
