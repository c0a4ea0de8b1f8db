"""Seeded random tables and model placements, for property tests and benchmarks.

Random boards find the corner cases hand-made ones miss (pieces touching, bases squeezed between
rocks); they are seeded (numpy `Generator`), never the module-level `random`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely

from skirmish.battlefield import portable
from skirmish.battlefield.measure import OVERLAP_TOL
from skirmish.battlefield.table import Table
from skirmish.data.scenario import Cover, Terrain

_KINDS = (
    {"cover": Cover.none, "blocks_sight": True, "impassable": True},
    {"cover": Cover.dense},
    {"cover": Cover.medium},
    {"cover": Cover.light},
    {"cover": Cover.none, "height": 1.0},
)


def random_table(
    rng: np.random.Generator, pieces: int = 15, width: float = 48.0, height: float = 48.0
) -> Table:
    """A table with `pieces` convex-ish pieces (rocks, woods, ruins, grass, hills) in rotation."""
    out: list[Terrain] = []
    for i in range(pieces):
        kind = _KINDS[i % len(_KINDS)]
        cx = float(rng.uniform(4, width - 4))
        cy = float(rng.uniform(4, height - 4))
        rad = float(rng.uniform(1.0, 3.5))
        k = int(rng.integers(4, 8))
        ang = np.sort(rng.uniform(0, 2 * np.pi, k))
        rr = rad * rng.uniform(0.7, 1.0, k)
        ring = np.stack([cx + rr * portable.cos(ang), cy + rr * portable.sin(ang)], axis=-1)
        pts = np.round(np.clip(ring, 0.0, [width, height]), 4)
        hull: Any = shapely.convex_hull(shapely.multipoints(pts))
        if hull.geom_type != "Polygon" or hull.area < 0.5:
            hull = shapely.box(cx - 1, cy - 1, cx + 1, cy + 1)
        poly = [[float(x), float(y)] for x, y in np.asarray(hull.exterior.coords)[:-1]]
        out.append(Terrain(name=f"piece_{i}", polygon=poly, **kind))
    return Table(width, height, out)


def scatter_bases(table: Table, rng: np.random.Generator, radii: np.ndarray, tries: int = 2000) -> np.ndarray:
    """Centres for bases of `radii`: on the table, overlapping no base and no impassable piece."""
    from skirmish.battlefield.paths import Mover, _violations

    radii = np.asarray(radii, dtype=float)
    xy = np.full((len(radii), 2), -1000.0)
    placed = np.zeros(len(radii), dtype=bool)
    for i, r in enumerate(radii.tolist()):
        for _ in range(tries):
            p = rng.uniform([r, r], [table.width - r, table.height - r])
            xy[i] = p
            obs = Mover(table, i, xy, radii, ignore=~placed).obstacles(p)
            bad_b, bad_t = _violations(obs, p[None, :], p[None, :])
            if not (bad_b.any() or bad_t.any()):
                gap = np.sqrt(((xy[placed] - p) ** 2).sum(-1)) - radii[placed] - r
                if (gap > 0.05 + OVERLAP_TOL).all():
                    break
        else:
            raise ValueError("could not place every base on this table")
        placed[i] = True
    return xy
