"""Line of sight between bases (R-B3), all pairs of a step at once.

R-B3 (ruling): sight runs from any point of one base to any point of the other; it is blocked
when every such line crosses sight-blocking terrain or more than 3" of dense cover that neither
model stands in. "Any point to any point" is decided in three stages, each one batch over the
pairs still open: the centre line; a fixed fan (outer tangents, half offsets, crossing lines),
which settles almost every visible pair cheaply; then the finite set of exact candidate lines
(`exact_candidates`), which contains a clear line whenever one exists. Every stage's lines are
tested by numpy kernels over edge arrays, because one shapely object at a time costs
microseconds each and a whole game asks tens of thousands.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import shapely

from skirmish.battlefield import portable
from skirmish.battlefield.measure import pair_indices, point_segment_distance, stack_columns
from skirmish.battlefield.table import Table, ring_edges

DENSE_LIMIT = 3.0
"""More than this many inches of dense cover (that neither model stands in) blocks sight."""

INSET = 0.999
"""Sample points sit just inside the base edge, so a base's own rim is never a grazing question."""

# (offset at a, offset at b) in base radii, along the normal of the centre line: the outer
# tangents and half offsets on the same side (1, 1), (-1, -1), (0.5, 0.5), (-0.5, -0.5), then
# the crossing lines (1, -1), (-1, 1), (0.5, -0.5), (-0.5, 0.5).
_FAN = np.array([(a * s, a * s * t) for t in (1.0, -1.0) for a in (1.0, 0.5) for s in (1.0, -1.0)]) * INSET

_FAN_ALL = np.vstack([[0.0, 0.0], _FAN])
"""The centre line, then the fan."""

_T = TypeVar("_T")


def table_memo(table: Table, key: str, build: Callable[[Table], _T], kind: type[_T]) -> _T:
    """What `build(table)` gives, built once per table and kept in its memo under `key`."""
    got = table.memo.get(key)
    if not isinstance(got, kind):
        got = table.memo[key] = build(table)
    return got


ONE_STAGE = 24
"""Up to this many pairs, every line of the fan is tested in one batch instead of two stages."""


@dataclass(frozen=True)
class SightEvidence:
    """Why a line of sight exists or not: the clear line found, or the piece that blocked."""

    visible: bool
    line: tuple[tuple[float, float], tuple[float, float]] | None
    blocker: str | None


def _lines(xy: np.ndarray, radii: np.ndarray, i: np.ndarray, j: np.ndarray, fan: np.ndarray) -> np.ndarray:
    """(len(i) * len(fan), 2, 2) endpoints of the fan lines of each pair, pair-major."""
    a = xy[i]
    b = xy[j]
    d = b - a
    norm = np.sqrt((d * d).sum(-1))
    safe = np.where(norm > 0, norm, 1.0)
    nrm = stack_columns(-d[:, 1], d[:, 0]) / safe[:, None]
    pa = a[:, None, :] + fan[None, :, 0, None] * radii[i][:, None, None] * nrm[:, None, :]
    pb = b[:, None, :] + fan[None, :, 1, None] * radii[j][:, None, None] * nrm[:, None, :]
    out = np.empty((*pa.shape[:2], 2, 2))
    out[:, :, 0] = pa
    out[:, :, 1] = pb
    return out.reshape(-1, 2, 2)


