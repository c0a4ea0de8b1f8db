"""The Pursuit's panel in the window (R-X3): co-operative seats and the game's state in words.

A column of its own left of the table, below the banner (so it covers neither the table nor the
banner's refusal and hint lines), its long lines wrapped: who plays which hero and whose hero
acts now, the Tracking path drawn as a track of spaces with the ship token, the active hero, the
active adversary and its ability as its card says it, the current objective, and the Fire Nation
cards of this turn.

Seats are hotseat: `skirmish play the_pursuit --seats N` deals the heroes round-robin in the
scenario's `hero_order` (player 1 takes Aang, player 2 Katara, ...); the heroes' side is one
player of the engine, so the seats only name who moves what.
"""

from __future__ import annotations

from typing import Any, Protocol, cast

import pygame

from skirmish.data.scenario import Victory
from skirmish.engine import Game
from skirmish.engine.queries import ModelState
from skirmish.ui import theme
from skirmish.ui.theme import TextCache

PAD = 8


class PursuitRules(Protocol):
    """What the panel reads of the Pursuit's rules object (`game.rules` when the scenario's victory
    is `pursuit`), typed here so the UI never imports the scenario's own module."""

    cfg: Any
    """The Pursuit's configuration: `hero_order`, `tracking_length`, `cards_at`, `events_per_turn`."""

    @property
    def tracking(self) -> int: ...
    def is_hero(self, m: ModelState) -> bool: ...
    def active_hero(self) -> ModelState | None: ...
    def status_lines(self) -> list[str]: ...


def pursuit_rules(game: Game) -> PursuitRules | None:
    return cast(PursuitRules, game.rules) if game.scenario.victory == Victory.pursuit else None


def deal_seats(game: Game, seats: int) -> dict[str, int]:
    """Hero model id -> seat (1-based): the heroes dealt in `hero_order`, one at a time."""
    rules = pursuit_rules(game)
    if rules is None:
        return {}
    heroes = [m for m in game.state.models if rules.is_hero(m) and m.on_table]
    order = {name: i for i, name in enumerate(rules.cfg.hero_order)}
    heroes.sort(key=lambda m: (order.get(m.profile.name, len(order)), m.index))
    n = max(1, seats)
    return {m.id: 1 + k % n for k, m in enumerate(heroes)}


def acting_hero(game: Game, selected: str | None) -> ModelState | None:
    """The hero acting now: the hero selected, else the turn's active hero."""
    rules = pursuit_rules(game)
    if rules is None:
        return None
    if selected is not None:
        m = game.state.model(selected)
        if m is not None and rules.is_hero(m):
            return m
    return rules.active_hero()


def seat_lines(game: Game, seats: int, selected: str | None) -> list[str]:
    """'Player 1: Aang, Sokka · Player 2: ...' and 'Now acting: Player 2 (Katara)'."""
    dealt = deal_seats(game, seats)
    if not dealt:
        return []
    names: dict[int, list[str]] = {}
    for mid, seat in dealt.items():
        names.setdefault(seat, []).append(game.model(mid).name)
    lines = [" · ".join(f"Player {k}: {', '.join(v)}" for k, v in sorted(names.items()))]
    hero = acting_hero(game, selected)
    if hero is not None and hero.id in dealt:
        lines.append(f"Now acting: Player {dealt[hero.id]} ({hero.name})")
    return lines


def panel_lines(game: Game, seats: int, selected: str | None) -> list[str]:
    rules = pursuit_rules(game)
    if rules is None:
        return []
    return [*seat_lines(game, seats, selected), *rules.status_lines()]


def draw_track(surf: pygame.Surface, x: int, y: int, width: int, rules: PursuitRules) -> int:
    """The Tracking path as spaces 0..length, the ship token on its space, the card counts marked."""
    n = rules.cfg.tracking_length
    cell = max(8, min(22, (width - 4) // (n + 1)))
    for i in range(n + 1):
        r = pygame.Rect(x + i * cell, y, cell - 2, cell - 2)
        extra = rules.cfg.cards_at(i) - rules.cfg.events_per_turn
        colour = theme.TEXT_BAD if i == n else (theme.ACCENT if extra else theme.PANEL_EDGE)
        pygame.draw.rect(surf, colour, r, 0 if i == rules.tracking else 1)
    return cell


def panel_width(window_w: int, side_w: int, scale: float) -> int:
    """The Pursuit column's width, left of the table: wide enough for the Tracking track and short
    lines, narrow enough to leave the table most of the room (its longer lines wrap)."""
    return int(min(340 * scale, max(200 * scale, (window_w - side_w) * 0.26)))


def draw_pursuit_panel(
    surf: pygame.Surface,
    text: TextCache,
    game: Game,
    area: pygame.Rect,
    seats: int,
    selected: str | None,
) -> pygame.Rect | None:
    """Draw the panel in `area`, the column the table leaves for it (it never covers the table);
    its rectangle, or None when not a Pursuit."""
    rules = pursuit_rules(game)
    if rules is None:
        return None
    size = 15
    lh = text.line_height(size)
    width = max(2 * PAD + 40, area.width - 2 * PAD)
    inner = width - 2 * PAD
    rows: list[tuple[str, theme.Colour, bool, bool]] = []  # text, colour, bold, track after it
    for k, line in enumerate(panel_lines(game, seats, selected)):
        colour = theme.ACCENT if line.startswith(("Now acting", "Tracking")) else theme.TEXT
        wrapped = text.wrap(line, size, inner, bold=k == 0)
        last = len(wrapped) - 1
        rows += [
            (part, colour, k == 0, line.startswith("Tracking") and j == last)
            for j, part in enumerate(wrapped)
        ]
    cell = max(8, min(22, inner // (rules.cfg.tracking_length + 1)))
    height = PAD * 2 + lh * len(rows) + cell + 4
    box = pygame.Surface((width, height), pygame.SRCALPHA)
    box.fill((*theme.PANEL[:3], 235))
    pygame.draw.rect(box, theme.PANEL_EDGE, box.get_rect(), 1)
    y = PAD
    for part, colour, bold, track in rows:
        box.blit(text.render(part, size, colour, bold=bold), (PAD, y))
        y += lh
        if track:
            draw_track(box, PAD, y + 2, inner, rules)
            y += cell + 4
    rect = pygame.Rect(area.x + PAD, area.y + PAD, width, height)
    surf.blit(box, rect.topleft)
    return rect
