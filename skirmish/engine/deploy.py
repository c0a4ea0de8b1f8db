"""Deployment: models start in their player's zone, and players may re-place them before turn 1."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import shapely

from skirmish.engine.actions import Action, Deploy
from skirmish.engine.errors import IllegalAction

if TYPE_CHECKING:
    from skirmish.engine.game import Game

SPACING = 0.4
"""Gap in inches between auto-deployed bases, so no two start in contact."""


def _zone(game: Game, player: int) -> shapely.Geometry:
    zones = [shapely.Polygon(z.polygon) for z in game.scenario.deployment if z.player == player]
    return shapely.union_all(zones)


def _blocked(game: Game) -> shapely.Geometry:
    pieces = [shapely.Polygon(t.polygon) for t in game.table.pieces if t.impassable]
    return shapely.union_all(pieces) if pieces else shapely.Polygon()


def auto_deploy(game: Game) -> None:
    """Place every model in its zone on a grid, nearest the zone's centre first, clear of terrain and bases.

    Deterministic: grid order is fixed, so the same scenario and troupes always start alike.
    """
    s = game.state
    blocked = _blocked(game)
    placed: list[int] = []
    for p in range(len(s.players)):
        zone = _zone(game, p)
        minx, miny, maxx, maxy = zone.bounds
        cx, cy = zone.centroid.x, zone.centroid.y
        for m in game.player_models(p):
            r = float(s.radii[m.index])
            step = 2 * r + SPACING
            xs = np.arange(minx + r, maxx - r + 1e-9, step)
            ys = np.arange(miny + r, maxy - r + 1e-9, step)
            gx, gy = np.meshgrid(xs, ys)
            pts = np.column_stack([gx.ravel(), gy.ravel()])
            inner = zone.buffer(-r)
            ok = shapely.contains_xy(inner, pts[:, 0], pts[:, 1]) if not inner.is_empty else np.zeros(len(pts), bool)
            if not blocked.is_empty:
                ok &= shapely.distance(blocked, shapely.points(pts)) >= r
            pts = pts[ok]
            if len(pts) == 0:
                raise ValueError(f"deployment zone of {s.players[p].name} has no room for {m.id}")
            order = np.lexsort((pts[:, 0], np.hypot(pts[:, 0] - cx, pts[:, 1] - cy).round(6)))
            for k in order:
                x, y = pts[k]
                if all(np.hypot(x - s.xy[j, 0], y - s.xy[j, 1]) >= r + s.radii[j] + SPACING - 1e-9 for j in placed):
                    s.xy[m.index] = (x, y)
                    placed.append(m.index)
                    break
            else:
                raise ValueError(f"deployment zone of {s.players[p].name} is too small for its troupe")
    game.moved()


def has_options(game: Game, player: int) -> bool:
    return any(m.active for m in game.player_models(player))


def candidates(game: Game, player: int) -> list[Action]:
    """Deployment is free placement; the auto-deployment is already legal, so no candidates are listed."""
    return []


def do_deploy(game: Game, action: Deploy) -> None:
    s = game.state
    m = game.model(action.model, rule="R-T1")
    if m.player != s.active_player:
        raise IllegalAction("R-T1", f"{m.id} belongs to another player")
    x, y = action.at
    r = float(s.radii[m.index])
    zone = _zone(game, m.player)
    if not shapely.contains_xy(zone.buffer(-r + 1e-9), x, y):
        raise IllegalAction("R-T1", f"{m.name} must be placed wholly inside its deployment zone")
    blocked = _blocked(game)
    if not blocked.is_empty and shapely.distance(blocked, shapely.Point(x, y)) < r:
        raise IllegalAction("R-M2", f"{m.name} cannot stand on impassable terrain")
    for o in s.models:
        if o is not m and np.hypot(x - s.xy[o.index, 0], y - s.xy[o.index, 1]) < r + s.radii[o.index] - 1e-9:
            raise IllegalAction("R-M2", f"{m.name} would overlap {o.name}")
    s.xy[m.index] = (x, y)
    game.moved()
    game.emit("deploy", f"{m.name} deploys at ({x:.1f}, {y:.1f})", (m.id,))
