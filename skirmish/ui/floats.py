"""Where the floating results of an action go (`-1 HP`, `saved`, `KO` rising from a model), so they
never cover each other or a name label (issue 16, item 10).

Each result wants a spot above its model; taken spots push it further up, then below the model,
then to either side. The layout is a pure function of rectangles, so it is tested without a
window and drawn the same in every frame of the rise.
"""

from __future__ import annotations

import pygame

GAP = 3


def place_floats(
    wanted: list[tuple[float, float, float, int, int]],
    taken: list[pygame.Rect],
    bounds: pygame.Rect,
) -> list[pygame.Rect | None]:
    """Rects for floats `(cx, top, bottom, w, h)`: centred on `cx`, ideally just above `top` (the top
    of the model's base), else below `bottom`; clear of `taken` (labels, other floats) and inside
    `bounds`. None when no clear spot exists (the toast still says it in words)."""
    placed: list[pygame.Rect] = []
    out: list[pygame.Rect | None] = []
    for cx, top, bottom, w, h in wanted:
        spots = [(cx - w / 2, top - h - GAP - k * (h + GAP)) for k in range(6)]
        spots += [(cx - w / 2, bottom + GAP + k * (h + GAP)) for k in range(3)]
        spots += [(cx - w - (bottom - top) / 2 - GAP, (top + bottom) / 2 - h / 2)]
        spots += [(cx + (bottom - top) / 2 + GAP, (top + bottom) / 2 - h / 2)]
        chosen = None
        for x, y in spots:
            rect = pygame.Rect(round(x), round(y), w, h)
            if bounds.contains(rect) and rect.collidelist(taken) < 0 and rect.collidelist(placed) < 0:
                chosen = rect
                break
        if chosen is not None:
            placed.append(chosen)
        out.append(chosen)
    return out
