"""The path finder compiled with numba, when numba is installed (the `fast` extra).

`search._astar` is the hottest pure-Python code of a game (a third of a random-bot game's time:
graph building, the heap loop and a segment test per popped edge). Here the whole of one A*
call (graph, loop, segment and arc legality) is one compiled call, `jit.search.astar`, and a
whole search is one more (`jit.lazy.search_now`: the straight first try, the goal and ring
points, every lazy round and its check of the left-out obstacles, around `astar`); the movement
listing's small batches of straight moves are one too (`jit.straight`). Every answer equals the
reference's bit for bit, so replays do not move. What makes that hold:

- +, -, *, /, sqrt and comparisons round the same compiled as in CPython: numba compiles
  without fast-math, so nothing is reordered or contracted into a fused multiply-add;
- sin, cos, acos and atan2 are calls to the same C library `portable` reaches through `math`
  (numba's SVML vector library is kept off, and the start-up check compares them);
- `math.hypot` is CPython's own algorithm (`jit.hypot`), not the C library's `hypot`;
- float `%` is Python's (numba follows CPython's `float_rem`); `max(h, 0.0)` is written out;
- the heap is CPython's `heapq` sift algorithm on arrays, comparing entries (f, v, u, turn, c)
  lexicographically as Python compares tuples, so the same entries pop in the same order;
- graph nodes are ordered by (circle, angle) with a stable merge sort (as `sorted` does);
- node legality uses whichever point test the reference uses for that many (point, obstacle)
  pairs (`_point_near`'s up to BLOCKED_SMALL, numpy `_violations`' beyond).

Selection: compiled when numba imports, `SKIRMISH_NO_JIT` is not `1` and the start-up check
passes (the hypot replica and the libm functions against `math` on a fixed table of values, one
small search compiled and run); otherwise the reference runs. A flyer's landing (the terrain's
shapely polygons) is asked in Python around the compiled call (`search_now`). numba is imported
only after the first JIT_AFTER searches of a process, and compiles on first use; `cache=True`
keeps the machine code beside the installed modules (numba's `__pycache__`, or its user cache
directory when that is not writable), so later processes only load it. numba keys each
function's cache on its own file's timestamp only, while an entry point's machine code includes
its callees' (`kernel`'s, `hypot`'s, ...): a stamp of the compiled modules' contents beside the
cache (`_drop_stale_cache`) empties it when any of them changed, so an edited development tree
never runs old machine code.
"""

from __future__ import annotations

import hashlib
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from skirmish.battlefield.measure import CONTACT, OVERLAP_TOL
from skirmish.battlefield.paths.check import LENGTH_TOL, STRAIGHT_SMALL, _lands, landing
from skirmish.battlefield.paths.kernel import BLOCKED_SMALL
from skirmish.battlefield.paths.obstacles import _NO_EDGES, BOX_SLACK, Mover, _Obstacles
from skirmish.battlefield.paths.tangents import ARC_TOL, NODE_MARGIN, _convex_vertices, _discs
from skirmish.battlefield.table import Table
from skirmish.data.atomic import write_atomic

OFF = "SKIRMISH_NO_JIT"
"""Set to 1 to run the Python reference even where numba is installed."""

JIT_AFTER = 500
"""Searches a process runs with the reference before it loads numba. Loading (import, machine
code from the cache, the start-up check) costs about what 500 compiled searches save, so a
single game or a short session never pays for it, and a long run (troupe tests, benchmarks)
loses at most that much (the answers are the same either way)."""

_LOADED: list[ModuleType | None] = []
_SEARCHES = [0]


def compiled() -> ModuleType | None:
    """The compiled finder's entry points (`jit.lazy`), loaded and checked on first use, or None."""
    if not _LOADED:
        _LOADED.append(None if os.environ.get(OFF) == "1" else _load())
    return _LOADED[0]


def enabled() -> bool:
    """Whether this search runs compiled: from the JIT_AFTER + 1st search of the process on."""
    if not _LOADED:
        _SEARCHES[0] += 1
        if _SEARCHES[0] <= JIT_AFTER:
            return False
    return compiled() is not None


SOURCES = ("lazy.py", "straight.py", "search.py", "kernel.py", "hypot.py")
"""The compiled modules whose machine code the entry points hold (numba inlines callees)."""


