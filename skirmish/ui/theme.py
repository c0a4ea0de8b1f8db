"""Colours, fonts and the text cache shared by every scene and by the off-screen snapshot.

Side colours come from the Okabe-Ito palette, chosen so players with the common colour-vision
deficiencies can still tell the sides apart; every side also gets its own ring pattern, so colour
is never the only cue. Text is the most expensive thing a pygame frame draws (a known wargame
spends a third of its frame re-rendering unchanged panels), so every string goes through
`TextCache`, which renders a (text, size, colour) once and hands back the same surface.
"""

from __future__ import annotations

import os
from collections import OrderedDict

import pygame

Colour = tuple[int, int, int]

MIN_FONT_PX = 11
"""No text below this, however small the window (UX review 17: 7 px text at 900x600)."""

BG: Colour = (28, 30, 36)
PANEL: Colour = (40, 43, 52)
PANEL_EDGE: Colour = (86, 92, 110)
TEXT: Colour = (232, 232, 228)
TEXT_DIM: Colour = (150, 152, 160)
TEXT_BAD: Colour = (255, 150, 120)
TEXT_GOOD: Colour = (150, 220, 150)
ACCENT: Colour = (240, 228, 66)
HIGHLIGHT: Colour = (255, 255, 255)

GROUND: Colour = (196, 186, 150)
GRID: Colour = (184, 174, 138)
LIGHT_COVER: Colour = (170, 196, 120)
MEDIUM_COVER: Colour = (120, 160, 90)
DENSE_COVER: Colour = (70, 120, 70)
BLOCKER: Colour = (92, 84, 78)
HILL: Colour = (214, 176, 112)
CONTOUR: Colour = (150, 110, 60)
HATCH: Colour = (40, 70, 40)
SCORING: Colour = (240, 228, 66)
KO_GREY: Colour = (130, 130, 130)

# Okabe-Ito: blue, orange, bluish green, vermillion, reddish purple, sky blue, yellow, black.
SIDE_COLOURS: tuple[Colour, ...] = (
    (0, 114, 178),
    (230, 159, 0),
    (0, 158, 115),
    (213, 94, 0),
    (204, 121, 167),
    (86, 180, 233),
    (240, 228, 66),
    (20, 20, 20),
)
SIDE_PATTERNS = ("solid", "dashed", "double", "dotted", "solid", "dashed", "double", "dotted")
"""A second cue per side besides colour: how its base rings are drawn."""


def side_colour(player: int) -> Colour:
    return SIDE_COLOURS[player % len(SIDE_COLOURS)]


def side_text_colour(player: int) -> Colour:
    """The side's colour lifted toward white so it reads on the dark panels."""
    c = side_colour(player)
    return (int(c[0] * 0.6 + 255 * 0.4), int(c[1] * 0.6 + 255 * 0.4), int(c[2] * 0.6 + 255 * 0.4))


def side_dark_colour(player: int) -> Colour:
    """The side's colour darkened so it reads on the light table."""
    c = side_colour(player)
    return (int(c[0] * 0.55), int(c[1] * 0.55), int(c[2] * 0.55))


def ensure_video_driver() -> None:
    """Use SDL's dummy driver when there is no display, so pygame works on servers and in tests."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return
    if os.name == "posix" and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        import sys

        if sys.platform.startswith("linux"):
            os.environ["SDL_VIDEODRIVER"] = "dummy"


class TextCache:
    """Rendered text surfaces keyed by (text, size, colour, bold): render once, blit many times.

    Bounded (least recently used dropped first) so a long game's changing numbers cannot grow it
    without limit. `scale` multiplies every size, so text grows with the window.
    """

    def __init__(self, scale: float = 1.0, limit: int = 4096) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.scale = scale
        self.limit = limit
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._cache: OrderedDict[tuple[str, int, Colour, bool], pygame.Surface] = OrderedDict()
        self.renders = 0

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        px = max(MIN_FONT_PX, round(size * self.scale))
        key = (px, bold)
        f = self._fonts.get(key)
        if f is None:
            f = pygame.font.Font(None, px)
            f.bold = bold
            self._fonts[key] = f
        return f

    def set_scale(self, scale: float) -> None:
        if abs(scale - self.scale) > 1e-3:
            self.scale = scale
            self._cache.clear()

    def render(self, text: str, size: int = 18, colour: Colour = TEXT, bold: bool = False) -> pygame.Surface:
        key = (text, size, colour, bold)
        surf = self._cache.get(key)
        if surf is not None:
            self._cache.move_to_end(key)
            return surf
        surf = self.font(size, bold).render(text, True, colour)
        self.renders += 1
        self._cache[key] = surf
        if len(self._cache) > self.limit:
            self._cache.popitem(last=False)
        return surf

    def size(self, text: str, size: int = 18, bold: bool = False) -> tuple[int, int]:
        return self.render(text, size, TEXT, bold).get_size()

    def line_height(self, size: int = 18) -> int:
        return self.font(size).get_linesize()

    def clip(self, text: str, size: int, width: int, bold: bool = False) -> str:
        """`text`, cut short with an ellipsis when wider than `width` pixels: a line that shares its
        row with another must stop before it, not run underneath it."""
        f = self.font(size, bold)
        if f.size(text)[0] <= width:
            return text
        lo, hi = 0, len(text)  # the longest prefix that fits with its ellipsis: text[:lo]
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if f.size(text[:mid].rstrip() + "…")[0] <= width:
                lo = mid
            else:
                hi = mid - 1
        return text[:lo].rstrip() + "…" if lo else ""

    def wrap(self, text: str, size: int, width: int, bold: bool = False) -> list[str]:
        """Greedy word wrap of `text` into lines no wider than `width` pixels."""
        f = self.font(size, bold)
        out: list[str] = []
        for para in text.split("\n"):
            words = para.split(" ")
            line = ""
            for w in words:
                trial = w if not line else line + " " + w
                if f.size(trial)[0] <= width or not line:
                    line = trial
                else:
                    out.append(line)
                    line = w
            out.append(line)
        return out
