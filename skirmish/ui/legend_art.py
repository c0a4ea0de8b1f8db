"""The legend of the table: terrain swatches by pattern, the sides, the status icons (drawn the
same as on the board, `terrain_art.py` and `render.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from skirmish.ui import theme
from skirmish.ui.render import side_ring, status_badge
from skirmish.ui.terrain_art import dashed_polygon
from skirmish.ui.theme import TextCache

if TYPE_CHECKING:
    from skirmish.engine import Game


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
        side_ring(surf, c, cen, 9, 3, theme.SIDE_PATTERNS[p.index % 8])
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
        status_badge(surf, text, kind, x, y, 14)
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
