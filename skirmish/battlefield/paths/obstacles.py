"""Who moves, and what it must keep clear of: the bottom of `paths`.

A `Mover` is the question every paths function asks about (which model, on which table, among
which bases, who is an enemy, whether it flies, who is out of play), so each call names only
what differs: the path, the goal, the budget.

The obstacles of one question (other bases with their clearances, impassable pieces with their
edges) are gathered once and then asked about by every kernel call; this module knows the rules
that decide each clearance (R-M3 contact, R-C3 target, R-E2 touching at the start) and nothing
of segments, so the kernels above it stay pure geometry.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from skirmish.battlefield.measure import CONTACT, OVERLAP_TOL
from skirmish.battlefield.memo import remember
from skirmish.battlefield.table import EdgeKernel, Table

BOX_SLACK = 1e-9
"""Bounding-box prefilters are widened by this, so they never reject a pair the exact test would
call too close (float noise); both code paths then give the exact test's answer."""


OBSTACLE_MEMO = 128
"""Obstacle questions remembered per table (mover, start, masks; oldest forgotten first), each
with the sets of its last PLACES_KEPT arrangements of the other bases."""

PLACES_KEPT = 4
"""Arrangements of the bases kept per obstacle question (oldest forgotten first)."""

PATCH_MOST = 3
"""A set is patched from the last arrangement's when at most this many of its bases moved."""


_NO_EDGES = EdgeKernel(np.empty((0, 2, 2)), np.empty(0, dtype=np.int64), 0)


@dataclass
class _Obstacles:
    """What a mover must keep clear of: bases (centre, clearance) and impassable pieces (edges)."""

    centres: np.ndarray  # (b, 2)
    clearance: np.ndarray  # (b,) minimum centre distance
    model: np.ndarray  # (b,) model index of each base obstacle
    edges: np.ndarray  # (t, 2, 2) impassable edges
    edge_owner: np.ndarray  # (t,) which impassable piece (0..p-1)
    polys: np.ndarray  # (p,) prepared shapely polygons
    piece: np.ndarray  # (p,) table piece index
    radius: float  # the mover's radius (terrain clearance)
    kern: EdgeKernel  # the impassable edges, pre-digested (empty when flying)
    cx: np.ndarray  # (b,) base centres' x
    cy: np.ndarray  # (b,) base centres' y
    lim: np.ndarray  # (b,) clearance minus tolerance: closer than this is a violation
    lim2: np.ndarray  # (b,) its square (the kernels compare squared distances)
    tlim: float  # the mover's radius minus tolerance (terrain)
    tlim2: float
    _py: tuple[tuple[float, ...], ...] | None = None
    _arr: np.ndarray | None = None
    flying: bool = False
    """A flyer passes over impassable pieces but must land clear of them (goals are checked)."""

    @property
    def count(self) -> int:
        return len(self.centres) + len(self.polys)

    def bases_py(self) -> tuple[tuple[float, ...], ...]:
        """Bases as plain tuples for the pure-Python kernel, built on first use: centre, squared
        limit, and the box (x0, x1, y0, y1) outside which a segment's box cannot come too close.
        A tuple of tuples of floats: the collector untracks it, so kept sets cost it nothing."""
        if self._py is None:
            out: list[tuple[float, ...]] = []
            for cx, cy, lim, lim2 in zip(
                self.cx.tolist(), self.cy.tolist(), self.lim.tolist(), self.lim2.tolist(), strict=True
            ):
                w = lim + BOX_SLACK
                out.append((cx, cy, lim2, cx - w, cx + w, cy - w, cy + w))
            self._py = tuple(out)
        return self._py

    def bases_arr(self) -> np.ndarray:
        """`bases_py` as a (b, 7) array, the rows the compiled path finder takes (`paths.jit`): the
        rows themselves (the same floats; `_obstacles` and `_moved` make them in their own loop)."""
        if self._arr is None:
            self._arr = np.array(self.bases_py(), dtype=float).reshape(-1, 7)
        return self._arr


