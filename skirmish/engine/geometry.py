"""The geometry of the current arrangement, as the rules ask it: teams, cover, height, distances,
melee contact and sight (R-B2, R-B3, R-C6, R-P5).

One set of tables per arrangement of the models: every question of a step is answered from arrays
computed once after the last move (`moved()` makes them stale), so a step that asks a thousand
questions pays for one cover lookup, one distance matrix and one sight table. `Game` inherits
these queries; steps see them through the `Ctx` protocol.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import numpy as np

from skirmish.battlefield.measure import CONTACT, edge_distances
from skirmish.battlefield.sight import sight_table, sight_table_update
from skirmish.battlefield.table import Table
from skirmish.data.options import RuleOptions
from skirmish.engine.core.state import GameState, ModelState
from skirmish.engine.effects import senses

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx


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
    _sight_base: tuple[Table, np.ndarray, np.ndarray, bytes] | None
    _cover: np.ndarray
    _piece: np.ndarray
    _height: np.ndarray
    _dist: np.ndarray
    _melee: np.ndarray

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
        if self._geo_version == self._version:
            return
        xy = self.state.xy
        rank, piece = self.table.cover_of(xy)
        rank = np.asarray(rank, dtype=int).copy()
        for m in self.state.models:
            if m.profile.flying or m.glide:
                rank[m.index] = 0
        self._cover = rank
        self._piece = np.asarray(piece, dtype=int)
        self._height = np.asarray(self.table.height_of(xy), dtype=float)
        self._dist = edge_distances(xy, self.state.radii)
        # Who is in melee with whom (R-P5): active opposing models in base contact. KOs and
        # removals bump the version (damage.inflict, remove_casualties), so this stays true.
        active = np.fromiter((m.active for m in self.state.models), dtype=bool, count=len(self.state.models))
        melee = (self._dist <= CONTACT) & self._enemy_matrix() & active[:, None] & active[None, :]
        np.fill_diagonal(melee, False)
        self._melee = melee
        self._geo_version = self._version

    def add_terrain(self, table: Table) -> None:
        """Play on `table` from now on (it gained a piece: an Earth Wall); undo takes it back."""
        self.table = table
        self.moved()

    def cover(self, model: ModelState) -> int:
        """Cover rank a model stands in (R-B2): 0 open, 1 light, 2 medium, 3 dense; flyers never in cover."""
        self._refresh_geo()
        return int(self._cover[model.index])

    def cover_piece(self, model: ModelState) -> str | None:
        self._refresh_geo()
        i = int(self._piece[model.index])
        return None if i < 0 or self.cover(model) == 0 else self.table.pieces[i].name

    def height(self, model: ModelState) -> float:
        self._refresh_geo()
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
        self._refresh_geo()
        return bool(self._melee[model.index].any())

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
            # Only models on the table see or (with models_block_sight) block; removed ones are gone.
            models = self.state.models
            on = np.fromiter((m.on_table for m in models), dtype=bool, count=len(models))
            xy, radii = self.state.xy[on], self.state.radii[on]
            base = self._sight_base
            if base is not None and base[0] is self.table and base[3] == on.tobytes():
                # Only the pairs of models that moved are asked again (battlefield.sight_table_update).
                moved = (base[1] != xy).any(axis=1)
                sub = (
                    base[2]
                    if not moved.any()
                    else np.asarray(
                        sight_table_update(
                            self.table, base[2], xy, radii, moved, block_bases=self.options.models_block_sight
                        ),
                        dtype=bool,
                    )
                )
            else:
                sub = np.array(
                    sight_table(self.table, xy, radii, block_bases=self.options.models_block_sight),
                    dtype=bool,
                )
            self._sight_base = (self.table, xy.copy(), sub, on.tobytes())
            vis = np.zeros((len(models), len(models)), dtype=bool)
            vis[np.ix_(on, on)] = sub
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
        return bool(self.sight()[a.index, b.index])

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
