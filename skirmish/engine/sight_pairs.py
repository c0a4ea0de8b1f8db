"""Line of sight between the models of one game, pair by pair, as the rules ask it (R-B3).

A game asks "does a see b" far more often than anything moves, and it asks about a few pairs at a
time (is there anyone this model could shoot, can it see the model it charges), while the sight
kernel (`battlefield.sight.sight_pairs`) costs about the same for one pair as for a dozen. So the
engine keeps the answer of each pair of bases until one of the two moves, leaves or comes back
(with `models_block_sight` any base may stand in any line, so any change forgets every pair),
settles most new pairs with a box test that needs no line at all, and asks the kernel only for
the pairs a question needs, in one batch. A pair's answer depends only on the table and the two
bases, so a pair kept by position is still true after a refusal's restore or an undo.

The kernel's last stage (the exact candidate lines) costs about as much as the first two for a
whole batch, and only pairs the fan could not clear need it. A question that only needs to know
whether any pair sees (the phase machine's "may anyone shoot, charge") runs the fan on its batch
and stops there if the fan clears one; a pair the fan left undecided is remembered as such
(`fanned`), so the fan is never run twice on it and a later question gives it straight to the
exact stage. (Questions about one pair still decide their whole batch: bots go on to ask about
the rest, and one exact call for a batch costs less than one per pair.)
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from skirmish.battlefield.sight import DENSE_LIMIT, sight_pairs
from skirmish.battlefield.sight_plain import (
    PENDING,
    CompiledFan,
    PlainFan,
    asked_exact,
    compiled,
    compiled_fan,
    plain_fan,
    regions_of,
)
from skirmish.battlefield.table import Table

ROOM_MARGIN = 1e-9
"""The box test leaves this much of the 3" of dense cover unclaimed, so float rounding in how the
kernel adds up the regions' diagonals can never make it measure a line this test called clear."""

Box = tuple[float, float, float, float]


def sight_boxes(table: Table) -> tuple[list[Box], list[tuple[Box, float]]]:
    """The table's sight blockers' bounding boxes and its dense regions' boxes with their diagonals
    (the regions the kernel measures, `dense_big`), as plain floats."""
    blockers = [(float(a), float(b), float(c), float(d)) for a, b, c, d in table.blocker_boxes.tolist()]
    big = table.dense_big.tolist()
    dense = [
        ((float(a), float(b), float(c), float(d)), float(diag))
        for (a, b, c, d), diag in zip(
            table.dense_boxes[big].tolist(), table.dense_diag[big].tolist(), strict=True
        )
    ]
    return blockers, dense


def open_centre_line(
    boxes: tuple[list[Box], list[tuple[Box, float]]], ax: float, ay: float, bx: float, by: float
) -> bool:
    """Whether the line joining two centres is clear by bounding boxes alone (R-B3).

    A line whose bounding box meets no sight blocker's box crosses no blocker, and one whose box
    meets dense regions whose boxes' diagonals add up to less than 3" cannot hold more than 3" of
    dense cover: then the centre line is a clear line and the bases see each other. These are
    the tests `battlefield.sight` applies to a centre line before anything else (box overlap
    with touching counted as meeting, then the sum of the met regions' diagonals), so a pair
    passed here is one the kernel finds visible, and most pairs of a game pass."""
    lox, hix = (ax, bx) if ax <= bx else (bx, ax)
    loy, hiy = (ay, by) if ay <= by else (by, ay)
    blockers, dense = boxes
    for x0, y0, x1, y1 in blockers:
        if lox <= x1 and hix >= x0 and loy <= y1 and hiy >= y0:
            return False
    room = 0.0
    for (x0, y0, x1, y1), diag in dense:
        if lox <= x1 and hix >= x0 and loy <= y1 and hiy >= y0:
            room += diag
    return room <= DENSE_LIMIT - ROOM_MARGIN