def _obstacles(
    table: Table,
    mover: int,
    xy: np.ndarray,
    radii: np.ndarray,
    enemy: np.ndarray | None,
    start: np.ndarray,
    *,
    flying: bool,
    ignore: np.ndarray | None,
    target: int | None,
) -> _Obstacles:
    """Obstacles for a mover starting at `start`.

    Enemies get a clearance of CONTACT more than overlap (no contact outside a charge, R-M3),
    except an enemy the mover already touches at the start (it may move away along it, R-E2) and
    the charge target (which it may touch, R-C3).

    In plain floats, model by model (a game has a few dozen models, and numpy's per-call cost
    was most of the time): the formulas of `_obstacles_numpy` in its order (+, -, * and sqrt
    round the same either way), so the same arrays bit for bit. The kernels' rows of each base
    (`bases_py`, and from them `bases_arr`) are made in the same loop, with their formulas: every
    search and straight batch asks for them, and numpy's stack of seven columns cost more than
    the loop (a test holds them equal to the rows built from the arrays).
    """
    pts = xy.tolist()
    rl = radii.tolist()
    r = float(rl[mover])
    out = [False] * len(pts) if ignore is None else np.asarray(ignore, dtype=bool).tolist()
    foe = None if enemy is None else np.asarray(enemy, dtype=bool).tolist()
    sx, sy = float(start[0]), float(start[1])
    grow_by = CONTACT + 1e-7
    idx: list[int] = []
    clear: list[float] = []
    rows: list[tuple[float, ...]] = []
    for k, p in enumerate(pts):
        if k == mover or out[k]:
            continue
        c = rl[k] + r
        if foe is not None and foe[k] and k != target:
            dx = p[0] - sx
            dy = p[1] - sy
            if not math.sqrt(dx * dx + dy * dy) <= c + CONTACT + 1e-9:  # not touching at the start
                c = c + grow_by
        idx.append(k)
        clear.append(c)
        # `bases_py`'s row: the limit is `_assemble`'s (clearance - OVERLAP_TOL), squared.
        lim = c - OVERLAP_TOL
        w = lim + BOX_SLACK
        cx, cy = p
        rows.append((cx, cy, lim * lim, cx - w, cx + w, cy - w, cy + w))
    model = np.array(idx, dtype=np.int64)
    obs = _assemble(table, xy[model], np.array(clear, dtype=float), model, r, flying)
    obs._py = tuple(rows)
    return obs


def _moved(
    prev: _Obstacles,
    was: np.ndarray,
    mover: Mover,
    enemy: np.ndarray | None,
    start: np.ndarray,
    target: int | None,
) -> _Obstacles | None:
    """`_obstacles` for `mover` now, made from `prev`, its set when the bases stood at `was`
    (the same mover, start, radii, masks and target), when at most PATCH_MOST of its bases moved
    (compared bit for bit); else None. Each moved base's entries are worked out with `_obstacles`'
    formulas, every other entry is `prev`'s, so the set is the one `_obstacles` builds, bit for bit
    (a property test): in a step, one model moves between two listings of every other."""
    xy = mover.xy
    if was.shape != xy.shape or prev._py is None:
        return None
    moved = np.flatnonzero((was.view(np.int64) != xy.view(np.int64)).any(axis=1)).tolist()
    model = prev.model.tolist()
    at = {k: i for i, k in enumerate(model)}
    hits = [k for k in moved if k in at]  # the mover itself and the out-of-play are in no set
    if len(hits) > PATCH_MOST:
        return None
    if not hits:
        return prev
    rl = mover.radii.tolist()
    r = float(rl[mover.index])
    foe = None if enemy is None else np.asarray(enemy, dtype=bool).tolist()
    sx, sy = float(start[0]), float(start[1])
    centres, clearance = prev.centres.copy(), prev.clearance.copy()
    lim, lim2, cx, cy = prev.lim.copy(), prev.lim2.copy(), prev.cx.copy(), prev.cy.copy()
    rows = list(prev._py)
    arr = None if prev._arr is None else prev._arr.copy()
    for k in hits:
        i = at[k]
        x, y = xy[k].tolist()
        c = rl[k] + r
        if foe is not None and foe[k] and k != target:
            dx = x - sx
            dy = y - sy
            if not math.sqrt(dx * dx + dy * dy) <= c + CONTACT + 1e-9:  # not touching at the start
                c = c + (CONTACT + 1e-7)
        low = c - OVERLAP_TOL
        w = low + BOX_SLACK
        row = (x, y, low * low, x - w, x + w, y - w, y + w)
        centres[i] = (x, y)
        clearance[i] = c
        lim[i] = low
        lim2[i] = low * low
        cx[i] = x
        cy[i] = y
        rows[i] = row
        if arr is not None:
            arr[i] = row
    return _Obstacles(
        centres,
        clearance,
        prev.model,
        prev.edges,
        prev.edge_owner,
        prev.polys,
        prev.piece,
        prev.radius,
        prev.kern,
        cx,
        cy,
        lim,
        lim2,
        prev.tlim,
        prev.tlim2,
        _py=tuple(rows),
        _arr=arr,
        flying=prev.flying,
    )


