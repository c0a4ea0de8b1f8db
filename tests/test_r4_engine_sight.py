"""Sight asked lazily (R-B3): the kernel's stages run apart give each pair the answer of the whole
kernel, whatever the batch, and the engine's questions (`sees`, `sees_any`, `sight`) asked in any
order, each running the exact stage only on the pairs it needs, agree with sight from scratch."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine_exact_shortcuts import _reference  # sight from scratch, Seismic Sense included

from skirmish.battlefield.sample import random_table, scatter_bases
from skirmish.battlefield.sight import sight_pairs
from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.game import Game


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_r_b3_the_stages_run_apart_answer_as_the_whole_kernel(seed: int, block: bool) -> None:
    rng = np.random.default_rng(seed)
    table = random_table(rng, pieces=int(rng.integers(4, 16)))
    radii = rng.choice([0.5, 0.8, 1.0], 12)
    xy = scatter_bases(table, rng, radii)
    i, j = np.triu_indices(len(xy), 1)
    whole = sight_pairs(table, xy, radii, i, j, block)
    # A random batch (any size, either side of the one-stage limit), in a random order.
    pick = rng.permutation(len(i))[: int(rng.integers(1, len(i) + 1))]
    bi, bj = i[pick], j[pick]
    fan = sight_pairs(table, xy, radii, bi, bj, block, exact=False)
    assert not (fan & ~whole[pick]).any()  # the fan only ever clears pairs that see
    open_ = np.flatnonzero(~fan)
    staged = fan.copy()
    if len(open_):
        staged[open_] = sight_pairs(table, xy, radii, bi[open_], bj[open_], block, fan=False)
    assert (staged == whole[pick]).all()


@pytest.mark.parametrize(
    ("scenario", "block"),
    [("open_battle", False), ("open_battle", True), ("siege_of_ba_sing_se", False), ("the_pursuit", False)],
)
def test_r_b3_questions_in_any_order_agree_with_sight_from_scratch(scenario: str, block: bool) -> None:
    sc = find_scenario(scenario)
    troupes = [find_troupe(side.troupe) for side in sc.sides]
    options = sc.options.model_copy(update={"models_block_sight": block})
    pols = ["random"] * len(sc.sides)
    game = Game(sc, troupes, seed=5, options=options, bots=pols, record_log=False)
    bots = seat_bots(game, pols)
    models = game.state.models
    rng = np.random.default_rng(7)
    steps = 0
    while not game.over and steps < 50:
        want = _reference(game)
        pairs = [(a, b) for a in models for b in models if a is not b]
        # Some `sees_any` questions on random groups of pairs, then single pairs in a random order,
        # each leaving pairs undecided behind it, then the whole table.
        for _ in range(3):
            group = [pairs[k] for k in rng.permutation(len(pairs))[: int(rng.integers(1, 8))]]
            assert game.sees_any(group) == any(want[a.index, b.index] for a, b in group)
        for k in rng.permutation(len(pairs))[:12].tolist():
            a, b = pairs[k]
            assert game.sees(a, b) == want[a.index, b.index]
        assert (game.sight() == want).all()
        bot = bots[game.state.active_player]
        assert bot is not None
        game.apply(bot.choose(game))
        steps += 1
