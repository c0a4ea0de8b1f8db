"""Drawing the table: terrain by cover and height, zones, bases with their state, overlays.

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

from skirmish.engine.core.names import model_number
from skirmish.ui import theme
from skirmish.ui.theme import TextCache
from skirmish.ui.view import BoardView

if TYPE_CHECKING:
    from skirmish.battlefield.table import Table
    from skirmish.data.scenario import Scenario
    from skirmish.engine.core.state import ModelState
    from skirmish.engine.game import Game


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


# ----------------------------------------------------------------------------- models
def model_status(game: Game, m: ModelState) -> list[str]:
    """Words for a model's state (R-P5), in the order the icons are drawn."""
    out = []
    if m.removed:
        out.append("removed")
    elif m.ko:
        out.append("KO'd")
    if m.taking_cover:
        out.append("Taking Cover")
    if m.limping:
        out.append("Limping")
    if m.active and game.in_melee(m):
        out.append("in melee")
    return out


def _ring(
    surf: pygame.Surface,
    colour: theme.Colour,
    centre: tuple[float, float],
    r: float,
    width: int,
    pattern: str,
) -> None:
    if pattern == "solid" or r < 5:
        pygame.draw.circle(surf, colour, centre, r, width)
    elif pattern == "double":
        pygame.draw.circle(surf, colour, centre, r, max(1, width // 2))
        pygame.draw.circle(surf, colour, centre, r - width, max(1, width // 2))
    else:
        n = 12 if pattern == "dashed" else 20
        frac = 0.6 if pattern == "dashed" else 0.35
        rect = pygame.Rect(0, 0, 2 * r, 2 * r)
        rect.center = (round(centre[0]), round(centre[1]))
        for k in range(n):
            a0 = 2 * math.pi * k / n
            pygame.draw.arc(surf, colour, rect, a0, a0 + 2 * math.pi / n * frac, width)


def _badge(surf: pygame.Surface, text: TextCache, kind: str, x: float, y: float, size: int) -> None:
    """A small status icon: shield (Taking Cover), boot (Limping), crossed blades (melee)."""
    r = size // 2
    if kind == "Taking Cover":
        pts = [(x - r, y - r), (x + r, y - r), (x + r, y), (x, y + r + 1), (x - r, y)]
        pygame.draw.polygon(surf, (230, 240, 255), pts)
        pygame.draw.polygon(surf, (0, 70, 140), pts, 2)
    elif kind == "Limping":
        pygame.draw.circle(surf, (255, 220, 170), (x, y), r)
        pygame.draw.circle(surf, (160, 70, 0), (x, y), r, 2)
        lab = text.render("L", max(9, size), (120, 50, 0), bold=True)
        surf.blit(lab, (x - lab.get_width() / 2, y - lab.get_height() / 2))
    elif kind == "in melee":
        # crossed blades with hilts on a gold disc, so it never reads as the KO cross
        pygame.draw.circle(surf, (255, 214, 90), (x, y), r)
        pygame.draw.circle(surf, (120, 70, 0), (x, y), r, 1)
        d = r - 3
        for sgn in (1, -1):
            tip, hilt = (x + sgn * d, y - d), (x - sgn * d, y + d)
            pygame.draw.line(surf, (40, 40, 50), tip, hilt, 2)
            gx, gy = x - sgn * d * 0.45, y + d * 0.45
            pygame.draw.line(surf, (40, 40, 50), (gx - 2, gy - 2 * sgn), (gx + 2, gy + 2 * sgn), 2)


@dataclass
class ModelMarks:
    """Per-frame emphasis: selected, hovered, highlighted (from the log), dimmed (out of sight)."""

    selected: str | None = None
    hovered: str | None = None
    highlighted: frozenset[str] = frozenset()
    dimmed: frozenset[str] = frozenset()
    targets: frozenset[str] = frozenset()
    positions: dict[str, tuple[float, float]] = field(default_factory=dict)
    pulse: float = 0.0


TITLES = frozenset(
    {
        "prince",
        "princess",
        "general",
        "admiral",
        "commander",
        "captain",
        "colonel",
        "uncle",
        "avatar",
        "master",
        "lieutenant",
        "chief",
        "king",
        "queen",
        "lord",
        "lady",
        "sergeant",
        "fire",
    }
)
"""Leading words dropped for a short label ("Prince Zuko" -> "Zuko"); not for one-word names."""


def short_names(models: list[ModelState]) -> dict[str, tuple[str, str, str]]:
    """(full label, short label, initials inside the base) for every model.

    Names shared by several models get the number from their id ("Soldier 2", initials "S2"), so
    three "Fire Nation Soldier" discs can still be told apart without hovering.
    """
    counts: dict[tuple[int, str], int] = {}
    for m in models:
        key = (m.player, m.profile.title)
        counts[key] = counts.get(key, 0) + 1
    out: dict[str, tuple[str, str, str]] = {}
    for m in models:
        # the engine's display name already carries the number ("Fire Nation Soldier 2", engine.names)
        words = m.profile.title.split()
        if counts[(m.player, m.profile.title)] > 1:
            num = model_number(m.id, m.index)
            short = f"{words[-1]} {num}" if words else num
            out[m.id] = (m.name, short, (words[-1][:1] if words else "") + num)
            continue
        rest = words
        while len(rest) > 1 and rest[0].lower() in TITLES:
            rest = rest[1:]
        short = rest[0] if rest else m.name
        out[m.id] = (m.name, short, short[:2])
    return out


_SHORT: dict[int, tuple[tuple[tuple[str, str], ...], dict[str, tuple[str, str, str]]]] = {}


def model_labels(game: Game) -> dict[str, tuple[str, str, str]]:
    """`short_names` of the game's models, cached per game."""
    models = game.state.models
    key = tuple((m.id, m.name) for m in models)
    hit = _SHORT.get(id(game))
    if hit is not None and hit[0] == key:
        return hit[1]
    names = short_names(list(models))
    if len(_SHORT) > 16:
        _SHORT.clear()
    _SHORT[id(game)] = (key, names)
    return names


def _free(rect: pygame.Rect, taken: list[pygame.Rect], bounds: pygame.Rect) -> bool:
    return bounds.contains(rect) and rect.collidelist(taken) < 0


def draw_models(
    surf: pygame.Surface,
    view: BoardView,
    game: Game,
    text: TextCache,
    marks: ModelMarks | None = None,
    *,
    show_removed: bool = True,
) -> dict[str, pygame.Rect]:
    """Bases, rings, initials, HP pips and status icons, then the name labels laid out so they never
    cover each other or another base (UX review 2).

    Labels are placed most important first (selected, hovered, highlighted, targets, then by index):
    each tries the full name above the base, then below its pips, then the short name above, below,
    left and right; a label with no free place is left out (the initials inside the base remain, and
    hovering shows the full name). Zoomed far out only the important models are labelled.
    Returns where each drawn label went (model id -> screen rect).
    """
    marks = marks or ModelMarks()
    s = game.state
    scale = view.scale
    label_size = 14 if scale < 20 else 17
    names = model_labels(game)
    order = sorted(s.models, key=lambda m: (m.active, m.index))
    taken: list[pygame.Rect] = []  # bases, pips and icons: labels keep off them
    placed: list[tuple[ModelState, float, float, float, float]] = []  # m, cx, cy, r, bottom of pips/base
    for m in order:
        if m.removed and not show_removed:
            continue
        x, y = marks.positions.get(m.id, (float(s.xy[m.index, 0]), float(s.xy[m.index, 1])))
        cx, cy = view.to_screen(x, y)
        r = max(4.0, float(s.radii[m.index]) * scale)
        colour = theme.side_colour(m.player)
        taken.append(pygame.Rect(round(cx - r), round(cy - r), round(2 * r), round(2 * r)))
        if not m.active:
            ghost = pygame.Surface((int(2 * r + 4), int(2 * r + 4)), pygame.SRCALPHA)
            c = (r + 2, r + 2)
            alpha = 110 if m.removed else 200
            pygame.draw.circle(ghost, (*theme.KO_GREY, alpha), c, r)
            pygame.draw.circle(ghost, (*colour, alpha), c, r, 2)
            d = r * 0.6
            pygame.draw.line(ghost, (60, 60, 60, alpha), (c[0] - d, c[1] - d), (c[0] + d, c[1] + d), 3)
            pygame.draw.line(ghost, (60, 60, 60, alpha), (c[0] + d, c[1] - d), (c[0] - d, c[1] + d), 3)
            surf.blit(ghost, (cx - r - 2, cy - r - 2))
            placed.append((m, cx, cy, r, cy + r))
            continue
        if m.id in marks.highlighted:
            glow = 6 + 3 * math.sin(marks.pulse * 6)
            pygame.draw.circle(surf, theme.ACCENT, (cx, cy), r + glow, 3)
        if m.id in marks.targets:
            pygame.draw.circle(surf, (255, 80, 80), (cx, cy), r + 5, 2)
        if m.id == marks.selected:
            pygame.draw.circle(surf, theme.HIGHLIGHT, (cx, cy), r + 4, 3)
        elif m.id == marks.hovered:
            pygame.draw.circle(surf, (200, 200, 200), (cx, cy), r + 3, 1)
        fill = tuple(int(c * 0.45 + 255 * 0.55) for c in colour)
        if m.id in marks.dimmed:
            fill = tuple(int(c * 0.5) for c in fill)
        pygame.draw.circle(surf, fill, (cx, cy), r)
        pygame.draw.circle(surf, (25, 25, 30), (cx, cy), r + 1, 1)  # dark edge: pale bases on pale ground
        _ring(surf, colour, (cx, cy), r, max(2, int(r * 0.28)), theme.SIDE_PATTERNS[m.player % 8])
        # initials inside the base at every zoom, so a disc is never anonymous
        initials = names.get(m.id, (m.name, m.name, m.name[:2]))[2]
        lab = text.render(initials, max(9, min(40, int(r * 0.95))), (15, 15, 15), bold=True)
        if lab.get_width() <= 2.4 * r:
            surf.blit(lab, (cx - lab.get_width() / 2, cy - lab.get_height() / 2 + 1))
        # HP pips under the base: filled for HP left, hollow for HP lost.
        total = m.profile.hp
        pip = max(4, min(8, int(scale * 0.3)))
        gap = 2
        width = total * pip + (total - 1) * gap
        px0 = cx - width / 2
        py0 = cy + r + 3
        for k in range(total):
            rect = pygame.Rect(round(px0 + k * (pip + gap)), round(py0), pip, pip)
            if k < m.hp:
                pygame.draw.rect(surf, (200, 30, 30), rect)
            pygame.draw.rect(surf, (40, 10, 10), rect, 1)
        taken.append(pygame.Rect(round(px0), round(py0), round(width), pip))
        badges = [b for b in model_status(game, m) if b in ("Taking Cover", "Limping", "in melee")]
        size = max(12, int(r * 0.9))
        for k, b in enumerate(badges):
            bx = cx + r + size * 0.6 + k * (size + 2)
            _badge(surf, text, b, bx, cy - r * 0.4, size)
            taken.append(pygame.Rect(round(bx - size / 2), round(cy - r * 0.4 - size / 2), size, size + 1))
        placed.append((m, cx, cy, r, py0 + pip))
    return _draw_labels(surf, view, text, marks, placed, taken, names, label_size)


def _draw_labels(
    surf: pygame.Surface,
    view: BoardView,
    text: TextCache,
    marks: ModelMarks,
    placed: list[tuple[ModelState, float, float, float, float]],
    taken: list[pygame.Rect],
    names: dict[str, tuple[str, str, str]],
    label_size: int,
) -> dict[str, pygame.Rect]:
    drawn: dict[str, pygame.Rect] = {}
    if view.scale < 5:
        return drawn
    important = {marks.selected, marks.hovered} | set(marks.highlighted) | set(marks.targets)

    def rank(item: tuple[ModelState, float, float, float, float]) -> tuple[int, int]:
        m = item[0]
        if m.id == marks.hovered:
            return (0, m.index)
        if m.id == marks.selected:
            return (1, m.index)
        if m.id in important:
            return (2, m.index)
        return (3 if m.active else 4, m.index)

    crowded_out = view.scale < 10  # zoomed far out: only the models that matter now are named
    bounds = surf.get_clip() if surf.get_clip().w > 0 else surf.get_rect()
    labels: list[pygame.Rect] = []
    for item in sorted(placed, key=rank):
        m, cx, cy, r, below = item
        must = m.id in important
        if crowded_out and not must:
            continue
        full, short, _ = names.get(m.id, (m.name, m.name, ""))
        if not m.active:
            full, short = f"{full} (KO'd)", f"{short} KO"
        texts = [full] if full == short else [full, short]
        chosen: tuple[pygame.Surface, pygame.Rect] | None = None
        first: tuple[pygame.Surface, pygame.Rect] | None = None
        for k, words in enumerate(texts):
            colour = (15, 15, 15) if m.active else (90, 90, 90)
            lab = text.render(words, label_size if k == 0 else label_size - 1, colour, bold=m.active)
            lw, lh = lab.get_width() + 4, lab.get_height()
            spots = [(cx - lw / 2, cy - r - lh - 2), (cx - lw / 2, below + 1)]
            if k > 0:
                spots += [(cx - r - lw - 3, cy - lh / 2), (cx + r + 3, cy - lh / 2)]
            for sx, sy in spots:
                rect = pygame.Rect(round(sx), round(sy), lw, lh)
                if first is None:
                    first = (lab, rect)
                if _free(rect, taken, bounds) and rect.collidelist(labels) < 0:
                    chosen = (lab, rect)
                    break
            if chosen is not None:
                break
        if chosen is None and must and first is not None:
            chosen = first  # the hovered / selected model is always named, even over others
        if chosen is None:
            continue
        lab, rect = chosen
        labels.append(rect)
        plate = (250, 248, 235) if m.active else (220, 220, 215)
        edge = theme.side_dark_colour(m.player)
        pygame.draw.rect(surf, plate, rect, border_radius=3)
        if must:
            pygame.draw.rect(surf, edge, rect, 1, border_radius=3)
        surf.blit(lab, (rect.x + 2, rect.y))
        drawn[m.id] = rect
    return drawn


# ----------------------------------------------------------------------------- legend and words
LEGEND = (
    ("open", "open ground"),
    ("hill", "hill (contours; +1 shooting from higher ground)"),
    ("light", "light cover (stippled)"),
    ("medium", "medium cover (hatched)"),
    ("dense", 'dense cover (cross-hatched; >3" blocks sight)'),
    ("blocker", "blocks sight (solid); heavy edge = impassable"),
    ("scoring", "scoring / objective zone"),
)


def draw_swatch(surf: pygame.Surface, kind: str, rect: pygame.Rect) -> None:
    fills = {
        "open": theme.GROUND,
        "hill": theme.HILL,
        "light": theme.LIGHT_COVER,
        "medium": theme.MEDIUM_COVER,
        "dense": theme.DENSE_COVER,
        "blocker": theme.BLOCKER,
        "scoring": theme.GROUND,
    }
    pygame.draw.rect(surf, fills[kind], rect)
    clip = surf.get_clip()
    surf.set_clip(rect)
    if kind in ("medium", "dense"):
        for k in range(-rect.h, rect.w, 6):
            pygame.draw.line(surf, theme.HATCH, (rect.x + k, rect.bottom), (rect.x + k + rect.h, rect.y))
    if kind == "dense":
        for k in range(0, rect.w + rect.h, 6):
            pygame.draw.line(surf, theme.HATCH, (rect.x + k, rect.bottom), (rect.x + k - rect.h, rect.y))
    if kind == "light":
        for yy in range(rect.y + 3, rect.bottom, 5):
            for xx in range(rect.x + 3 + (yy // 5 % 2) * 2, rect.right, 6):
                pygame.draw.circle(surf, theme.HATCH, (xx, yy), 1)
    if kind == "hill":
        for k in (3, 6, 9):
            pygame.draw.rect(surf, theme.CONTOUR, rect.inflate(-2 * k, -k), 1, border_radius=4)
    surf.set_clip(clip)
    if kind == "blocker":
        pygame.draw.rect(surf, (30, 26, 22), rect, 3)
    elif kind == "scoring":
        dashed_polygon(
            surf, theme.SCORING, [rect.topleft, rect.topright, rect.bottomright, rect.bottomleft], 2, 5
        )
    else:
        pygame.draw.rect(surf, (60, 70, 50), rect, 1)


def draw_legend(surf: pygame.Surface, text: TextCache, game: Game, x: int, y: int, width: int) -> int:
    """The terrain and side legend; returns the y below it."""
    size = 15
    lh = text.line_height(size) + 4
    surf.blit(text.render("Legend", 17, theme.TEXT, bold=True), (x, y))
    y += lh + 2
    for kind, words in LEGEND:
        draw_swatch(surf, kind, pygame.Rect(x, y, 26, lh - 6))
        surf.blit(text.render(words, size, theme.TEXT), (x + 34, y))
        y += lh
    for p in game.state.players:
        c = theme.side_colour(p.index)
        cen = (x + 13, y + (lh - 6) // 2)
        pygame.draw.circle(surf, tuple(int(v * 0.45 + 255 * 0.55) for v in c), cen, 8)
        _ring(surf, c, cen, 9, 3, theme.SIDE_PATTERNS[p.index % 8])
        surf.blit(
            text.render(f"{p.name} — {p.troupe.title}", size, theme.side_text_colour(p.index)), (x + 34, y)
        )
        y += lh
    for kind, words in ICON_LEGEND:
        draw_icon_swatch(surf, text, kind, x + 13, y + (lh - 6) // 2)
        surf.blit(text.render(words, size, theme.TEXT), (x + 34, y))
        y += lh
    return y


ICON_LEGEND = (
    ("Taking Cover", "shield: Taking Cover (counts a 3+ Wall Shield)"),
    ("Limping", "L: Limping (half Move, −2 Dodge)"),
    ("in melee", "crossed blades: in melee"),
    ("ko", "grey with a cross: KO'd"),
    ("pips", "HP pips under a base: red = HP left"),
    ("selected", "white ring: selected · yellow glow: last action"),
)


def draw_icon_swatch(surf: pygame.Surface, text: TextCache, kind: str, x: int, y: int) -> None:
    """The legend's picture of one board mark, drawn the way the board draws it."""
    if kind in ("Taking Cover", "Limping", "in melee"):
        _badge(surf, text, kind, x, y, 14)
    elif kind == "ko":
        pygame.draw.circle(surf, theme.KO_GREY, (x, y), 8)
        pygame.draw.line(surf, (60, 60, 60), (x - 5, y - 5), (x + 5, y + 5), 3)
        pygame.draw.line(surf, (60, 60, 60), (x + 5, y - 5), (x - 5, y + 5), 3)
    elif kind == "pips":
        for k in range(3):
            rect = pygame.Rect(x - 11 + k * 8, y - 3, 6, 6)
            if k < 2:
                pygame.draw.rect(surf, (200, 30, 30), rect)
            pygame.draw.rect(surf, (40, 10, 10), rect, 1)
    elif kind == "selected":
        pygame.draw.circle(surf, (200, 200, 200), (x, y), 6)
        pygame.draw.circle(surf, theme.HIGHLIGHT, (x, y), 9, 2)


def turn_words(game: Game) -> str:
    from skirmish.engine.phases import SPECS

    s = game.state
    phase = {"deploy": "Deployment", "move": "Move Phase", "combat": "Combat Phase", "end": "End Phase"}.get(
        s.phase, s.phase
    )
    if s.step == "deploy":
        return "Deployment"
    return f"Turn {s.turn}/{game.scenario.turns} · {phase} · {SPECS[s.step].title}"


def result_words(game: Game) -> str:
    s = game.state
    if not s.over:
        p = s.players[s.active_player]
        who = f"{p.name} to act" + (f" ({p.bot} bot)" if p.bot else "")
        if s.pending is not None:
            who += f" — answer the {s.pending.kind.replace('_', '-')}"
        return who
    if s.winning_team is None:
        w = "Draw"
    else:
        w = "Winner: " + ", ".join(p.name for p in s.players if p.team == s.winning_team)
    return f"Game over — {w} ({s.result_reason})"


def score_words(game: Game) -> str:
    parts = [f"{p.name} {p.total_points} BP" for p in game.state.players]
    out = " · ".join(parts)
    return out


def status_words(game: Game) -> str:
    """The scenario's own track or goal (the Pursuit's Tracking and objective, the escort)."""
    return game.rules.status()


def draw_roster(
    surf: pygame.Surface, text: TextCache, game: Game, x: int, y: int, width: int, bottom: int
) -> int:
    """Each side's models with HP and state, for the snapshot and the end screen."""
    size = 15
    lh = text.line_height(size) + 1
    for p in game.state.players:
        if y + lh * 2 > bottom:
            break
        head = f"{p.name}: {p.troupe.title} — {p.total_points} BP"
        surf.blit(text.render(head, 16, theme.side_text_colour(p.index), bold=True), (x, y))
        y += lh + 2
        for m in game.player_models(p.index):
            if y + lh > bottom:
                break
            status = model_status(game, m)
            colour = theme.TEXT_DIM if not m.active else theme.TEXT
            line = f"{m.name}  HP {m.hp}/{m.profile.hp}" + (f"  · {', '.join(status)}" if status else "")
            surf.blit(text.render(line, size, colour), (x + 12, y))
            y += lh
        y += 6
    return y


def draw_log_tail(
    surf: pygame.Surface, text: TextCache, game: Game, x: int, y: int, width: int, bottom: int
) -> None:
    size = 14
    lh = text.line_height(size)
    surf.blit(text.render("Last events", 17, theme.TEXT, bold=True), (x, y))
    y += lh + 4
    lines: list[tuple[str, theme.Colour]] = []
    for e in game.log[-40:]:
        for k, ln in enumerate(text.wrap(f"T{e.turn} {e.text}", size, width - 8)):
            lines.append((ln if k == 0 else "   " + ln, theme.TEXT if e.rolls else theme.TEXT_DIM))
    room = max(0, (bottom - y) // lh)
    for ln, colour in lines[-room:] if room else []:
        surf.blit(text.render(ln, size, colour), (x, y))
        y += lh