def _drop_stale_cache(here: Path | None = None) -> None:
    """Empty the in-tree numba cache when any compiled module's text changed since it was written.

    numba checks only the timestamp of the file a function is defined in, so after an edit of
    `kernel.py` alone the cached `astar` would still run the old kernel. Where the cache is not
    in the tree (a read-only install, a zipped wheel) this does nothing: numba's user cache is
    keyed on the installed files, which an install writes anew."""
    here = Path(__file__).parent if here is None else here
    cache = here / "__pycache__"
    try:
        digest = hashlib.sha256(b"".join((here / name).read_bytes() for name in SOURCES)).hexdigest()
        stamp = cache / "skirmish-jit-sources.sha256"
        if stamp.is_file() and stamp.read_text(encoding="ascii") == digest:
            return
        cache.mkdir(exist_ok=True)
        for old in sorted(cache.glob("*.nb[ic]")):
            old.unlink()
        write_atomic(stamp, digest)
    except OSError:  # not a folder we may write (or not a folder: a zipped wheel)
        return


def _load() -> ModuleType | None:
    _drop_stale_cache()
    if "numba" not in sys.modules:
        # SVML's vector sin/cos round differently from the C library's; numba would use it in
        # loops it vectorises if Intel's runtime is installed.
        os.environ["NUMBA_DISABLE_INTEL_SVML"] = "1"
    try:
        import numba

        from skirmish.battlefield.paths.jit import lazy as jsearch
    except Exception:  # not installed, or not importable here (an incompatible numpy, ...)
        return None
    if getattr(numba.config, "DISABLE_JIT", False) or getattr(numba.config, "USING_SVML", False):
        return None
    try:
        ok = _self_check(jsearch)
    except Exception:  # a numba that cannot compile these functions
        return None
    return jsearch if ok else None


CHECK_VALUES = [0.0, -0.0, 1e-300, 5e-324, 1e-310, 0.1, 0.5, 1.0, 3.0, 4.0, 7.25, 47.99, 48.0, 1e10, 1e300]
"""Fixed inputs of the start-up check (with a few thousand seeded random ones)."""


def _self_check(jsearch: ModuleType) -> bool:
    """The compiled hypot, libm functions and float `%` equal Python's on a fixed table, and a
    search around one base compiles and draws its arc (exactness is the property tests')."""
    from skirmish.battlefield.paths.jit import kernel as jkernel

    rng = np.random.default_rng(20261201)
    xs = [*CHECK_VALUES, *(-v for v in CHECK_VALUES), *rng.uniform(-48.0, 48.0, 2000).tolist()]
    ys = [*reversed(xs[: 2 * len(CHECK_VALUES)]), *rng.uniform(-48.0, 48.0, 2000).tolist()]
    xs += np.ldexp(rng.uniform(1.0, 2.0, 500), rng.integers(-1074, 1023, 500)).tolist()
    ys += np.ldexp(rng.uniform(1.0, 2.0, 500), rng.integers(-1074, 1023, 500)).tolist()
    ax, ay = np.array(xs), np.array(ys)
    got = jkernel.probe(ax, ay)
    want = np.array(
        [
            [math.hypot(x, y) for x, y in zip(xs, ys, strict=True)],
            [math.atan2(x, y) for x, y in zip(xs, ys, strict=True)],
            [math.sin(x) for x in xs],
            [math.cos(x) for x in xs],
            [math.acos(x) if -1.0 <= x <= 1.0 else 0.0 for x in xs],
            [x % (2 * math.pi) for x in xs],
        ]
    )
    if got.tobytes() != want.tobytes():
        return False
    # A base between start and goal: the path wraps around its circle (graph, heap, arcs).
    found, path = jsearch.astar(
        np.array([5.0]),
        np.array([5.0]),
        np.array([1.0001]),
        1.0,
        5.0,
        12.0,
        5.2,
        0.0,
        np.array([[5.0, 5.0, 0.9999 * 0.9999, 4.0, 6.0, 4.0, 6.0]]),
        np.empty((0, 7)),
        np.empty((0, 4)),
        np.empty(0, dtype=np.int64),
        np.empty(0, dtype=np.int64),
        0.5,
        0.25,
        0.5,
        20.0,
        20.0,
        np.empty((0, 2)),
        BLOCKED_SMALL,
        ARC_TOL,
    )
    return bool(found) and len(path) > 2


