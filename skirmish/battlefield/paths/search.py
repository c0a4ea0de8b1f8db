"""The exact shortest path (R-C3 ruling): A* over the tangent graph, lazy in its obstacles, and
memoised on the table.

Everything it returns has passed the kernel against every obstacle (see the package docstring
for the two economies). It asks `check` for point legality and `tangents` for the graph, and
knows nothing of budgets or charges: those are the planners' (`plan`).
"""

from __future__ import annotations

import functools
import heapq
import math
from dataclasses import dataclass

import numpy as np

from skirmish.battlefield import portable
from skirmish.battlefield.memo import remember
from skirmish.battlefield.paths import jit
from skirmish.battlefield.paths.check import _lands, _legal_point_py, _legal_points
from skirmish.battlefield.paths.kernel import (
    BLOCKED_SMALL,
    _point_near,
    _seg_clear,
    _seg_hits,
    _violations,
    near_flat,
)
from skirmish.battlefield.paths.obstacles import BOX_SLACK, Mover, _Obstacles
from skirmish.battlefield.paths.tangents import _arc, _bitangents, _discs, _point_tangents, _point_tangents_py
from skirmish.battlefield.table import Table

RING = 24
"""Candidate end points around a goal disc when the straight approach is blocked."""


def _graph_numpy(
    table: Table,
    obs: _Obstacles,
    cx: np.ndarray,
    cy: np.ndarray,
    rad: np.ndarray,
    sx: float,
    sy: float,
    gx: float,
    gy: float,
    inc_b: np.ndarray,
    inc_t: np.ndarray,
) -> tuple[list[int], list[float], list[float], list[float], list[int]]:
    """The tangent graph's nodes: per node (0 is the start) its circle, its angle on it, its
    point and its partner (the other end of its tangent segment; 0 the start, -1 the goal centre,
    -1 for the start itself). Nodes are the tangent points (circle to circle, start to circle,
    goal centre to circle) and the start where it lies on a circle, kept when legal against the
    included obstacles (a bitangent only with both ends), ordered by circle, then angle. In numpy,
    for many circles (`_graph_py` for a few)."""
    # Tangent points: circle to circle (paired), start to circle, goal centre to circle.
    ba, bax, bay, bb, bbx, bby = _bitangents(cx, cy, rad)
    sd, stx, sty, s_on = _point_tangents(sx, sy, cx, cy, rad)
    gd, gtx, gty, _ = _point_tangents(gx, gy, cx, cy, rad)
    nt = len(ba)
    disc = np.concatenate([ba, bb, sd, gd, s_on])
    xs = np.concatenate([bax, bbx, stx, gtx, np.full(len(s_on), sx)])
    ys = np.concatenate([bay, bby, sty, gty, np.full(len(s_on), sy)])
    # partner: the other end of a node's tangent segment (node ids are 1 + position; 0 is the start).
    pos = np.arange(len(disc))
    partner = np.concatenate(
        [
            1 + nt + pos[:nt],
            1 + pos[:nt],
            np.zeros(len(sd), dtype=np.int64),
            np.full(len(gd), -1),
            np.zeros(len(s_on), dtype=np.int64),
        ]
    )
    legal = np.ones(len(disc), dtype=bool)
    # Nodes are judged against the included obstacles only: a node that only a left-out obstacle
    # forbids stays, so a path through it makes the lazy loop include that obstacle (dropping it
    # here would hide the route around that obstacle, and the loop would settle for a longer one).
    legal[: len(disc) - len(s_on)] = _legal_points(
        table, obs, np.stack([xs, ys], axis=-1)[: len(disc) - len(s_on)], inc_b, inc_t
    )
    legal[:nt] &= legal[nt : 2 * nt]
    legal[nt : 2 * nt] = legal[:nt]
    keep = np.flatnonzero(legal)
    # Renumber the kept nodes 1..n-1 (0 is the start) and order each circle's nodes by angle.
    ang = portable.arctan2(ys[keep] - cy[disc[keep]], xs[keep] - cx[disc[keep]])
    order = np.lexsort((ang, disc[keep]))
    kept = keep[order]
    new_id = np.full(len(disc) + 1, -1, dtype=np.int64)
    new_id[0] = 0
    new_id[1 + kept] = 1 + np.arange(len(kept))
    part = partner[kept]
    part = np.where(part > 0, new_id[np.maximum(part, 0)], part)  # -1 stays -1 (goal tangents)
    node_disc = [-1, *disc[kept].tolist()]
    node_ang = [0.0, *ang[order].tolist()]
    px = [sx, *xs[kept].tolist()]
    py = [sy, *ys[kept].tolist()]
    node_part = [-1, *part.tolist()]
    return node_disc, node_ang, px, py, node_part