def _assemble(
    table: Table, centres: np.ndarray, clearance: np.ndarray, model: np.ndarray, r: float, flying: bool
) -> _Obstacles:
    """The obstacle set from its bases (centres, clearances, model indices) and the mover's
    radius: the impassable pieces unless it flies, and the limits the kernels compare with."""
    lim = clearance - OVERLAP_TOL
    if flying or len(table.impassable_index) == 0:
        edges, owner, polys, piece, kern = _NONE
    else:
        piece = table.impassable_index
        edges, owner, polys, kern = (
            table.imp_edges,
            table.imp_edge_owner,
            table.polygons[piece],
            table.imp_kernel,
        )
    tlim = r - OVERLAP_TOL
    return _Obstacles(
        centres,
        clearance,
        model,
        edges,
        owner,
        polys,
        piece,
        r,
        kern,
        np.ascontiguousarray(centres[:, 0]),
        np.ascontiguousarray(centres[:, 1]),
        lim,
        lim * lim,
        tlim,
        tlim * tlim,
        flying=bool(flying and len(table.impassable_index)),
    )


_NONE = (
    np.empty((0, 2, 2)),
    np.empty(0, dtype=int),
    np.empty(0, dtype=object),
    np.empty(0, dtype=int),
    _NO_EDGES,
)
"""A flyer's (or a bare table's) terrain obstacles: none (shared, read-only like every obstacle set)."""


def _obstacles_numpy(
    table: Table,
    mover: int,
    xy: np.ndarray,
    radii: np.ndarray,
    enemy: np.ndarray | None,
    start: np.ndarray,
    *,
    flying: bool,
    ignore: np.ndarray | None,
    target: int | None,
) -> _Obstacles:
    """`_obstacles` in numpy, the reference the plain-float version is held to (a property test):
    which bases, with which clearances, for a mover starting at `start`.

    Enemies get a clearance of CONTACT more than overlap (no contact outside a charge, R-M3),
    except an enemy the mover already touches at the start (it may move away along it, R-E2) and
    the charge target (which it may touch, R-C3).
    """
    n = len(xy)
    r = float(radii[mover])
    keep = np.ones(n, dtype=bool)
    keep[mover] = False
    if ignore is not None:
        keep &= ~np.asarray(ignore, dtype=bool)
    idx = np.flatnonzero(keep)
    centres = xy[idx]
    clear = radii[idx] + r
    if enemy is not None:
        en = np.asarray(enemy, dtype=bool)[idx]
        d0 = np.sqrt(((centres - start) ** 2).sum(-1))
        touching = d0 <= clear + CONTACT + 1e-9
        grow = en & ~touching
        if target is not None:
            grow &= idx != target
        clear = clear + np.where(grow, CONTACT + 1e-7, 0.0)
    return _assemble(table, centres, clear, idx, r, flying)


