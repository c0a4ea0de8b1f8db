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
    """A useful place for a wall: between the model and its nearest enemy, within range."""
    s = ctx.state
    foes = [t for t in s.models if t.active and ctx.enemies(m, t)]
    if not foes:
        return None
    here = s.xy[m.index]
    t = min(foes, key=lambda f: float(np.hypot(*(s.xy[f.index] - here))))
    d = s.xy[t.index] - here
    n = float(np.hypot(*d))
    if n < 1e-9:
        return None
    reach = min(ability_range(a, 6.0), max(1.5, n / 2))
    p = here + d / n * reach
    return (float(p[0]), float(p[1]))


def _wall_piece(
    ctx: Ctx, m: ModelState, a: Ability, at: tuple[float, float]
) -> tuple[Terrain, shapely.Polygon]:
    pts = _wall_corners(ctx, m, a, at)
    n = len(ctx.state.terrain_added)
    terrain = Terrain(
        name=f"{a.name}_{n + 1}",
        polygon=[list(p) for p in pts],
        cover=Cover.none,
        blocks_sight=True,
        impassable=True,
    )
    return terrain, shapely.Polygon(pts)


def _wall_corners(ctx: Ctx, m: ModelState, a: Ability, at: tuple[float, float]) -> list[tuple[float, float]]:
    """The wall's four corners (rounded to 1e-6 inch, as the terrain piece stores them)."""
    s = ctx.state
    length, width = float(a.params.get("length", 4)), float(a.params.get("width", 1))
    d = np.asarray(at) - s.xy[m.index]
    angle = math.atan2(d[1], d[0]) + math.pi / 2 if np.hypot(*d) > 1e-9 else 0.0
    ux, uy = math.cos(angle), math.sin(angle)
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
    if float(np.hypot(at[0] - s.xy[m.index, 0], at[1] - s.xy[m.index, 1])) - s.radii[m.index] > rng:
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
    if _far_from_every_base(ctx, m, a, at):
        return None
    poly = shapely.Polygon(corners)  # the piece itself is built only to raise it
    dist = np.asarray(shapely.distance(poly, shapely.points(s.xy)))
    for o in s.models:
        if o.on_table and dist[o.index] < s.radii[o.index]:
            return f"the wall would land on {o.name}"
    return None


CLEAR_MARGIN = 1e-5
"""How much farther than its radius a base must be from the unrounded wall for the plain-float
test to call it clear: far more than the corners' rounding (1e-6) and float noise."""


def _far_from_every_base(ctx: Ctx, m: ModelState, a: Ability, at: tuple[float, float]) -> bool:
    """Whether every base on the table is clearly (by `CLEAR_MARGIN`) farther from the wall than its
    radius, measured in the wall's own frame: then shapely's distance, which the landing rule asks,
    is at least the radius too, and it need not be asked. Any base nearer is left to shapely."""
    s = ctx.state
    length, width = float(a.params.get("length", 4)), float(a.params.get("width", 1))
    if length <= 0 or width <= 0:
        return False
    d = np.asarray(at) - s.xy[m.index]
    angle = math.atan2(d[1], d[0]) + math.pi / 2 if np.hypot(*d) > 1e-9 else 0.0
    ux, uy = math.cos(angle), math.sin(angle)
    hl, hw = length / 2, width / 2
    for o, (px, py), r in zip(s.models, s.xy.tolist(), s.radii.tolist(), strict=True):
        if not o.on_table:
            continue
        qx, qy = px - at[0], py - at[1]
        ex = max(abs(qx * ux + qy * uy) - hl, 0.0)
        ey = max(abs(qy * ux - qx * uy) - hw, 0.0)
        if math.sqrt(ex * ex + ey * ey) < r + CLEAR_MARGIN:
            return False
    return True


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
        terrain, _ = _wall_piece(ctx, m, a, action.at)
        ctx.add_terrain(ctx.table.with_piece(terrain))
        ctx.state.terrain_added.append(terrain.model_dump(mode="json"))
        ctx.emit("ability", f"{m.name} raises {a.title} at ({action.at[0]:.1f}, {action.at[1]:.1f})", (m.id,))
