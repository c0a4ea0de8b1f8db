"""The geometry of the current arrangement, as the rules ask it: teams, cover, height, distances,
melee contact and sight (R-B2, R-B3, R-C6, R-P5).

One set of tables per arrangement of the models: every question of a step is answered from arrays
computed once after the last move (`moved()` makes them stale), so a step that asks a thousand
questions pays for one cover lookup, one distance matrix and one sight table. `Game` inherits
these queries; steps see them through the `Ctx` protocol.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from skirmish.battlefield.measure import CONTACT, edge_distances, pair_indices
from skirmish.battlefield.sight import DENSE_LIMIT, sight_pairs
from skirmish.battlefield.table import Table
from skirmish.data.options import RuleOptions
from skirmish.engine.core.state import GameState, ModelState
from skirmish.engine.effects import senses

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx


class _PairSight:
    """Terrain sight between pairs of models, and which pairs are known, at positions `xy`."""

    __slots__ = ("table", "xy", "on", "vis", "known")

    def __init__(self, table: Table, n: int) -> None:
        self.table = table
        self.xy = np.zeros((n, 2))
        self.on = np.zeros(n, dtype=bool)
        self.vis = np.zeros((n, n), dtype=bool)
        self.known = np.zeros((n, n), dtype=bool)


def _open_centre_lines(table: Table, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pair of centres: the line joining them is clear by bounding boxes alone (R-B3).

    A line whose bounding box meets no sight blocker's box crosses no blocker, and one whose box
    meets dense regions whose boxes' diagonals add up to at most 3" cannot hold more than 3" of
    dense cover; then the centre line is a clear line and the bases see each other. These are the
    same box tests, in the same order, that `battlefield.sight` applies to a centre line before
    anything else, so a pair passed here is one `sight_pairs` would find visible; most pairs of a
    game are (the open middle of the table), and need no line search at all."""
    lo = np.minimum(a, b)
    hi = np.maximum(a, b)

    def hits(boxes: np.ndarray) -> np.ndarray:
        return (
            (lo[:, None, 0] <= boxes[None, :, 2])
            & (hi[:, None, 0] >= boxes[None, :, 0])
            & (lo[:, None, 1] <= boxes[None, :, 3])
            & (hi[:, None, 1] >= boxes[None, :, 1])
        )

    clear = np.logical_not(hits(table.blocker_boxes).any(axis=1))
    big = table.dense_big
    if len(big):
        clear &= (hits(table.dense_boxes[big]) * table.dense_diag[big]).sum(axis=1) <= DENSE_LIMIT
    return clear


