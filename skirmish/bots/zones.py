"""Scoring zones as the heuristic bot sees them: each zone's polygon, centre and the spots its
three holders head for, worked out once per scenario; which models stand in a zone; who holds
which zone. Pure functions of their inputs, so the bot may keep their answers for as long as
the inputs stay the same.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import shapely

from skirmish.engine.core.state import ModelState

ZONE_SPOTS = ((0.0, 0.0), (1.7, -1.2), (-1.7, -1.2))
"""Offsets of the zone holders' spots from the zone's centre, in the order the holders are ranked."""


@dataclass(frozen=True, slots=True)
class Zone:
    """A scoring zone as the bot uses it: its polygon, centre and the spots of its three holders
    (read-only arrays, handed out as they are), with the polygon's bounds and, when the polygon is
    an axis-aligned rectangle (every shipped zone), that rectangle (`box`) for `holds`."""

    name: str
    points: int
    poly: shapely.Polygon
    centre: np.ndarray
    spots: tuple[np.ndarray, ...]
    bounds: tuple[float, float, float, float]
    box: tuple[float, float, float, float] | None

    def holds(self, x: float, y: float) -> bool:
        """`shapely.contains_xy(poly, x, y)` of one point given as plain floats. A point outside the
        polygon's bounds is outside it; the interior of an axis-aligned rectangle is exactly the
        open box between its bounds (a point on an edge is on the boundary, which a polygon does
        not contain, and GEOS decides that exactly), so a rectangle needs no call at all."""
        x0, y0, x1, y1 = self.bounds
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            return False
        if self.box is not None:
            return x0 < x < x1 and y0 < y < y1
        return bool(contains_xy(self.poly, x, y))


_LIB_CONTAINS_XY = getattr(shapely.lib, "contains_xy", None)


def contains_xy(poly: shapely.Polygon, x: Any, y: Any) -> Any:
    """`shapely.contains_xy(poly, x, y)` for a polygon `make_zone` prepared: the function it calls
    after preparing (`shapely.lib.contains_xy`), without its wrappers, which cost some ten times the
    test itself for the few points the bot asks about. The public function where shapely has none."""
    if _LIB_CONTAINS_XY is None:
        return shapely.contains_xy(poly, x, y)
    return _LIB_CONTAINS_XY(poly, x, y)


def rectangle_of(poly: shapely.Polygon) -> tuple[float, float, float, float] | None:
    """The polygon's bounds when it is an axis-aligned rectangle with no holes (four corners, each
    edge horizontal or vertical, of positive width and height), else None."""
    if poly.is_empty or len(poly.interiors):
        return None
    ring = [(float(x), float(y)) for x, y in poly.exterior.coords]
    if len(ring) != 5 or ring[0] != ring[-1]:
        return None
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = ring[:4]
    across = ay == by and bx == cx and cy == dy and dx == ax  # first edge horizontal
    down = ax == bx and by == cy and cx == dx and dy == ay  # first edge vertical
    if not (across or down):
        return None
    x0, x1 = min(ax, cx), max(ax, cx)
    y0, y1 = min(ay, cy), max(ay, cy)
    if not (x0 < x1 and y0 < y1):
        return None
    return (x0, y0, x1, y1)


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def make_zone(name: str, points: int, poly: shapely.Polygon) -> Zone:
    """The zone's representative point is its centre; a holder's spot that falls outside the
    polygon is replaced by the centre. The polygon is prepared (as `shapely.contains_xy` prepares
    it at its first question) for `contains_xy`. The centre and spots are made read-only: they are
    handed out as they are (`holders_of`), so a caller cannot change a zone shared by every game."""
    shapely.prepare(poly)
    p = poly.representative_point()
    centre = np.array([p.x, p.y])
    spots = []
    for dx, dy in ZONE_SPOTS:
        spot = centre + np.array([dx, dy])
        spots.append(_frozen(spot if shapely.contains_xy(poly, *spot) else centre.copy()))
    x0, y0, x1, y1 = (float(v) for v in poly.bounds)
    return Zone(name, points, poly, _frozen(centre), tuple(spots), (x0, y0, x1, y1), rectangle_of(poly))


@cache
def scoring_zone(name: str, points: int, polygon: tuple[tuple[float, float], ...]) -> Zone:
    """`make_zone` of the scoring zone with this name, worth and polygon (its corners as floats): a
    pure function of them, so worked out once per process and shared by every bot and game (a
    `Zone` is never changed: its arrays are read-only). Not `engine.effects.placing.zone_of`, a
    player's deployment zone."""
    return make_zone(name, points, shapely.Polygon(polygon))


