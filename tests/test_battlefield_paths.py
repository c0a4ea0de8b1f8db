"""R-M2, R-M3, R-C3, R-E1/R-E2 and R-B4 movement: whole paths checked, shortest paths found."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.measure import CONTACT, edge_distances, path_length
from skirmish.battlefield.paths import (
    Mover,
    charge_path,
    check_path,
    check_straight_moves,
    move_toward,
    retreat_path,
    shortest_path,
)
from skirmish.battlefield.sample import random_table, scatter_bases
from skirmish.battlefield.table import Table
from skirmish.data.catalogue import content_root
from skirmish.data.loader import load_scenario

ROOT = Path(__file__).resolve().parents[1]
CONTENT = content_root()


@pytest.fixture(scope="module")
def table() -> Table:
    return Table.from_scenario(load_scenario(CONTENT / "scenarios" / "open_battle.toml"))


# Mover south of the standing stone (22..25 x 12..15), an enemy north of it, a friend aside.
XY = np.array([[23.5, 10.0], [23.5, 17.0], [28.0, 10.0]])
R = np.array([0.5, 0.5, 0.5])
EN = np.array([False, True, False])


def independent_violation(
    table: Table,
    path: np.ndarray,
    mover: int,
    xy: np.ndarray,
    radii: np.ndarray,
    enemy: np.ndarray,
    target: int | None,
    ignore: np.ndarray | None = None,
    flying: bool = False,
) -> str | None:
    """Shapely-based re-check of an accepted path, sampled densely: what the engine must never allow."""
    r = radii[mover]
    line = shapely.LineString(path) if len(path) > 1 else shapely.Point(path[0])
    if not flying:
        for i in np.flatnonzero(table.impassable):
            if shapely.distance(line, table.polygons[i]) < r - 1e-5:
                return f"terrain {table.names[i]}"
    n = max(2, int(path_length(path) / 0.02))
    lens = np.linspace(0, path_length(path), n)
    seg = np.sqrt((np.diff(path, axis=0) ** 2).sum(-1)) if len(path) > 1 else np.zeros(0)
    cum = np.concatenate([[0], np.cumsum(seg)])
    pts = (
        np.array([path[0]])
        if len(path) == 1
        else np.array([np.interp(lens, cum, path[:, 0]), np.interp(lens, cum, path[:, 1])]).T
    )
    if ((pts < r - 1e-6) | (pts > np.array([table.width, table.height]) - r + 1e-6)).any():
        return "off table"
    for j in range(len(xy)):
        if j == mover or (ignore is not None and ignore[j]):
            continue
        d = np.sqrt(((pts - xy[j]) ** 2).sum(-1)) - r - radii[j]
        if (d < -1e-5).any():
            return f"overlaps base {j}"
        start_touch = d[0] <= CONTACT
        if enemy[j] and j != target and not start_touch and (d <= CONTACT - 1e-5).any():
            return f"contacts enemy {j}"
    return None


def test_r_m2_straight_through_impassable_terrain_is_refused(table: Table) -> None:
    p = check_path(
        Mover(table, 0, XY[[0, 2]], R[:2], EN[[0, 2]]), np.array([[23.5, 10], [23.5, 20]]), max_length=12
    )
    assert p is not None and p.rule == "R-M2" and "standing stone" in p.message


def test_r_m2_shortest_path_goes_around_and_is_legal(table: Table) -> None:
    xy, r, en = XY[[0, 2]], R[:2], EN[[0, 2]]
    path = shortest_path(Mover(table, 0, xy, r), np.array([23.5, 20.0]))
    assert path is not None
    # Around the 3" wide stone: longer than the 10" straight line, shorter than a wide detour.
    assert 10.5 < path_length(path) < 12.5
    assert check_path(Mover(table, 0, xy, r, en), path, max_length=path_length(path)) is None
    assert independent_violation(table, path, 0, xy, r, en, None) is None
    p = check_path(Mover(table, 0, xy, r, en), path, max_length=path_length(path) - 0.1)
    assert p is not None and "allowance" in p.message  # path length is what counts


def test_r_m2_paths_never_cut_through_bases(table: Table) -> None:
    xy = np.array([[10.0, 5.0], [10.0, 8.0]])
    r = np.array([0.5, 0.5])
    en = np.array([False, False])
    p = check_path(Mover(table, 0, xy, r, en), np.array([[10, 5], [10, 11]]), max_length=6)
    assert p is not None and "base of model 1" in p.message
    path = shortest_path(Mover(table, 0, xy, r), np.array([10.0, 11.0]))
    assert path is not None and len(path) > 2
    assert check_path(Mover(table, 0, xy, r, en), path, max_length=7) is None
    # Ending on top of a base or off the table is refused.
    assert check_path(Mover(table, 0, xy, r, en), np.array([[10, 5], [10.5, 8]]), max_length=6) is not None
    assert check_path(Mover(table, 0, xy, r, en), np.array([[10, 5], [10, 0.2]]), max_length=6) is not None


def test_r_m3_no_base_contact_with_an_enemy_in_the_move_phase(table: Table) -> None:
    xy = np.array([[10.0, 5.0], [10.0, 8.0]])
    r = np.array([0.5, 0.5])
    en = np.array([False, True])
    p = check_path(Mover(table, 0, xy, r, en), np.array([[10, 5], [10, 6.995]]), max_length=6)
    assert p is not None and p.rule == "R-M3"
    assert check_path(Mover(table, 0, xy, r, en), np.array([[10, 5], [10, 6.98]]), max_length=6) is None
    # The same end as a charge at that target is fine (R-C3).
    assert (
        check_path(
            Mover(table, 0, xy, r, en), np.array([[10, 5], [10, 6.995]]), max_length=6, contact_target=1
        )
        is None
    )


def test_r_c3_charge_distance_is_the_path_around_a_wall(table: Table) -> None:
    got = charge_path(Mover(table, 0, XY, R, EN), 1)
    assert got is not None
    path, length = got
    # Straight-line edge distance is 6" but the stone is in the way: the path is longer.
    assert edge_distances(XY, R)[0, 1] == pytest.approx(6.0)
    assert 6.5 < length < 9.0
    end_gap = np.hypot(*(path[-1] - XY[1])) - 1.0
    assert 0 <= end_gap <= CONTACT
    assert check_path(Mover(table, 0, XY, R, EN), path, max_length=length, contact_target=1) is None
    assert independent_violation(table, path, 0, XY, R, EN, 1) is None


def test_r_c3_failed_charge_moves_the_full_distance_toward_the_target(table: Table) -> None:
    path, length = charge_path(Mover(table, 0, XY, R, EN), 1)  # type: ignore[misc]
    assert length > 6.0
    moved = move_toward(Mover(table, 0, XY, R, EN), XY[1], 6.0)
    assert moved is not None
    assert path_length(moved) == pytest.approx(6.0)
    assert check_path(Mover(table, 0, XY, R, EN), moved, max_length=6.0) is None
    # Not into contact: the end is short of the target, along the charge route.
    assert np.hypot(*(moved[-1] - XY[1])) - 1.0 > CONTACT
    assert np.hypot(*(moved[-1] - path[-1])) < length - 6.0 + 1e-6


def test_r_e2_combat_distraction_retreat_leaves_contact(table: Table) -> None:
    xy = np.array([[10.0, 10.0], [10.0, 11.005], [14.0, 10.0]])
    r = np.array([0.5, 0.5, 0.5])
    en = np.array([False, True, True])
    path = retreat_path(Mover(table, 0, xy, r, en), xy[1], 6.0)
    assert path is not None
    assert check_path(Mover(table, 0, xy, r, en), path, max_length=6.0) is None
    assert np.hypot(*(path[-1] - xy[1])) > np.hypot(*(xy[0] - xy[1])) + 4.0


def test_r_e1_advance_may_not_end_in_contact(table: Table) -> None:
    xy = np.array([[10.0, 10.0], [10.0, 14.0]])
    r = np.array([0.5, 0.5])
    en = np.array([False, True])
    moved = move_toward(Mover(table, 0, xy, r, en), xy[1], 6.0)
    assert moved is not None
    assert np.hypot(*(moved[-1] - xy[1])) - 1.0 > CONTACT
    assert check_path(Mover(table, 0, xy, r, en), moved, max_length=6.0) is None


def test_r_b4_flying_models_ignore_terrain(table: Table) -> None:
    xy, r, en = XY[[0, 2]], R[:2], EN[[0, 2]]
    straight = np.array([[23.5, 10], [23.5, 20]])
    assert check_path(Mover(table, 0, xy, r, en, flying=True), straight, max_length=10) is None
    path = shortest_path(Mover(table, 0, xy, r, flying=True), np.array([23.5, 20.0]))
    assert path is not None and path_length(path) == pytest.approx(10.0)


def test_r_m2_ignored_models_do_not_block(table: Table) -> None:
    xy = np.array([[10.0, 5.0], [10.0, 8.0]])
    r = np.array([0.5, 0.5])
    en = np.array([False, True])
    ko = np.array([False, True])
    assert (
        check_path(Mover(table, 0, xy, r, en, ignore=ko), np.array([[10, 5], [10, 11]]), max_length=6) is None
    )


def test_r_m2_batch_straight_moves_agree_with_check_path(table: Table) -> None:
    rng = np.random.default_rng(7)
    xy = np.array([[23.5, 10.0], [23.5, 17.0], [28.0, 10.0], [20.0, 8.0]])
    r = np.array([0.5, 0.5, 0.8, 0.5])
    en = np.array([False, True, False, True])
    ends = xy[0] + rng.uniform(-7, 7, (300, 2))
    ok = check_straight_moves(Mover(table, 0, xy, r, en), xy[:1], ends, max_length=6.0)
    ref = [check_path(Mover(table, 0, xy, r, en), np.array([xy[0], e]), max_length=6.0) is None for e in ends]
    assert ok.tolist() == ref
    assert 0 < ok.sum() < len(ends)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_m2_accepted_paths_never_overlap_and_respect_the_allowance(seed: int) -> None:
    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=12)
    n = 8
    radii = rng.choice([0.5, 0.8, 1.2], n)
    xy = scatter_bases(t, rng, radii)
    enemy = np.arange(n) >= n // 2
    mover = 0
    goal = rng.uniform(2, 46, 2)
    budget = float(rng.uniform(1, 12))
    flying = bool(rng.random() < 0.2)
    candidates: list[tuple[np.ndarray, int | None]] = []
    sp = shortest_path(Mover(t, mover, xy, radii, enemy, flying=flying), goal)
    if sp is not None:
        candidates.append((sp, None))
    mt = move_toward(Mover(t, mover, xy, radii, enemy, flying=flying), goal, budget)
    if mt is not None:
        candidates.append((mt, None))
        assert path_length(mt) <= budget + 1e-6
    ch = charge_path(Mover(t, mover, xy, radii, enemy, flying=flying), n - 1)
    if ch is not None:
        candidates.append((ch[0], n - 1))
    rt = retreat_path(Mover(t, mover, xy, radii, enemy, flying=flying), xy[n - 1], 6.0)
    if rt is not None:
        candidates.append((rt, None))
    # Random polylines too: whatever check_path accepts must be truly clear.
    for _ in range(10):
        k = int(rng.integers(2, 5))
        poly = np.vstack([xy[mover], xy[mover] + np.cumsum(rng.uniform(-4, 4, (k - 1, 2)), axis=0)])
        candidates.append((poly, None))
    for path, target in candidates:
        allowance = path_length(path)
        if (
            check_path(
                Mover(t, mover, xy, radii, enemy, flying=flying),
                path,
                max_length=allowance,
                contact_target=target,
            )
            is None
        ):
            assert path_length(path) <= allowance + 1e-6
            assert independent_violation(t, path, mover, xy, radii, enemy, target, flying=flying) is None
    # Every path the finder returns passes the checker.
    for path, target in candidates[: len(candidates) - 10]:
        assert (
            check_path(
                Mover(t, mover, xy, radii, enemy, flying=flying),
                path,
                max_length=path_length(path),
                contact_target=target,
            )
            is None
        )


def boundary_points(rng: np.random.Generator, t: Table, obs: object) -> np.ndarray:
    """Points at exactly, 1e-12 inside and 1e-12 outside every base clearance and every
    impassable edge's offset by the mover's radius (where float noise could flip an answer)."""
    from skirmish.battlefield import paths as P

    assert isinstance(obs, P._Obstacles)
    pts = []
    for c, lim in zip(obs.centres, obs.clearance - 1e-6, strict=True):
        for a in rng.uniform(0, 2 * np.pi, 4):
            for eps in (-1e-12, 0.0, 1e-12):
                pts.append(c + (lim + eps) * np.array([np.cos(a), np.sin(a)]))
    for e in t.imp_edges:
        d = e[1] - e[0]
        nrm = np.array([-d[1], d[0]]) / np.hypot(*d)
        for s in rng.uniform(-0.1, 1.1, 3):
            for eps in (-1e-12, 0.0, 1e-12):
                pts.append(e[0] + s * d + nrm * (obs.radius - 1e-6 + eps))
    return np.array(pts)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_m2_plain_python_and_numpy_kernels_agree_at_the_boundary(seed: int) -> None:
    """The path kernel has a plain-float path (few segments) and a numpy path (many): the finder
    and the checker may take different ones, so they must agree exactly, even on segments that
    pass within 1e-12 of a clearance or lie along an edge at exactly the mover's radius."""
    from skirmish.battlefield import paths as P

    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=10)
    radii = rng.choice([0.5, 0.8, 1.2], 8)
    xy = scatter_bases(t, rng, radii)
    obs = P.Mover(t, 0, xy, radii, np.arange(8) >= 4).obstacles(xy[0])
    p = boundary_points(rng, t, obs)
    i = rng.integers(0, len(p), 150)
    j = rng.integers(0, len(p), 150)
    for p0, p1 in ((p, p), (p[i], p[j])):
        for ends_outside in (False, True):
            whole_b, whole_t = P._violations(obs, p0, p1, ends_outside=ends_outside)
            for k in range(len(p0)):
                one_b, one_t = P._violations(obs, p0[k : k + 1], p1[k : k + 1], ends_outside=ends_outside)
                assert (one_b[0] == whole_b[k]).all() and (one_t[0] == whole_t[k]).all()


