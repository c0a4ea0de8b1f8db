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
    poly = shapely.Polygon(_wall_corners(ctx, m, a, at))  # the piece itself is built only to raise it
    minx, miny, maxx, maxy = poly.bounds
    if minx < 0 or miny < 0 or maxx > ctx.scenario.board.width or maxy > ctx.scenario.board.height:
        return "the wall must stand on the table"
    dist = np.asarray(shapely.distance(poly, shapely.points(s.xy)))
    for o in s.models:
        if o.on_table and dist[o.index] < s.radii[o.index]:
            return f"the wall would land on {o.name}"
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
        terrain, _ = _wall_piece(ctx, m, a, action.at)
        ctx.add_terrain(ctx.table.with_piece(terrain))
        ctx.state.terrain_added.append(terrain.model_dump(mode="json"))
        ctx.emit("ability", f"{m.name} raises {a.title} at ({action.at[0]:.1f}, {action.at[1]:.1f})", (m.id,))
