"""The remembered planner (`paths.move_toward`'s record, issue 15) and the partly re-checked straight
moves (`reach.straight_moves`) answer as fresh calls (R-M2); the plain-float obstacles equal the numpy
reference (R-M3), and so does the plain-float truncation of short paths (R-M2).

A record is reused when only friends moved and none of them came near what the call asked (the
goal and the rings around it, the search's probes and the bases it went around); these tests put
friends exactly there (on a path, on the goal's ring, grazing at the clearance) and compare with a
call on a table that remembers nothing, on random tables and in real games (Earth Walls raised,
actions undone).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from helpers_engine import same_obstacles
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.measure import CONTACT, truncate_path
from skirmish.battlefield.paths import Mover, check_straight_moves, move_toward
from skirmish.battlefield.paths.obstacles import _obstacles, _obstacles_numpy
from skirmish.battlefield.reach import straight_moves
from skirmish.battlefield.sample import random_table, scatter_bases
from skirmish.battlefield.table import Table
from skirmish.engine.effects.moving import flies, goals_among, move_budget
from skirmish.engine.game import Game
from skirmish.engine.replay import load_replay
from skirmish.engine.steps.movement import straight_ends

GOLDEN = Path(__file__).parent / "golden"


def _blank(table: Table) -> Table:
    """A copy of the table with every memo empty."""
    return Table(table.width, table.height, table.pieces)


def _fresh(mover: Mover, goal: np.ndarray, budget: float) -> np.ndarray | None:
    """`move_toward` on a copy of the table that remembers nothing."""
    return move_toward(mover.replace(table=_blank(mover.table)), goal, budget)


def _same(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and a.tobytes() == b.tobytes())


def _near(rng: np.random.Generator, pts: np.ndarray, gap: float) -> np.ndarray:
    """A centre `gap` from a random point of the polyline (or the point), square to its segment."""
    if len(pts) < 2:
        ang = float(rng.uniform(0, 2 * np.pi))
        return np.asarray(pts[0] + gap * np.array([np.cos(ang), np.sin(ang)]), dtype=float)
    i = int(rng.integers(0, len(pts) - 1))
    d = pts[i + 1] - pts[i]
    n = max(float(np.hypot(*d)), 1e-12)
    t = float(rng.uniform(0.0, 1.0))
    side = 1.0 if rng.uniform() < 0.5 else -1.0
    return np.asarray(pts[i] + t * d + side * gap * np.array([-d[1], d[0]]) / n, dtype=float)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_r_m2_remembered_move_toward_answers_as_a_fresh_call_after_friends_move(seed: int, fly: bool) -> None:
    rng = np.random.default_rng(seed)
    table = random_table(rng, pieces=10, width=30.0, height=30.0)
    radii = rng.choice([0.5, 0.8], 10)
    xy = scatter_bases(table, rng, radii)
    enemy = np.arange(10) >= 5
    gone = np.zeros(10, dtype=bool)
    budget = float(rng.choice([3.0, 6.0, 12.0]))
    goals = [xy[5].copy(), rng.uniform([1.0, 1.0], [29.0, 29.0])]  # an occupied goal and a point
    last: list[np.ndarray | None] = [None, None]
    for step in range(14):
        if step:
            k = int(rng.integers(1, 5))  # a friend; enemies are in the record's key
            xy = xy.copy()
            g = int(rng.integers(0, 2))
            clearance = float(radii[k] + radii[0])
            gap = clearance + float(rng.choice([-1e-3, -1e-9, 0.0, 1e-9, 1e-7, 1e-3, 0.5]))
            p = last[g]
            roll = rng.uniform()
            if roll < 0.45 and p is not None:
                xy[k] = _near(rng, p, gap)  # on or beside the path found
            elif roll < 0.7:
                ring = float(rng.uniform(0.0, 3.0))  # where the goal's rings are tested
                xy[k] = _near(rng, goals[g][None, :], ring + gap)
            else:
                xy[k] = rng.uniform([1.0, 1.0], [29.0, 29.0])
        mover = Mover(table, 0, xy, radii, enemy, flying=fly, ignore=gone.copy())
        for g, goal in enumerate(goals):
            remembered = move_toward(mover, goal, budget)
            assert _same(remembered, _fresh(mover, goal, budget)), f"step {step} goal {g}"
            last[g] = remembered


def test_r_m2_a_friend_stepping_onto_a_remembered_path_is_noticed() -> None:
    """A reuse is refused when a moved friend ends on the remembered path."""
    table = random_table(np.random.default_rng(3), pieces=0, width=30.0, height=30.0)
    radii = np.array([0.5, 0.5, 0.5])
    xy = np.array([[5.0, 5.0], [20.0, 20.0], [25.0, 5.0]])
    enemy = np.array([False, False, True])
    first = move_toward(Mover(table, 0, xy, radii, enemy), np.array([15.0, 5.0]), 6.0)
    assert first is not None and first.tolist() == [[5.0, 5.0], [11.0, 5.0]]
    xy = xy.copy()
    xy[1] = [8.0, 5.0]  # the friend steps onto the line
    second = move_toward(Mover(table, 0, xy, radii, enemy), np.array([15.0, 5.0]), 6.0)
    assert second is not None and len(second) > 2  # now it goes around
    xy = xy.copy()
    xy[1] = [20.0, 25.0]  # and away again, far from everything asked: the first answer
    third = move_toward(Mover(table, 0, xy, radii, enemy), np.array([15.0, 5.0]), 6.0)
    assert third is not None and third.tolist() == first.tolist()


def _check_planners(game: Game, where: str) -> int:
    """Every model of the side to act, toward each of its default goals, and its straight lines
    (`reach.straight_moves`, which re-checks only the lines a moved friend came near):
    remembered == fresh."""
    s = game.state
    asked = 0
    gone = game.gone_mask()
    for m in s.models:
        if not m.active or m.player != s.active_player:
            continue
        enemy = game.enemy_mask(m)
        mover = Mover(game.table, m.index, s.xy, s.radii, enemy, flying=flies(m), ignore=gone)
        budget = move_budget(game, m)
        start = s.xy[m.index][None, :]
        ends = straight_ends(s.xy[m.index], budget)
        kept = straight_moves(mover, start, ends, max_length=budget)
        fresh = check_straight_moves(mover.replace(table=_blank(game.table)), start, ends, max_length=budget)
        assert kept.tolist() == np.asarray(fresh).tolist(), f"{where} {m.id} straight"
        for goal in goals_among(game, m, enemy & ~gone):
            assert _same(move_toward(mover, goal, budget), _fresh(mover, goal, budget)), f"{where} {m.id}"
            asked += 1
    return asked


def test_r_m2_remembered_planner_in_real_games_with_earth_walls_and_undo() -> None:
    """Golden replays (one raises Earth Walls, R-B2): the planner asked at every position, after
    every action and after undoing it, answers as a fresh call on a table that remembers nothing."""
    asked = walls = undone = 0
    for name in ("open_battle_random_s7_t3", "open_battle_heuristic_s11"):
        replay = load_replay(GOLDEN / f"{name}.json")
        game = replay.new_game(record_log=False, transactional=True)
        for i, action in enumerate(replay.actions):
            asked += _check_planners(game, f"{name} before action {i}")
            before = len(game.table.pieces)
            game.apply(action)
            walls += len(game.table.pieces) > before
            asked += _check_planners(game, f"{name} after action {i}")
            if game.undo():
                undone += 1
                asked += _check_planners(game, f"{name} after undoing action {i}")
                game.apply(action)
    assert walls > 0 and undone > 0 and asked > 500


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.integers(0, 6))
def test_r_m3_plain_float_obstacles_equal_the_numpy_reference(seed: int, fly: bool, pieces: int) -> None:
    """`_obstacles` (plain floats) builds the arrays `_obstacles_numpy` builds, bit for bit: enemies
    grown by CONTACT (R-M3) unless touching at the start (R-E2, put exactly on the boundary) or the
    charge target (R-C3), the out-of-play left out, flyers without terrain (R-B4)."""
    rng = np.random.default_rng(seed)
    table = random_table(rng, pieces=pieces, width=30.0, height=30.0)
    n = int(rng.integers(1, 16))
    radii = rng.choice([0.5, 0.8, 1.0], n)
    xy = rng.uniform(0.0, 30.0, (n, 2))
    mover = int(rng.integers(0, n))
    start = xy[mover].copy() if rng.uniform() < 0.7 else rng.uniform(0.0, 30.0, 2)
    for k in range(n):  # some bases exactly at the touching boundary of the start, give or take
        if k != mover and rng.uniform() < 0.3:
            ang = float(rng.uniform(0, 2 * np.pi))
            gap = float(radii[k] + radii[mover]) + CONTACT + 1e-9 + float(rng.choice([-1e-12, 0.0, 1e-12]))
            xy[k] = start + gap * np.array([np.cos(ang), np.sin(ang)])
    enemy = None if rng.uniform() < 0.2 else rng.uniform(size=n) < 0.5
    ignore = None if rng.uniform() < 0.3 else rng.uniform(size=n) < 0.2
    target = None if rng.uniform() < 0.5 else int(rng.integers(0, n))
    args = (table, mover, xy, radii, enemy, start)
    fast = _obstacles(*args, flying=fly, ignore=ignore, target=target)
    ref = _obstacles_numpy(*args, flying=fly, ignore=ignore, target=target)
    assert same_obstacles(fast, ref)


def _truncate_numpy(path: np.ndarray, length: float) -> np.ndarray:
    """`truncate_path` as numpy computes it (the reference of the short-path version)."""
    p = np.asarray(path, dtype=float).reshape(-1, 2)
    if len(p) < 2 or length <= 0:
        return p[:1].copy()
    d = np.diff(p, axis=0)
    seg = np.sqrt((d * d).sum(-1))
    cum = np.concatenate([[0.0], np.cumsum(seg)])
    if length >= cum[-1]:
        return p.copy()
    i = int(np.searchsorted(cum, length, side="right")) - 1
    t = (length - cum[i]) / seg[i] if seg[i] > 0 else 0.0
    end = p[i] + t * d[i]
    return np.vstack([p[: i + 1], end[None, :]])


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 70))
def test_r_m2_short_path_truncation_equals_numpy(seed: int, k: int) -> None:
    """`truncate_path` in plain floats (short paths) gives numpy's points bit for bit (R-M2: a move
    cut to its allowance), with repeated points and cuts exactly at a vertex or at the end."""
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.0, 30.0, (k, 2))
    if k > 2 and rng.uniform() < 0.3:
        p[1] = p[0]  # a zero-length segment
    d = np.diff(p, axis=0)
    cum = np.concatenate([[0.0], np.cumsum(np.sqrt((d * d).sum(-1)))])
    for length in [*rng.uniform(-1.0, float(cum[-1]) + 1.0, 6).tolist(), *cum.tolist(), 0.0]:
        got = truncate_path(p, length)
        want = _truncate_numpy(p, length)
        assert got.shape == want.shape and got.tobytes() == want.tobytes(), (k, length)
