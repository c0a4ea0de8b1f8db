"""Wall (R-P4): a wall of `length` by `width` rises at a point within range, across the line from the
user to that point; it blocks sight and movement for the rest of the game (an Earth Wall)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import shapely

from skirmish.data.scenario import Cover, Terrain
from skirmish.engine.core.actions import UseAbility
from skirmish.engine.effects.abilities.registry import Effect, ability_range, register

if TYPE_CHECKING:
    from skirmish.data.armoury import Ability
    from skirmish.engine.core.context import Ctx
    from skirmish.engine.core.state import ModelState


def _wall_point(ctx: Ctx, m: ModelState, a: Ability) -> tuple[float, float] | None:
    """A useful place for a wall: between the model and its nearest enemy, within range.

    Plain floats, not 2-vectors: the same subtractions and `np.hypot` on the same numbers (the
    arrays cost more to build than the sums), and the first nearest enemy in model order."""
    s = ctx.state
    xy = s.xy.tolist()
    hx, hy = xy[m.index]
    best: tuple[float, float] | None = None
    n = 0.0
    for t in s.models:
        if t.active and ctx.enemies(m, t):
            fx, fy = xy[t.index]
            d = float(np.hypot(fx - hx, fy - hy))
            if best is None or d < n:
                best, n = (fx - hx, fy - hy), d
    if best is None or n < 1e-9:
        return None
    reach = min(ability_range(a, 6.0), max(1.5, n / 2))
    return (hx + best[0] / n * reach, hy + best[1] / n * reach)


def _wall_piece(ctx: Ctx, m: ModelState, a: Ability, at: tuple[float, float]) -> Terrain:
    """The terrain piece a wall raised at `at` adds (named for its order among the pieces added)."""
    n = len(ctx.state.terrain_added)
    return Terrain(
        name=f"{a.name}_{n + 1}",
        polygon=[list(p) for p in _wall_corners(ctx, m, a, at)],
        cover=Cover.none,
        blocks_sight=True,
        impassable=True,
    )


def _axis(ctx: Ctx, m: ModelState, at: tuple[float, float]) -> tuple[float, float]:
    """The wall's long axis (a unit vector): across the line from the user to `at`."""
    x, y = ctx.state.xy[m.index].tolist()
    dx, dy = at[0] - x, at[1] - y
    angle = math.atan2(dy, dx) + math.pi / 2 if np.hypot(dx, dy) > 1e-9 else 0.0
    return math.cos(angle), math.sin(angle)


def _size(a: Ability) -> tuple[float, float]:
    """The wall's length and width (its data's `params`, 4" by 1" when it names none)."""
    return float(a.params.get("length", 4)), float(a.params.get("width", 1))


def _wall_corners(ctx: Ctx, m: ModelState, a: Ability, at: tuple[float, float]) -> list[tuple[float, float]]:
    """The wall's four corners (rounded to 1e-6 inch, as the terrain piece stores them)."""
    length, width = _size(a)
    ux, uy = _axis(ctx, m, at)
    vx, vy = -uy, ux
    hl, hw = length / 2, width / 2
    pts = [
        (at[0] + sx * hl * ux + sy * hw * vx, at[1] + sx * hl * uy + sy * hw * vy)
        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    ]
    return [(round(x, 6), round(y, 6)) for x, y in pts]


def _wall_problem(ctx: Ctx, m: ModelState, a: Ability, at: tuple[float, float]) -> str | None:
    s = ctx.state
    if not all(math.isfinite(v) for v in at):
        return "the point must be finite"
    rng = ability_range(a, 6.0)
    x, y = s.xy[m.index].tolist()
    if float(np.hypot(at[0] - x, at[1] - y)) - s.radii[m.index] > rng:
        return f'the wall must rise within {rng:g}" of {m.name}'
    corners = _wall_corners(ctx, m, a, at)
    xs = [x for x, _ in corners]
    ys = [y for _, y in corners]  # the polygon's bounds are its corners' extremes
    if (
        min(xs) < 0
        or min(ys) < 0
        or max(xs) > ctx.scenario.board.width
        or max(ys) > ctx.scenario.board.height
    ):
        return "the wall must stand on the table"
    under = _lands_on(ctx, m, a, at, corners)
    return None if under is None else f"the wall would land on {under.name}"


CLEAR_MARGIN = 1e-5
"""How far a base's distance from the unrounded wall must be from its radius for the plain-float
test to decide it: far more than the corners' rounding (1e-6) and float noise."""


def _lands_on(
    ctx: Ctx, m: ModelState, a: Ability, at: tuple[float, float], corners: list[tuple[float, float]]
) -> ModelState | None:
    """The first base on the table, in model order, that the wall would land on: the landing rule
    asks whether shapely's distance from the piece (its rounded `corners`) to the base's centre is
    under its radius. Each base is measured in the wall's own frame first; one clearly (by
    `CLEAR_MARGIN`) farther or nearer than its radius is decided so, since shapely's distance then
    falls on the same side, and only a base within the margin is left to shapely, so the answer is
    shapely's always (and a wall near a crowd costs no polygon)."""
    s = ctx.state
    length, width = _size(a)
    ux, uy = _axis(ctx, m, at)
    hl, hw = length / 2, width / 2
    exact = length <= 0 or width <= 0  # no frame to measure in: shapely decides every base
    poly: shapely.Polygon | None = None
    for o, (px, py), r in zip(s.models, s.xy.tolist(), s.radii.tolist(), strict=True):
        if not o.on_table:
            continue
        if not exact:
            qx, qy = px - at[0], py - at[1]
            ex = max(abs(qx * ux + qy * uy) - hl, 0.0)
            ey = max(abs(qy * ux - qx * uy) - hw, 0.0)
            e = math.sqrt(ex * ex + ey * ey)
            if e >= r + CLEAR_MARGIN:
                continue
            if e < r - CLEAR_MARGIN:
                return o
        if poly is None:
            poly = shapely.Polygon(corners)
        if float(shapely.distance(poly, shapely.Point(px, py))) < r:
            return o
    return None


@register
class Wall(Effect):
    name = "wall"
    needs_point = True

    def candidates(self, ctx: Ctx, m: ModelState, a: Ability) -> list[UseAbility]:
        at = _wall_point(ctx, m, a)
        if at is None or _wall_problem(ctx, m, a, at) is not None:
            return []
        return [UseAbility(m.id, a.name, at=at)]

    def check(self, ctx: Ctx, m: ModelState, a: Ability, action: UseAbility) -> str | None:
        assert action.at is not None
        return _wall_problem(ctx, m, a, action.at)

    def resolve(
        self, ctx: Ctx, m: ModelState, a: Ability, target: ModelState | None, action: UseAbility
    ) -> None:
        assert action.at is not None
        terrain = _wall_piece(ctx, m, a, action.at)
        ctx.add_terrain(ctx.table.with_piece(terrain))
        ctx.state.terrain_added.append(terrain.model_dump(mode="json"))
        ctx.emit("ability", f"{m.name} raises {a.title} at ({action.at[0]:.1f}, {action.at[1]:.1f})", (m.id,))