@dataclass(frozen=True, slots=True)
class Holding:
    """The zones worth points in the order `holders` fills them (richest first, then by name), with
    their centres as plain floats: worked out once per scenario (`holding_of`)."""

    zones: tuple[Zone, ...]
    centres: tuple[tuple[float, float], ...]


def holding_of(zones: Sequence[Zone]) -> Holding:
    ranked = tuple(sorted((z for z in zones if z.points > 0), key=lambda z: (-z.points, z.name)))
    return Holding(ranked, tuple((float(z.centre[0]), float(z.centre[1])) for z in ranked))


_hypot = np.hypot

_NEAR = 1e-12
"""Squared distances nearer than this (relatively) may hypot to the same or even swapped floats."""
_TINY = 1e-200
"""Below this a squared distance may have lost its relative precision to underflow."""


def holders_of(
    held: Holding, mine: Sequence[ModelState], toughness: dict[str, float], pts: Sequence[Sequence[float]]
) -> dict[str, np.ndarray]:
    """`holders(zones, mine, toughness, xy)` for `held = holding_of(zones)` and `pts` the rows of
    `xy` as plain floats (`xy.tolist()`): the same spots (the zone's own read-only arrays, not
    copies), without numpy for the common case.

    `holders` ranks by (-toughness, distance, index), the distance numpy's (the C library's)
    `hypot` of the differences `x - cx`, `y - cy`. Here the same differences are ranked by their
    squared sum `dx * dx + dy * dy` in plain floats instead, which orders them as the `hypot`s do
    wherever two squared sums differ by more than `_NEAR` relatively: the sum is within 4e-16 of
    the exact square relatively (away from underflow, `_TINY`), so the exact distances then differ
    by more than 4.9e-13 relatively, and a `hypot` within one unit in the last place of each (1.2e-16)
    cannot tie or swap them. Only models of equal toughness whose squared sums lie nearer than that
    (or tiny: a model on the centre) are ranked by the `hypot`s themselves (`_by_hypot`)."""
    out: dict[str, np.ndarray] = {}
    if not held.zones:
        return out
    for z, (cx, cy) in zip(held.zones, held.centres, strict=True):
        free = []
        for k, x in enumerate(mine):
            if x.id not in out:
                px, py = pts[k]
                dx = px - cx
                dy = py - cy
                free.append((-toughness[x.id], dx * dx + dy * dy, x.index, k, dx, dy))
        free.sort()  # the index is unique: the entries' last three are never compared
        for n, entry in enumerate(_by_hypot(free)[:3]):
            out[mine[entry[3]].id] = z.spots[n]
    return out


_Entry = tuple[float, float, int, int, float, float]
"""A model being ranked: -toughness, squared distance, index, place in `mine`, dx, dy."""


def _by_hypot(ranked: list[_Entry]) -> list[_Entry]:
    """`ranked` (sorted by toughness, squared distance, index) in `holders`' order: each run of
    entries of equal toughness whose squared distances are not clearly apart (`holders_of`) is
    sorted again by (`np.hypot(dx, dy)`, index); entries in different runs are already in order."""
    out: list[_Entry] = []
    run: list[_Entry] = []
    for e in ranked:
        if run:
            last = run[-1]
            if e[0] == last[0] and not (last[1] >= _TINY and last[1] < e[1] * (1.0 - _NEAR)):
                run.append(e)
                continue
            out += run if len(run) == 1 else _hypot_sorted(run)
        run = [e]
    out += run if len(run) == 1 else _hypot_sorted(run)
    return out


