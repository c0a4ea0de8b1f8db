"""Round 5 of issue 15, the random bot's listing: every fast path here answers what the slower
one it replaces answers, exactly, or replays would move.

- R-M2: the kernels' base rows made in `_obstacles`' own loop equal the rows made from the
  obstacle arrays (`_obstacles_numpy`'s set, which builds them the old way).
- R-C3: no charge path is shorter than `charge_floor`, so a charge judged out of reach by it
  alone (`charges.within_reach`) is one the search would have judged out of reach.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers_engine import same_obstacles
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.paths import Mover, charge_floor, charge_path
from skirmish.battlefield.paths.check import _legal_points, _off_table
from skirmish.battlefield.paths.kernel import _blocked
from skirmish.battlefield.paths.obstacles import _obstacles, _obstacles_numpy
from skirmish.battlefield.sample import random_table, scatter_bases


@pytest.mark.rule("R-M2")
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_the_obstacle_rows_made_in_the_loop_are_the_arrays_rows(seed: int, contact: bool) -> None:
    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=2)
    n = int(rng.integers(1, 30))
    radii = rng.choice([0.5, 0.8, 1.2, 2.5], n)
    xy = scatter_bases(t, rng, radii)
    enemy = (rng.random(n) < 0.5) if contact else None
    ignore = rng.random(n) < 0.2
    target = int(rng.integers(0, n)) if rng.random() < 0.3 else None
    mover = int(rng.integers(0, n))
    start = xy[mover] + rng.normal(0, 0.5, 2) if rng.random() < 0.5 else xy[mover]
    kw = {"flying": bool(rng.random() < 0.2), "ignore": ignore, "target": target}
    fast = _obstacles(t, mover, xy, radii, enemy, start, **kw)
    slow = _obstacles_numpy(t, mover, xy, radii, enemy, start, **kw)
    assert slow._py is None  # built the old way, from the arrays, on first use
    assert fast.bases_py() == slow.bases_py()
    assert fast.bases_arr().tobytes() == slow.bases_arr().tobytes()
    assert fast.bases_arr().shape == slow.bases_arr().shape == (len(fast.centres), 7)


@pytest.mark.rule("R-M2")
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_one_point_legality_is_the_batch_answer(seed: int) -> None:
    """`_legal_points` of one point (plain-float table bounds) equals the batch formula."""
    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=3)
    n = int(rng.integers(1, 20))
    radii = rng.choice([0.5, 0.8, 1.2, 2.5], n)
    xy = scatter_bases(t, rng, radii)
    obs = Mover(t, 0, xy, radii, rng.random(n) < 0.5).obstacles(xy[0])
    pts = np.concatenate(
        [rng.uniform(-2, max(t.width, t.height) + 2, (40, 2)), xy + rng.normal(0, 1.0, xy.shape)]
    )
    for p in pts:
        one = p[None, :]
        want = ~_off_table(t, one, obs.radius) & ~_blocked(obs, one, one)
        assert _legal_points(t, obs, one).tolist() == want.tolist()


@pytest.mark.rule("R-C3")
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_no_charge_path_is_shorter_than_its_floor(seed: int) -> None:
    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=int(rng.integers(0, 4)))
    n = int(rng.integers(2, 14))
    radii = rng.choice([0.5, 0.8, 1.2, 2.5], n)
    xy = scatter_bases(t, rng, radii)
    enemy = rng.random(n) < 0.5
    for target in range(1, n):
        mover = Mover(t, 0, xy, radii, enemy, flying=bool(rng.random() < 0.2))
        found = charge_path(mover, target)
        floor = charge_floor(mover, target)
        if found is not None:
            assert floor < found[1]


def test_within_reach_is_measure_against_the_reach_in_games() -> None:
    """R-C3 on real boards: every charge and counter-charge question of some random games gets
    the answer the full measurement gives (None beyond the reach, else the same path)."""
    from skirmish.bots.runner import play_out, seat_bots
    from skirmish.data.catalogue import find_scenario, find_troupe
    from skirmish.engine.game import Game
    from skirmish.engine.steps import charges

    asked = []
    real = charges.within_reach

    def spy(game, m, t, reach):  # type: ignore[no-untyped-def]
        got = real(game, m, t, reach)
        found = charges.measure(game, m, t)
        want = None if found is None or found[1] > reach else found
        assert (got is None) == (want is None)
        if got is not None and want is not None:
            assert got[0].tobytes() == want[0].tobytes() and got[1] == want[1]
        asked.append(got is None)
        return got

    charges.within_reach = spy  # type: ignore[assignment]
    try:
        for name in ("open_battle", "four_kingdoms_melee"):
            sc = find_scenario(name)
            troupes = [find_troupe(s.troupe) for s in sc.sides]
            bots = ["random"] * len(sc.sides)
            for seed in (1, 2):
                g = Game(sc, troupes, seed=seed, bots=bots, record_log=False, transactional=False)
                play_out(g, seat_bots(g, bots))
    finally:
        charges.within_reach = real  # type: ignore[assignment]
    assert len(asked) > 10 and any(asked)


@pytest.mark.rule("R-M2")
@settings(max_examples=200, deadline=None)
@given(
    st.floats(-50, 100, allow_nan=False),
    st.floats(-50, 100, allow_nan=False),
    st.floats(-50, 100, allow_nan=False),
    st.floats(-50, 100, allow_nan=False),
    st.floats(0, 20, allow_nan=False),
)
def test_the_listing_ends_and_heads_in_floats_are_numpys(
    sx: float, sy: float, gx: float, gy: float, b: float
) -> None:
    """The listing's straight ends and the straight line toward a goal, in plain floats, are the
    numpy formulas' numbers bit for bit (the moves listed, so the replays, stay the same)."""
    from skirmish.engine.steps.movement import _ends_xy, _head, _head_xy, straight_ends

    start, goal = np.array([sx, sy]), np.array([gx, gy])
    assert np.array(_ends_xy(sx, sy, b)).tobytes() == straight_ends(start, b).tobytes()
    want = _head(start, goal, b)
    got = _head_xy(sx, sy, goal, b)
    assert (got is None) == (want is None)
    if got is not None and want is not None:
        assert np.array(got).tobytes() == want.tobytes()
    near = goal + np.array([1e-10, -3e-10])  # the goal as good as reached: no head
    assert (_head_xy(gx, gy, near, b) is None) == (_head(goal, near, b) is None)


