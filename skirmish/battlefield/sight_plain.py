"""The sight kernel's fan (R-B3) in plain floats, one pair at a time, stopping at the first clear
line.

`sight.sight_pairs` tests every fan line of every pair of a batch in numpy: about forty numpy
calls a batch, whatever its size, while the phase machine's "may anyone shoot" needs one pair
that sees and a shooter's question a handful of pairs. Here each fan line of a pair is tested
with the formulas of `sight._clear` written out element by element (the lines of `_lines`, the
box pre-filters of `_bbox_hits`, the orientation tests of `_meets_blockers`, the dense regions'
room and Cyrus-Beck lengths of `_big_lengths`): +, -, *, / and sqrt round the same either way,
so each line is clear exactly when the numpy kernel says so, and a pair sees through its fan
exactly when the kernel's fan says so. A pair's answer is its own in the kernel too, so
stopping early changes no other pair's answer.

Tables it does not cover (a non-convex dense region, more than two big dense regions whose
diagonals numpy might add in another order, or bases blocking sight) are left to the kernel
(`covers`).
"""

from __future__ import annotations

import math
from types import ModuleType

import numpy as np
import shapely

from skirmish.battlefield.sight import (
    _FAN_ALL,
    DENSE_LIMIT,
    INSET,
    _candidate_vertices,
    blocker_edges,
    dense_clip,
    table_memo,
)
from skirmish.battlefield.table import Table

_FAN_PLAIN: tuple[tuple[float, float], ...] = tuple((float(a), float(b)) for a, b in _FAN_ALL.tolist())
"""The centre line, then the fan: (offset at a, offset at b) in base radii."""

PENDING = 2
"""The compiled kernel's answer for a pair only the numpy kernel can decide (`sight_jit`)."""

MAX_REGIONS = 2
"""Up to this many big dense regions, a line's room and dense length add up in any order alike."""