def arrays(obs: _Obstacles, inc_b: np.ndarray, inc_t: np.ndarray) -> tuple[np.ndarray, ...]:
    """The selected obstacles as the compiled kernels take them: base rows (x, y, squared limit,
    box x0, x1, y0, y1), all impassable edges' rows, and per selected piece its box and edge range."""
    k = obs.kern
    sel = np.asarray(inc_t, dtype=np.int64)
    e0 = k.starts[sel]
    return (
        np.ascontiguousarray(obs.bases_arr()[np.asarray(inc_b, dtype=np.int64)]),
        k.rows,
        np.ascontiguousarray(k.box[sel], dtype=float),
        np.ascontiguousarray(e0, dtype=np.int64),
        np.ascontiguousarray(e0 + k.sizes[sel], dtype=np.int64),
    )


def astar(
    table: Table,
    obs: _Obstacles,
    start: np.ndarray,
    centre: np.ndarray,
    goal_r: float,
    inc_b: np.ndarray,
    inc_t: np.ndarray,
    ring: np.ndarray,
) -> np.ndarray | None:
    """`search._astar` compiled (call only when `enabled()` and the mover does not fly)."""
    jsearch = compiled()
    assert jsearch is not None and not obs.flying
    cx, cy, rad = _discs(table, obs, inc_b, inc_t)
    bases, edges, pbox, pe0, pe1 = arrays(obs, inc_b, inc_t)
    lo = obs.radius - 1e-9
    found, path = jsearch.astar(
        cx,
        cy,
        rad,
        float(start[0]),
        float(start[1]),
        float(centre[0]),
        float(centre[1]),
        float(goal_r),
        bases,
        edges,
        pbox,
        pe0,
        pe1,
        obs.tlim + BOX_SLACK,
        obs.tlim2,
        lo,
        table.width,
        table.height,
        np.ascontiguousarray(ring, dtype=float).reshape(-1, 2),
        BLOCKED_SMALL,
        ARC_TOL,
    )
    return path if found else None


def pieces_of(table: Table, flying: bool) -> tuple[np.ndarray, ...]:
    """`pieces` of the obstacle set a mover that flies (or not) has on `table`: a flyer's set and
    a bare table's have no pieces, every other set has all the table's impassable ones."""
    if flying or not len(table.impassable_index):
        return _NO_PIECES
    return _table_pieces(table)


def pieces(table: Table, obs: _Obstacles) -> tuple[np.ndarray, ...]:
    """Every impassable piece of `obs` as the compiled kernels take them, built once per table
    (read-only): its box and edge range e0:e1 in `EdgeKernel.rows`, and its convex corners
    (`tangents._convex_vertices`) as verts[v0:v1] of one (v, 2) array. Empty for a flyer (it
    passes over the pieces)."""
    if not len(obs.polys):
        return _NO_PIECES
    return _table_pieces(table)


def _table_pieces(table: Table) -> tuple[np.ndarray, ...]:
    """`pieces` of a set with every impassable piece of `table` (the table's kernel), built once
    per table."""
    hit = table.memo.get("jit_pieces")
    if hit is None:
        k = table.imp_kernel
        parts = [_convex_vertices(table, j) for j in range(k.count)]
        sizes = np.array([len(v) for v in parts], dtype=np.int64)
        v1 = np.cumsum(sizes).astype(np.int64)
        e0 = np.ascontiguousarray(k.starts, dtype=np.int64)
        hit = (
            np.ascontiguousarray(k.box, dtype=float).reshape(-1, 4),
            e0,
            np.ascontiguousarray(e0 + k.sizes, dtype=np.int64),
            np.ascontiguousarray(np.concatenate([np.empty((0, 2)), *parts]), dtype=float),
            v1 - sizes,
            v1,
        )
        for a in hit:
            a.flags.writeable = False
        table.memo["jit_pieces"] = hit
    assert isinstance(hit, tuple)
    return hit


_NO_PIECES = (
    np.empty((0, 4)),
    np.empty(0, dtype=np.int64),
    np.empty(0, dtype=np.int64),
    np.empty((0, 2)),
    np.empty(0, dtype=np.int64),
    np.empty(0, dtype=np.int64),
)
for _a in _NO_PIECES:
    _a.flags.writeable = False