def _graph_py(
    table: Table,
    obs: _Obstacles,
    cx: np.ndarray,
    cy: np.ndarray,
    rad: np.ndarray,
    sx: float,
    sy: float,
    gx: float,
    gy: float,
    inc_b: np.ndarray,
    inc_t: np.ndarray,
) -> tuple[list[int], list[float], list[float], list[float], list[int]]:
    """`_graph_numpy` in plain floats for a few circles, where numpy's per-call overhead is the
    cost: the same formulas in the same order (the bitangents use only +, -, *, / and sqrt, which
    IEEE doubles round the same either way), the same node order, and numpy itself for the
    transcendental functions (tangents from a point, node angles), on arrays of the same values."""
    cxl, cyl, radl = cx.tolist(), cy.tolist(), rad.tolist()
    k = len(cxl)
    pairs = []
    for i in range(k):
        for j in range(i + 1, k):
            dx = cxl[j] - cxl[i]
            dy = cyl[j] - cyl[i]
            pairs.append((i, j, dx, dy, dx * dx + dy * dy))
    # The common tangents' two ends, in `_bitangents`' order (sign pair, then circle pair).
    disc: list[int] = []
    xs: list[float] = []
    ys: list[float] = []
    bd: list[int] = []
    bx: list[float] = []
    by: list[float] = []
    for s1, s2 in ((1.0, 1.0), (-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0)):
        for i, j, dx, dy, z in pairs:
            r1 = s1 * radl[i]
            r2 = s2 * radl[j]
            dr = r2 - r1
            dsc = z - dr * dr
            if dsc > 1e-12 and z > 1e-18:
                sq = math.sqrt(dsc)
                a = (dr * dx + dy * sq) / z
                b = (dr * dy - dx * sq) / z
                disc.append(i)
                xs.append(cxl[i] - r1 * a)
                ys.append(cyl[i] - r1 * b)
                bd.append(j)
                bx.append(cxl[j] - r2 * a)
                by.append(cyl[j] - r2 * b)
    nt = len(disc)
    sd, stx, sty, s_on = _point_tangents_py(sx, sy, cxl, cyl, radl)
    gd, gtx, gty, _ = _point_tangents_py(gx, gy, cxl, cyl, radl)
    n_sd, n_gd, n_on = len(sd), len(gd), len(s_on)
    disc += bd + sd + gd + s_on
    xs += bx + stx + gtx + [sx] * n_on
    ys += by + sty + gty + [sy] * n_on
    partner = [*range(1 + nt, 1 + 2 * nt), *range(1, 1 + nt), *[0] * n_sd, *[-1] * n_gd, *[0] * n_on]
    m = len(disc) - n_on
    if m * (len(inc_b) + len(inc_t)) > BLOCKED_SMALL:
        legal = _legal_points(table, obs, np.array([xs[:m], ys[:m]]).T.copy(), inc_b, inc_t).tolist()
        legal += [True] * n_on
        for q in range(nt):
            both = legal[q] and legal[nt + q]
            legal[q] = legal[nt + q] = both
    else:
        # Point by point (what `_legal_points` answers): a bitangent's second end is asked only
        # when its first is legal, as the pair is kept only with both.
        bases, pieces = obs.bases_py(), obs.kern.py
        sel_b = [bases[j] for j in inc_b.tolist()]
        sel_p = [pieces[k] for k in inc_t.tolist()]
        tl, tl2 = obs.tlim + BOX_SLACK, obs.tlim2
        lo = obs.radius - 1e-9
        hx, hy = table.width - lo, table.height - lo

        def ok(q: int) -> bool:
            x, y = xs[q], ys[q]
            if x < lo or x > hx or y < lo or y > hy:  # `_off_table`'s test, NaN included
                return False
            return not _point_near(x, y, sel_b, sel_p, tl, tl2, False)

        legal = [False] * len(disc)
        for q in range(nt):
            legal[q] = legal[nt + q] = ok(q) and ok(nt + q)
        for q in range(2 * nt, m):
            legal[q] = ok(q)
        for q in range(m, len(disc)):
            legal[q] = True
    keep = [q for q, ok in enumerate(legal) if ok]
    ang = portable.arctan2(
        np.array([ys[q] - cyl[disc[q]] for q in keep]), np.array([xs[q] - cxl[disc[q]] for q in keep])
    ).tolist()
    order = sorted(range(len(keep)), key=lambda r: (disc[keep[r]], ang[r]))
    kept = [keep[r] for r in order]
    new_id = [-1] * (len(disc) + 1)
    new_id[0] = 0
    for r, q in enumerate(kept):
        new_id[1 + q] = 1 + r
    node_disc = [-1, *(disc[q] for q in kept)]
    node_ang = [0.0, *(ang[r] for r in order)]
    px = [sx, *(xs[q] for q in kept)]
    py = [sy, *(ys[q] for q in kept)]
    node_part = [-1, *(new_id[partner[q]] if partner[q] > 0 else partner[q] for q in kept)]
    return node_disc, node_ang, px, py, node_part