def _bbox_hits(seg: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(m, b) bool: the segment's bounding box meets box b (a cheap numpy pre-filter)."""
    lo = np.minimum(seg[:, 0], seg[:, 1])
    hi = np.maximum(seg[:, 0], seg[:, 1])
    return (
        (lo[:, None, 0] <= boxes[None, :, 2])
        & (hi[:, None, 0] >= boxes[None, :, 0])
        & (lo[:, None, 1] <= boxes[None, :, 3])
        & (hi[:, None, 1] >= boxes[None, :, 1])
    )


def lengths_inside(seg: np.ndarray, edges: np.ndarray, regions: np.ndarray) -> np.ndarray:
    """(m, r) length of each segment inside each (disjoint) polygonal region, exactly, in numpy.

    Each segment is cut at every crossing with the regions' edges; each piece is inside a region
    or not as a whole, decided by its midpoint (one vectorised `contains_xy` per region). This
    replaces one shapely `intersection` per line and region (~10 us each).
    """
    p0 = seg[:, None, 0, :]
    d = seg[:, None, 1, :] - p0
    q0 = edges[None, :, 0, :]
    e = edges[None, :, 1, :] - q0
    den = d[..., 0] * e[..., 1] - d[..., 1] * e[..., 0]
    w = q0 - p0
    safe = np.where(den != 0, den, 1.0)
    t = (w[..., 0] * e[..., 1] - w[..., 1] * e[..., 0]) / safe
    u = (w[..., 0] * d[..., 1] - w[..., 1] * d[..., 0]) / safe
    # Edges are met with a little slack at their ends: a line through a corner (the exact sight
    # candidates pass through corners) must be cut there whatever the rounding; a spurious cut
    # only splits a piece in two, each still judged by its midpoint.
    valid = (den != 0) & (t > 0) & (t < 1) & (u >= -1e-9) & (u <= 1 + 1e-9)
    t = np.where(valid, t, 1.0)
    m = len(seg)
    cuts = np.sort(np.concatenate([np.zeros((m, 1)), t, np.ones((m, 1))], axis=1), axis=1)
    mids = 0.5 * (cuts[:, 1:] + cuts[:, :-1])
    widths = cuts[:, 1:] - cuts[:, :-1]
    px = (seg[:, None, 0, 0] + mids * (seg[:, None, 1, 0] - seg[:, None, 0, 0])).ravel()
    py = (seg[:, None, 0, 1] + mids * (seg[:, None, 1, 1] - seg[:, None, 0, 1])).ravel()
    seglen = np.sqrt(((seg[:, 1] - seg[:, 0]) ** 2).sum(-1))
    out = np.empty((m, len(regions)))
    for r, region in enumerate(regions):
        inside = shapely.contains_xy(region, px, py).reshape(widths.shape)
        out[:, r] = (widths * inside).sum(axis=1) * seglen
    return out


class _DenseClip:
    """The big dense regions of a table prepared for `_big_lengths` (built once per table).

    Convex regions (the usual grove or wood) are clipped Cyrus-Beck style: each edge is a
    half-plane (outward normal n, offset n.a), a line's inside part is [max entering t, min
    leaving t], all regions' edges in one array and reduced per region. Non-convex regions fall
    back to `lengths_inside` with their own edges.
    """

    def __init__(self, table: Table) -> None:
        regions = [table.dense_regions[r] for r in table.dense_big]
        self.convex = np.array(
            [
                len(reg.interiors) == 0 and shapely.area(shapely.convex_hull(reg)) - shapely.area(reg) <= 1e-9
                for reg in regions
            ],
            dtype=bool,
        )
        nx: list[np.ndarray] = []
        ny: list[np.ndarray] = []
        na: list[np.ndarray] = []
        starts: list[int] = []
        count = 0
        for k in np.flatnonzero(self.convex).tolist():
            reg = shapely.normalize(regions[k])  # exterior clockwise
            c = np.asarray(reg.exterior.coords, dtype=float)
            a, b = c[:-1], c[1:]
            keep = np.hypot(*(b - a).T) > 0
            a, b = a[keep], b[keep]
            d = b - a
            n = np.stack([-d[:, 1], d[:, 0]], axis=-1)  # left normal of a clockwise ring: outward
            n /= np.hypot(n[:, 0], n[:, 1])[:, None]
            nx.append(n[:, 0])
            ny.append(n[:, 1])
            na.append(n[:, 0] * a[:, 0] + n[:, 1] * a[:, 1])
            starts.append(count)
            count += len(a)
        self.nx = np.concatenate(nx) if nx else np.empty(0)
        self.ny = np.concatenate(ny) if ny else np.empty(0)
        self.na = np.concatenate(na) if na else np.empty(0)
        self.starts = np.array(starts, dtype=np.int64)
        self.other = np.flatnonzero(~self.convex)
        self.other_edges = [_ring_edges(regions[k]) for k in self.other.tolist()]
        self.other_regions = [np.array([regions[k]], dtype=object) for k in self.other.tolist()]


def _ring_edges(poly: shapely.Polygon) -> np.ndarray:
    return ring_edges([poly])


class _BlockerEdges:
    """Every ring edge of the (GRAZE-shrunk) union of sight blockers, as component arrays."""

    def __init__(self, table: Table) -> None:
        parts = shapely.get_parts(table.sight_union)
        e = ring_edges(parts)  # every part's rings in order, (0, 2, 2) for none
        self.ax = e[:, 0, 0]
        self.ay = e[:, 0, 1]
        self.ex = e[:, 1, 0] - self.ax
        self.ey = e[:, 1, 1] - self.ay


def blocker_edges(table: Table) -> _BlockerEdges:
    """The table's `_BlockerEdges` (built once per table)."""
    return table_memo(table, "blocker_edges", _BlockerEdges, _BlockerEdges)


def dense_clip(table: Table) -> _DenseClip:
    """The table's `_DenseClip`: a function of its dense regions alone, so built once on the table
    they come from (`Table.dense_source`: an Earth Wall's table shares its base's)."""
    return table_memo(table.dense_source, "dense_clip", _DenseClip, _DenseClip)


def _meets_blockers(table: Table, seg: np.ndarray) -> np.ndarray:
    """(m,) bool: the segment meets the shrunk blocker union (what `shapely.intersects` says).

    A segment meets a polygon when it crosses or touches one of its edges (orientation tests:
    each segment's ends on opposite sides of, or on, the edge's line and vice versa), or else
    lies wholly inside it (its first end is in). The union is shrunk by GRAZE, so lines that
    only graze a piece stay 1e-7 clear of it, far beyond float noise.
    """
    be = blocker_edges(table)
    x0 = seg[:, 0, 0:1]
    y0 = seg[:, 0, 1:2]
    x1 = seg[:, 1, 0:1]
    y1 = seg[:, 1, 1:2]
    dx = x1 - x0
    dy = y1 - y0
    rax = be.ax - x0
    ray = be.ay - y0
    o1 = dx * ray - dy * rax
    o2 = dx * (ray + be.ey) - dy * (rax + be.ex)
    o3 = be.ey * rax - be.ex * ray  # orientation of (x0, y0) to the edge
    o4 = be.ex * (y1 - be.ay) - be.ey * (x1 - be.ax)
    hit = ((o1 * o2 <= 0) & (o3 * o4 <= 0) & ((o1 != 0) | (o2 != 0))).any(axis=1)
    rest = np.flatnonzero(~hit)
    if len(rest):
        hit[rest] = shapely.intersects_xy(table.sight_union, seg[rest, 0, 0], seg[rest, 0, 1])
    return hit


def _big_lengths(table: Table, seg: np.ndarray) -> np.ndarray:
    """(m, len(dense_big)) length of each segment inside each big dense region."""
    clip = dense_clip(table)
    m = len(seg)
    out = np.zeros((m, len(clip.convex)))
    x0 = seg[:, 0, 0:1]
    y0 = seg[:, 0, 1:2]
    dx = seg[:, 1, 0:1] - x0
    dy = seg[:, 1, 1:2] - y0
    if len(clip.starts):
        # Inside edge k's half-plane: t * den <= num.
        num = clip.na - (clip.nx * x0 + clip.ny * y0)
        den = clip.nx * dx + clip.ny * dy
        ratio = num / np.where(den != 0, den, 1.0)
        enter = np.where(den < 0, ratio, np.where((den == 0) & (num <= 0), np.inf, -np.inf))
        leave = np.where(den > 0, ratio, np.inf)
        t0 = np.maximum(np.maximum.reduceat(enter, clip.starts, axis=1), 0.0)
        t1 = np.minimum(np.minimum.reduceat(leave, clip.starts, axis=1), 1.0)
        length = np.sqrt(dx * dx + dy * dy)
        out[:, clip.convex] = np.maximum(t1 - t0, 0.0) * length
    for k, edges, region in zip(clip.other.tolist(), clip.other_edges, clip.other_regions, strict=True):
        out[:, k] = lengths_inside(seg, edges, region)[:, 0]
    return out


def _clear(
    table: Table,
    seg: np.ndarray,
    li: np.ndarray,
    lj: np.ndarray,
    in_region: np.ndarray,
    xy: np.ndarray,
    radii: np.ndarray,
    block_bases: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """Per line: clear? and a code for what blocked it (-1 clear, -2 other bases, 0.. a dense
    region, 1000 a sight blocker, named later by `_name_blocker`)."""
    m = len(seg)
    ok = np.ones(m, dtype=bool)
    why = np.full(m, -1, dtype=np.int64)
    if m == 0:
        return ok, why
    if len(table.blocker_index):
        cand = np.flatnonzero(_bbox_hits(seg, table.blocker_boxes).any(axis=1))
        if len(cand):
            hit = cand[_meets_blockers(table, seg[cand])]
            ok[hit] = False
            why[hit] = 1000
    big = table.dense_big
    if len(big):
        # Only lines whose counted regions could hold more than 3" between them (the sum of their
        # bounding-box diagonals) need measuring.
        near = _bbox_hits(seg, table.dense_boxes[big])
        counts = near & ~in_region[big][:, li].T & ~in_region[big][:, lj].T
        room = (counts * table.dense_diag[big]).sum(axis=1)
        cand = np.flatnonzero(ok & (room > DENSE_LIMIT))
        if len(cand):
            lens = _big_lengths(table, seg[cand])
            total = (lens * counts[cand]).sum(axis=1)
            over = total > DENSE_LIMIT + 1e-9
            worst = big[np.argmax(lens * counts[cand], axis=1)]
            why[cand[over]] = worst[over]
            ok[cand[over]] = False
    if block_bases and len(xy) > 2:
        cand = np.flatnonzero(ok)
        if len(cand):
            d = point_segment_distance(xy[None, :, :], seg[cand, None, 0, :], seg[cand, None, 1, :])
            inside = d < radii[None, :] - 1e-9
            inside[np.arange(len(cand)), li[cand]] = False
            inside[np.arange(len(cand)), lj[cand]] = False
            hit = inside.any(axis=1)
            ok[cand[hit]] = False
            why[cand[hit]] = -2
    return ok, why


def _candidate_vertices(table: Table) -> np.ndarray:
    """Corners that can bound the set of clear lines: every ring vertex of the sight blockers (as
    drawn, not shrunk: a line through one grazes the shrunk union) and of the big dense regions."""
    hit = table.memo.get("sight_vertices")
    if hit is None:
        polys = [*table.polygons[table.blocker_index], *table.dense_regions[table.dense_big]]
        parts = [part for poly in polys for part in shapely.get_parts(poly)]
        # each ring's vertices but its closing one: the first ends of its edges, ring by ring
        hit = table.memo["sight_vertices"] = np.ascontiguousarray(ring_edges(parts)[:, 0])
    assert isinstance(hit, np.ndarray)
    return hit


def _tangent_lines(
    c1: np.ndarray, r1: np.ndarray, c2: np.ndarray, r2: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Common tangent lines of circle pairs (arrays, broadcast): (pair index, point, direction)."""
    d = c2 - c1
    z = (d * d).sum(-1)
    # The four sign pairs (outer, outer, inner, inner) as rows, all pairs at once: the same
    # per-element formulas as one sign pair at a time, in the same (sign pair, pair) order.
    a1 = _SIGNS[:, 0:1] * r1
    dr = _SIGNS[:, 1:2] * r2 - a1
    disc = z - dr * dr
    sign, ok = np.nonzero((disc >= 0) & (z > 1e-18))
    sq = np.sqrt(disc[sign, ok])
    dx, dy, zz, drk = d[ok, 0], d[ok, 1], z[ok], dr[sign, ok]
    n = stack_columns(drk * dx + dy * sq, drk * dy - dx * sq) / zz[:, None]
    return ok, c1[ok] - a1[sign, ok][:, None] * n, stack_columns(-n[:, 1], n[:, 0])


_SIGNS = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
"""(s1, s2), the signs of the two radii, of each family of common tangents: outer, then inner."""


def _between(
    q: np.ndarray, u: np.ndarray, ca: np.ndarray, ra: np.ndarray, cb: np.ndarray, rb: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For lines q + t u (row k with its own discs a = (ca, ra), b = (cb, rb)) meeting both discs:
    the shortest piece of each joining the two, from a's disc to b's (what a line from one base
    to the other must clear), and which rows they are; lines missing a disc are dropped."""
    n = np.sqrt((u * u).sum(-1))
    ok = n > 1e-15
    u = u / np.where(ok, n, 1.0)[:, None]
    spans = []
    for c, r in ((ca, ra), (cb, rb)):
        w = c - q
        t = (w * u).sum(-1)
        perp = w - t[:, None] * u
        h2 = r * r - (perp * perp).sum(-1)
        spans.append((t, np.sqrt(np.maximum(h2, 0.0)), h2 >= -1e-12 * r * r))
    (ta, ha, ma), (tb, hb, mb) = spans
    keep = np.flatnonzero(ok & ma & mb)
    a_lo, a_hi, b_lo, b_hi = ta - ha, ta + ha, tb - hb, tb + hb
    forward = a_hi <= b_lo
    back = b_hi <= a_lo
    t0 = np.where(forward, a_hi, np.where(back, a_lo, a_hi))  # the end in a's disc
    t1 = np.where(forward, b_lo, np.where(back, b_hi, a_hi))  # the end in b's disc
    q, u, t0, t1 = q[keep], u[keep], t0[keep], t1[keep]
    seg = np.empty((len(q), 2, 2))
    seg[:, 0] = q + t0[:, None] * u
    seg[:, 1] = q + t1[:, None] * u
    return seg, keep


def _candidates(
    table: Table, xy: np.ndarray, radii: np.ndarray, ti: np.ndarray, tj: np.ndarray, block_bases: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The exact candidate lines of every pair (ti[k], tj[k]) in one batch: (segments, pair k).

    The lines from one disc to the other that avoid the blockers form a region of the plane of
    lines bounded by lines tangent to either disc and lines through a corner of a blocker; if it
    is not empty it has a corner, so some clear line is (up to grazing) one of: a common tangent
    of the two discs, a line through a corner tangent to one disc, or a line through two
    corners. Only corners in the discs' convex hull can matter. Each line is cut to its shortest
    piece joining the discs. With `block_bases` the tangents shared with each other base in the
    hull are added too; dense cover is tested on the same lines with the dense corners added.
    """
    ca, cb = xy[ti], xy[tj]
    ra, rb = INSET * radii[ti], INSET * radii[tj]
    reach = np.maximum(ra, rb) + 1e-9
    owner: list[np.ndarray] = []
    qs: list[np.ndarray] = []
    us: list[np.ndarray] = []
    k, q, u = _tangent_lines(ca, ra, cb, rb)
    owner.append(k)
    qs.append(q)
    us.append(u)
    if block_bases:
        near = (
            point_segment_distance(xy[None, :, :], ca[:, None, :], cb[:, None, :])
            <= reach[:, None] + radii[None, :]
        )
        near[np.arange(len(ti)), ti] = False
        near[np.arange(len(ti)), tj] = False
        p, m = np.nonzero(near)
        for c, r in ((ca, ra), (cb, rb)):
            k, q, u = _tangent_lines(c[p], r[p], xy[m], radii[m])
            owner.append(p[k])
            qs.append(q)
            us.append(u)
    verts = _candidate_vertices(table)
    if len(verts):
        sel = point_segment_distance(verts[None, :, :], ca[:, None, :], cb[:, None, :]) <= reach[:, None]
        p, v = np.nonzero(sel)
        for c, r in ((ca, ra), (cb, rb)):
            # Tangents from each corner in the hull to this disc (corners inside it have none).
            d = c[p] - verts[v]
            dist = np.sqrt((d * d).sum(-1))
            out = np.flatnonzero(dist > r[p])
            base = portable.arctan2(d[out, 1], d[out, 0])
            off = portable.arcsin(r[p[out]] / dist[out])
            for a in (base + off, base - off):
                owner.append(p[out])
                qs.append(verts[v[out]])
                us.append(stack_columns(portable.cos(a), portable.sin(a)))
        if len(verts) > 1:
            i, j = pair_indices(len(verts))
            p, w = np.nonzero(sel[:, i] & sel[:, j])
            owner.append(p)
            qs.append(verts[i[w]])
            us.append(verts[j[w]] - verts[i[w]])
    own = np.concatenate(owner)
    seg, keep = _between(np.concatenate(qs), np.concatenate(us), ca[own], ra[own], cb[own], rb[own])
    return seg, own[keep]


def exact_candidates(
    table: Table, xy: np.ndarray, radii: np.ndarray, a: int, b: int, block_bases: bool = False
) -> np.ndarray:
    """(k, 2, 2) the finite set of lines that decides R-B3 between bases a and b (see `_candidates`)."""
    seg, _ = _candidates(table, xy, radii, np.array([a]), np.array([b]), block_bases)
    return seg


def _exact_stage(
    table: Table,
    xy: np.ndarray,
    radii: np.ndarray,
    ti: np.ndarray,
    tj: np.ndarray,
    in_region: np.ndarray,
    block_bases: bool,
) -> np.ndarray:
    """Visibility of the pairs the fan left unresolved, from their exact candidate lines (one batch)."""
    ok = np.zeros(len(ti), dtype=bool)
    seg, own = _candidates(table, xy, radii, ti, tj, block_bases)
    if len(seg) == 0:
        return ok
    clear, _ = _clear(table, seg, ti[own], tj[own], in_region, xy, radii, block_bases)
    np.logical_or.at(ok, own, clear)
    return ok


def _regions_containing(table: Table, xy: np.ndarray) -> np.ndarray:
    out = np.zeros((len(table.dense_regions), len(xy)), dtype=bool)
    for r, region in enumerate(table.dense_regions):
        out[r] = shapely.contains_xy(region, xy[:, 0], xy[:, 1])
    return out


def sight_pairs(
    table: Table,
    xy: np.ndarray,
    radii: np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    block_bases: bool = False,
    *,
    fan: bool = True,
    exact: bool = True,
) -> np.ndarray:
    """Visibility of the given pairs (i[k], j[k]) as a bool array: the batch kernel of R-B3.

    Each pair's answer is its own (no stage looks at another pair), so the stages may be run
    apart: `exact=False` stops after the fan (False then means undecided), `fan=False` hands
    pairs the fan left undecided straight to the exact stage."""
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    radii = np.asarray(radii, dtype=float).reshape(-1)
    i = np.asarray(i, dtype=np.int64)
    j = np.asarray(j, dtype=np.int64)
    if len(i) == 0:
        return np.zeros(0, dtype=bool)
    in_region = _regions_containing(table, xy)
    if not fan:
        return _exact_stage(table, xy, radii, i, j, in_region, block_bases) | (i == j)
    if len(i) <= ONE_STAGE:
        # Few pairs: numpy's per-call overhead, not the number of lines, is the cost; the whole
        # fan (centre line first) in one batch.
        k = len(_FAN_ALL)
        seg = _lines(xy, radii, i, j, _FAN_ALL)
        ok, _ = _clear(table, seg, np.repeat(i, k), np.repeat(j, k), in_region, xy, radii, block_bases)
        ok = ok.reshape(-1, k).any(axis=1) | (i == j)
        todo = np.flatnonzero(~ok)
        if len(todo) and exact:
            ok[todo] = _exact_stage(table, xy, radii, i[todo], j[todo], in_region, block_bases)
        return ok
    # Stage 1: centre lines of every pair.
    seg = np.stack([xy[i], xy[j]], axis=1)
    ok, _ = _clear(table, seg, i, j, in_region, xy, radii, block_bases)
    todo = np.flatnonzero(~ok & (i != j))
    if len(todo):
        # Stage 2: the rest of the fan for the pairs still unresolved, all in one batch.
        ti, tj = i[todo], j[todo]
        seg2 = _lines(xy, radii, ti, tj, _FAN)
        k = len(_FAN)
        ok2, _ = _clear(table, seg2, np.repeat(ti, k), np.repeat(tj, k), in_region, xy, radii, block_bases)
        ok[todo] = ok2.reshape(-1, k).any(axis=1)
        rest = todo[~ok[todo]]
        if len(rest) and exact:
            # Stage 3: the exact candidate lines of the pairs the fan could not clear.
            ok[rest] = _exact_stage(table, xy, radii, i[rest], j[rest], in_region, block_bases)
    return ok | (i == j)


def sight_table(table: Table, xy: np.ndarray, radii: np.ndarray, block_bases: bool = False) -> np.ndarray:
    """(n, n) bool, symmetric: who sees whom (R-B3). The diagonal is True (a model sees itself)."""
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    n = len(xy)
    vis = np.ones((n, n), dtype=bool)
    if n < 2:
        return vis
    i, j = np.triu_indices(n, 1)
    ok = sight_pairs(table, xy, radii, i, j, block_bases)
    vis[i, j] = ok
    vis[j, i] = ok
    return vis


def sight_table_update(
    table: Table,
    vis: np.ndarray,
    xy: np.ndarray,
    radii: np.ndarray,
    moved: np.ndarray,
    block_bases: bool = False,
) -> np.ndarray:
    """The sight table after the `moved` models (bool mask) changed place: only their pairs are
    recomputed (one move in a step re-asks n-1 pairs, not n(n-1)/2). With `block_bases` every
    pair may change when any base moves, so the whole table is recomputed."""
    moved = np.asarray(moved, dtype=bool)
    if block_bases:
        return sight_table(table, xy, radii, True)
    n = len(moved)
    i, j = np.triu_indices(n, 1)
    sel = moved[i] | moved[j]
    out = vis.copy()
    if sel.any():
        ok = sight_pairs(table, xy, radii, i[sel], j[sel], False)
        out[i[sel], j[sel]] = ok
        out[j[sel], i[sel]] = ok
    return out


def _name_blocker(table: Table, seg: np.ndarray) -> str | None:
    """Name of the first sight-blocking piece that this line crosses (for the evidence)."""
    line = shapely.linestrings(seg)
    for p in table.blocker_index:
        if shapely.intersects(shapely.buffer(table.polygons[p], -1e-7), line):
            return table.names[p]
    return None


def sight_evidence(
    table: Table, xy: np.ndarray, radii: np.ndarray, a: int, b: int, block_bases: bool = False
) -> SightEvidence:
    """The clear line found between bases a and b, or what blocked the centre line."""
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    radii = np.asarray(radii, dtype=float).reshape(-1)
    if a == b:
        p = (float(xy[a, 0]), float(xy[a, 1]))
        return SightEvidence(True, (p, p), None)
    fan = _FAN_ALL
    ia = np.array([a])
    ib = np.array([b])
    seg = _lines(xy, radii, ia, ib, fan)
    in_region = _regions_containing(table, xy)
    k = len(fan)
    ok, why = _clear(table, seg, np.repeat(ia, k), np.repeat(ib, k), in_region, xy, radii, block_bases)
    hit = np.flatnonzero(ok)
    if not len(hit):
        extra = exact_candidates(table, xy, radii, a, b, block_bases)
        if len(extra):
            m = len(extra)
            ok2, _ = _clear(
                table, extra, np.repeat(ia, m), np.repeat(ib, m), in_region, xy, radii, block_bases
            )
            found = np.flatnonzero(ok2)
            if len(found):
                seg, hit = extra, found
    if len(hit):
        s = seg[hit[0]]
        return SightEvidence(True, ((float(s[0, 0]), float(s[0, 1])), (float(s[1, 0]), float(s[1, 1]))), None)
    code = int(why[0])
    if code >= 1000:
        blocker = _name_blocker(table, seg[0])
    elif code >= 0:
        blocker = table.dense_region_names[code]
    elif code == -2:
        blocker = "models"
    else:
        blocker = None
    return SightEvidence(False, None, blocker)