def search_now(
    table: Table,
    obs: _Obstacles,
    start: np.ndarray,
    centre: np.ndarray,
    goal_r: float,
    unit: np.ndarray,
    probes: list[tuple[float, float, float, float]],
    included: set[int],
    reference: Callable[[], np.ndarray | None],
) -> np.ndarray | None:
    """`search._search_now` compiled, one call a search (call only when `enabled()`): the same
    path, with the same probes and included bases appended (only once the compiled call has
    returned). For a flyer whose A* rounds ended somewhere it may not land, `reference()`
    answers instead (see `lazy.search_now`; nothing is appended then). The games call
    `search_now_flat`; this tuple form is what the tests hold the compiled search to."""
    done = _compiled_search(table, obs, start, centre, goal_r, unit)
    if done is None:
        return reference()
    found, path, got, inc = done
    probes.extend(map(tuple, got.tolist()))
    included.update(inc.tolist())
    return path if found else None


def search_now_flat(
    table: Table,
    obs: _Obstacles,
    start: np.ndarray,
    centre: np.ndarray,
    goal_r: float,
    unit: np.ndarray,
    flat: list[float],
    included: set[int],
    reference: Callable[[], np.ndarray | None],
) -> np.ndarray | None:
    """`search_now` with the probes appended flat (x0, y0, x1, y1, x0, ...): the same floats in
    the same order, without a tuple per probe (the search records keep them flat)."""
    done = _compiled_search(table, obs, start, centre, goal_r, unit)
    if done is None:
        return reference()
    found, path, got, inc = done
    flat.extend(got.ravel().tolist())
    included.update(inc.tolist())
    return path if found else None


def _compiled_search(
    table: Table, obs: _Obstacles, start: np.ndarray, centre: np.ndarray, goal_r: float, unit: np.ndarray
) -> tuple[bool, np.ndarray, np.ndarray, np.ndarray] | None:
    """The compiled search's (found, path, probes (q, 4), included bases), or None where a
    flyer's rounds ended somewhere it may not land (the reference must answer then)."""
    jlazy = _LOADED[0]
    assert jlazy is not None
    box, e0, e1, verts, v0, v1 = pieces(table, obs)
    sx, sy = start.tolist()
    gx, gy = centre.tolist()
    dc = float(np.hypot(sx - gx, sy - gy))  # numpy's (the C library's) hypot, as the reference
    direct_lands, ring_lands = True, _ALL_LAND[: len(unit)]
    if obs.flying:  # the reference's landing questions, asked here (pure, so in any order)
        if goal_r > 0:
            direct = centre + (start - centre) * (goal_r / dc) if dc > goal_r else centre
            ring_lands = np.ascontiguousarray(_lands(table, obs, centre + goal_r * unit))
        else:
            direct = centre
        direct_lands = bool(_lands(table, obs, direct[None, :])[0])
    found, path, got, inc, ends = jlazy.search_now(
        sx,
        sy,
        gx,
        gy,
        float(goal_r),
        dc,
        obs.bases_arr(),
        obs.clearance,
        obs.kern.rows,
        box,
        e0,
        e1,
        verts,
        v0,
        v1,
        obs.radius + NODE_MARGIN,
        NODE_MARGIN,
        unit,
        direct_lands,
        ring_lands,
        obs.tlim + BOX_SLACK,
        obs.tlim2,
        obs.radius - 1e-9,
        table.width,
        table.height,
        BLOCKED_SMALL,
        ARC_TOL,
    )
    if obs.flying and len(ends) and not _lands(table, obs, ends).all():
        return None
    return bool(found), path, got, inc


_ALL_LAND = np.ones(64, dtype=bool)
"""Every ring point lands (a mover that does not fly), sliced to the ring's size. Shared, and
left writeable only because the compiled search's signature takes a writeable array (a
read-only one would compile a second `search_now`); nothing writes it."""


def legal_points(table: Table, obs: _Obstacles, pts: np.ndarray) -> np.ndarray | None:
    """`check._legal_points(table, obs, pts)` (against every obstacle) compiled: the same
    booleans, with the point test `_blocked` uses for that many (point, obstacle) pairs; None
    when the compiled finder is not loaded (this does not load it): ask the reference then."""
    jlazy = _LOADED[0] if _LOADED else None
    if jlazy is None:
        return None
    p = np.ascontiguousarray(pts, dtype=float).reshape(-1, 2)
    box, e0, e1 = pieces(table, obs)[:3]
    lo = obs.radius - 1e-9
    return _guarded(
        jlazy.legal_points,
        p,
        lo,
        table.width - lo,
        table.height - lo,
        obs.bases_arr(),
        obs.kern.rows,
        box,
        e0,
        e1,
        obs.tlim + BOX_SLACK,
        obs.tlim2,
        len(p) * (len(obs.centres) + len(obs.polys)) <= BLOCKED_SMALL,
    )