class PairSight:
    """Terrain sight (no Seismic Sense) of the pairs of one game's models that are known, at the
    positions and table presence they were last synchronised to (`sync`)."""

    __slots__ = (
        "table",
        "n",
        "block",
        "boxes",
        "pts",
        "on",
        "xy",
        "on_mask",
        "known",
        "vis",
        "fanned",
        "plain",
        "regions",
        "inside",
    )

    def __init__(self, table: Table, n: int, block: bool) -> None:
        self.table = table
        self.n = n
        self.block = block
        self.boxes = sight_boxes(table)
        self.pts: list[list[float] | None] = [None] * n
        self.on = [False] * n
        self.xy = np.zeros((n, 2))
        self.on_mask = np.zeros(n, dtype=bool)
        self.known = [[False] * n for _ in range(n)]
        self.vis = [[False] * n for _ in range(n)]
        self.fanned = [[False] * n for _ in range(n)]
        """Pairs not known whose fan found no clear line: only the exact stage can decide them."""
        self.plain: PlainFan | None = plain_fan(table, block)
        """The fan in plain floats, pair by pair (`battlefield.sight_plain`), where it covers the table."""
        self.regions: list[list[bool]] | None = None
        """Per big dense region, per model: its centre is inside (for the plain fan; per sync)."""
        self.inside: np.ndarray | None = None
        """`regions` as a (region, model) bool array, for the compiled kernel (per sync)."""

    def sync(self, xy: np.ndarray, on: list[bool]) -> None:
        """Forget the pairs of every model that moved, left or came back since the last sync."""
        n = self.n
        pts = xy.tolist()
        changed = [k for k in range(n) if pts[k] != self.pts[k] or on[k] != self.on[k]]
        if not changed:
            return
        if self.block:
            changed = list(range(n))  # any base may stand in any line
        self.pts, self.on = pts, list(on)
        self.xy = xy.copy()
        self.regions = self.inside = None
        self.on_mask = np.array(on, dtype=bool)
        known, vis, fanned = self.known, self.vis, self.fanned
        for k in changed:
            for row in known:
                row[k] = False
            known[k] = [False] * n
            for row in fanned:
                row[k] = False
            fanned[k] = [False] * n
        # Removed models see and are seen by no one; a model on the table sees itself. A removed
        # model that did not change has its row and column all known and unseen since the sync it
        # left in (nothing else marks a removed model's pair), but for the entries of the models
        # that changed now, which were just forgotten: only those are marked again.
        moved = set(changed)
        for k in range(n):
            if on[k]:
                continue
            if k in moved:
                known[k] = [True] * n
                vis[k] = [False] * n
                for row in known:
                    row[k] = True
                for row in vis:
                    row[k] = False
            else:
                known_k, vis_k = known[k], vis[k]
                for j in changed:
                    known_k[j] = known[j][k] = True
                    vis_k[j] = vis[j][k] = False
        for k in changed:
            if on[k]:
                vis[k][k] = known[k][k] = True
        if self.block:
            return
        # The box test for the new pairs: those of a model that moved, came or went.
        boxes = self.boxes
        later = moved
        for k in changed:
            if not on[k]:
                continue
            ax, ay = pts[k]
            for j in range(n):
                if j == k or not on[j] or (j in later and j < k):
                    continue
                bx, by = pts[j]
                if open_centre_line(boxes, ax, ay, bx, by):
                    vis[k][j] = vis[j][k] = known[k][j] = known[j][k] = True

    def unknown(self) -> list[tuple[int, int]]:
        """Every pair (i < j) not known yet."""
        known = self.known
        return [(i, j) for i in range(self.n) for j in range(i + 1, self.n) if not known[i][j]]

    def solve(self, pairs: Iterable[tuple[int, int]], radii: np.ndarray) -> None:
        """Ask the kernel about `pairs` (each (i, j) with i < j, both on the table, none known) in
        one batch, as `sight_table` would: on the bases on the table only, each pair in table order
        (the pairs an earlier `solve_any` left fanned go straight to the exact stage)."""
        todo = sorted(set(pairs))
        fanned = self.fanned
        fresh = [p for p in todo if not fanned[p[0]][p[1]]]
        fast = compiled_fan(self.table) if fresh and self.plain is not None else None
        if fast is not None:
            self._compiled_both(fast, fresh, radii)
        elif fresh and self.plain is not None:
            self._plain_fan(fresh, radii, first=False)
        elif fresh:
            known, vis = self.known, self.vis
            for (a, b), seen in zip(fresh, self._kernel(fresh, radii, fan=True, exact=True), strict=True):
                vis[a][b] = vis[b][a] = seen
                known[a][b] = known[b][a] = True
        self._exact(todo, radii)

    def solve_any(self, pairs: Iterable[tuple[int, int]], radii: np.ndarray) -> bool:
        """Whether any of `pairs` (as `solve` takes them) sees: `any` of their answers, with the
        exact stage run only when the fan clears none of them."""
        todo = sorted(set(pairs))
        if self._fan(todo, radii):
            return True
        self._exact(todo, radii)
        vis = self.vis
        return any(vis[i][j] for i, j in todo)

    def _fan(self, todo: list[tuple[int, int]], radii: np.ndarray) -> bool:
        """The kernel's first stages on the pairs of `todo` not fanned yet: those it clears are known
        to see, the others are marked `fanned`. Whether it cleared any."""
        fanned = self.fanned
        fresh = [p for p in todo if not fanned[p[0]][p[1]]]
        if not fresh:
            return False
        if self.plain is not None:
            return self._plain_fan(fresh, radii, first=True)
        known, vis = self.known, self.vis
        cleared = False
        for (a, b), seen in zip(fresh, self._kernel(fresh, radii, fan=True, exact=False), strict=True):
            if seen:
                vis[a][b] = vis[b][a] = known[a][b] = known[b][a] = cleared = True
            else:
                fanned[a][b] = fanned[b][a] = True
        return cleared

    def _plain_fan(self, fresh: list[tuple[int, int]], radii: np.ndarray, *, first: bool) -> bool:
        """The fan of each pair of `fresh` in plain floats (the kernel's fan, pair by pair): a pair
        it clears is known to see, one it does not is marked `fanned`. With `first`, stops at the
        first pair it clears (the rest stay unknown: each pair's answer is its own). Whether it
        cleared any."""
        plain = self.plain
        assert plain is not None
        fast = compiled_fan(self.table)
        if fast is not None:
            return self._compiled_fan(fast, fresh, radii, first=first)
        regions = self.regions
        if regions is None:
            regions = self.regions = regions_of(self.table, self.xy)
        pts, rl = self.pts, radii.tolist()
        known, vis, fanned = self.known, self.vis, self.fanned
        cleared = False
        for a, b in fresh:
            pa, pb = pts[a], pts[b]
            assert pa is not None and pb is not None
            inside = [row[a] or row[b] for row in regions]
            if plain.pair_sees(pa[0], pa[1], rl[a], pb[0], pb[1], rl[b], inside):
                vis[a][b] = vis[b][a] = known[a][b] = known[b][a] = cleared = True
                if first:
                    return True
            else:
                fanned[a][b] = fanned[b][a] = True
        return cleared

    def _compiled_both(self, fast: CompiledFan, fresh: list[tuple[int, int]], radii: np.ndarray) -> None:
        """The fan and the exact stage of the pairs of `fresh` (none fanned yet) in one compiled
        call: a pair is seen when any of its fan or exact lines is clear (what the fan, then the
        exact stage on what the fan left, decide), not seen when none is and none is PENDING. A
        pair with a PENDING line goes the two-stage way (`_compiled_fan`, whose pending lines the
        numpy fan decides, and `solve`'s exact stage after it), as if this call had not been made.
        The pairs decided here are not marked `fanned`: that mark is read only of pairs not known."""
        known, vis = self.known, self.vis
        pending = []
        for (a, b), s in zip(
            fresh, self._run(fast, fresh, radii, exact=True, first=False, fan=True), strict=True
        ):
            if s == 1 or s == 0:
                vis[a][b] = vis[b][a] = s == 1
                known[a][b] = known[b][a] = True
            else:
                pending.append((a, b))
        if pending:
            self._compiled_fan(fast, pending, radii, first=False)

    def _run(
        self,
        fast: CompiledFan,
        pairs: list[tuple[int, int]],
        radii: np.ndarray,
        *,
        exact: bool,
        first: bool,
        fan: bool | None = None,
    ) -> list[int]:
        """The compiled kernel (`battlefield.sight_jit`) on `pairs`: the fan alone, or the exact
        stage alone (`exact`), or both (`fan` and `exact`)."""
        kernel = compiled()
        assert kernel is not None
        inside = self.inside
        if inside is None:
            regions = self.regions
            if regions is None:
                regions = self.regions = regions_of(self.table, self.xy)
            inside = self.inside = np.array(regions, dtype=bool).reshape(len(regions), self.n)
        r = np.ascontiguousarray(radii, dtype=np.float64)
        return fast.run(
            kernel, self.xy, r, pairs, inside, fan=not exact if fan is None else fan, exact=exact, first=first
        )

    def _compiled_fan(
        self, fast: CompiledFan, fresh: list[tuple[int, int]], radii: np.ndarray, *, first: bool
    ) -> bool:
        """`_plain_fan` by the compiled kernel: the pairs it leaves PENDING go to the numpy fan."""
        known, vis, fanned = self.known, self.vis, self.fanned
        cleared = False
        pending = []
        for (a, b), s in zip(fresh, self._run(fast, fresh, radii, exact=False, first=first), strict=True):
            if s == 1:
                vis[a][b] = vis[b][a] = known[a][b] = known[b][a] = cleared = True
            elif s == 0:
                fanned[a][b] = fanned[b][a] = True
            elif s == PENDING:
                pending.append((a, b))
        if pending:
            for (a, b), seen in zip(
                pending, self._kernel(pending, radii, fan=True, exact=False), strict=True
            ):
                if seen:
                    vis[a][b] = vis[b][a] = known[a][b] = known[b][a] = cleared = True
                else:
                    fanned[a][b] = fanned[b][a] = True
        return cleared

    def _exact(self, todo: list[tuple[int, int]], radii: np.ndarray) -> None:
        """The kernel's exact stage on the pairs of `todo` still undecided: now known either way."""
        known, vis = self.known, self.vis
        rest = [p for p in todo if not known[p[0]][p[1]]]
        if not rest:
            return
        fast = compiled_fan(self.table) if self.plain is not None else None
        if fast is not None:
            pending = []
            for (a, b), s in zip(rest, self._run(fast, rest, radii, exact=True, first=False), strict=True):
                if s == PENDING:
                    pending.append((a, b))
                else:
                    vis[a][b] = vis[b][a] = s == 1
                    known[a][b] = known[b][a] = True
            rest = pending
            if not rest:
                return
        else:
            asked_exact()
        for (a, b), seen in zip(rest, self._kernel(rest, radii, fan=False, exact=True), strict=True):
            vis[a][b] = vis[b][a] = seen
            known[a][b] = known[b][a] = True

    def _kernel(
        self, todo: list[tuple[int, int]], radii: np.ndarray, *, fan: bool, exact: bool
    ) -> list[bool]:
        """`sight_pairs` on the bases on the table only (indices renumbered), for `todo` in order."""
        on = self.on_mask
        sub = np.cumsum(on) - 1
        i = np.array([p[0] for p in todo], dtype=np.int64)
        j = np.array([p[1] for p in todo], dtype=np.int64)
        ok = sight_pairs(
            self.table, self.xy[on], radii[on], sub[i], sub[j], block_bases=self.block, fan=fan, exact=exact
        )
        out: list[bool] = np.asarray(ok, dtype=bool).tolist()
        return out