class TableQueries:
    """The per-arrangement geometry tables of a game and the questions asked of them."""

    state: GameState
    table: Table
    options: RuleOptions
    memo: dict[str, Any]
    _player_team: list[int]
    _version: int
    _geo_version: int
    _sight_version: int
    _sight: np.ndarray | None
    _sight_store: _PairSight | None
    _sight_store_version: int
    _geo_xy: np.ndarray | None
    _cover_version: int
    _cover_xy: np.ndarray | None
    _cover_table: Table | None
    _rank: np.ndarray
    _cover: np.ndarray
    _piece: np.ndarray
    _height: np.ndarray
    _dist: np.ndarray
    _melee: np.ndarray
    _in_melee: list[bool]

    def team(self, model: ModelState) -> int:
        return self._player_team[model.player]

    def enemies(self, a: ModelState, b: ModelState) -> bool:
        return self._player_team[a.player] != self._player_team[b.player]

    def enemy_mask(self, model: ModelState) -> np.ndarray:
        """Which models are this model's enemies (a fresh array: callers may change it)."""
        return self._enemy_matrix()[model.index].copy()

    def gone_mask(self) -> np.ndarray:
        """Models that no longer stand in anyone's way: KO'd or removed."""
        return np.fromiter(
            (not m.active for m in self.state.models), dtype=bool, count=len(self.state.models)
        )

    def moved(self) -> None:
        """Call after any change of positions or terrain: the per-step geometry tables are stale."""
        self._version += 1

    def _refresh_geo(self) -> None:
        """Distances and melee contact (R-C6, R-P5) of the current arrangement.

        Only the rows and columns of the models that moved since the last refresh are measured
        again (one move re-measures n pairs, not n squared), with the formula of `edge_distances`
        written the same way, so every entry is the number it computes."""
        if self._geo_version == self._version:
            return
        s = self.state
        xy = s.xy
        models = s.models
        prev = self._geo_xy
        if prev is None or prev.shape != xy.shape:
            dist = edge_distances(xy, s.radii)
        else:
            moved = np.flatnonzero((prev != xy).any(axis=1))
            if len(moved) == 0:
                dist = self._dist
            elif 3 * len(moved) > len(models):
                dist = edge_distances(xy, s.radii)
            else:
                dist = self._dist.copy()  # a copy: `distances()` handed out the old one
                radii = s.radii
                diff = xy[moved][:, None, :] - xy[None, :, :]
                centre = np.sqrt((diff * diff).sum(-1))
                dist[moved, :] = centre - radii[moved][:, None] - radii[None, :]
                dist[:, moved] = centre.T - radii[:, None] - radii[None, moved]
                dist[moved, moved] = 0.0
        self._dist = dist
        self._geo_xy = xy.copy()
        # Who is in melee with whom (R-P5): active opposing models in base contact. KOs and
        # removals bump the version (damage.inflict, remove_casualties), so this stays true.
        active = np.fromiter((m.active for m in models), dtype=bool, count=len(models))
        melee = (dist <= CONTACT) & self._enemy_matrix() & active[:, None] & active[None, :]
        np.fill_diagonal(melee, False)
        self._melee = melee
        self._in_melee = melee.any(axis=1).tolist()
        self._geo_version = self._version

    def _refresh_cover(self) -> None:
        """Cover and height per model (R-B2): asked again only for the models that moved."""
        if self._cover_version == self._version:
            return
        xy = self.state.xy
        prev = self._cover_xy
        if prev is None or prev.shape != xy.shape or self._cover_table is not self.table:
            rank, piece = self.table.cover_of(xy)
            self._rank = np.asarray(rank, dtype=int).copy()
            self._piece = np.asarray(piece, dtype=int).copy()
            self._height = np.asarray(self.table.height_of(xy), dtype=float).copy()
        else:
            moved = np.flatnonzero((prev != xy).any(axis=1))
            if len(moved):
                rank, piece = self.table.cover_of(xy[moved])
                self._rank = self._rank.copy()
                self._piece = self._piece.copy()
                self._height = self._height.copy()
                self._rank[moved] = rank
                self._piece[moved] = piece
                self._height[moved] = self.table.height_of(xy[moved])
        cover = self._rank.copy()
        for m in self.state.models:
            if m.profile.flying or m.glide:
                cover[m.index] = 0
        self._cover = cover
        self._cover_xy = xy.copy()
        self._cover_table = self.table
        self._cover_version = self._version

    def add_terrain(self, table: Table) -> None:
        """Play on `table` from now on (it gained a piece: an Earth Wall); undo takes it back."""
        self.table = table
        self.moved()

    def cover(self, model: ModelState) -> int:
        """Cover rank a model stands in (R-B2): 0 open, 1 light, 2 medium, 3 dense; flyers never in cover."""
        self._refresh_cover()
        return int(self._cover[model.index])

    def cover_piece(self, model: ModelState) -> str | None:
        self._refresh_cover()
        i = int(self._piece[model.index])
        return None if i < 0 or self.cover(model) == 0 else self.table.pieces[i].name

    def height(self, model: ModelState) -> float:
        self._refresh_cover()
        return float(self._height[model.index])

    def distance(self, a: ModelState, b: ModelState) -> float:
        """Base edge to base edge (R-C6)."""
        self._refresh_geo()
        return float(self._dist[a.index, b.index])

    def distances(self) -> np.ndarray:
        self._refresh_geo()
        return self._dist

    def in_contact(self, a: ModelState, b: ModelState) -> bool:
        return self.distance(a, b) <= CONTACT

    def melee_enemies(self, model: ModelState) -> list[ModelState]:
        """Active enemies in base contact: a model with any is in melee (R-P5)."""
        if not model.active:
            return []
        self._refresh_geo()
        models = self.state.models
        return [models[i] for i in np.flatnonzero(self._melee[model.index]).tolist()]

    def in_melee(self, model: ModelState) -> bool:
        if not model.active:
            return False
        if self._geo_version != self._version:
            self._refresh_geo()
        return self._in_melee[model.index]

    def _enemy_matrix(self) -> np.ndarray:
        """(n, n) True where two models are on different teams; teams never change in a game."""
        cached: np.ndarray | None = self.memo.get("enemies")
        if cached is None or cached.shape[0] != len(self.state.models):
            teams = np.array([self.team(m) for m in self.state.models])
            cached = teams[:, None] != teams[None, :]
            self.memo["enemies"] = cached
        return cached

    def sight(self) -> np.ndarray:
        """Who sees whom (R-B3), one table per arrangement of the models, Seismic Sense included."""
        if self._sight_version != self._version or self._sight is None:
            store = self._pair_sight()
            i, j = pair_indices(len(self.state.models))
            todo = np.flatnonzero(~store.known[i, j])
            if len(todo):
                self._solve_pairs(store, i[todo], j[todo])
            vis = store.vis.copy()
            self._refresh_geo()
            for m in self.state.models:
                sense = senses.sense_range(cast("Ctx", self), m)  # the game mixing this in is the Ctx
                if sense > 0:
                    near = self._dist[m.index] <= sense
                    vis[m.index] |= near  # the sensing model sees; it is not seen in return
            self._sight = vis
            self._sight_version = self._version
        return self._sight

    def sees(self, a: ModelState, b: ModelState) -> bool:
        """One entry of `sight()`, computing only the pairs it needs: the pairs of the asker's row
        on the asked model's side (the next question is most likely its other enemies or friends)."""
        if self._sight_version == self._version and self._sight is not None:
            return bool(self._sight[a.index, b.index])
        store = self._pair_sight()
        i, j = a.index, b.index
        if not store.known[i, j]:
            foe = self._enemy_matrix()[i]
            cols = np.flatnonzero(~store.known[i] & (foe == foe[j]))
            self._solve_pairs(store, np.minimum(cols, i), np.maximum(cols, i))
        if store.vis[i, j]:
            return True
        sense = senses.sense_range(cast("Ctx", self), a)
        if sense > 0:
            self._refresh_geo()
            return bool(self._dist[i, j] <= sense)
        return False

    def sees_any(self, pairs: Sequence[tuple[ModelState, ModelState]]) -> bool:
        """Whether any `a` sees its `b` (R-B3): `any(sees(a, b) for a, b in pairs)`, asked cheapest
        first — the pairs already known, then Seismic Sense, then the unknown ones in one batch."""
        if not pairs:
            return False
        if self._sight_version == self._version and self._sight is not None:
            vis = self._sight
            return any(vis[a.index, b.index] for a, b in pairs)
        store = self._pair_sight()
        known, seen = store.known, store.vis
        if any(seen[a.index, b.index] for a, b in pairs if known[a.index, b.index]):
            return True
        for a, b in pairs:
            sense = senses.sense_range(cast("Ctx", self), a)
            if sense > 0:
                self._refresh_geo()
                if self._dist[a.index, b.index] <= sense:
                    return True
        todo = sorted(
            {(min(a.index, b.index), max(a.index, b.index)) for a, b in pairs if not known[a.index, b.index]}
        )
        if not todo:
            return False
        i = np.array([p[0] for p in todo], dtype=np.int64)
        j = np.array([p[1] for p in todo], dtype=np.int64)
        self._solve_pairs(store, i, j)
        return bool(seen[i, j].any())

    def _pair_sight(self) -> _PairSight:
        """The terrain sight of the pairs known for the current arrangement (without Seismic Sense).

        A pair's answer depends only on the table and the two bases (with `models_block_sight`, on
        every base on the table), so it is kept until one of them moves, leaves or comes back:
        keyed by positions, not by the version, it survives a refusal's restore or an undo."""
        store = self._sight_store
        if store is not None and self._sight_store_version == self._version:
            return store
        models = self.state.models
        n = len(models)
        on = np.fromiter((m.on_table for m in models), dtype=bool, count=n)
        xy = self.state.xy
        if store is None or store.table is not self.table or len(store.on) != n:
            store = self._sight_store = _PairSight(self.table, n)
        else:
            changed = (store.xy != xy).any(axis=1) | (store.on != on)
            if changed.any():
                if self.options.models_block_sight:
                    store.known[:] = False  # any base may stand in any line
                else:
                    store.known[changed] = False
                    store.known[:, changed] = False
        store.xy = xy.copy()
        store.on = on
        # Removed models see and are seen by no one; a model on the table sees itself.
        off = ~on
        store.vis[off] = False
        store.vis[:, off] = False
        store.known[off] = True
        store.known[:, off] = True
        here = np.flatnonzero(on)
        store.vis[here, here] = True
        store.known[here, here] = True
        if not self.options.models_block_sight:
            i, j = pair_indices(n)
            todo = np.flatnonzero(~store.known[i, j])
            if len(todo):
                i, j = i[todo], j[todo]
                clear = _open_centre_lines(self.table, xy[i], xy[j])
                i, j = i[clear], j[clear]
                store.vis[i, j] = store.vis[j, i] = True
                store.known[i, j] = store.known[j, i] = True
        self._sight_store_version = self._version
        return store

    def _solve_pairs(self, store: _PairSight, i: np.ndarray, j: np.ndarray) -> None:
        """Compute pairs (i[k] < j[k], both on the table) in one batch, as `sight_table` would: on
        the bases on the table only, each pair in table order."""
        if not len(i):
            return
        on = store.on
        sub = np.cumsum(on) - 1
        ok = np.asarray(
            sight_pairs(
                self.table,
                store.xy[on],
                self.state.radii[on],
                sub[i],
                sub[j],
                block_bases=self.options.models_block_sight,
            ),
            dtype=bool,
        )
        store.vis[i, j] = ok
        store.vis[j, i] = ok
        store.known[i, j] = True
        store.known[j, i] = True

    def friend_within(self, model: ModelState, inches: float) -> bool:
        self._refresh_geo()
        row = self._dist[model.index]
        return any(
            m.active and m is not model and not self.enemies(m, model) and row[m.index] <= inches
            for m in self.state.models
        )

    def player_models(self, player: int) -> list[ModelState]:
        return [m for m in self.state.models if m.player == player]

    def teams_on_table(self) -> list[int]:
        return sorted({self.team(m) for m in self.state.models if m.active})
