"""The ability menu as a panel over the board: every ability numbered, with its cost, range,
effect and rules text, and for those not usable now the reason (issue 16, item 9).

It used to be squeezed into the banner, where long entries were cut off; a panel has room for the
words that say what an ability does before the player spends AP on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from skirmish.ui import theme

if TYPE_CHECKING:
    from skirmish.engine.core.actions import Action
    from skirmish.ui.theme import TextCache

MenuItem = tuple[str, "Action | None", str]


def draw_menu(
    surf: pygame.Surface,
    text: TextCache,
    title: str,
    items: list[MenuItem],
    notes: list[str],
    area: pygame.Rect,
) -> pygame.Rect:
    """The numbered choices (usable ones bright, the others dim with their reason) and under each
    its rules text; placed at the top left of `area`. Returns the panel's rect."""
    width = min(760, area.w - 20)
    rows: list[tuple[str, int, theme.Colour, bool]] = [(title, 17, theme.ACCENT, True)]
    for k, (label, action, why) in enumerate(items[:9]):
        head = f"[{k + 1}] {label}" + (f" — {why}" if action is None and why else "")
        colour = theme.TEXT if action is not None else theme.TEXT_DIM
        for ln in text.wrap(head, 15, width - 24):
            rows.append((ln, 15, colour, action is not None))
        note = notes[k] if k < len(notes) else ""
        for ln in text.wrap(note, 13, width - 40) if note else []:
            rows.append(("    " + ln, 13, theme.TEXT_DIM, False))
    rows.append(("1-9 chooses · Esc closes", 13, theme.TEXT_DIM, False))
    height = 16 + sum(text.line_height(size) + 1 for _, size, _, _ in rows)
    box = pygame.Rect(area.x + 10, area.y + 10, width, min(height, area.h - 20))
    pygame.draw.rect(surf, (22, 24, 32), box, border_radius=5)
    pygame.draw.rect(surf, theme.ACCENT, box, 1, border_radius=5)
    y = box.y + 8
    for words, size, colour, bold in rows:
        if y + text.line_height(size) > box.bottom - 4:
            break
        surf.blit(text.render(words, size, colour, bold=bold), (box.x + 12, y))
        y += text.line_height(size) + 1
    return box