GRAPH_SMALL = 10
"""Tangent graphs of at most this many circles are built in plain floats (`_graph_py`)."""


def _astar(
    table: Table,
    obs: _Obstacles,
    start: np.ndarray,
    centre: np.ndarray,
    goal_r: float,
    inc_b: np.ndarray,
    inc_t: np.ndarray,
    ring: np.ndarray,
) -> np.ndarray | None:
    """A* from start to the disc (centre, goal_r) over the tangent graph of the included obstacles.

    The obstacles are circles (bases grown by both radii, convex corners of pieces grown by the
    mover's radius, see `_discs`): a shortest path among them is straight segments along common
    tangents and arcs along circles, so the graph's nodes are the tangent points (start to
    circle, circle to circle, goal centre to circle) and its edges those tangent segments and the
    arcs between angularly neighbouring points of one circle; each node also finishes straight
    toward the goal centre, stopping on the goal circle, or at one of the legal `ring` points.
    Costs are exact (arc length R x angle), so the path found is the exact shortest among the
    included obstacles (with NODE_MARGIN); it is drawn as a polyline (`_arc`) within ARC_TOL.

    Lazy in its edges: a node's edges are pushed unchecked and a segment (or drawn arc) is
    tested only when its entry comes off the heap, dropped if blocked. With a consistent
    heuristic (distance to the goal circle) this pops what checking every edge up front would.

    This is the reference: where numba is installed `jit.astar` is the same search compiled
    (bit-identical paths, held to this by property tests), run inside the compiled lazy loop
    (`jit.search_now`); a flyer's landing at a straight finish is asked of the path's end after
    it (and the reference runs where one does not land).
    """
    cx, cy, rad = _discs(table, obs, inc_b, inc_t)
    sx, sy = float(start[0]), float(start[1])
    gx, gy = float(centre[0]), float(centre[1])
    build = _graph_py if len(cx) <= GRAPH_SMALL else _graph_numpy
    node_disc, node_ang, px, py, node_part = build(table, obs, cx, cy, rad, sx, sy, gx, gy, inc_b, inc_t)
    n = len(node_disc)
    # Angular neighbours on each circle (cyclic), as next/prev node ids.
    nxt = list(range(n))
    prv = list(range(n))
    dl = node_disc
    lo = 1
    while lo < n:
        hi = lo
        while hi + 1 < n and dl[hi + 1] == dl[lo]:
            hi += 1
        if hi > lo:
            for v in range(lo, hi + 1):
                nxt[v] = v + 1 if v < hi else lo
                prv[v] = v - 1 if v > lo else hi
        lo = hi + 1
    start_children = [v for v in range(1, n) if node_part[v] == 0]
    rings = [(x, y) for x, y in ring.tolist()] if goal_r > 0 else []
    ring_nodes = [(n + r, x, y) for r, (x, y) in enumerate(rings)]
    n_ring = len(rings)
    fin = n + n_ring  # the virtual straight finish (its end point depends on the parent)
    hl = [max(math.hypot(px[v] - gx, py[v] - gy) - goal_r, 0.0) for v in range(n)]
    cxl, cyl, radl = cx.tolist(), cy.tolist(), rad.tolist()
    bsel = inc_b.tolist()
    psel = inc_t.tolist()
    bases = obs.bases_py()
    sel_b = [bases[j] for j in bsel]
    sel_p = [obs.kern.py[k] for k in psel]
    tl = obs.tlim + BOX_SLACK
    tl2 = obs.tlim2
    lo_x = obs.radius - 1e-9
    hi_x = table.width - lo_x
    hi_y = table.height - lo_x
    parent = [-1] * (fin + 1)
    geom: list[list[tuple[float, float]]] = [[] for _ in range(fin + 1)]
    closed = [False] * (fin + 1)
    heap: list[tuple[float, int, int, int, float]] = [(hl[0], 0, -1, 0, 0.0)]
    while heap:
        _, v, u, turn, gv = heapq.heappop(heap)
        if closed[v]:
            continue
        if u >= 0:
            x0, y0 = px[u], py[u]
            if v == fin:
                dx, dy = x0 - gx, y0 - gy
                dc = math.hypot(dx, dy)
                k = goal_r / dc if dc > 0 else 0.0
                pts = [(gx + dx * k, gy + dy * k)]
            elif v > n - 1:
                pts = [rings[v - n]]
            elif turn:
                j = node_disc[v]
                a0 = node_ang[u]
                sweep = (node_ang[v] - a0) * turn % (2 * math.pi)
                pts = _arc(cxl[j], cyl[j], radl[j], a0, sweep, turn, (px[v], py[v]))
            else:
                pts = [(px[v], py[v])]
            blocked = False
            for x1, y1 in pts:
                if x1 < lo_x or x1 > hi_x or y1 < lo_x or y1 > hi_y:
                    blocked = True
                    break
                if not _seg_clear(x0, y0, x1, y1, sel_b, sel_p, tl, tl2):
                    blocked = True
                    break
                x0, y0 = x1, y1
            if blocked:
                continue
            if v == fin and not (
                not _point_near(x0, y0, sel_b, sel_p, tl, tl2, False)
                and (not obs.flying or _lands(table, obs, np.array([[x0, y0]]))[0])
            ):
                continue
            parent[v] = u
            geom[v] = pts
        closed[v] = True
        if v >= n or (goal_r > 0 and hl[v] <= 1e-9) or (goal_r == 0 and v < n and hl[v] <= 1e-12):
            chain: list[tuple[float, float]] = []
            w = v
            while parent[w] != -1:
                chain[:0] = geom[w]
                w = parent[w]
            chain.insert(0, (sx, sy))
            return np.array(chain)
        ux, uy = px[v], py[v]
        # Tangent segment, arcs to the circle's neighbours, then the finishes.
        targets = start_children if v == 0 else ([node_part[v]] if node_part[v] > 0 else [])
        for w in targets:
            if not closed[w]:
                c = gv + math.hypot(px[w] - ux, py[w] - uy)
                heapq.heappush(heap, (c + hl[w], w, v, 0, c))
        if v > 0 and nxt[v] != v:
            j = node_disc[v]
            for w, turn in ((nxt[v], 1), (prv[v], -1)):
                if not closed[w]:
                    sweep = (node_ang[w] - node_ang[v]) * turn % (2 * math.pi)
                    c = gv + radl[j] * sweep
                    heapq.heappush(heap, (c + hl[w], w, v, turn, c))
        dc = math.hypot(ux - gx, uy - gy)
        if dc > goal_r + 1e-12:
            c = gv + dc - goal_r
            heapq.heappush(heap, (c, fin, v, 0, c))
        for w, qx, qy in ring_nodes:
            c = gv + math.hypot(qx - ux, qy - uy)
            heapq.heappush(heap, (c, w, v, 0, c))
    return None


