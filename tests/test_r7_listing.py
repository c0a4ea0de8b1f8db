"""R-M2: a remembered movement listing (`movement._relisted`) is the list made afresh.

A model's list with the default goals is given again after other models moved when none of them
came near anything the list asked (its straight lines, its searched goal moves' goals, probes and
the bases they went around). Held here against the full recomputation (every listing, goal,
straight, search and obstacle record emptied) at every Move-step decision of random games on
several scenarios, and on random tables where friends move anywhere, near the lines or not.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.core.flow import Step
from skirmish.engine.core.state import ModelState
from skirmish.engine.effects.moving import flies, move_budget
from skirmish.engine.game import Game
from skirmish.engine.steps import movement
from skirmish.engine.steps.movement import can_move, model_moves

pytestmark = pytest.mark.rule("R-M2")

GAME_RECORDS = ("model_moves", "straight_listing", "goals")
TABLE_RECORDS = ("relisting", "move_toward")


@contextmanager
def _fresh(game: Game) -> Iterator[None]:
    """Every record the listing reads emptied for the block, and the game's own put back after
    (so the game goes on with the records it built, as it would have)."""
    t = game.table
    kept_game = {k: game.memo.pop(k) for k in GAME_RECORDS if k in game.memo}
    kept_table = {k: t.memo.pop(k) for k in TABLE_RECORDS if k in t.memo}
    kept_attrs = (t.search_memo, t.obstacle_memo)
    t.search_memo, t.obstacle_memo = {}, {}
    try:
        yield
    finally:
        for k in GAME_RECORDS:
            game.memo.pop(k, None)
        for k in TABLE_RECORDS:
            t.memo.pop(k, None)
        game.memo.update(kept_game)
        t.memo.update(kept_table)
        t.search_memo, t.obstacle_memo = kept_attrs


def _served(game: Game, m: ModelState) -> bool:
    """Whether the next listing of `m` comes from its remembered listing."""
    s = game.state
    kept = movement._relisted(
        game,
        m.index,
        move_budget(game, m),
        flies(m),
        s.xy,
        s.radii,
        game.enemy_mask(m),
        game.gone_mask(),
    )
    return kept is not None


def _check_all(game: Game, counts: dict[str, int]) -> None:
    for m in game.player_models(game.state.active_player):
        if not can_move(game, m):
            continue
        served = _served(game, m)
        got = model_moves(game, m)
        with _fresh(game):
            want = model_moves(game, m)
        assert got == want
        assert [mv.path for mv in got] == [mv.path for mv in want]  # the floats, bit for bit
        counts["served" if served else "made"] += 1


@pytest.mark.parametrize(
    ("scenario", "seed"),
    [("open_battle", 1), ("open_battle", 2), ("hold_the_zones", 3), ("four_kingdoms_melee", 4)],
)
def test_r_m2_a_remembered_listing_is_the_fresh_list_in_random_games(scenario: str, seed: int) -> None:
    sc = find_scenario(scenario)
    troupes = [find_troupe(side.troupe) for side in sc.sides]
    policies = ["random"] * len(sc.sides)
    game = Game(sc, troupes, seed=seed, bots=policies, record_log=False, transactional=False)
    bots = seat_bots(game, policies)
    counts = {"served": 0, "made": 0}
    while not game.state.over:
        if game.state.step == Step.MOVEMENT and game.state.pending is None:
            _check_all(game, counts)
        game.apply(bots[game.state.active_player].choose(game))
    assert counts["served"] > 0 and counts["made"] > 0, counts


def _game_at(seed: int) -> Game:
    sc = find_scenario("open_battle")
    troupes = [find_troupe(side.troupe) for side in sc.sides]
    game = Game(sc, troupes, seed=seed, bots=["random", "random"], record_log=False, transactional=False)
    bots = seat_bots(game, ["random", "random"])
    while game.state.step != Step.MOVEMENT or game.state.pending is not None:
        game.apply(bots[game.state.active_player].choose(game))
    return game


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(1, 40),
    moves=st.lists(
        st.tuples(st.integers(0, 63), st.floats(-8.0, 8.0), st.floats(-8.0, 8.0), st.booleans()),
        min_size=1,
        max_size=4,
    ),
)
def test_r_m2_a_remembered_listing_after_friends_moved_anywhere_is_the_fresh_list(
    seed: int, moves: list[tuple[int, float, float, bool]]
) -> None:
    """Friends are moved anywhere (at random, or to just beside one of the listed lines, at its
    clearance within 1e-9) without the rules' checks, and every friend still able to move is
    listed again through the records and afresh."""
    game = _game_at(seed)
    s = game.state
    active = [m for m in game.player_models(s.active_player) if can_move(game, m)]
    for m in active:
        model_moves(game, m)
    for pick, dx, dy, beside_line in moves:
        who = active[pick % len(active)]
        if beside_line and len(active) > 1:
            other = active[(pick + 1) % len(active)]
            if other is who:
                continue
            sx, sy = s.xy[other.index].tolist()
            budget = move_budget(game, other)
            ex, ey = movement._ends_xy(sx, sy, budget)[pick % 16]
            # A point at the clearance from the line's middle, on its normal, nudged by dx * 1e-10.
            lx, ly = ex - sx, ey - sy
            n = float(np.hypot(lx, ly)) or 1.0
            c = float(s.radii[who.index] + s.radii[other.index]) + dx * 1e-10
            s.xy[who.index] = (sx + 0.5 * lx - ly / n * c, sy + 0.5 * ly + lx / n * c)
        else:
            s.xy[who.index] = s.xy[who.index] + (dx, dy)
        game.moved()
        for m in active:
            if can_move(game, m):
                got = model_moves(game, m)
                with _fresh(game):
                    want = model_moves(game, m)
                assert [mv.path for mv in got] == [mv.path for mv in want]


@given(
    sx=st.floats(-100.0, 100.0),
    sy=st.floats(-100.0, 100.0),
    budget=st.floats(0.0, 20.0),
)
def test_the_flat_straight_ends_are_the_ends(sx: float, sy: float, budget: float) -> None:
    """`_ends_flat` is `_ends_xy` (and so numpy's `straight_ends`) flattened, bit for bit."""
    flat = movement._ends_flat(sx, sy, budget)
    pairs = movement._ends_xy(sx, sy, budget)
    assert np.array(flat).tobytes() == np.array(pairs).tobytes()
    start = np.array([sx, sy])
    assert np.array(flat).tobytes() == movement.straight_ends(start, budget).tobytes()
