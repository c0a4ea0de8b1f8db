"""Drawing a board to a PNG with pygame-ce off-screen surfaces (no window needed).

`skirmish board` draws with the game's own drawing code (`render.draw_zones`, `render.draw_terrain`)
so the picture has the same colours and patterns as the table a player sees (issue 16, item 12):
terrain by cover and height, deployment zones in their side's colour, scoring zones dashed gold.
Every label is in words ("watch hill (height 1)", "avatar deployment", "watcher in the south
zone") and the legend beside the board names every mark and line drawn: each terrain kind, each
side's zone, the scoring zones, the sample bases and the clear and blocked sight lines.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from skirmish.data.scenario import Scenario

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402  (after the SDL environment is set)

from skirmish.ui import theme  # noqa: E402
from skirmish.ui.legend_art import LEGEND, draw_swatch  # noqa: E402
from skirmish.ui.terrain_art import dashed_polygon, draw_terrain, draw_zones  # noqa: E402
from skirmish.ui.theme import TextCache  # noqa: E402
from skirmish.ui.view import BoardView  # noqa: E402

Colour = tuple[int, int, int]

SCALE = 16
"""Pixels per inch."""
MARGIN = 24
LEGEND_W = 330
INK: Colour = (40, 36, 30)
PAPER: Colour = (245, 242, 232)
BLOCKING: Colour = theme.BLOCKER
"""Sight-blocking pieces: the game's colour (theme.BLOCKER)."""
CLEAR: Colour = (30, 160, 60)
BLOCKED: Colour = (200, 40, 40)
SAMPLE: Colour = (250, 250, 250)
"""Sample bases are neutral: they stand for a model of either side."""


def dashed_line(
    surface: pygame.Surface, colour: Colour, a: tuple[float, float], b: tuple[float, float], dash: float = 8
) -> None:
    """One segment drawn dashed (a blocked sight line), dash and gap `dash` pixels each."""
    pa, pb = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    length = float(np.hypot(*(pb - pa)))
    steps = max(1, int(length // dash))
    for k in range(0, steps, 2):
        p0 = pa + (pb - pa) * (k / steps)
        p1 = pa + (pb - pa) * (min(k + 1, steps) / steps)
        pygame.draw.line(surface, colour, p0, p1, 2)


def _view(scenario: Scenario) -> BoardView:
    w, h = scenario.board.width, scenario.board.height
    return BoardView(w, h, (MARGIN, MARGIN, int(w * SCALE), int(h * SCALE)), SCALE, MARGIN, MARGIN)


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
    """Draw the scenario (and optionally sample bases and sight lines) onto `surface`.

    `sight_lines` are (start, end, visible) in inches: green when clear, red dashed when blocked.
    `colours` gives a base's fill (default: the neutral sample colour).
    """
    from skirmish.battlefield.table import Table

    text = TextCache(scale=1.0)
    view = _view(scenario)
    surface.fill(PAPER)
    board = pygame.Rect(view.rect)
    pygame.draw.rect(surface, theme.GROUND, board)
    draw_zones(surface, view, scenario, text)
    draw_terrain(surface, view, Table.from_scenario(scenario), text)
    if sight_lines:
        for a, b, ok in sight_lines:
            pa, pb = view.to_screen(*a), view.to_screen(*b)
            if ok:
                pygame.draw.line(surface, CLEAR, pa, pb, 2)
            else:
                dashed_line(surface, BLOCKED, pa, pb)
    if xy is not None:
        xy = np.asarray(xy, dtype=float).reshape(-1, 2)
        radii = np.full(len(xy), 0.5) if radii is None else np.asarray(radii, dtype=float)
        for i, (p, r) in enumerate(zip(xy, radii, strict=True)):
            col = colours[i] if colours is not None else SAMPLE
            px, py = view.to_screen(float(p[0]), float(p[1]))
            rad = max(3.0, float(r) * SCALE)
            pygame.draw.circle(surface, col, (px, py), rad)
            pygame.draw.circle(surface, INK, (px, py), rad, 2)
            if labels is not None:
                lab = text.render(labels[i], 14, INK, bold=True)
                plate = pygame.Rect(
                    round(px + rad + 3),
                    round(py - lab.get_height() / 2),
                    lab.get_width() + 6,
                    lab.get_height(),
                )
                plate.clamp_ip(board)
                pygame.draw.rect(surface, (250, 248, 235), plate, border_radius=3)
                surface.blit(lab, (plate.x + 3, plate.y))
    pygame.draw.rect(surface, (20, 20, 20), board, 2)
    if legend:
        _legend(surface, text, board.right + 16, MARGIN, scenario, xy is not None, bool(sight_lines))


def legend_entries(scenario: Scenario, bases: bool, sight: bool) -> list[tuple[str, str]]:
    """(kind, words) of every legend line: each mark or line the picture can carry."""
    out = list(LEGEND)
    if any(t.impassable and not t.blocks_sight for t in scenario.terrain):
        out.append(("impassable", "impassable, sight passes over it (heavy edge)"))
    out += [
        (f"zone:{k}", f"{s.name} deployment zone (dashed, side colour)") for k, s in enumerate(scenario.sides)
    ]
    if bases:
        out.append(("base", 'sample base (1"), labelled by where it stands'))
    if sight:
        out.append(("clear", "clear line of sight (the line the engine found)"))
        out.append(("blocked", "blocked line of sight (dashed)"))
    return out


def _legend(
    surface: pygame.Surface, text: TextCache, x: int, y: int, scenario: Scenario, bases: bool, sight: bool
) -> None:
    surface.blit(text.render(scenario.title, 20, INK, bold=True), (x, y))
    y += 30
    for kind, words in legend_entries(scenario, bases, sight):
        sw = pygame.Rect(x, y, 26, 16)
        if kind.startswith("zone:"):
            k = int(kind.split(":")[1])
            tint = tuple(int(c * 0.25 + 196 * 0.75) for c in theme.side_colour(k))
            pygame.draw.rect(surface, tint, sw)
            dashed_polygon(
                surface, theme.side_colour(k), [sw.topleft, sw.topright, sw.bottomright, sw.bottomleft], 2, 5
            )
        elif kind == "impassable":
            pygame.draw.rect(surface, theme.GROUND, sw)
            pygame.draw.rect(surface, (30, 26, 22), sw, 3)
        elif kind == "base":
            pygame.draw.circle(surface, SAMPLE, sw.center, 7)
            pygame.draw.circle(surface, INK, sw.center, 7, 2)
        elif kind == "clear":
            pygame.draw.line(surface, CLEAR, (sw.x, sw.centery), (sw.right, sw.centery), 2)
        elif kind == "blocked":
            dashed_line(surface, BLOCKED, (sw.x, sw.centery), (sw.right, sw.centery), 5)
        else:
            draw_swatch(surface, kind, sw)
        surface.blit(text.render(words, 14, INK), (x + 34, y))
        y += 24
    surface.blit(
        text.render(f'{scenario.board.width:g}" x {scenario.board.height:g}" table', 14, INK), (x, y + 8)
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
    surface = pygame.Surface((w, max(h, 420)))
    draw_board(surface, scenario, xy, radii, colours, labels, sight_lines)
    pygame.image.save(surface, path)