SEARCH_MEMO = 1024
"""Searches remembered per table (one record per question, oldest forgotten first)."""


@dataclass
class _SearchRecord:
    """One search's answer and everything it asked of the obstacles it did not go around.

    `_search_now` judges every base only through "does this segment (or point) come too close
    to it": the straight first try, the goal and ring points, and each round's path; the rest of
    its work (the A* rounds) sees only the bases it included. So the same question with some
    bases moved has the same answer, bit for bit, if none of the moved bases was included and
    none comes too close to any of those probes, before or after its move (`_search`).

    Kept for the game, so it holds no container the collector tracks but itself (tuples of
    numbers, which the collector untracks, and arrays): each tracked object a game keeps is
    walked by every later full collection."""

    cx: np.ndarray
    cy: np.ndarray
    clearance: np.ndarray
    lim2: np.ndarray
    included: tuple[int, ...]  # ascending
    probes: tuple[float, ...]  # flat: x0, y0, x1, y1 of each probe in turn (one untracked tuple)
    path: np.ndarray | None


def _search(
    table: Table, obs: _Obstacles, start: np.ndarray, centre: np.ndarray, goal_r: float
) -> np.ndarray | None:
    """`_search_now` (in the records' flat form, `_search_now_flat`), memoised on the table: the
    same question (start, goal, mover, which models stand where by index) asked again after some
    models moved reuses the answer when the record proves the search would not have noticed them
    (see `_SearchRecord`)."""
    return _search_record(table, obs, start, centre, goal_r)[0]