@dataclass(frozen=True, eq=False)
class Mover:
    """One model about to move, with everything on the table that decides where it may go.

    Every paths function used to take the same seven arguments (table, model index, all base
    centres, all radii, the enemy mask, flying, the out-of-play mask); a mover holds them so a
    caller builds it once and asks several questions (a bot's candidates, then the engine's
    check). `enemy=None` means nobody is an enemy (no R-M3 contact rule). The arrays are held,
    not copied: build a mover for the position at hand, not to keep across moves.
    """

    table: Table
    index: int
    xy: np.ndarray
    radii: np.ndarray
    enemy: np.ndarray | None = None
    _: dataclasses.KW_ONLY
    flying: bool = False
    ignore: np.ndarray | None = None

    def __post_init__(self) -> None:
        # Float arrays of the right shape (the engine's state arrays) are held as they are.
        xy, radii = self.xy, self.radii
        if not (type(xy) is np.ndarray and xy.dtype == np.float64 and xy.ndim == 2 and xy.shape[1] == 2):
            object.__setattr__(self, "xy", np.asarray(xy, dtype=float).reshape(-1, 2))
        if not (type(radii) is np.ndarray and radii.dtype == np.float64 and radii.ndim == 1):
            object.__setattr__(self, "radii", np.asarray(radii, dtype=float).reshape(-1))

    def __repr__(self) -> str:
        fly = ", flying" if self.flying else ""
        return f"Mover(model {self.index} at {self.xy[self.index].tolist()}, r={self.radius}{fly})"

    @property
    def radius(self) -> float:
        return float(self.radii[self.index])

    @property
    def enemies(self) -> np.ndarray:
        """The enemy mask as a bool array over every model (all False when `enemy` is None)."""
        if self.enemy is None:
            return np.zeros(len(self.xy), dtype=bool)
        return np.asarray(self.enemy, dtype=bool)

    def obstacles(self, start: np.ndarray, *, target: int | None = None, contact: bool = True) -> _Obstacles:
        """What this mover must keep clear of when it starts at `start` (see `_obstacles`);
        `contact=False` leaves enemies at plain overlap clearance (the caller judges contact).

        Remembered on the table, keyed on every input exactly (bytes of the positions, radii,
        masks and start): one step asks the same mover the same question several times (its
        straight candidates, its path searches, the engine's check of the chosen move). The
        answer is shared, so nobody may modify it (nobody does: obstacles are read-only)."""
        enemy = self.enemy if contact else None
        key = (
            self.index,
            self.radii.tobytes(),
            None if enemy is None else np.asarray(enemy, dtype=bool).tobytes(),
            np.asarray(start, dtype=float).tobytes(),
            self.flying,
            None if self.ignore is None else np.asarray(self.ignore, dtype=bool).tobytes(),
            target,
        )
        where = self.xy.tobytes()
        memo = self.table.obstacle_memo
        found = memo.get(key)
        kept: dict[bytes, _Obstacles]
        if isinstance(found, dict):
            kept = found
            hit = kept.get(where)
            if isinstance(hit, _Obstacles):
                return hit
        else:
            kept = {}
            remember(memo, key, kept, OBSTACLE_MEMO)
        made: _Obstacles | None = None
        if kept:
            # Another model moved since this mover last asked from here: patch the newest set.
            was, prev = next(reversed(kept.items()))
            made = _moved(prev, np.frombuffer(was, dtype=float).reshape(-1, 2), self, enemy, start, target)
        if made is None:
            made = _obstacles(
                self.table,
                self.index,
                self.xy,
                self.radii,
                enemy,
                start,
                flying=self.flying,
                ignore=self.ignore,
                target=target,
            )
        return remember(kept, where, made, PLACES_KEPT)

    def replace(self, **changes: Any) -> Mover:
        """The same mover with some fields changed (e.g. another `ignore` for a retreat)."""
        return dataclasses.replace(self, **changes)