class PlainFan:
    """A table's sight blockers and big dense regions as plain floats (built once per table)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.blocker_boxes = (
            [tuple(b) for b in table.blocker_boxes.tolist()] if len(table.blocker_index) else []
        )
        be = blocker_edges(table)
        self.edges = list(zip(be.ax.tolist(), be.ay.tolist(), be.ex.tolist(), be.ey.tolist(), strict=True))
        big = table.dense_big.tolist()
        self.big = big
        self.dense: list[
            tuple[tuple[float, float, float, float], float, list[tuple[float, float, float]]]
        ] = []
        self.ok = True
        if big:
            clip = dense_clip(table)
            self.ok = bool(clip.convex.all()) and len(big) <= MAX_REGIONS
            if self.ok:
                starts = [*clip.starts.tolist(), len(clip.nx)]
                halves = list(zip(clip.nx.tolist(), clip.ny.tolist(), clip.na.tolist(), strict=True))
                boxes = table.dense_boxes[big].tolist()
                diags = table.dense_diag[big].tolist()
                for r in range(len(big)):
                    box = boxes[r]
                    self.dense.append(
                        ((box[0], box[1], box[2], box[3]), diags[r], halves[starts[r] : starts[r + 1]])
                    )

    def line_clear(self, x0: float, y0: float, x1: float, y1: float, inside: list[bool]) -> bool:
        """`sight._clear` of one line (no bases blocking): True when it meets no sight blocker and
        holds at most 3" of the dense regions not in `inside` (those either model stands in)."""
        lox, hix = (x0, x1) if x0 <= x1 else (x1, x0)
        loy, hiy = (y0, y1) if y0 <= y1 else (y1, y0)
        for bx0, by0, bx1, by1 in self.blocker_boxes:
            if lox <= bx1 and hix >= bx0 and loy <= by1 and hiy >= by0:
                if self._meets_blockers(x0, y0, x1, y1):
                    return False
                break
        if not self.dense:
            return True
        counted: list[bool] = []
        room = 0.0
        for ((bx0, by0, bx1, by1), diag, _), skip in zip(self.dense, inside, strict=True):
            c = lox <= bx1 and hix >= bx0 and loy <= by1 and hiy >= by0 and not skip
            counted.append(c)
            room += diag if c else 0.0
        if not room > DENSE_LIMIT:
            return True
        dx = x1 - x0
        dy = y1 - y0
        length = math.sqrt(dx * dx + dy * dy)
        total = 0.0
        for (_, _, halves), c in zip(self.dense, counted, strict=True):
            if not c:
                continue
            t0 = -math.inf
            t1 = math.inf
            for nx, ny, na in halves:
                num = na - (nx * x0 + ny * y0)
                den = nx * dx + ny * dy
                ratio = num / (den if den != 0 else 1.0)
                enter = ratio if den < 0 else (math.inf if den == 0 and num <= 0 else -math.inf)
                leave = ratio if den > 0 else math.inf
                t0 = enter if enter > t0 else t0
                t1 = leave if leave < t1 else t1
            t0 = t0 if t0 > 0.0 else 0.0
            t1 = t1 if t1 < 1.0 else 1.0
            span = t1 - t0
            total += (span if span > 0.0 else 0.0) * length
        return not total > DENSE_LIMIT + 1e-9

    def _meets_blockers(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """`sight._meets_blockers` for one segment: it crosses or touches an edge of the shrunk
        blocker union, or its first end lies inside it."""
        dx = x1 - x0
        dy = y1 - y0
        for ax, ay, ex, ey in self.edges:
            rax = ax - x0
            ray = ay - y0
            o1 = dx * ray - dy * rax
            o2 = dx * (ray + ey) - dy * (rax + ex)
            o3 = ey * rax - ex * ray
            o4 = ex * (y1 - ay) - ey * (x1 - ax)
            if o1 * o2 <= 0 and o3 * o4 <= 0 and (o1 != 0 or o2 != 0):
                return True
        return bool(shapely.intersects_xy(self.table.sight_union, x0, y0))

    def pair_sees(
        self, ax: float, ay: float, ra: float, bx: float, by: float, rb: float, inside: list[bool]
    ) -> bool:
        """Whether some line of the fan (`sight._lines`, centre line first) between bases a and b
        is clear; `inside[r]`: either base's centre is in big dense region r."""
        dx = bx - ax
        dy = by - ay
        norm = math.sqrt(dx * dx + dy * dy)
        safe = norm if norm > 0 else 1.0
        nx = -dy / safe
        ny = dx / safe
        for fa, fb in _FAN_PLAIN:
            sa = fa * ra
            sb = fb * rb
            if self.line_clear(ax + sa * nx, ay + sa * ny, bx + sb * nx, by + sb * ny, inside):
                return True
        return False


def plain_fan(table: Table, block_bases: bool) -> PlainFan | None:
    """The table's `PlainFan` when it covers this table and bases do not block sight, else None."""
    if block_bases:
        return None
    fan = table_memo(table, "plain_fan", PlainFan, PlainFan)
    return fan if fan.ok else None


def regions_of(table: Table, xy: np.ndarray) -> list[list[bool]]:
    """Per big dense region, per centre: the centre lies in it (`sight._regions_containing`)."""
    out = []
    for r in table.dense_big.tolist():
        out.append(
            np.asarray(shapely.contains_xy(table.dense_regions[r], xy[:, 0], xy[:, 1]), dtype=bool).tolist()
        )
    return out


class CompiledFan:
    """A covered table's sight arrays for the compiled kernel (`battlefield.sight_jit`): the blocker
    boxes and union edges, the union parts' boxes, the big dense regions' boxes, diagonals and
    half-planes, and the corners of the exact stage (built once per table)."""

    def __init__(self, table: Table) -> None:
        be = blocker_edges(table)
        f8 = np.float64
        blockers = len(table.blocker_index) > 0
        self.bboxes = np.ascontiguousarray(table.blocker_boxes if blockers else np.zeros((0, 4)), dtype=f8)
        parts = shapely.get_parts(table.sight_union)
        self.uboxes = np.ascontiguousarray(
            shapely.bounds(parts).reshape(-1, 4) if len(parts) else np.zeros((0, 4)), dtype=f8
        )
        edges = [np.ascontiguousarray(c, dtype=f8) for c in (be.ax, be.ay, be.ex, be.ey)]
        self.eax, self.eay, self.eex, self.eey = edges
        big = table.dense_big
        self.dboxes = np.ascontiguousarray(table.dense_boxes[big].reshape(-1, 4), dtype=f8)
        self.ddiag = np.ascontiguousarray(table.dense_diag[big], dtype=f8)
        if len(big):
            clip = dense_clip(table)
            self.hnx = np.ascontiguousarray(clip.nx, dtype=f8)
            self.hny = np.ascontiguousarray(clip.ny, dtype=f8)
            self.hna = np.ascontiguousarray(clip.na, dtype=f8)
            self.hstart = np.array([*clip.starts.tolist(), len(clip.nx)], dtype=np.int64)
        else:
            self.hnx = self.hny = self.hna = np.zeros(0)
            self.hstart = np.zeros(1, dtype=np.int64)
        self.verts = np.ascontiguousarray(_candidate_vertices(table).reshape(-1, 2), dtype=f8)

    def run(
        self,
        kernel: ModuleType,
        xy: np.ndarray,
        radii: np.ndarray,
        pairs: list[tuple[int, int]],
        inside: np.ndarray,
        *,
        fan: bool,
        exact: bool,
        first: bool,
    ) -> list[int]:
        """`sight_jit.pairs_see` of `pairs` (indices into `xy`): 1 sees, 0 not by the stages run,
        PENDING for the numpy kernel, -1 not asked (after the first pair seen, with `first`)."""
        pi = np.array([p[0] for p in pairs], dtype=np.int64)
        pj = np.array([p[1] for p in pairs], dtype=np.int64)
        out = kernel.pairs_see(
            xy, radii, pi, pj, fan, exact, first, _FAN_C, inside,
            self.bboxes, self.eax, self.eay, self.eex, self.eey, self.uboxes,
            self.dboxes, self.ddiag, self.hnx, self.hny, self.hna, self.hstart, self.verts,
        )  # fmt: skip
        res: list[int] = out.tolist()
        return res


_FAN_C = np.ascontiguousarray(_FAN_ALL, dtype=np.float64)

_COMPILED: list[ModuleType | None] = []

EXACT_AFTER = 20
"""Batches a process takes through the numpy kernel's exact stage (`asked_exact`) before it loads
the compiled kernel. Loading (numba's cached machine code, the start-up check) costs about 35 ms,
what some 25 exact batches cost in numpy, so a process whose games seldom reach the exact stage
(a few heuristic games) never pays for it; the answers are the same either way."""

_EXACT_ASKED = [0]


def asked_exact() -> None:
    """Count one batch through the numpy kernel's exact stage (see EXACT_AFTER)."""
    _EXACT_ASKED[0] += 1


def compiled_fan(table: Table) -> CompiledFan | None:
    """The table's `CompiledFan` once the compiled kernel is loaded (see `compiled`), else None."""
    if compiled() is None:
        return None
    return table_memo(table, "compiled_fan", CompiledFan, CompiledFan)


def compiled(now: bool = False) -> ModuleType | None:
    """`battlefield.sight_jit`, loaded and checked, once the path finder has loaded numba (`paths.jit`
    decides whether numba is used and when it is imported) and EXACT_AFTER exact batches have gone
    through numpy; None before that, or when numba is off or the check fails. `now` skips the wait
    for EXACT_AFTER batches (benchmarks measure the steady state a long troupe test reaches)."""
    if _COMPILED:
        return _COMPILED[0]
    if not now and _EXACT_ASKED[0] < EXACT_AFTER:
        return None
    from skirmish.battlefield.paths import jit

    if not jit._LOADED:
        return None  # not decided yet
    mod = None
    if jit._LOADED[0] is not None:
        try:
            from skirmish.battlefield import sight_jit

            consts = (sight_jit.DENSE_LIMIT, sight_jit.INSET, sight_jit.PENDING)
            same = consts == (DENSE_LIMIT, INSET, PENDING)
            mod = sight_jit if same and _self_check(sight_jit) else None
        except Exception:  # a numba that cannot compile the kernel
            mod = None
    _COMPILED.append(mod)
    return mod


def _self_check(kernel: ModuleType) -> bool:
    """The compiled atan2, asin, cos and sin equal `math`'s on a fixed table of values, and a pair
    on an empty table compiles and sees (exactness is the property tests')."""
    rng = np.random.default_rng(20261202)
    xs = rng.uniform(-60.0, 60.0, 1000)
    ys = rng.uniform(-60.0, 60.0, 1000)
    got = kernel.probe(xs, ys)
    for k, (x, y) in enumerate(zip(xs.tolist(), ys.tolist(), strict=True)):
        want = (math.atan2(y, x), math.asin(math.sin(x) * 0.999), math.cos(x), math.sin(y))
        if tuple(float(v) for v in got[:, k]) != want:
            return False
    z4, z0 = np.zeros((0, 4)), np.zeros(0)
    res = kernel.pairs_see(
        np.array([[0.0, 0.0], [10.0, 0.0]]), np.array([0.5, 0.5]),
        np.array([0], dtype=np.int64), np.array([1], dtype=np.int64), True, True, False,
        _FAN_C, np.zeros((0, 2), dtype=bool), z4, z0, z0, z0, z0, z4, z4, z0, z0, z0, z0,
        np.zeros(1, dtype=np.int64), np.zeros((0, 2)),
    )  # fmt: skip
    return bool(res.tolist() == [1])