def _search_record(
    table: Table, obs: _Obstacles, start: np.ndarray, centre: np.ndarray, goal_r: float
) -> tuple[np.ndarray | None, _SearchRecord]:
    """`_search`, with the record that answered it (reused or just made): a planner keeps the
    probes and included bases with its own answer (`plan._record`) without looking it up again.
    The record holds the obstacle set's arrays themselves (obstacle sets are read-only)."""
    key = (
        start.tobytes(),
        centre.tobytes(),
        goal_r,
        obs.radius,
        obs.flying,
        obs.model.tobytes(),
        len(obs.polys),
    )
    memo = table.search_memo
    rec = memo.get(key)
    assert rec is None or isinstance(rec, _SearchRecord)
    if rec is not None and len(rec.cx) == len(obs.cx):
        changed = np.flatnonzero((rec.cx != obs.cx) | (rec.cy != obs.cy) | (rec.clearance != obs.clearance))
        ok = True
        for j in changed.tolist():
            if (
                j in rec.included
                or near_flat(float(rec.cx[j]), float(rec.cy[j]), float(rec.lim2[j]), rec.probes)
                or near_flat(float(obs.cx[j]), float(obs.cy[j]), float(obs.lim2[j]), rec.probes)
            ):
                ok = False
                break
        if ok:
            return (None if rec.path is None else rec.path.copy()), rec
    flat: list[float] = []
    included: set[int] = set()
    path = _search_now_flat(table, obs, start, centre, goal_r, flat, included)
    made = _SearchRecord(
        obs.cx,
        obs.cy,
        obs.clearance,
        obs.lim2,
        tuple(sorted(included)),
        tuple(flat),
        None if path is None else path.copy(),
    )
    remember(memo, key, made, SEARCH_MEMO)
    return path, made


def _search_now(
    table: Table,
    obs: _Obstacles,
    start: np.ndarray,
    centre: np.ndarray,
    goal_r: float,
    probes: list[tuple[float, float, float, float]],
    included: set[int],
) -> np.ndarray | None:
    """Shortest legal path from start to the disc (centre, goal_r), lazily adding obstacles.

    Every segment and point judged against all bases is appended to `probes`, and every base
    the search went around to `included` (what `_search` needs to reuse the answer). One
    compiled call where numba runs (`jit.search_now`), else the reference `_search_py`: the same
    path, probes and included bases (property tests). The games ask `_search_now_flat`, the same
    search with the probes appended flat; this tuple form is what that one is held to (tests)."""
    if jit.enabled():
        question = (table, obs, start, centre, goal_r)
        reference = functools.partial(_search_py, *question, probes, included)
        return jit.run(
            functools.partial(jit.search_now, *question, ring_unit(), probes, included, reference), reference
        )
    return _search_py(table, obs, start, centre, goal_r, probes, included)


def _search_now_flat(
    table: Table,
    obs: _Obstacles,
    start: np.ndarray,
    centre: np.ndarray,
    goal_r: float,
    flat: list[float],
    included: set[int],
) -> np.ndarray | None:
    """`_search_now` with its probes appended flat (x0, y0, x1, y1, x0, ...), the form the
    records keep: the same floats in the same order (a test), without a tuple per probe, which a
    game made some 3,000 of (each tracked by the collector until its first collection)."""
    question = (table, obs, start, centre, goal_r)

    def reference() -> np.ndarray | None:
        probes: list[tuple[float, float, float, float]] = []
        path = _search_py(*question, probes, included)
        flat.extend(v for probe in probes for v in probe)
        return path

    if jit.enabled():
        return jit.run(
            functools.partial(jit.search_now_flat, *question, ring_unit(), flat, included, reference),
            reference,
        )
    return reference()


@functools.cache
def ring_unit() -> np.ndarray:
    """The RING unit directions around a goal (read-only): the same numbers for every goal."""
    ang = np.arange(RING) * (2 * math.pi / RING)
    unit = np.stack([portable.cos(ang), portable.sin(ang)], axis=-1)
    unit.flags.writeable = False
    return unit


