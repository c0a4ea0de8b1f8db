"""Drawing a board to a PNG with pygame-ce off-screen surfaces (no window needed).

Terrain is shaded by what it does: solid for sight-blocking pieces, hatching for dense cover,
cross-hatching for medium, stipple for light, contour lines for hills. Bases, labels, sight
lines and a legend go on top. The UI reuses `draw_board` on its own surfaces; drawing never
changes game state.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np
import shapely

from skirmish.data.scenario import Scenario

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402  (after the SDL environment is set)

Colour = tuple[int, int, int]

SCALE = 16
"""Pixels per inch."""
MARGIN = 24
LEGEND_W = 210
GROUND: Colour = (214, 204, 170)
INK: Colour = (40, 36, 30)
COVER_COLOURS: dict[str, Colour] = {
    "dense": (46, 110, 52),
    "medium": (150, 120, 80),
    "light": (170, 190, 110),
    "none": (190, 180, 150),
}
BLOCKING: Colour = (90, 90, 96)
HILL: Colour = (160, 130, 90)
ZONE: Colour = (120, 150, 200)
SCORE_ZONE: Colour = (220, 180, 40)


def _font(size: int) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(None, size)


def _to_px(pts: np.ndarray, height: float) -> list[tuple[float, float]]:
    """Table inches (y up, origin bottom-left) to pixels (y down), inside the margin."""
    return [(MARGIN + float(x) * SCALE, MARGIN + (height - float(y)) * SCALE) for x, y in pts]


def _pattern(size: tuple[int, int], kind: str, colour: Colour) -> pygame.Surface:
    w, h = size
    surf = pygame.Surface(size, pygame.SRCALPHA)
    if kind == "hatch":
        for k in range(-h, w, 6):
            pygame.draw.line(surf, colour, (k, h), (k + h, 0), 2)
    elif kind == "cross":
        for k in range(-h, w, 9):
            pygame.draw.line(surf, colour, (k, h), (k + h, 0), 1)
            pygame.draw.line(surf, colour, (k, 0), (k + h, h), 1)
    elif kind == "dots":
        for x in range(2, w, 7):
            for y in range(2 + (x // 7) % 2 * 3, h, 7):
                pygame.draw.circle(surf, colour, (x, y), 1)
    return surf


def _fill_patterned(
    target: pygame.Surface, pts: Sequence[tuple[float, float]], base: Colour, kind: str, ink: Colour
) -> None:
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    x0, y0 = int(min(xs)), int(min(ys))
    w, h = int(max(xs)) - x0 + 2, int(max(ys)) - y0 + 2
    local = [(x - x0, y - y0) for x, y in pts]
    tile = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.polygon(tile, (*base, 255), local)
    pat = _pattern((w, h), kind, ink)
    mask = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.polygon(mask, (255, 255, 255, 255), local)
    pat.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    tile.blit(pat, (0, 0))
    target.blit(tile, (x0, y0))


def draw_board(
    surface: pygame.Surface,
    scenario: Scenario,
    xy: np.ndarray | None = None,
    radii: np.ndarray | None = None,
    colours: Sequence[Colour] | None = None,
    labels: Sequence[str] | None = None,
    sight_lines: Sequence[tuple[tuple[float, float], tuple[float, float], bool]] | None = None,
    legend: bool = True,
) -> None:
    """Draw the scenario (and optionally bases and sight lines) onto `surface`.

    `sight_lines` are (start, end, visible) in inches: green when clear, red when blocked.
    """
    h_in = scenario.board.height
    surface.fill((245, 242, 232))
    board = pygame.Rect(MARGIN, MARGIN, int(scenario.board.width * SCALE), int(h_in * SCALE))
    pygame.draw.rect(surface, GROUND, board)
    small = _font(16)
    for z in scenario.deployment:
        pts = _to_px(np.asarray(z.polygon), h_in)
        zone = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        pygame.draw.polygon(zone, (*ZONE, 60), pts)
        surface.blit(zone, (0, 0))
    for z in scenario.scoring.zones:
        pygame.draw.polygon(surface, SCORE_ZONE, _to_px(np.asarray(z.polygon), h_in), 2)
    for t in scenario.terrain:
        poly = np.asarray(t.polygon, dtype=float)
        pts = _to_px(poly, h_in)
        if t.blocks_sight:
            pygame.draw.polygon(surface, BLOCKING, pts)
        elif t.cover.value == "dense":
            _fill_patterned(surface, pts, COVER_COLOURS["dense"], "hatch", (20, 60, 24))
        elif t.cover.value == "medium":
            _fill_patterned(surface, pts, COVER_COLOURS["medium"], "cross", (90, 70, 40))
        elif t.cover.value == "light":
            _fill_patterned(surface, pts, COVER_COLOURS["light"], "dots", (90, 110, 50))
        elif t.height > 0:
            pygame.draw.polygon(surface, (200, 180, 140), pts)
        if t.height > 0:
            shape = shapely.Polygon(poly)
            step = 0.8
            k = 1
            while True:
                inner = shape.buffer(-step * k)
                if inner.is_empty:
                    break
                for part in shapely.get_parts(inner):
                    pygame.draw.polygon(surface, HILL, _to_px(np.asarray(part.exterior.coords), h_in), 1)
                k += 1
        pygame.draw.polygon(surface, INK, pts, 2 if t.impassable else 1)
        c = shapely.Polygon(poly).representative_point()
        txt = small.render(t.name, True, INK)
        cx, cy = _to_px(np.array([[c.x, c.y]]), h_in)[0]
        surface.blit(txt, (cx - txt.get_width() / 2, cy - txt.get_height() / 2))
    if sight_lines:
        for a, b, ok in sight_lines:
            pa, pb = _to_px(np.array([a, b]), h_in)
            pygame.draw.line(surface, (30, 160, 60) if ok else (200, 40, 40), pa, pb, 2)
    if xy is not None:
        xy = np.asarray(xy, dtype=float).reshape(-1, 2)
        radii = np.full(len(xy), 0.5) if radii is None else np.asarray(radii, dtype=float)
        font = _font(18)
        for i, (p, r) in enumerate(zip(xy, radii, strict=True)):
            col = colours[i] if colours is not None else (200, 60, 40)
            ((px, py),) = _to_px(p[None, :], h_in)
            pygame.draw.circle(surface, col, (px, py), max(2.0, r * SCALE))
            pygame.draw.circle(surface, INK, (px, py), max(2.0, r * SCALE), 1)
            if labels is not None:
                txt = font.render(labels[i], True, INK)
                surface.blit(txt, (px + r * SCALE + 2, py - txt.get_height() / 2))
    pygame.draw.rect(surface, INK, board, 2)
    if legend:
        _legend(surface, board.right + 16, MARGIN, scenario)


def _legend(surface: pygame.Surface, x: int, y: int, scenario: Scenario) -> None:
    font = _font(20)
    title = _font(24).render(scenario.title, True, INK)
    surface.blit(title, (x, y))
    y += 32
    entries = [
        ("blocks sight / impassable", "solid"),
        ('dense cover (>3" blocks)', "hatch"),
        ("medium cover", "cross"),
        ("light cover", "dots"),
        ("hill (higher ground)", "hill"),
        ("deployment zone", "zone"),
        ("scoring zone", "score"),
    ]
    for text, kind in entries:
        sw = pygame.Rect(x, y, 26, 18)
        if kind == "solid":
            pygame.draw.rect(surface, BLOCKING, sw)
        elif kind in ("hatch", "cross", "dots"):
            base = {"hatch": "dense", "cross": "medium", "dots": "light"}[kind]
            ink = {"hatch": (20, 60, 24), "cross": (90, 70, 40), "dots": (90, 110, 50)}[kind]
            pts = [(sw.left, sw.top), (sw.right, sw.top), (sw.right, sw.bottom), (sw.left, sw.bottom)]
            _fill_patterned(surface, pts, COVER_COLOURS[base], kind, ink)
        elif kind == "hill":
            pygame.draw.rect(surface, (200, 180, 140), sw)
            pygame.draw.rect(surface, HILL, sw.inflate(-8, -6), 1)
        elif kind == "zone":
            pygame.draw.rect(surface, (200, 210, 225), sw)
        else:
            pygame.draw.rect(surface, SCORE_ZONE, sw, 2)
        pygame.draw.rect(surface, INK, sw, 1)
        surface.blit(font.render(text, True, INK), (x + 34, y + 1))
        y += 26
    surface.blit(
        font.render(f'{scenario.board.width:g}" x {scenario.board.height:g}"', True, INK), (x, y + 8)
    )


def render_board(
    scenario: Scenario,
    xy: np.ndarray | None = None,
    radii: np.ndarray | None = None,
    colours: Sequence[Colour] | None = None,
    labels: Sequence[str] | None = None,
    sight_lines: Sequence[tuple[tuple[float, float], tuple[float, float], bool]] | None = None,
    *,
    path: str,
) -> None:
    """Draw the board off-screen and save it as a PNG at `path`."""
    if not pygame.get_init():
        pygame.init()
    w = int(scenario.board.width * SCALE) + 2 * MARGIN + LEGEND_W
    h = int(scenario.board.height * SCALE) + 2 * MARGIN
    surface = pygame.Surface((w, max(h, 260)))
    draw_board(surface, scenario, xy, radii, colours, labels, sight_lines)
    pygame.image.save(surface, path)