def _hypot_sorted(run: list[_Entry]) -> list[_Entry]:
    dist = _hypot([e[4] for e in run], [e[5] for e in run]).tolist()
    order = sorted(range(len(run)), key=lambda i: (dist[i], run[i][2]))
    return [run[i] for i in order]


def in_zones(zones: Sequence[Zone], xy: np.ndarray) -> list[bool]:
    """Which of the points stand in a zone worth points (`Zone.holds` of each: for the shipped
    rectangles, comparisons of plain floats rather than a shapely call per zone)."""
    rows = xy.tolist()
    mask = [False] * len(rows)
    for z in zones:
        if z.points > 0:
            for i, (x, y) in enumerate(rows):
                if not mask[i] and z.holds(x, y):
                    mask[i] = True
    return mask


@cache
def toughness_of(hp: int, armour: int | None, shield: int | None) -> float:
    """Expected hits to KO a model (HP over the chance a hit gets through its saves), rounded so
    that near-equal models tie and distance decides: a pure function, so worked out once."""
    from skirmish.rules.odds import unsaved_probability

    unsaved = float(unsaved_probability(armour, shield, False, False))
    return round(hp / max(unsaved, 1e-6), 0)


def holders(
    zones: Sequence[Zone], mine: Sequence[ModelState], toughness: dict[str, float], xy: np.ndarray
) -> dict[str, np.ndarray]:
    """Model id -> the spot it holds: the zones richest first (then by name), each held by the
    three toughest of the models not yet given one (nearest its centre first among equals, then
    the lower index). `xy` is the positions of `mine`, in order."""
    out: dict[str, np.ndarray] = {}
    for z in sorted((z for z in zones if z.points > 0), key=lambda z: (-z.points, z.name)):
        # The distances of all the models at once (np.hypot elementwise: the same floats).
        dist = np.hypot(xy[:, 0] - z.centre[0], xy[:, 1] - z.centre[1]).tolist()
        free = [(-toughness[x.id], dist[k], x.index, x) for k, x in enumerate(mine) if x.id not in out]
        ranked = sorted(free)
        for k, (_, _, _, x) in enumerate(ranked[:3]):
            out[x.id] = z.spots[k].copy()
    return out


def lies_beyond(xy: np.ndarray, here: np.ndarray, zone: np.ndarray) -> Callable[[ModelState], bool]:
    """Whether a model (at its row of `xy`) lies beyond `zone` as seen from `here` (nearly straight
    on, and farther than nine tenths of the way there): an enemy a zone runner's closing charge may
    aim at. `here` must be at least 1" from `zone`.

    In plain floats: the differences, quotients, products and sums of the 2-vectors it was written
    with, the dot product written out as `a[0] * b[0] + a[1] * b[1]` (never `np.dot`, whose BLAS
    kernel and so whose rounding depends on the CPU), and numpy's `hypot` of the same numbers: the
    same answers without a numpy scalar per operation (a test holds it to the vector reference)."""
    hx, hy = here.tolist()
    zx, zy = zone.tolist()
    gx, gy = zx - hx, zy - hy
    n = float(_hypot(gx, gy))
    tx, ty = gx / n, gy / n
    far = n * 0.9
    unit = float(_hypot(tx, ty))  # not exactly 1 in floats: the cosine divides by it
    rows = xy.tolist()

    def beyond(f: ModelState) -> bool:
        px, py = rows[f.index]
        ax, ay = px - hx, py - hy
        along = ax * tx + ay * ty
        if along <= far:
            return False
        # the cosine of `ahead` and `to_zone` (0 for a vector shorter than 1e-9)
        na = float(_hypot(ax, ay))
        cos = 0.0 if na < 1e-9 or unit < 1e-9 else along / (na * unit)
        return cos > 0.8

    return beyond