def _search_py(
    table: Table,
    obs: _Obstacles,
    start: np.ndarray,
    centre: np.ndarray,
    goal_r: float,
    probes: list[tuple[float, float, float, float]],
    included: set[int],
) -> np.ndarray | None:
    """`_search_now` in Python, the reference: a straight first try, then A* rounds around the
    obstacles met so far until a path clears them all."""
    # Fast path: the straight line to the nearest point of the goal is the shortest when it is clear.
    dc = float(np.hypot(*(start - centre)))
    if goal_r > 0 and dc > goal_r:
        direct = centre + (start - centre) * (goal_r / dc)
    elif goal_r > 0:
        direct = None
    else:
        direct = centre
    inc_b = np.empty(0, dtype=int)
    inc_t = np.empty(0, dtype=int)
    if direct is not None:
        (x0, y0), (x1, y1) = start.tolist(), direct.tolist()
        probes.append((x0, y0, x1, y1))
        probes.append((x1, y1, x1, y1))
        hit_b, hit_t = _seg_hits(
            obs, x0, y0, x1, y1, range(len(obs.centres)), range(len(obs.polys)), False, False
        )
        if _legal_point_py(table, obs, x1, y1) and _lands(table, obs, direct[None, :])[0]:
            if not hit_b and not hit_t:
                return np.array([start, direct]) if dc > 1e-12 else start[None, :].copy()
            if dc > 1e-12:
                # A* around no obstacles would return this same straight line (the goal point is
                # legal), and the lazy loop would then add what it hits: start from there.
                inc_b = np.array(hit_b, dtype=np.int64)
                inc_t = np.array(hit_t, dtype=np.int64)
                included.update(hit_b)
    if goal_r > 0:
        ring = centre + goal_r * ring_unit()
        probes.extend((x, y, x, y) for x, y in ring.tolist())
        ring = ring[_legal_points(table, obs, ring)]
        ring = ring[_lands(table, obs, ring)]
    else:
        ring = np.empty((0, 2))
        gx, gy = centre.tolist()
        probes.append((gx, gy, gx, gy))
        if not _legal_points(table, obs, centre[None, :])[0] or not _lands(table, obs, centre[None, :])[0]:
            return None
    for _ in range(obs.count + 1):
        path = _astar(table, obs, start, centre, goal_r, inc_b, inc_t, ring)
        if path is None:
            return None
        if len(path) == 1:
            return path
        pts = path.tolist()
        probes.extend((x0, y0, x1, y1) for (x0, y0), (x1, y1) in zip(pts[:-1], pts[1:], strict=True))
        # Only the obstacles left out can add to the graph (an included one is already in it),
        # so only they are asked about.
        have_b: set[int] = set(inc_b.tolist())
        have_t: set[int] = set(inc_t.tolist())
        rest_b = np.array([j for j in range(len(obs.centres)) if j not in have_b], dtype=np.int64)
        rest_t = np.array([j for j in range(len(obs.polys)) if j not in have_t], dtype=np.int64)
        bad_b, bad_t = _violations(obs, path[:-1], path[1:], rest_b, rest_t)
        new_b: set[int] = set(np.flatnonzero(bad_b.any(axis=0)).tolist())
        new_t: set[int] = set(np.flatnonzero(bad_t.any(axis=0)).tolist())
        if not new_b and not new_t:
            return path
        inc_b = np.array(sorted(have_b | new_b), dtype=np.int64)
        inc_t = np.array(sorted(have_t | new_t), dtype=np.int64)
        included.update(new_b)
    return None


def shortest_path(mover: Mover, goal: np.ndarray, start: np.ndarray | None = None) -> np.ndarray | None:
    """Shortest path (k, 2) from `start` (the mover's position by default) to `goal` around
    impassable terrain and other bases.

    With the mover's `enemy` given, enemies are also kept out of base contact (R-M3). None if
    the goal is illegal or unreachable. The path is the exact shortest around the circles of
    `_astar`, drawn with arcs as polylines (at most ARC_TOL per radian long).
    """
    s = np.asarray(mover.xy[mover.index] if start is None else start, dtype=float).reshape(2).copy()
    gl = np.asarray(goal, dtype=float).reshape(2)
    obs = mover.obstacles(s)
    return _search(mover.table, obs, s, gl, 0.0)
