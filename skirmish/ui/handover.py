"""The hand-over / turn-summary card drawn over the table (the card's words: `control/turns.py`)."""

from __future__ import annotations

import pygame

from skirmish.ui import theme
from skirmish.ui.control.turns import END_STEP_GUARD_SECONDS, HandOver, TurnPoint, card_for, skip_words
from skirmish.ui.theme import TextCache

__all__ = ["END_STEP_GUARD_SECONDS", "HandOver", "TurnPoint", "card_for", "draw_card", "skip_words"]


def draw_card(surf: pygame.Surface, text: TextCache, card: HandOver, area: pygame.Rect) -> pygame.Rect:
    """The card centred on `area`, over a dimmed board; returns where it was drawn."""
    shade = pygame.Surface(area.size, pygame.SRCALPHA)
    shade.fill((10, 10, 16, 170))
    surf.blit(shade, area.topleft)
    width = min(820, area.w - 40)
    lh = text.line_height(17)
    body: list[str] = []
    for ln in card.lines:
        body.extend(text.wrap(ln, 17, width - 40))
    tail = text.wrap(card.next_words, 18, width - 40) if card.next_words else []
    h = 24 + text.line_height(26) + 12 + lh * len(body) + 14 + text.line_height(18) * len(tail) + 20
    box = pygame.Rect(0, 0, width, h)
    box.center = area.center
    pygame.draw.rect(surf, theme.PANEL, box, border_radius=6)
    edge = theme.side_colour(card.next_player) if card.next_player is not None else theme.ACCENT
    pygame.draw.rect(surf, edge, box, 3, border_radius=6)
    y = box.y + 18
    surf.blit(text.render(card.title, 26, theme.ACCENT, bold=True), (box.x + 20, y))
    y += text.line_height(26) + 12
    for ln in body:
        surf.blit(text.render(ln, 17, theme.TEXT), (box.x + 20, y))
        y += lh
    y += 14
    colour = theme.side_text_colour(card.next_player) if card.next_player is not None else theme.TEXT
    for ln in tail:
        surf.blit(text.render(ln, 18, colour, bold=True), (box.x + 20, y))
        y += text.line_height(18)
    return box