def _guarded(fast: Callable[..., np.ndarray], *args: Any) -> np.ndarray | None:
    """`fast(*args)`, or None should the compiled code fail (a broken cache, say): the reference
    from then on (`run` does the same for the searches)."""
    try:
        return fast(*args)
    except Exception:
        _LOADED[:] = [None]
        return None


def straight_moves(
    mover: Mover, starts: np.ndarray, ends: np.ndarray, max_length: float
) -> np.ndarray | None:
    """`check.check_straight_moves` compiled for a batch it would answer in plain floats (at most
    STRAIGHT_SMALL moves), the same booleans; None when the compiled finder is not loaded (this
    does not load it) or the batch is bigger: ask `check_straight_moves` then.

    The obstacle set it is judged against (`mover.obstacles(start, contact=False)`: every other
    base in play at plain clearance, the impassable pieces unless the mover flies) is not built:
    the compiled call makes the base rows from the centres and radii with `_obstacles`' formulas
    (`straight.straight_moves_at`), the same rows bit for bit (a property test)."""
    jlazy = _LOADED[0] if _LOADED else None
    e = np.asarray(ends, dtype=float).reshape(-1, 2)
    if jlazy is None or len(e) > STRAIGHT_SMALL:
        return None
    s = np.ascontiguousarray(starts, dtype=float).reshape(-1, 2)
    table = mover.table
    r = float(mover.radii[mover.index])
    box, e0, e1 = pieces_of(table, mover.flying)[:3]
    kern = table.imp_kernel if len(box) else _NO_EDGES
    tlim = r - OVERLAP_TOL
    lo = r - 1e-9
    gone = mover.ignore
    ok = _guarded(
        jlazy.straight_moves_at,
        s,
        np.ascontiguousarray(e),
        np.ascontiguousarray(mover.xy),
        np.ascontiguousarray(mover.radii),
        mover.index,
        np.zeros(len(mover.xy), dtype=bool) if gone is None else np.ascontiguousarray(gone, dtype=bool),
        np.ascontiguousarray(mover.enemies),
        CONTACT,
        OVERLAP_TOL,
        BOX_SLACK,
        kern.rows,
        box,
        e0,
        e1,
        tlim + BOX_SLACK,
        tlim * tlim,
        lo,
        table.width - lo,
        table.height - lo,
        max_length + LENGTH_TOL,
    )
    if ok is None:  # the compiled code failed: the reference from then on
        return None
    return ok & landing(table, e, r) if mover.flying else ok


def straight_moves_reference(
    mover: Mover, starts: np.ndarray, ends: np.ndarray, max_length: float
) -> np.ndarray | None:
    """`straight_moves` as it was, on the obstacle set itself (`mover.obstacles(start,
    contact=False)` and `straight.straight_moves`): the reference the property test holds
    `straight_moves` to."""
    jlazy = _LOADED[0] if _LOADED else None
    e = np.asarray(ends, dtype=float).reshape(-1, 2)
    if jlazy is None or len(e) > STRAIGHT_SMALL:
        return None
    s = np.ascontiguousarray(starts, dtype=float).reshape(-1, 2)
    table = mover.table
    obs = mover.obstacles(s[0], contact=False)
    box, e0, e1 = pieces(table, obs)[:3]
    lo = obs.radius - 1e-9
    ok = _guarded(
        jlazy.straight_moves,
        s,
        np.ascontiguousarray(e),
        obs.bases_arr(),
        obs.clearance,
        mover.enemies[obs.model],
        CONTACT,
        obs.kern.rows,
        box,
        e0,
        e1,
        obs.tlim + BOX_SLACK,
        obs.tlim2,
        lo,
        table.width - lo,
        table.height - lo,
        max_length + LENGTH_TOL,
    )
    if ok is None:
        return None
    return ok & landing(table, e, obs.radius) if mover.flying else ok


def run(
    fast: Callable[..., np.ndarray | None], reference: Callable[..., np.ndarray | None], *args: Any
) -> np.ndarray | None:
    """`fast(*args)` (`search_now` or `astar`), or should the compiled code ever fail (a broken
    cache, say), `reference(*args)` from then on (`search._search_py`, `search._astar`): the
    answers are the same, so the game never notices. `fast` appends to its arguments only after
    the compiled call returned, so the reference starts from what `fast` was given."""
    if _LOADED and _LOADED[0] is not None:
        try:
            return fast(*args)
        except Exception:
            _LOADED[:] = [None]
    return reference(*args)
