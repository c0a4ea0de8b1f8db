"""The prepared table: a scenario's terrain turned into shapely and numpy geometry, once.

Every game on a scenario asks the same terrain thousands of questions, so everything that does
not depend on where the models stand (prepared polygons, unions by kind, the edges of impassable
pieces as numpy arrays, grown obstacles for the path finder) is built here once and cached by
scenario. Per-step questions (who is in what cover, who sees whom) take arrays of base centres
and answer with arrays.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely

from skirmish.data.scenario import Scenario, Terrain

if TYPE_CHECKING:
    from collections.abc import Sequence

_CACHE: OrderedDict[str, Table] = OrderedDict()
_CACHE_BY_ID: dict[int, tuple[Scenario, Table]] = {}
_CACHE_SIZE = 64

FACTS_BATCH = 64
"""Questions about at most this many centres go through the per-point memo (a game's models);
bigger ones (a bot scoring candidate points) are computed directly."""

FACTS_ONE_BY_ONE = 4
"""Up to this many centres missing from the memo are worked out one by one in plain numbers."""
FACTS_MEMO = 4096
"""The per-point memo is emptied when it grows past this many centres."""

GRAZE = 1e-7
"""Sight blockers are shrunk by this much so a line that only grazes a corner or runs along an
edge is not blocked: R-B3 blocks lines that *cross* terrain, not lines that touch it."""


def _ring_edges(poly: shapely.Polygon) -> np.ndarray:
    """(e, 2, 2) edges of every ring (exterior and holes) of a polygon."""
    return ring_edges([poly])


def ring_edges(polygons: Sequence[shapely.Polygon] | np.ndarray) -> np.ndarray:
    """(e, 2, 2) edges of every ring of `polygons`: each polygon's exterior then its holes, each
    ring's edges in its own order (from each vertex to the next), the polygons in order. One pass
    over every ring at once (`shapely.get_rings`, `get_coordinates` with ring indices): the same
    coordinates, copied, that a ring-by-ring walk (`ring.coords`, each edge to the next vertex)
    gives. A ring's coordinates are closed (last = first), so its edges are the consecutive
    coordinate pairs of the same ring."""
    geoms = np.empty(len(polygons), dtype=object)
    geoms[:] = list(polygons)
    rings = shapely.get_rings(geoms)
    coords, ring = shapely.get_coordinates(rings, return_index=True)
    same = ring[:-1] == ring[1:]
    return np.stack([coords[:-1][same], coords[1:][same]], axis=1)


class EdgeKernel:
    """Edges of impassable pieces as flat component arrays and plain-Python tuples, built once.

    The path kernels ask "does this segment come within r of piece j" thousands of times a game.
    Per-edge quantities that do not depend on the question (direction, inverse squared length)
    and per-piece bounding boxes are computed here once, so the per-question work is only the
    part that does depend on it; the tuples serve the pure-Python path for one or two segments,
    where numpy's per-call overhead costs more than the arithmetic.
    """

    def __init__(self, edges: np.ndarray, owner: np.ndarray, pieces: int) -> None:
        e = np.asarray(edges, dtype=float).reshape(-1, 2, 2)
        owner = np.asarray(owner, dtype=np.int64).reshape(-1)
        self.count = pieces
        self.ax = e[:, 0, 0].copy()
        self.ay = e[:, 0, 1].copy()
        self.bx = e[:, 1, 0].copy()
        self.by = e[:, 1, 1].copy()
        self.ux = self.bx - self.ax
        self.uy = self.by - self.ay
        self.inv = 1.0 / np.maximum(self.ux * self.ux + self.uy * self.uy, 1e-300)
        self.owner = owner
        self.starts = np.searchsorted(owner, np.arange(pieces)).astype(np.int64)
        """Edges are grouped by piece in order: piece j owns edges starts[j]:starts[j+1]."""
        self.sizes = np.diff(np.append(self.starts, len(owner)))
        if pieces:
            self.box = np.stack(
                [
                    np.minimum.reduceat(np.minimum(self.ax, self.bx), self.starts),
                    np.minimum.reduceat(np.minimum(self.ay, self.by), self.starts),
                    np.maximum.reduceat(np.maximum(self.ax, self.bx), self.starts),
                    np.maximum.reduceat(np.maximum(self.ay, self.by), self.starts),
                ],
                axis=-1,
            )
        else:
            self.box = np.empty((0, 4))
        ends = [*self.starts.tolist(), len(owner)]
        cols = list(
            zip(
                self.ax.tolist(),
                self.ay.tolist(),
                self.ux.tolist(),
                self.uy.tolist(),
                self.inv.tolist(),
                self.bx.tolist(),
                self.by.tolist(),
                strict=True,
            )
        )
        self.rows = np.ascontiguousarray(
            np.stack([self.ax, self.ay, self.ux, self.uy, self.inv, self.bx, self.by], axis=1).reshape(-1, 7)
        )
        """Per edge (ax, ay, ux, uy, 1/|u|^2, bx, by), the compiled path finder's form (`paths.jit`)."""
        self.py: tuple[tuple[tuple[float, float, float, float], tuple[tuple[float, ...], ...]], ...] = tuple(
            (tuple(self.box[j].tolist()), tuple(cols[ends[j] : ends[j + 1]])) for j in range(pieces)
        )
        """Per piece: (min x, min y, max x, max y) and its edges (ax, ay, ux, uy, 1/|u|^2, bx, by)."""


class Table:
    """Prepared geometry of one scenario, built once and reused by every game on it."""

    width: float
    height: float
    pieces: tuple[Terrain, ...]
    sight_union: Any
    dense_regions: np.ndarray
    imp_edges: np.ndarray
    imp_edge_owner: np.ndarray

    def __init__(
        self, width: float, height: float, pieces: Sequence[Terrain], *, grown_from: Table | None = None
    ) -> None:
        """`grown_from`: a table of the same size whose pieces are all of `pieces` but the last
        (`with_piece`): what depends only on those pieces is taken from it, not built again (the
        same geometry objects and arrays, so the same answers)."""
        self.width = float(width)
        self.height = float(height)
        self.pieces = tuple(pieces)
        k = len(self.pieces)
        self.names: tuple[str, ...] = tuple(p.name for p in self.pieces)
        base = grown_from
        if base is not None:
            assert base.pieces == self.pieces[:-1] and (base.width, base.height) == (self.width, self.height)
            new = shapely.make_valid(shapely.Polygon(self.pieces[-1].polygon))
            shapely.prepare(new)
            self.polygons = np.empty(k, dtype=object)
            self.polygons[:-1] = base.polygons
            self.polygons[-1] = new
        else:
            self.polygons = (
                np.array([shapely.make_valid(shapely.Polygon(p.polygon)) for p in self.pieces], dtype=object)
                if k
                else np.empty(0, dtype=object)
            )
            shapely.prepare(self.polygons)
        # Each piece's bounding box as plain floats (min x, min y, max x, max y): a point outside
        # it is not inside the piece, so the per-piece containment tests skip it (`_near`).
        self.piece_boxes: tuple[tuple[float, float, float, float], ...] = tuple(
            (x0, y0, x1, y1) for x0, y0, x1, y1 in shapely.bounds(self.polygons).reshape(-1, 4).tolist()
        )
        self.cover_rank = np.array([p.cover.rank for p in self.pieces], dtype=np.int8)
        self.heights = np.array([p.height for p in self.pieces], dtype=float)
        self.blocks_sight = np.array([p.blocks_sight for p in self.pieces], dtype=bool)
        self.impassable = np.array([p.impassable for p in self.pieces], dtype=bool)
        self.bounds = shapely.box(0.0, 0.0, self.width, self.height)
        self._point_order: tuple[tuple[int, int, float], ...] = tuple(
            (i, r, h)
            for i, (r, h) in enumerate(zip(self.cover_rank.tolist(), self.heights.tolist(), strict=True))
            if r > 0 or h > 0
        )
        """The pieces that give cover or height: (index, cover rank, height), in table order."""

        # Sight: one prepared union of blockers (shrunk so grazing is not crossing), and the dense
        # cover as disjoint regions (overlapping dense pieces merge; a model in any piece of a
        # region stands in that region), each prepared for the length measure of R-B3.
        blockers = self.polygons[self.blocks_sight]
        if base is not None and not self.pieces[-1].blocks_sight:
            self.sight_union = base.sight_union
        else:
            self.sight_union = (
                shapely.buffer(shapely.union_all(blockers), -GRAZE) if len(blockers) else shapely.Polygon()
            )
            shapely.prepare(self.sight_union)
        dense = np.flatnonzero(self.cover_rank == 3)
        regions: list[shapely.Polygon] = []
        region_names: list[str] = []
        if base is not None and self.cover_rank[-1] != 3:
            regions, region_names = list(base.dense_regions), list(base.dense_region_names)
        elif len(dense):
            merged = shapely.union_all(self.polygons[dense])
            for part in shapely.get_parts(merged):
                regions.append(part)
                inside = [self.names[i] for i in dense if self.polygons[i].intersects(part)]
                region_names.append("+".join(inside))
        self.dense_regions = np.empty(len(regions), dtype=object)
        self.dense_regions[:] = regions
        shapely.prepare(self.dense_regions)
        self.dense_region_names: tuple[str, ...] = tuple(region_names)
        shared = base is not None and self.cover_rank[-1] != 3
        self.dense_source: Table = base.dense_source if shared and base is not None else self
        """The table whose dense regions these are (the same objects, in the same order): a grown
        table whose new piece is not dense shares its base's, so what is derived from the dense
        regions alone (the sight kernels' `dense_clip`) is built once, on the source."""
        self.blocker_index = np.flatnonzero(self.blocks_sight)
        self.blocker_boxes = (
            shapely.bounds(self.polygons[self.blocker_index]).reshape(-1, 4)
            if len(self.blocker_index)
            else np.empty((0, 4))
        )
        self.dense_boxes = (
            shapely.bounds(self.dense_regions).reshape(-1, 4) if len(regions) else np.empty((0, 4))
        )
        self.dense_diag = np.hypot(
            self.dense_boxes[:, 2] - self.dense_boxes[:, 0], self.dense_boxes[:, 3] - self.dense_boxes[:, 1]
        )
        """Bounding-box diagonal of each dense region: the most line it can hold."""
        self.dense_big = np.arange(len(regions))
        """The dense regions the sight test measures: all of them, since the inches of dense cover a
        line crosses add up over regions (a line only needs measuring when the regions it may meet
        could hold more than 3" between them, see `sight._clear`)."""
        self.dense_big_edges: np.ndarray = (
            base.dense_big_edges
            if base is not None and self.dense_source is base.dense_source
            else ring_edges([regions[r] for r in self.dense_big.tolist()])
            if len(self.dense_big)
            else np.empty((0, 2, 2))
        )

        # Movement: impassable pieces as edge arrays for the exact numpy distance kernels.
        self.impassable_index = np.flatnonzero(self.impassable)
        edges: list[np.ndarray] = []
        owners: list[np.ndarray] = []
        known = 0
        if base is not None and len(base.impassable_index):  # the old pieces' edges, in order
            edges.append(base.imp_edges)
            owners.append(base.imp_edge_owner)
            known = len(base.impassable_index)
        for j, i in enumerate(self.impassable_index.tolist()[known:], start=known):
            e = ring_edges(shapely.get_parts(self.polygons[i]))
            edges.append(e)
            owners.append(np.full(len(e), j))
        self.imp_edges = np.concatenate(edges) if edges else np.empty((0, 2, 2))
        self.imp_edge_owner = np.concatenate(owners) if owners else np.empty(0, dtype=int)
        self.imp_kernel = EdgeKernel(self.imp_edges, self.imp_edge_owner, len(self.impassable_index))
        """The impassable edges pre-digested for the path kernels (see `EdgeKernel`)."""
        self._point_facts: dict[tuple[float, float], tuple[int, int, float]] = (
            base._point_facts
            if base is not None and self.cover_rank[-1] == 0 and self.heights[-1] <= 0
            else {}
        )
        """Cover rank, cover piece and height per exact centre (see `_facts`). A grown table whose
        new piece gives neither cover nor height (an Earth Wall) shares its base's: a point's
        facts read only the pieces that give cover or height (`_point_order`), the same pieces
        at the same indices on both tables, so every answer kept is true of both."""
        self.search_memo: dict[tuple[object, ...], object] = {}
        """Path searches by their question, with what each asked of the bases (`paths._search`)."""
        self.path_memo: dict[tuple[object, ...], tuple[np.ndarray, float] | None] = {}
        """Charge paths by their exact inputs (`paths.charge_path`), oldest dropped first."""
        self.obstacle_memo: dict[tuple[object, ...], object] = {}
        """A mover's obstacle sets by their exact inputs (`paths.Mover.obstacles`)."""
        self.memo: dict[object, object] = {}
        """Per-table scratch for derived geometry that depends only on the table (the path
        finder's convex corners of each piece, the sight kernels' edge arrays)."""

    # -- construction -----------------------------------------------------------------------------

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> Table:
        """The prepared table of a scenario, cached (by identity, then by content)."""
        hit = _CACHE_BY_ID.get(id(scenario))
        if hit is not None and hit[0] is scenario:
            return hit[1]
        key = scenario.board.model_dump_json() + "|" + "|".join(t.model_dump_json() for t in scenario.terrain)
        table = _CACHE.get(key)
        if table is None:
            table = cls(scenario.board.width, scenario.board.height, scenario.terrain)
            _CACHE[key] = table
            if len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
        else:
            _CACHE.move_to_end(key)
        if len(_CACHE_BY_ID) > _CACHE_SIZE:
            _CACHE_BY_ID.clear()
        _CACHE_BY_ID[id(scenario)] = (scenario, table)  # holds the scenario so its id is not reused
        return table

    def with_piece(self, terrain: Terrain) -> Table:
        """A new table with one more piece (an Earth Wall raised during a game); self is unchanged."""
        return Table(self.width, self.height, (*self.pieces, terrain), grown_from=self)

    # -- per-step queries -------------------------------------------------------------------------

    def clear_of_impassable(self, xy: np.ndarray, radius: float) -> np.ndarray:
        """Per point: a base of `radius` there overlaps no impassable piece. Flyers pass over such
        pieces but land only clear of them (R-B4 ruling)."""
        pts = np.asarray(xy, dtype=float).reshape(-1, 2)
        if len(self.impassable_index) == 0 or len(pts) == 0:
            return np.ones(len(pts), dtype=bool)
        union: Any = self.memo.get("impassable_union")
        if union is None:
            union = shapely.union_all(self.polygons[self.impassable_index])
            shapely.prepare(union)
            self.memo["impassable_union"] = union
        return np.asarray(shapely.distance(union, shapely.points(pts)) >= radius - 1e-9, dtype=bool)

    def contains(self, xy: np.ndarray) -> np.ndarray:
        """(k, n) bool: piece i contains base centre j (boundary counts as inside)."""
        xy = np.asarray(xy, dtype=float).reshape(-1, 2)
        out = np.zeros((len(self.pieces), len(xy)), dtype=bool)
        for i, poly in enumerate(self.polygons):
            out[i] = shapely.intersects_xy(poly, xy[:, 0], xy[:, 1])
        return out

    def cover_of(self, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """R-B2: per centre, the densest cover rank (0 open .. 3 dense) containing it, and that piece.

        The piece index is -1 in the open (a hill with no cover is open ground); ties go to the
        piece listed first, so the evidence is deterministic. Answers are memoised per exact
        centre (`_facts`): between two questions most models have not moved.
        """
        xy = np.asarray(xy, dtype=float).reshape(-1, 2)
        if len(xy) <= FACTS_BATCH:
            facts = self._facts(xy)
            return (
                np.array([f[0] for f in facts], dtype=np.int8),
                np.array([f[1] for f in facts], dtype=np.int64),
            )
        return self._cover_now(xy)

    def facts_of(self, xy: np.ndarray) -> list[tuple[int, int, float]]:
        """Per centre: (`cover_of`'s rank and piece, `height_of`'s height) as plain numbers, in one
        pass over the per-point memo (the engine asks all three of the models that moved)."""
        xy = np.asarray(xy, dtype=float).reshape(-1, 2)
        if len(xy) <= FACTS_BATCH:
            return self._facts(xy)
        rank, piece = self._cover_now(xy)
        return list(zip(rank.tolist(), piece.tolist(), self._height_now(xy).tolist(), strict=True))

    def _facts(self, xy: np.ndarray) -> list[tuple[int, int, float]]:
        """(cover rank, cover piece, height) per centre, from the per-point memo; the centres not
        in it are computed in one batch (the same vectorised code) and added."""
        memo = self._point_facts
        pts = [tuple(p) for p in xy.tolist()]
        out = [memo.get(p) for p in pts]
        miss = [k for k, f in enumerate(out) if f is None]
        if miss and len(miss) <= FACTS_ONE_BY_ONE:
            if len(memo) > FACTS_MEMO:
                memo.clear()
            for k in miss:
                out[k] = memo[pts[k]] = self._point_facts_now(*pts[k])
        elif miss:
            facts = self._facts_now(xy[miss])
            if len(memo) > FACTS_MEMO:
                memo.clear()
            for k, f in zip(miss, facts, strict=True):
                out[k] = memo[pts[k]] = f
        return [f for f in out if f is not None]

    def _facts_now(self, xy: np.ndarray) -> list[tuple[int, int, float]]:
        """`_cover_now` and `_height_now` of a small batch in one pass over the pieces that give
        cover or height (`_point_order`, table order): each piece's containment asked once (`_near`,
        the same test), the densest first-listed piece and the highest height kept per centre as
        `_point_facts_now` keeps them."""
        n = len(xy)
        pts = xy.tolist()
        rank, piece, height = [0] * n, [-1] * n, [0.0] * n
        for i, r, h in self._point_order:
            for k in np.flatnonzero(self._near(i, xy, pts)).tolist():
                if r > rank[k]:
                    rank[k], piece[k] = r, i
                if h > 0 and h > height[k]:
                    height[k] = h
        return list(zip(rank, piece, height, strict=True))

    def _point_facts_now(self, x: float, y: float) -> tuple[int, int, float]:
        """`_cover_now` and `_height_now` of one centre in plain numbers: the pieces in the same
        order, each tested only when the centre is in its box (`_near`), with the same predicate
        (`shapely.contains_xy`); the densest first-listed piece wins, the highest height counts."""
        rank, piece, h = 0, -1, 0.0
        boxes, polys = self.piece_boxes, self.polygons
        for i, ri, hi in self._point_order:
            x0, y0, x1, y1 = boxes[i]
            if not (x0 <= x <= x1 and y0 <= y <= y1) or not shapely.contains_xy(polys[i], x, y):
                continue
            if ri > rank:
                rank, piece = ri, i
            if hi > 0 and hi > h:
                h = hi
        return rank, piece, h

    def _near(self, i: int, xy: np.ndarray, pts: list[list[float]] | None) -> np.ndarray:
        """Per centre: whether it lies inside piece `i`, testing only the centres inside its
        bounding box (the others cannot be: the piece's interior lies within its box). The same
        answer per centre as testing them all; `pts` is `xy` as plain floats for a small batch."""
        if pts is None:
            return shapely.contains_xy(self.polygons[i], xy[:, 0], xy[:, 1])
        x0, y0, x1, y1 = self.piece_boxes[i]
        rows = [k for k, (x, y) in enumerate(pts) if x0 <= x <= x1 and y0 <= y <= y1]
        inside = np.zeros(len(pts), dtype=bool)
        if rows:
            inside[rows] = shapely.contains_xy(self.polygons[i], xy[rows, 0], xy[rows, 1])
        return inside

    def _cover_now(self, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = len(xy)
        rank = np.zeros(n, dtype=np.int8)
        piece = np.full(n, -1, dtype=np.int64)
        pts = xy.tolist() if n <= FACTS_BATCH else None
        for i in np.flatnonzero(self.cover_rank > 0).tolist():
            inside = self._near(i, xy, pts)
            better = inside & (self.cover_rank[i] > rank)
            rank[better] = self.cover_rank[i]
            piece[better] = i
        return rank, piece

    def height_of(self, xy: np.ndarray) -> np.ndarray:
        """Height of the highest piece containing each centre, else 0 (higher ground, R-B2)."""
        xy = np.asarray(xy, dtype=float).reshape(-1, 2)
        if len(xy) <= FACTS_BATCH:
            return np.array([f[2] for f in self._facts(xy)], dtype=float)
        return self._height_now(xy)

    def _height_now(self, xy: np.ndarray) -> np.ndarray:
        h = np.zeros(len(xy))
        pts = xy.tolist() if len(xy) <= FACTS_BATCH else None
        for i in np.flatnonzero(self.heights > 0).tolist():
            inside = self._near(i, xy, pts)
            h = np.where(inside, np.maximum(h, self.heights[i]), h)
        return h

    def piece_at(self, xy: np.ndarray) -> np.ndarray:
        """Index of the highest (then first) piece containing each centre, -1 if none (for the UI)."""
        xy = np.asarray(xy, dtype=float).reshape(-1, 2)
        out = np.full(len(xy), -1, dtype=np.int64)
        for i in range(len(self.pieces) - 1, -1, -1):
            inside = shapely.contains_xy(self.polygons[i], xy[:, 0], xy[:, 1])
            out[inside] = i
        return out

    def __repr__(self) -> str:
        return f"Table({self.width:g}x{self.height:g}, {len(self.pieces)} pieces)"
