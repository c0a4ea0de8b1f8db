"""The sight kernel compiled pair by pair (R-B3, `battlefield.sight_jit`): on every pair of random
tables (bases in the open, at the blockers' and dense regions' corners, touching, and anywhere at
all, inside pieces too) and of every shipped table, the compiled fan clears exactly the pairs the
numpy kernel's fan clears, the compiled exact stage sees exactly where the kernel's exact stage
does, and the two together answer as the whole kernel; a pair it leaves PENDING is one the numpy
kernel decides. Through games, the engine's sight questions answered with it agree with sight
from scratch."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine_exact_shortcuts import _reference  # sight from scratch, Seismic Sense included
from test_r5_engine_sight_plain import _awkward

from skirmish.battlefield import sight_plain
from skirmish.battlefield.paths import jit
from skirmish.battlefield.sample import random_table, scatter_bases
from skirmish.battlefield.sight import DENSE_LIMIT, INSET, sight_pairs
from skirmish.battlefield.sight_plain import PENDING, compiled_fan, plain_fan, regions_of
from skirmish.battlefield.table import Table
from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.game import Game


def _kernel():  # type: ignore[no-untyped-def]
    if jit.compiled() is None:
        pytest.skip("numba is not installed here")
    sight_plain.EXACT_AFTER = 0  # load it now (the answers are the same either way)
    kernel = sight_plain.compiled()
    assert kernel is not None  # numba loaded: the sight kernel compiles and passes its check
    return kernel


def _agree(table: Table, xy: np.ndarray, radii: np.ndarray) -> tuple[int, int, int]:
    """Asserts the compiled stages equal the kernel's on every pair; (seen, blocked, pending)."""
    kernel = _kernel()
    if plain_fan(table, False) is None:
        return 0, 0, 0
    fast = compiled_fan(table)
    assert fast is not None
    i, j = np.triu_indices(len(xy), 1)
    pairs = list(zip(i.tolist(), j.tolist(), strict=True))
    regions = regions_of(table, xy)
    inside = np.array(regions, dtype=bool).reshape(len(regions), len(xy))
    xy = np.ascontiguousarray(xy, dtype=float)
    radii = np.ascontiguousarray(radii, dtype=float)
    fan_want = sight_pairs(table, xy, radii, i, j, False, exact=False).tolist()
    exact_want = sight_pairs(table, xy, radii, i, j, False, fan=False).tolist()
    whole_want = sight_pairs(table, xy, radii, i, j, False).tolist()
    fan_got = fast.run(kernel, xy, radii, pairs, inside, fan=True, exact=False, first=False)
    exact_got = fast.run(kernel, xy, radii, pairs, inside, fan=False, exact=True, first=False)
    whole_got = fast.run(kernel, xy, radii, pairs, inside, fan=True, exact=True, first=False)
    pending = 0
    for got, want in ((fan_got, fan_want), (exact_got, exact_want), (whole_got, whole_want)):
        for k, (g, w) in enumerate(zip(got, want, strict=True)):
            if g == PENDING:
                pending += 1
            else:
                assert g == int(w), (pairs[k], g, w)
    # With `first`, the answers up to the first pair seen, and none asked after it.
    first = fast.run(kernel, xy, radii, pairs, inside, fan=True, exact=False, first=True)
    stop = next((k for k, g in enumerate(fan_got) if g == 1), len(pairs) - 1)
    assert first[: stop + 1] == fan_got[: stop + 1]
    assert all(g == -1 for g in first[stop + 1 :])
    seen = sum(whole_want)
    return seen, len(pairs) - seen, pending


def test_r_b3_the_compiled_kernel_keeps_the_reference_constants() -> None:
    kernel = _kernel()
    assert (kernel.DENSE_LIMIT, kernel.INSET, kernel.PENDING) == (DENSE_LIMIT, INSET, PENDING)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["scatter", "awkward", "anywhere"]))
def test_r_b3_the_compiled_kernel_answers_as_the_numpy_kernel(seed: int, where: str) -> None:
    rng = np.random.default_rng(seed)
    table = random_table(rng, pieces=int(rng.integers(2, 14)))
    radii = rng.choice([0.5, 0.8, 1.0, 1.5], 10)
    if where == "anywhere":
        xy = rng.uniform(0.0, 48.0, (10, 2))
        xy[rng.integers(0, 10)] = xy[rng.integers(0, 10)]  # sometimes two bases on one spot
    else:
        xy = scatter_bases(table, rng, radii)
        if where == "awkward":
            xy = _awkward(table, rng, xy, radii)
    _agree(table, xy, radii)


def test_r_b3_the_compiled_kernel_on_every_shipped_table() -> None:
    from skirmish.data.catalogue import shipped

    rng = np.random.default_rng(12)
    seen = blocked = 0
    for path in shipped("scenarios"):
        table = Table.from_scenario(find_scenario(str(path)))
        radii = rng.choice([0.5, 0.8, 1.0], 12)
        for _ in range(4):
            xy = _awkward(table, rng, scatter_bases(table, rng, radii), radii)
            s, b, _ = _agree(table, xy, radii)
            seen += s
            blocked += b
    assert seen > 100 and blocked > 100  # both answers are exercised


def test_r_b3_pending_pairs_arise_and_are_the_kernels() -> None:
    """Bases standing inside a sight blocker: lines that meet its box but cross no edge start inside
    a union part's box, which only `shapely` can settle."""
    pending = 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        table = random_table(rng, pieces=10)
        radii = np.full(12, 0.5)
        xy = rng.uniform(0.0, 48.0, (12, 2))
        pending += _agree(table, xy, radii)[2]
    assert pending > 0


@pytest.mark.parametrize("scenario", ["open_battle", "four_kingdoms_melee", "siege_of_ba_sing_se"])
def test_r_b3_the_engine_with_the_compiled_kernel_agrees_with_sight_from_scratch(scenario: str) -> None:
    _kernel()
    sc = find_scenario(scenario)
    troupes = [find_troupe(side.troupe) for side in sc.sides]
    pols = ["random"] * len(sc.sides)
    game = Game(sc, troupes, seed=3, bots=pols, record_log=False)
    bots = seat_bots(game, pols)
    models = game.state.models
    rng = np.random.default_rng(8)
    steps = 0
    used = 0
    while not game.over and steps < 60:
        want = _reference(game)
        pairs = [(a, b) for a in models for b in models if a is not b]
        for _ in range(2):
            pick = [pairs[k] for k in rng.permutation(len(pairs))[: int(rng.integers(1, 6))]]
            assert game.sees_any(pick) == any(bool(want[a.index, b.index]) for a, b in pick)
        for k in rng.permutation(len(pairs))[:15].tolist():
            a, b = pairs[k]
            assert game.sees(a, b) == bool(want[a.index, b.index])
        assert (game.sight() == want).all()
        used += game.memo is not None and "compiled_fan" in game.table.memo
        bot = bots[game.state.active_player]
        assert bot is not None
        game.apply(bot.choose(game))
        steps += 1
    assert used  # the compiled kernel answered
