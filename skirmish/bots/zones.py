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
    """A scoring zone as the bot uses it: its polygon, centre and the spots of its three holders."""

    name: str
    points: int
    poly: shapely.Polygon
    centre: np.ndarray
    spots: tuple[np.ndarray, ...]


_LIB_CONTAINS_XY = getattr(shapely.lib, "contains_xy", None)


def contains_xy(poly: shapely.Polygon, x: Any, y: Any) -> Any:
    """`shapely.contains_xy(poly, x, y)` for a polygon `make_zone` prepared: the function it calls
    after preparing (`shapely.lib.contains_xy`), without its wrappers, which cost some ten times the
    test itself for the few points the bot asks about. The public function where shapely has none."""
    if _LIB_CONTAINS_XY is None:
        return shapely.contains_xy(poly, x, y)
    return _LIB_CONTAINS_XY(poly, x, y)


def make_zone(name: str, points: int, poly: shapely.Polygon) -> Zone:
    """The zone's representative point is its centre; a holder's spot that falls outside the
    polygon is replaced by the centre. The polygon is prepared (as `shapely.contains_xy` prepares
    it at its first question) for `contains_xy`."""
    shapely.prepare(poly)
    p = poly.representative_point()
    centre = np.array([p.x, p.y])
    spots = []
    for dx, dy in ZONE_SPOTS:
        spot = centre + np.array([dx, dy])
        spots.append(spot if shapely.contains_xy(poly, *spot) else centre.copy())
    return Zone(name, points, poly, centre, tuple(spots))


@cache
def zone_of(name: str, points: int, polygon: tuple[tuple[float, float], ...]) -> Zone:
    """`make_zone` of the zone with this name, worth and polygon (its corners as floats): a pure
    function of them, so worked out once per process and shared by every bot and game (a `Zone`
    is never changed: `holders` hands out copies of its spots)."""
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


def holders_of(
    held: Holding, mine: Sequence[ModelState], toughness: dict[str, float], xy: np.ndarray
) -> dict[str, np.ndarray]:
    """`holders(zones, mine, toughness, xy)` for `held = holding_of(zones)`: the same spots, with
    the zones' order worked out once and each zone's distances one `np.hypot` of the columns less
    the centre's plain floats (the same element-wise differences as the centre's numpy scalars)."""
    out: dict[str, np.ndarray] = {}
    if not held.zones:
        return out
    xs, ys = xy[:, 0], xy[:, 1]
    for z, (cx, cy) in zip(held.zones, held.centres, strict=True):
        dist = _hypot(xs - cx, ys - cy).tolist()
        free = [(-toughness[x.id], dist[k], x.index, k) for k, x in enumerate(mine) if x.id not in out]
        free.sort()
        for n, (_, _, _, k) in enumerate(free[:3]):
            out[mine[k].id] = z.spots[n].copy()
    return out


def in_zones(zones: Sequence[Zone], xy: np.ndarray) -> np.ndarray:
    """Which of the points stand in a zone worth points: one vectorised test per zone."""
    mask = np.zeros(len(xy), dtype=bool)
    for z in zones:
        if z.points > 0:
            mask |= contains_xy(z.poly, xy[:, 0], xy[:, 1])
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