@pytest.mark.rule("R-M2")
@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.one_of(
                st.floats(-2, 50), st.sampled_from([0.5 - 1e-9, 29.5 + 1e-9, float("nan"), float("inf")])
            ),
            st.one_of(st.floats(-2, 50), st.sampled_from([0.5 - 1e-9, 21.5 + 1e-9, float("-inf")])),
        ),
        min_size=1,
        max_size=8,
    ),
    st.sampled_from([0.5, 0.8, 1.0]),
)
def test_a_short_paths_screens_in_floats_are_numpys(pts: list[tuple[float, float]], r: float) -> None:
    """`check_path`'s finite and table-edge screens of a short path in plain floats give the
    numpy tests' answers (the edge at r - 1e-9, NaN and infinities included)."""
    from skirmish.battlefield.paths.check import _finite, _leaves
    from skirmish.battlefield.table import Table

    table = Table(30.0, 22.0, [])
    p = np.array(pts, dtype=float)
    plain = p.tolist()
    assert _finite(plain) == bool(np.isfinite(p).all())
    if _finite(plain):
        assert _leaves(table, plain, r) == bool(_off_table(table, p, r).any())


@pytest.mark.rule("R-M2")
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1, 3, 24, 240]), st.booleans())
def test_the_compiled_point_test_is_legal_points(seed: int, k: int, fly: bool) -> None:
    """`jit.legal_points` (the planners' goal and ring tests) gives `_legal_points`' booleans for
    a goal point, a few points, a ring and a batch of rings (each batch size picks its point test
    as `_blocked` does), points near bases, terrain and the table's edge included."""
    pytest.importorskip("numba")
    from skirmish.battlefield.paths import jit

    if jit.compiled() is None:
        pytest.skip("the compiled path finder is off here")
    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=int(rng.integers(0, 5)))
    n = int(rng.integers(1, 40))
    radii = rng.choice([0.5, 0.8, 1.2, 2.5], n)
    xy = scatter_bases(t, rng, radii)
    obs = Mover(t, 0, xy, radii, rng.random(n) < 0.5, flying=fly).obstacles(xy[0])
    near = xy[rng.integers(0, n, k)] + rng.normal(0, 1.5, (k, 2))
    wide = rng.uniform(-1, max(t.width, t.height) + 1, (k, 2))
    corners = [np.asarray(t.polygons[j].exterior.coords) for j in t.impassable_index.tolist()]
    edge = near
    if corners:
        c = np.concatenate(corners)
        edge = c[rng.integers(0, len(c), k)] + rng.normal(0, float(radii[0]), (k, 2))
    for pts in (near, wide, edge, np.concatenate([near, wide, edge])[:k]):
        got = jit.legal_points(t, obs, pts)
        assert got is not None
        assert got.tolist() == _legal_points(t, obs, pts).tolist()


