"""Off-screen pictures of a game: the board with its legend, roster and banner, saved as PNG.

Used by `skirmish play --screenshot` (headless too) and by the window's screenshot key. Needs no
display: pygame surfaces and fonts work without a window, and SDL's dummy driver is chosen when
no display is set.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from skirmish.ui import theme
from skirmish.ui.legend_art import draw_legend
from skirmish.ui.render import ModelMarks, draw_log_tail, draw_models, draw_roster
from skirmish.ui.table_words import result_words, score_words, status_words, turn_words
from skirmish.ui.terrain_art import draw_static
from skirmish.ui.theme import TextCache
from skirmish.ui.view import BoardView

if TYPE_CHECKING:
    from skirmish.engine import Game


def render_game(
    game: Game,
    size: tuple[int, int] = (1600, 1000),
    marks: ModelMarks | None = None,
    text: TextCache | None = None,
) -> pygame.Surface:
    """The whole picture of a game as one surface: banner, board, legend, roster, last events."""
    theme.ensure_video_driver()
    if not pygame.font.get_init():
        pygame.font.init()
    w, h = size
    text = text or TextCache(scale=max(0.7, min(1.4, h / 1000)))
    surf = pygame.Surface((w, h))
    surf.fill(theme.BG)
    title = f"{game.scenario.title} — {turn_words(game)}"
    res = result_words(game)
    score = score_words(game) + f" · seed {game.seed}"
    st = status_words(game)
    # The scenario's status shares the second row with the result when it fits beside it; a long
    # one (the Pursuit's track, objective and cards) gets rows of its own under the banner's two.
    room = w - 48 - text.size(res, 20)[0]
    beside = bool(st) and text.size(st, 17)[0] <= room
    below = text.wrap(st, 17, w - 32) if st and not beside else []
    banner_h = max(int(70 * text.scale), 12 + text.line_height(24) + text.line_height(20))
    banner_h += len(below) * text.line_height(17)
    pygame.draw.rect(surf, theme.PANEL, (0, 0, w, banner_h))
    pygame.draw.line(surf, theme.PANEL_EDGE, (0, banner_h - 1), (w, banner_h - 1), 2)
    sc = text.render(score, 18, theme.TEXT_DIM)
    surf.blit(sc, (w - sc.get_width() - 16, 12))
    title_room = w - 48 - sc.get_width()
    surf.blit(text.render(text.clip(title, 24, title_room, bold=True), 24, theme.TEXT, bold=True), (16, 8))
    y = 8 + text.line_height(24)
    surf.blit(text.render(res, 20, theme.ACCENT if game.over else theme.TEXT), (16, y))
    if beside:
        line = text.render(st, 17, theme.ACCENT)
        surf.blit(line, (w - line.get_width() - 16, y + 2))
    y += text.line_height(20)
    for row in below:
        surf.blit(text.render(row, 17, theme.ACCENT), (16, y))
        y += text.line_height(17)
    side_w = min(560, max(320, w - h))
    board_rect = (0, banner_h, w - side_w, h - banner_h)
    view = BoardView(game.scenario.board.width, game.scenario.board.height)
    view.fit(board_rect, margin=0.02)
    draw_static(surf, view, game, text)
    draw_models(surf, view, game, text, marks)
    x = w - side_w + 12
    pygame.draw.rect(surf, theme.PANEL, (w - side_w, banner_h, side_w, h - banner_h))
    y = draw_legend(surf, text, game, x, banner_h + 10, side_w - 24)
    y = draw_roster(surf, text, game, x, y + 10, side_w - 24, h - 160)
    draw_log_tail(surf, text, game, x, y + 4, side_w - 24, h - 8)
    return surf


def save_game_png(game: Game, path: str, size: tuple[int, int] = (1600, 1000)) -> None:
    """Render the current board of `game` to a PNG file at `path` (works without a display)."""
    surf = render_game(game, size)
    pygame.image.save(surf, path)
