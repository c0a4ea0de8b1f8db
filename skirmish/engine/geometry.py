"""The geometry of the current arrangement, as the rules ask it: teams, cover, height, distances,
melee contact and sight (R-B2, R-B3, R-C6, R-P5).

One set of tables per arrangement of the models: every question of a step is answered from arrays
computed once after the last move (`moved()` makes them stale), so a step that asks a thousand
questions pays for one cover lookup, one distance matrix and one sight table. `Game` inherits
these queries; steps see them through the `Ctx` protocol.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from skirmish.battlefield.measure import CONTACT, edge_distances
from skirmish.battlefield.table import Table
from skirmish.data.options import RuleOptions
from skirmish.engine.core.state import GameState, ModelState
from skirmish.engine.effects import senses
from skirmish.engine.sight_pairs import PairSight

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx


PLACED_RUN = 64
"""`placed` entries kept in one run; a longer run starts again (its older refreshes compare all)."""


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
    _sight_store: PairSight | None
    _sight_store_version: int
    _geo_pts: list[list[float]] | None
    _geo_act: list[bool] | None
    _enemy_active: list[list[bool]]
    _cover_version: int
    _cover_pts: list[list[float]] | None
    _cover_table: Table | None
    _rank: list[int]
    _cover: list[int]
    _piece: list[int]
    _height: list[float]
    _rows: list[list[float]]
    _dist_arr: np.ndarray | None
    _melee: list[list[bool]]
    _in_melee: list[bool]
    _friend_version: int
    _friend_near: dict[tuple[int, float], bool]
    _gone: np.ndarray
    _gone_act: list[bool] | None
    _placed: list[int]
    _placed_from: int
    _by_player: tuple[list[ModelState], dict[int, list[ModelState]]] | None

    def team(self, model: ModelState) -> int:
        return self._player_team[model.player]

    def enemies(self, a: ModelState, b: ModelState) -> bool:
        return self._player_team[a.player] != self._player_team[b.player]

    def enemy_mask(self, model: ModelState) -> np.ndarray:
        """Which models are this model's enemies (a fresh array: callers may change it)."""
        return self._enemy_matrix()[model.index].copy()

    def gone_mask(self) -> np.ndarray:
        """Models that no longer stand in anyone's way: KO'd or removed. Read-only, and the same
        array until a model leaves or comes back (every move's path check and every push asks
        it): the activity `_refresh_geo` reads, whose list it replaces only when it changes."""
        if self._geo_version != self._version:
            self._refresh_geo()
        act = self._geo_act
        if self._gone_act is not act:
            gone = ~np.array(act, dtype=bool)
            gone.setflags(write=False)
            self._gone, self._gone_act = gone, act
        return self._gone

    def moved(self) -> None:
        """Call after any change of positions or terrain: the per-step geometry tables are stale."""
        self._version += 1

    def placed(self, k: int) -> None:
        """`moved()` after a change of model `k`'s position and of nothing else (no activity,
        terrain or other model changed: `effects.moving.place`).

        The refreshes then know which models moved without comparing every position and activity
        again (most changes of a game are one model's move): `_placed` lists the models placed
        since version `_placed_from`, one entry a version, while every change since then came
        through here; a plain `moved()` breaks the run and the next `placed` starts another."""
        if self._placed_from + len(self._placed) != self._version or len(self._placed) >= PLACED_RUN:
            self._placed = []
            self._placed_from = self._version
        self._placed.append(k)
        self._version += 1

    def _placed_since(self, version: int) -> list[int] | None:
        """The models placed since `version` (ascending, each once) when every change since then
        came through `placed`; None when something else changed (compare everything)."""
        start = self._placed_from
        if version < start or start + len(self._placed) != self._version:
            return None
        return sorted(set(self._placed[version - start :]))

    def _refresh_geo(self) -> None:
        """Distances and melee contact (R-C6, R-P5) of the current arrangement.

        Kept as lists of plain floats (a question reads one entry; numpy's per-call cost was most
        of a refresh at ten models), the array built only when `distances()` asks. Only the rows
        and columns of the models that moved since the last refresh are measured again (one move
        re-measures n pairs, not n squared), with the formula of `edge_distances` term for term
        (IEEE doubles: the same numbers); melee is updated only where a model moved, and
        recomputed when one was KO'd or removed."""
        if self._geo_version == self._version:
            return
        s = self.state
        models = s.models
        n = len(models)
        prev = self._geo_pts
        placed = self._placed_since(self._geo_version) if prev is not None and len(prev) == n else None
        if (
            placed is not None and len(placed) == 1 and self._geo_act is not None and n >= 3
        ):  # as `whole` below
            self._refresh_one(placed[0])
            return
        pts = s.xy.tolist()
        act = [m.active for m in models]
        moved = (
            list(range(n)) if prev is None or len(prev) != n else [k for k in range(n) if pts[k] != prev[k]]
        )
        rows = self._rows
        whole = prev is None or len(prev) != n or 3 * len(moved) > n
        if whole:
            arr = edge_distances(s.xy, s.radii)
            arr.setflags(write=False)  # handed out by `distances()`
            self._dist_arr = arr
            rows = self._rows = arr.tolist()
        elif moved:
            self._dist_arr = None  # rebuilt from the rows when `distances()` asks
            radii = s.radii.tolist()
            sqrt = math.sqrt
            for k in moved:
                xk, yk = pts[k]
                rk = radii[k]
                # Row and column in one pass (each centre distance taken once): `edge_distances`
                # subtracts the row's radius first, so the column subtracts in the other order.
                row: list[float] = []
                for (x, y), r, other in zip(pts, radii, rows, strict=True):
                    c = sqrt((xk - x) * (xk - x) + (yk - y) * (yk - y))
                    row.append(c - rk - r)
                    other[k] = c - r - rk
                row[k] = 0.0
                rows[k] = row
        self._geo_pts = pts
        if moved or act != self._geo_act:
            # Who is in melee with whom (R-P5): active opposing models in base contact (never
            # oneself: a model is not its own enemy). KOs and removals bump the version
            # (damage.inflict, remove_casualties), so this stays true.
            if act != self._geo_act:
                foes = self._enemy_rows()
                self._enemy_active = [
                    [f and a and b for f, b in zip(frow, act, strict=True)]
                    for frow, a in zip(foes, act, strict=True)
                ]
                self._geo_act = act
                whole = True
            ea = self._enemy_active
            if whole:
                self._melee = [
                    [d <= CONTACT and e for d, e in zip(row, erow, strict=True)]
                    for row, erow in zip(rows, ea, strict=True)
                ]
                self._in_melee = [any(row) for row in self._melee]
            else:
                # Only the moved models' rows and columns change, and a row's answer only where
                # one of its entries did.
                melee, in_melee = self._melee, self._in_melee
                for k in moved:
                    for i in range(n):
                        now = rows[i][k] <= CONTACT and ea[i][k]
                        if now != melee[i][k]:
                            melee[i][k] = now
                            in_melee[i] = now or any(melee[i])
                    melee[k] = [d <= CONTACT and e for d, e in zip(rows[k], ea[k], strict=True)]
                    in_melee[k] = any(melee[k])
        self._geo_version = self._version

    def _refresh_one(self, k: int) -> None:
        """`_refresh_geo` when model `k` alone was placed since the last refresh (`placed`): no
        activity changed, so the enemy table stands, and only `k`'s row and column are measured
        and tested for contact, in one pass — the same formulas as the general case (the row's
        radius subtracted first, the column's in the other order), so the same numbers.
        A place where it already stood changes nothing, as there."""
        pts = self._geo_pts
        assert pts is not None
        xk, yk = here = self.state.xy[k].tolist()
        if here != pts[k]:
            pts[k] = here
            self._dist_arr = None  # rebuilt from the rows when `distances()` asks
            radii = self.state.radii.tolist()
            rk = radii[k]
            sqrt = math.sqrt
            ea = self._enemy_active
            eak = ea[k]
            melee, in_melee = self._melee, self._in_melee
            row: list[float] = []
            mrow: list[bool] = []
            for i, ((x, y), r, other, erow, mel) in enumerate(
                zip(pts, radii, self._rows, ea, melee, strict=True)
            ):
                dx = xk - x
                dy = yk - y
                c = sqrt(dx * dx + dy * dy)  # the general case's `(xk - x) * (xk - x) + ...`
                d = c - rk - r
                row.append(d)
                mrow.append(d <= CONTACT and eak[i])
                other[k] = col = c - r - rk
                now = col <= CONTACT and erow[k]
                if now != mel[k]:
                    mel[k] = now
                    in_melee[i] = now or any(mel)
            row[k] = 0.0
            mrow[k] = eak[k]  # the general case's `0.0 <= CONTACT and ea[k][k]` (False: not its own foe)
            self._rows[k] = row
            melee[k] = mrow
            in_melee[k] = any(mrow)
        self._geo_version = self._version

    def _refresh_cover(self) -> None:
        """Cover and height per model (R-B2): asked again only for the models that moved."""
        if self._cover_version == self._version:
            return
        xy = self.state.xy
        prev = self._cover_pts
        if prev is not None and self._cover_table is self.table and len(prev) == len(self.state.models):
            placed = self._placed_since(self._cover_version)
            if placed is not None:
                # Only placed models changed (no glide began or ended, no model came or went: those
                # call `moved()`), so only their entries can: the general case's answer.
                self._cover_placed(placed)
                return
        pts = xy.tolist()
        if prev is None or len(prev) != len(pts) or self._cover_table is not self.table:
            moved = list(range(len(pts)))
            self._rank = [0] * len(pts)
            self._piece = [-1] * len(pts)
            self._height = [0.0] * len(pts)
        else:
            moved = [k for k in range(len(pts)) if pts[k] != prev[k]]
        if moved:
            self._rank, self._piece, self._height = list(self._rank), list(self._piece), list(self._height)
            for k, (r, c, h) in zip(moved, self.table.facts_of(xy[moved]), strict=True):
                self._rank[k], self._piece[k], self._height[k] = r, c, h
        # Flyers are never in cover (R-B4), read now: gliding starts and ends with a `moved()`.
        self._cover = [
            0 if m.profile.flying or m.glide else r
            for m, r in zip(self.state.models, self._rank, strict=True)
        ]
        self._cover_pts = pts
        self._cover_table = self.table
        self._cover_version = self._version

    def _cover_placed(self, placed: list[int]) -> None:
        """`_refresh_cover` when only the models `placed` were placed since the last refresh."""
        xy = self.state.xy
        pts = self._cover_pts
        assert pts is not None
        moved = []
        for k in placed:
            here = xy[k].tolist()
            if here != pts[k]:
                pts[k] = here
                moved.append(k)
        if moved:
            models = self.state.models
            rank, piece, height, cover = self._rank, self._piece, self._height, self._cover
            for k, (r, c, h) in zip(moved, self.table.facts_of(xy[moved]), strict=True):
                rank[k], piece[k], height[k] = r, c, h
                m = models[k]
                cover[k] = 0 if m.profile.flying or m.glide else r
        self._cover_version = self._version

    def add_terrain(self, table: Table) -> None:
        """Play on `table` from now on (it gained a piece: an Earth Wall); undo takes it back."""
        self.table = table
        self.moved()

    def cover(self, model: ModelState) -> int:
        """Cover rank a model stands in (R-B2): 0 open, 1 light, 2 medium, 3 dense; flyers never in cover."""
        if self._cover_version != self._version:  # the refresh's own test, without the call
            self._refresh_cover()
        return self._cover[model.index]

    def cover_piece(self, model: ModelState) -> str | None:
        self._refresh_cover()
        i = self._piece[model.index]
        return None if i < 0 or self.cover(model) == 0 else self.table.pieces[i].name

    def height(self, model: ModelState) -> float:
        if self._cover_version != self._version:
            self._refresh_cover()
        return self._height[model.index]

    def distance(self, a: ModelState, b: ModelState) -> float:
        """Base edge to base edge (R-C6)."""
        if self._geo_version != self._version:
            self._refresh_geo()
        return self._rows[a.index][b.index]

    def distances(self) -> np.ndarray:
        """Base edge to base edge between every pair (R-C6), read-only (one array per arrangement,
        shared by every caller until the next move)."""
        self._refresh_geo()
        arr = self._dist_arr
        if arr is None:
            arr = self._dist_arr = np.array(self._rows, dtype=float)
            arr.setflags(write=False)
        return arr

    def in_contact(self, a: ModelState, b: ModelState) -> bool:
        return self.distance(a, b) <= CONTACT

    def melee_enemies(self, model: ModelState) -> list[ModelState]:
        """Active enemies in base contact: a model with any is in melee (R-P5)."""
        if not model.active:
            return []
        self._refresh_geo()
        models = self.state.models
        return [models[i] for i, touching in enumerate(self._melee[model.index]) if touching]

    def in_melee(self, model: ModelState) -> bool:
        """Whether an active model has an active enemy in base contact (R-P5): the melee table's
        entry, False for a model not active (its row holds no contact)."""
        if self._geo_version != self._version:
            self._refresh_geo()
        return self._in_melee[model.index]

    def melee_flags(self) -> list[bool]:
        """`[in_melee(m) for m in models]` (R-P5), the game's own list until the next change (read
        it, do not change it): an option check that asks it of every model reads one entry each
        instead of calling `in_melee` (a model not active is in no one's contact, so its entry is
        False, as `in_melee` answers)."""
        if self._geo_version != self._version:
            self._refresh_geo()
        return self._in_melee

    def active_flags(self) -> list[bool]:
        """`[m.active for m in models]`, the game's own list until a model leaves or comes back
        (read it, do not change it): KOs and removals call `moved()`, and the refresh compares
        the activity again after every such change."""
        if self._geo_version != self._version:
            self._refresh_geo()
        act = self._geo_act
        assert act is not None
        return act

    def enemy_rows(self) -> list[list[bool]]:
        """`enemies(a, b)` of every pair by index, as lists (teams never change in a game; read only)."""
        return self._enemy_rows()

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
            store.solve(store.unknown(), self.state.radii)
            vis = np.array(store.vis, dtype=bool)
            self._refresh_geo()
            for m in self.state.models:
                sense = senses.sense_range(cast("Ctx", self), m)  # the game mixing this in is the Ctx
                if sense > 0:
                    near = np.array(self._rows[m.index], dtype=float) <= sense
                    vis[m.index] |= near  # the sensing model sees; it is not seen in return
            self._sight = vis
            self._sight_version = self._version
        return self._sight

    def sees(self, a: ModelState, b: ModelState) -> bool:
        """One entry of `sight()`, computing only the pairs it needs: the unknown pairs of the
        asker's row on the asked model's side (most likely the next questions: its other enemies)."""
        if self._sight_version == self._version and self._sight is not None:
            return bool(self._sight[a.index, b.index])
        store = self._pair_sight()
        i, j = a.index, b.index
        if not store.known[i][j]:
            rows = self._enemy_rows()
            known = store.known
            if rows[i][j]:
                # Enemies: every enemy pair not known yet, in one batch (the next questions are
                # most likely other enemies', and the kernel costs per call more than per pair).
                todo = [
                    (r, c)
                    for r in range(store.n)
                    for c in range(r + 1, store.n)
                    if rows[r][c] and not known[r][c]
                ]
            else:
                row = known[i]
                foe = rows[i]
                todo = [(min(i, c), max(i, c)) for c in range(store.n) if not row[c] and not foe[c]]
            store.solve(todo, self.state.radii)
        if store.vis[i][j]:
            return True
        return self._senses(a, b)

    def sees_any(self, pairs: Sequence[tuple[ModelState, ModelState]]) -> bool:
        """Whether any `a` sees its `b` (R-B3): `any(sees(a, b) for a, b in pairs)`, asked cheapest
        first — the pairs already known, then Seismic Sense, then the fan on the unknown ones in one
        batch, and the exact stage only when the fan clears none of them."""
        if not pairs:
            return False
        if self._sight_version == self._version and self._sight is not None:
            vis = self._sight
            return any(vis[a.index, b.index] for a, b in pairs)
        store = self._pair_sight()
        known, seen = store.known, store.vis
        todo = []
        for a, b in pairs:
            i, j = a.index, b.index
            if not known[i][j]:
                todo.append((min(i, j), max(i, j)))
            elif seen[i][j]:
                return True
        sense = senses.sense_ranges(cast("Ctx", self))
        if any(sense[a.index] > 0 and self._senses(a, b) for a, b in pairs):
            return True
        return store.solve_any(todo, self.state.radii)

    def sees_any_of(self, askers: Sequence[ModelState], targets: Sequence[Sequence[ModelState]]) -> bool:
        """`sees_any([(a, t) for a, ts in zip(askers, targets) for t in ts])` (R-B3) without making
        the pairs: the shooting step's "may anyone fire" asks it after every action, and with many
        models (four_kingdoms_melee) building the list of every shooter and open target cost more
        than the question, which most often stops at the first pair already known to see. The
        same steps in the same order: the pairs known (stopping at the first seen), then Seismic
        Sense pair by pair, then the unknown pairs in one batch (`solve_any` sorts them)."""
        if self._sight_version == self._version and self._sight is not None:
            vis = self._sight
            return any(vis[a.index, t.index] for a, ts in zip(askers, targets, strict=True) for t in ts)
        if not any(targets):
            return False  # `sees_any` of no pairs, before it looks at the store
        store = self._pair_sight()
        known, seen = store.known, store.vis
        todo: list[tuple[int, int]] = []
        for a, ts in zip(askers, targets, strict=True):
            i = a.index
            krow, srow = known[i], seen[i]
            for t in ts:
                j = t.index
                if not krow[j]:
                    todo.append((i, j) if i < j else (j, i))
                elif srow[j]:
                    return True
        sense = senses.sense_ranges(cast("Ctx", self))
        for a, ts in zip(askers, targets, strict=True):
            if sense[a.index] > 0 and any(self._senses(a, t) for t in ts):
                return True
        return store.solve_any(todo, self.state.radii)

    def sees_each(self, pairs: Sequence[tuple[ModelState, ModelState]]) -> list[bool]:
        """`[sees(a, b) for a, b in pairs]` (R-B3), with every pair not yet known asked of the sight
        kernel in one batch: a step that will ask all of them (the shooting candidates) pays for
        one kernel call, not one per shooter's row."""
        if self._sight_version == self._version and self._sight is not None:
            vis = self._sight
            return [bool(vis[a.index, b.index]) for a, b in pairs]
        store = self._pair_sight()
        known = store.known
        store.solve(
            [(min(a.index, b.index), max(a.index, b.index)) for a, b in pairs if not known[a.index][b.index]],
            self.state.radii,
        )
        seen = store.vis
        sense = senses.sense_ranges(cast("Ctx", self))  # `_senses` is False where this is 0
        return [seen[a.index][b.index] or (sense[a.index] > 0 and self._senses(a, b)) for a, b in pairs]

    def _senses(self, a: ModelState, b: ModelState) -> bool:
        """Seismic Sense: `a` sees `b` within its range, whatever stands between (R-M5)."""
        sense = senses.sense_range(cast("Ctx", self), a)
        if sense > 0:
            self._refresh_geo()
            return self._rows[a.index][b.index] <= sense
        return False

    def _enemy_rows(self) -> list[list[bool]]:
        """`_enemy_matrix()` as lists, for questions asked one pair at a time."""
        cached: list[list[bool]] | None = self.memo.get("enemy_rows")
        if cached is None or len(cached) != len(self.state.models):
            cached = self.memo["enemy_rows"] = self._enemy_matrix().tolist()
        return cached

    def _pair_sight(self) -> PairSight:
        """The terrain sight of the pairs known for the current arrangement (`engine.sight_pairs`)."""
        store = self._sight_store
        if store is not None and self._sight_store_version == self._version:
            return store
        models = self.state.models
        if store is None or store.table is not self.table or store.n != len(models):
            store = self._sight_store = PairSight(self.table, len(models), self.options.models_block_sight)
        store.sync(self.state.xy, [m.on_table for m in models])
        self._sight_store_version = self._version
        return store

    def friend_within(self, model: ModelState, inches: float) -> bool:
        """Whether an active friend other than `model` stands within `inches`, edge to edge (the
        "friend within 5 inches" of every shot's score): each model's answer is kept until the
        next `moved()` (activity changes bump the version too), so the scores of a step's many
        shots walk the models once per shooter, not once per shot."""
        self._refresh_geo()
        if self._friend_version != self._geo_version:
            self._friend_near = {}
            self._friend_version = self._geo_version
        key = (model.index, inches)
        near = self._friend_near.get(key)
        if near is None:
            row = self._rows[model.index]
            near = self._friend_near[key] = any(
                m.active and m is not model and not self.enemies(m, model) and row[m.index] <= inches
                for m in self.state.models
            )
        return near

    def player_models(self, player: int) -> list[ModelState]:
        """The player's models in table order (a fresh list: callers may change it). A game's
        model list and each model's player never change (a restore keeps the list, or replaces
        the state and with it the list), so the split is kept per list object: the option
        checks ask it after every action."""
        models = self.state.models
        kept = self._by_player
        if kept is None or kept[0] is not models:
            split: dict[int, list[ModelState]] = {}
            for m in models:
                split.setdefault(m.player, []).append(m)
            kept = self._by_player = (models, split)
        return list(kept[1].get(player, ()))

    def teams_on_table(self) -> list[int]:
        return sorted({self.team(m) for m in self.state.models if m.active})