@pytest.mark.rule("R-M3")
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.integers(0, 5))
def test_an_obstacle_set_patched_after_a_move_is_the_fresh_set(seed: int, contact: bool, moves: int) -> None:
    """The set `Mover.obstacles` patches from the last arrangement's when a few bases moved is
    the one `_obstacles` builds afresh, bit for bit: moved friends and enemies (some moved to the
    touching boundary of the start, R-E2), the mover's own row, the out-of-play, the charge target
    (R-C3), a sign flip of a zero, and several moves in a row."""
    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=int(rng.integers(0, 4)))
    n = int(rng.integers(2, 24))
    radii = rng.choice([0.5, 0.8, 1.2, 2.5], n)
    xy = scatter_bases(t, rng, radii)
    mover = int(rng.integers(0, n))
    enemy = rng.random(n) < 0.5
    ignore = (rng.random(n) < 0.2) if rng.random() < 0.5 else None
    target = int(rng.integers(0, n)) if rng.random() < 0.3 else None
    fly = bool(rng.random() < 0.2)
    start = xy[mover].copy()
    for _ in range(1 + moves):
        m = Mover(t, mover, xy, radii, enemy, flying=fly, ignore=ignore)
        got = m.obstacles(start, target=target, contact=contact)
        want = _obstacles(
            t, mover, xy, radii, enemy if contact else None, start, flying=fly, ignore=ignore, target=target
        )
        assert same_obstacles(got, want)
        xy = xy.copy()
        for k in rng.choice(n, min(n, int(rng.integers(1, 5))), replace=False).tolist():
            roll = rng.random()
            if roll < 0.3:
                ang = float(rng.uniform(0, 2 * np.pi))
                gap = float(radii[k] + radii[mover]) + 0.01 + 1e-9 + float(rng.choice([-1e-12, 0.0, 1e-12]))
                xy[k] = start + gap * np.array([np.cos(ang), np.sin(ang)])
            elif roll < 0.4:  # a zero and its sign flipped: equal floats, other bytes
                xy[k, 0] = -0.0 if np.signbit(xy[k, 0]) is np.False_ and xy[k, 0] == 0.0 else 0.0
            else:
                xy[k] = xy[k] + rng.normal(0, 2.0, 2)


@pytest.mark.rule("R-B4")
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_remembered_landing_is_the_tables_answer(seed: int) -> None:
    """`check.landing` gives `Table.clear_of_impassable`'s booleans, asked once or again (from
    the table's record), and its answer is the caller's own copy."""
    from skirmish.battlefield.paths.check import landing

    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=int(rng.integers(0, 5)))
    pts = rng.uniform(-1, max(t.width, t.height) + 1, (int(rng.integers(0, 30)), 2))
    r = float(rng.choice([0.5, 1.0, 2.5]))
    want = t.clear_of_impassable(pts, r).tolist()
    first = landing(t, pts, r)
    first[:] = False  # the caller's copy: the record is untouched
    assert landing(t, pts, r).tolist() == want
    assert landing(t, pts[:1], r).tolist() == want[:1]


@pytest.mark.rule("R-M2")
@settings(max_examples=100, deadline=None)
@given(
    st.text(min_size=1, max_size=12),
    st.lists(st.tuples(st.floats(allow_nan=False), st.floats(allow_nan=False)), min_size=2, max_size=5),
)
def test_the_listings_moves_are_moves(model: str, pts: list[tuple[float, float]]) -> None:
    """`movement._move` makes the value `Move(...)` makes: the same type, fields, equality, hash
    and text (so the same replay bytes); it skips `__init__`, so Move must have no post-init."""
    import dataclasses

    from skirmish.engine.core.actions import Move
    from skirmish.engine.steps.movement import _move

    path = tuple(pts)
    got, want = _move(model, path), Move(model, path)
    assert type(got) is Move and got == want and hash(got) == hash(want) and repr(got) == repr(want)
    assert got.to_json() == want.to_json() and got.path is path and got.model is model
    assert [f.name for f in dataclasses.fields(Move)] == ["model", "path"]
    assert not hasattr(Move, "__post_init__")
    with pytest.raises(dataclasses.FrozenInstanceError):
        got.model = "other"  # type: ignore[misc]


@pytest.mark.rule("R-C3")
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_pieces_corners_kept_by_shape_are_its_corners(seed: int) -> None:
    """The convex corners kept for the process by a piece's exact shape (`tangents._corners`, so
    a new table holding the same pieces asks nothing again) are the corners worked out from the
    table's own polygon, bit for bit."""
    import shapely

    from skirmish.battlefield.paths.tangents import _convex_vertices

    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=int(rng.integers(1, 6)))
    for k, j in enumerate(t.impassable_index.tolist()):
        rings = []
        for part in shapely.get_parts(t.polygons[j]):
            part = shapely.geometry.polygon.orient(part, 1.0)
            for ring in [part.exterior, *part.interiors]:
                c = np.asarray(ring.coords, dtype=float)[:-1]
                e1 = c - np.roll(c, 1, axis=0)
                e2 = np.roll(c, -1, axis=0) - c
                rings.append(c[e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0] > 1e-12])
        want = np.concatenate(rings) if rings else np.empty((0, 2))
        got = _convex_vertices(t, k)
        assert got.shape == want.shape and got.tobytes() == want.tobytes()
        again = type(t)(t.width, t.height, t.pieces)  # a new table of the same pieces
        assert _convex_vertices(again, k).tobytes() == want.tobytes()
