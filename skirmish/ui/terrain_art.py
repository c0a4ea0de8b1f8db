"""Drawing the terrain: by cover and height, zones, and the cached static layer of the board.

Terrain is told apart by pattern as well as colour (issue 6): hills carry contour lines and a
warmer shade per inch of height, light cover is stippled, medium cover hatched one way, dense
cover cross-hatched, sight-blocking pieces are solid, impassable pieces get a heavy outline.
The pattern geometry is computed once per table in inches with shapely (clipped hatch lines,
inset contour rings), so a frame only transforms and draws line arrays; the whole static layer is
cached per view and redrawn only when the view or the terrain changes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pygame
import shapely
from shapely.geometry.base import BaseGeometry

from skirmish.ui import theme
from skirmish.ui.theme import TextCache
from skirmish.ui.view import BoardView

if TYPE_CHECKING:
    from skirmish.battlefield.table import Table
    from skirmish.data.scenario import Scenario
    from skirmish.engine import Game


# ----------------------------------------------------------------------------- terrain geometry
@dataclass
class PieceArt:
    """One terrain piece ready to draw: outline, fill colour and pattern strokes, all in inches."""

    name: str
    outline: np.ndarray
    fill: theme.Colour
    lines: list[np.ndarray] = field(default_factory=list)
    dots: np.ndarray = field(default_factory=lambda: np.empty((0, 2)))
    line_colour: theme.Colour = theme.HATCH
    heavy_edge: bool = False
    label: str = ""


def _hatch(poly: BaseGeometry, spacing: float, angle_deg: float) -> list[np.ndarray]:
    """Parallel lines `spacing` inches apart at `angle_deg`, clipped to the polygon."""
    minx, miny, maxx, maxy = poly.bounds
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    half = math.hypot(maxx - minx, maxy - miny) / 2 + spacing
    a = math.radians(angle_deg)
    d = np.array([math.cos(a), math.sin(a)])
    n = np.array([-d[1], d[0]])
    lines = []
    for k in np.arange(-half, half + 1e-9, spacing):
        c = np.array([cx, cy]) + n * k
        lines.append(shapely.LineString([c - d * half, c + d * half]))
    clipped = shapely.intersection(poly, shapely.MultiLineString(lines))
    out: list[np.ndarray] = []
    for part in shapely.get_parts(clipped):
        if isinstance(part, shapely.LineString) and part.length > 1e-6:
            out.append(np.asarray(part.coords, dtype=float))
    return out


def _stipple(poly: BaseGeometry, spacing: float) -> np.ndarray:
    minx, miny, maxx, maxy = poly.bounds
    pts = []
    for row, y in enumerate(np.arange(miny + spacing / 2, maxy, spacing * 0.87)):
        shift = spacing / 2 if row % 2 else 0.0
        for x in np.arange(minx + spacing / 2 + shift, maxx, spacing):
            pts.append((x, y))
    if not pts:
        return np.empty((0, 2))
    arr = np.array(pts)
    inside = shapely.contains_xy(poly, arr[:, 0], arr[:, 1])
    return arr[inside]


def _contours(poly: BaseGeometry, step: float) -> list[np.ndarray]:
    out: list[np.ndarray] = []
    k = 1
    while k < 40:
        inner = poly.buffer(-step * k)
        if inner.is_empty:
            break
        for part in shapely.get_parts(inner):
            if isinstance(part, shapely.Polygon):
                out.append(np.asarray(part.exterior.coords, dtype=float))
        k += 1
    return out


def _shade(base: theme.Colour, height: float) -> theme.Colour:
    f = min(0.35, 0.12 * height)
    return (
        min(255, int(base[0] + (255 - base[0]) * f)),
        min(255, int(base[1] + (235 - base[1]) * f * 0.7)),
        max(0, int(base[2] * (1 - f))),
    )


def piece_art(piece: object) -> PieceArt:
    from skirmish.data.scenario import Terrain

    assert isinstance(piece, Terrain)
    poly = shapely.make_valid(shapely.Polygon(piece.polygon))
    outline = np.asarray(piece.polygon, dtype=float)
    rank = piece.cover.rank
    if piece.blocks_sight:
        art = PieceArt(piece.name, outline, theme.BLOCKER, heavy_edge=piece.impassable)
        # a few light strokes so "solid" still reads as rock, not a hole in the picture
        art.lines = _hatch(poly, 1.6, 60)
        art.line_colour = (110, 102, 96)
    elif rank == 3:
        art = PieceArt(piece.name, outline, theme.DENSE_COVER, _hatch(poly, 0.7, 45) + _hatch(poly, 0.7, -45))
    elif rank == 2:
        art = PieceArt(piece.name, outline, theme.MEDIUM_COVER, _hatch(poly, 0.8, 45))
    elif rank == 1:
        art = PieceArt(piece.name, outline, theme.LIGHT_COVER, dots=_stipple(poly, 0.9))
    else:
        art = PieceArt(piece.name, outline, theme.GROUND)
    if piece.height > 0:
        if rank == 0 and not piece.blocks_sight:
            art.fill = _shade(theme.HILL, piece.height)
        art.lines = art.lines + _contours(poly, 0.9)
        if rank == 0 and not piece.blocks_sight:
            art.line_colour = theme.CONTOUR
    if piece.impassable:
        art.heavy_edge = True
    words = piece.name.replace("_", " ")
    tags = []
    if piece.height > 0:
        tags.append(f"height {piece.height:g}")
    art.label = words + (f" ({', '.join(tags)})" if tags else "")
    return art


_ART: dict[int, tuple[object, list[PieceArt]]] = {}


def table_art(table: Table) -> list[PieceArt]:
    """Pattern geometry of every piece of a table, computed once per table object."""
    hit = _ART.get(id(table))
    if hit is not None and hit[0] is table:
        return hit[1]
    arts = [piece_art(p) for p in table.pieces]
    if len(_ART) > 32:
        _ART.clear()
    _ART[id(table)] = (table, arts)
    return arts


# ----------------------------------------------------------------------------- static layer
def _poly_px(view: BoardView, pts: np.ndarray) -> list[tuple[float, float]]:
    return [tuple(p) for p in view.to_screen_array(pts)]


def dashed_polygon(
    surf: pygame.Surface,
    colour: theme.Colour,
    pts: list[tuple[float, float]],
    width: int = 2,
    dash: float = 10.0,
) -> None:
    """A closed polyline drawn dashed (zones are outlined this way to read apart from terrain)."""
    n = len(pts)
    for i in range(n):
        a = np.array(pts[i])
        b = np.array(pts[(i + 1) % n])
        seg = b - a
        length = float(np.hypot(*seg))
        if length < 1e-6:
            continue
        steps = max(1, int(length // dash))
        for k in range(0, steps, 2):
            p0 = a + seg * (k / steps)
            p1 = a + seg * (min(k + 1, steps) / steps)
            pygame.draw.line(surf, colour, p0, p1, width)


def draw_terrain(
    surf: pygame.Surface, view: BoardView, table: Table, text: TextCache, *, labels: bool = True
) -> None:
    s = view.scale
    for art in table_art(table):
        pts = _poly_px(view, art.outline)
        pygame.draw.polygon(surf, art.fill, pts)
        lw = 1 if s < 25 else 2
        for line in art.lines:
            pygame.draw.lines(surf, art.line_colour, False, _poly_px(view, line), lw)
        if len(art.dots):
            r = max(1, int(s * 0.08))
            for x, y in view.to_screen_array(art.dots):
                pygame.draw.circle(surf, theme.HATCH, (x, y), r)
        pygame.draw.polygon(
            surf, (30, 26, 22) if art.heavy_edge else (60, 70, 50), pts, 4 if art.heavy_edge else 1
        )
        if labels and s >= 9:
            c = art.outline.mean(axis=0)
            lab = text.render(
                art.label,
                13 if s < 20 else 16,
                (250, 250, 240)
                if art.fill == theme.BLOCKER or art.fill == theme.DENSE_COVER
                else (30, 30, 25),
            )
            x, y = view.to_screen(float(c[0]), float(c[1]))
            surf.blit(lab, (x - lab.get_width() / 2, y - lab.get_height() / 2))


def draw_zones(surf: pygame.Surface, view: BoardView, scenario: Scenario, text: TextCache) -> None:
    x, y, w, h = view.rect
    tint = pygame.Surface((w, h), pygame.SRCALPHA)
    for z in scenario.deployment:
        colour = theme.side_colour(z.player or 0)
        pts = [(px - x, py - y) for px, py in _poly_px(view, np.asarray(z.polygon))]
        pygame.draw.polygon(tint, (*colour, 46), pts)
    for z in scenario.scoring.zones:
        pts = [(px - x, py - y) for px, py in _poly_px(view, np.asarray(z.polygon))]
        pygame.draw.polygon(tint, (*theme.SCORING, 40), pts)
    surf.blit(tint, (x, y))
    names = [s.name for s in scenario.sides]
    for z in scenario.deployment:
        colour = theme.side_colour(z.player or 0)
        pts = _poly_px(view, np.asarray(z.polygon))
        dashed_polygon(surf, colour, pts, 2, 12)
        lab = text.render(
            f"{names[z.player or 0]} deployment", 15, theme.side_dark_colour(z.player or 0), bold=True
        )
        # In the zone's corner, not its centre: models deploy in the middle and would hide it.
        left = min(p[0] for p in pts)
        top = min(p[1] for p in pts)
        bottom = max(p[1] for p in pts)
        cy = sum(p[1] for p in pts) / len(pts)
        ty = top + 5 if cy < y + h / 2 else bottom - lab.get_height() - 5
        plate = pygame.Rect(round(left + 6), round(ty - 1), lab.get_width() + 8, lab.get_height() + 2)
        pygame.draw.rect(surf, (236, 232, 214), plate, border_radius=3)
        surf.blit(lab, (plate.x + 4, plate.y + 1))
    for z in scenario.scoring.zones:
        pts = _poly_px(view, np.asarray(z.polygon))
        dashed_polygon(surf, (120, 100, 0), pts, 3, 8)
        dashed_polygon(surf, theme.SCORING, pts, 1, 8)
        tag = f"{z.name.replace('_', ' ')}" + (f" · {z.points} BP" if z.points else " · objective")
        lab = text.render(tag, 14, (60, 50, 0), bold=True)
        top = min(p[1] for p in pts)
        cx = sum(p[0] for p in pts) / len(pts)
        surf.blit(lab, (cx - lab.get_width() / 2, top + 3))


def draw_static(surf: pygame.Surface, view: BoardView, game: Game, text: TextCache) -> None:
    """Table, terrain and zones: everything that does not change while models move."""
    x0, y0 = view.to_screen(0, game.scenario.board.height)
    rect = pygame.Rect(round(x0), round(y0), round(view.width * view.scale), round(view.height * view.scale))
    pygame.draw.rect(surf, theme.GROUND, rect)
    draw_zones(surf, view, game.scenario, text)
    draw_terrain(surf, view, game.table, text)
    pygame.draw.rect(surf, (20, 20, 20), rect, 2)


class StaticLayer:
    """The static board cached as one surface; rebuilt only when the view or the terrain changes."""

    def __init__(self) -> None:
        self._key: object = None
        self.surface: pygame.Surface | None = None
        self.rebuilds = 0

    def get(self, view: BoardView, game: Game, text: TextCache) -> pygame.Surface:
        key = (view.key(), id(game.table), id(game.scenario), text.scale)
        if key != self._key or self.surface is None:
            x, y, w, h = view.rect
            surf = pygame.Surface((max(1, w), max(1, h)))
            surf.fill(theme.BG)
            shifted = BoardView(view.width, view.height, (0, 0, w, h), view.scale, view.ox - x, view.oy - y)
            draw_static(surf, shifted, game, text)
            self.surface = surf
            self._key = key
            self.rebuilds += 1
        return self.surface