def test_r_m3_a_mover_without_enemies_asks_the_same_as_one_with_none(table: Table) -> None:
    """`Mover(enemy=None)` means nobody is an enemy: every question gets the answer an all-False
    mask gets, and `replace` changes one field of the question only."""
    xy = np.array([[10.0, 5.0], [10.0, 8.0], [14.0, 5.0]])
    r = np.array([0.5, 0.5, 0.5])
    none = Mover(table, 0, xy, r)
    zeros = Mover(table, 0, xy, r, np.zeros(3, dtype=bool))
    ends = xy[0] + np.random.default_rng(3).uniform(-6, 6, (40, 2))
    for a, b in ((none, zeros), (none.replace(flying=True), zeros.replace(flying=True))):
        assert check_straight_moves(a, xy[:1], ends, max_length=6.0).tolist() == (
            check_straight_moves(b, xy[:1], ends, max_length=6.0).tolist()
        )
        assert check_path(a, np.array([[10, 5], [10, 6.995]]), max_length=6) == (
            check_path(b, np.array([[10, 5], [10, 6.995]]), max_length=6)
        )
        pa, pb = shortest_path(a, np.array([10.0, 11.0])), shortest_path(b, np.array([10.0, 11.0]))
        assert pa is not None and pb is not None and np.array_equal(pa, pb)
    gone = none.replace(ignore=np.array([False, True, False]))
    assert np.shares_memory(gone.xy, xy) and gone.ignore is not None and none.ignore is None
    assert check_path(gone, np.array([[10, 5], [10, 11]]), max_length=6) is None


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_m2_the_finders_shortcuts_answer_what_the_kernel_does(seed: int) -> None:
    """`_blocked` (any hit per segment, small questions stopping at each segment's first hit)
    and `_seg_clear` (the A* inner loop's test on pre-selected obstacles) are shortcuts of the
    one kernel: they must give its answers exactly, at the boundary, for any selection."""
    from skirmish.battlefield import paths as P
    from skirmish.battlefield.paths.kernel import _blocked, _point_near, _seg_clear, _seg_hits

    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=10)
    radii = rng.choice([0.5, 0.8, 1.2], 8)
    xy = scatter_bases(t, rng, radii)
    obs = P.Mover(t, 0, xy, radii, np.arange(8) >= 4).obstacles(xy[0])
    # The boundary, and anywhere (ends deep inside a piece: the inside test's turn).
    p = np.vstack([boundary_points(rng, t, obs), rng.uniform((0, 0), (t.width, t.height), (60, 2))])
    i = rng.integers(0, len(p), 150)
    j = rng.integers(0, len(p), 150)
    nb, npc = len(obs.centres), len(obs.polys)
    sels = [(None, None), (np.flatnonzero(rng.random(nb) < 0.4), np.flatnonzero(rng.random(npc) < 0.4))]
    for p0, p1 in ((p, p), (p[i], p[j])):
        for ends_outside in (False, True):
            for bsel, psel in sels:
                bad_b, bad_t = P._violations(obs, p0, p1, bsel, psel, ends_outside)
                want = (bad_b.any(axis=1) | bad_t.any(axis=1)).tolist()
                assert _blocked(obs, p0, p1, bsel, psel, ends_outside).tolist() == want
                for k in range(0, len(p0), 5):
                    one = _blocked(obs, p0[k : k + 1], p1[k : k + 1], bsel, psel, ends_outside)
                    assert one.tolist() == [want[k]]
                    if p0 is p1:  # one point: the point shortcut
                        q = p0[k : k + 1]
                        assert _blocked(obs, q, q, bsel, psel, ends_outside).tolist() == [want[k]]
    bases, pieces = obs.bases_py(), obs.kern.py
    tl, tl2 = obs.tlim + P.BOX_SLACK, obs.tlim2
    for bsel, psel in sels:
        bl = list(range(nb)) if bsel is None else bsel.tolist()
        pl = list(range(npc)) if psel is None else psel.tolist()
        sel_b, sel_p = [bases[k] for k in bl], [pieces[k] for k in pl]
        for (x0, y0), (x1, y1) in zip(p[i].tolist(), p[j].tolist(), strict=True):
            for ends_outside in (False, True):
                hb, ht = _seg_hits(obs, x0, y0, x1, y1, bl, pl, ends_outside, True)
                assert _seg_clear(x0, y0, x1, y1, sel_b, sel_p, tl, tl2, ends_outside) == (not hb and not ht)
                hb, ht = _seg_hits(obs, x0, y0, x0, y0, bl, pl, ends_outside, True)
                assert _point_near(x0, y0, sel_b, sel_p, tl, tl2, ends_outside) == bool(hb or ht)


def test_r_m3_obstacle_sets_are_remembered_on_their_exact_inputs(table: Table) -> None:
    """One step asks a mover for its obstacles several times: the same inputs give the same
    (shared, read-only) answer, and any change, even made in place to the held arrays, a new one."""
    xy = np.array([[10.0, 5.0], [10.0, 8.0], [14.0, 5.0]])
    r = np.array([0.5, 0.5, 0.5])
    enemy = np.array([False, False, True])
    mover = Mover(table, 0, xy, r, enemy)
    first = mover.obstacles(xy[0])
    assert mover.obstacles(xy[0].copy()) is first
    assert Mover(table, 0, xy.copy(), r.copy(), enemy.copy()).obstacles(xy[0]) is first
    assert mover.obstacles(xy[0], contact=False) is not first
    assert mover.obstacles(xy[0], target=2) is not first
    mover.xy[1] = (11.0, 8.0)  # a model moved: the held array changed in place
    moved = mover.obstacles(mover.xy[0])
    assert moved is not first and moved.centres[0].tolist() == [11.0, 8.0]
    assert first.centres[0].tolist() == [10.0, 8.0]
