"""The banner over the battle: scenario, turn and step, who acts, Battle Points, status, the buttons
of what may be done now (greyed with the engine's reason) and the last message. Cached as one
surface, rebuilt only when something it shows changes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from skirmish.ui import theme
from skirmish.ui.pursuit_view import pursuit_rules
from skirmish.ui.scene import Button, draw_button
from skirmish.ui.table_words import result_words, score_words, status_words, turn_words

if TYPE_CHECKING:
    from skirmish.ui.battle.table import Table


class BannerView:
    def __init__(self) -> None:
        self._key: object = None
        self._surface: pygame.Surface | None = None
        self._rects: list[pygame.Rect] = []

    def invalidate(self) -> None:
        self._key = None

    def draw(self, scene: Table, surf: pygame.Surface, buttons: list[Button]) -> None:
        ctl = scene.control
        g = ctl.game
        text = scene.text
        w = surf.get_width()
        h = scene.banner_h
        msg = ctl.shown_message()
        key = (
            ctl.revision,
            len(g.history),
            id(g.state),
            ctl.selected,
            scene.mode,
            tuple(ctl.path),
            msg,
            ctl.message_bad,
            w,
            h,
            g.over,
            ctl.bot_paused,
            ctl.speed,
            tuple((b.caption(), b.enabled, b.reason) for b in buttons),
            ctl.weapon_index,
            text.scale,
            ctl.worker.pending,
            scene.seats,
        )
        if key != self._key or self._surface is None:
            self._key = key
            self._surface = self._render(scene, w, h, msg, buttons)
        else:  # the same buttons were drawn at the same places: they keep their rects
            for b, old in zip(buttons, self._rects, strict=True):
                b.rect = old.copy()
        surf.blit(self._surface, (0, 0))

    def _render(self, scene: Table, w: int, h: int, msg: str, buttons: list[Button]) -> pygame.Surface:
        ctl = scene.control
        g = ctl.game
        text = scene.text
        bs = pygame.Surface((w, h))
        bs.fill(theme.PANEL)
        pygame.draw.line(bs, theme.PANEL_EDGE, (0, h - 1), (w, h - 1), 2)
        side = g.state.players[g.state.active_player]
        title = f"{g.scenario.title} — {turn_words(g)}"
        bs.blit(text.render(title, 22, theme.TEXT, bold=True), (12, 6))
        actor = result_words(g)
        col = theme.ACCENT if g.over else theme.side_text_colour(side.index)
        y2 = 6 + text.line_height(22)
        bs.blit(text.render(actor, 19, col, bold=True), (12, y2))
        sc = text.render(score_words(g) + "   [F1] help  [G] legend", 16, theme.TEXT_DIM)
        bs.blit(sc, (w - sc.get_width() - 12, 8))
        st = "" if pursuit_rules(g) is not None else status_words(g)  # the Pursuit has its own panel
        if st:  # beside the actor's line, cut short before it rather than drawn over it
            st = text.clip(st, 16, w - 36 - text.size(actor, 19, True)[0])
            line = text.render(st, 16, theme.ACCENT)
            bs.blit(line, (w - line.get_width() - 12, 8 + text.line_height(16)))
        x, y = 12, y2 + text.line_height(19) + 4
        for b in buttons:
            cap_w = text.size(b.caption(), 15, True)[0] + 12
            extra = text.size(f"({b.reason})", 13)[0] + 6 if not b.enabled and b.reason else 0
            if x + cap_w + extra > w - 12:
                x, y = 12, y + text.line_height(15) + 10
            rect = draw_button(bs, text, b, x, y, 15)
            b.rect = rect.copy()
            x = rect.right + 4
            if not b.enabled and b.reason:
                bs.blit(text.render(f"({b.reason})", 13, theme.TEXT_DIM), (x, y + 4))
                x += extra
            x += 8
        self._rects = [b.rect.copy() if b.rect is not None else pygame.Rect(0, 0, 0, 0) for b in buttons]
        if msg:
            colour = theme.TEXT_BAD if ctl.message_bad else theme.TEXT_GOOD
            lab = text.render(msg, 16, colour, bold=True)
            room = w - 36 - text.size(title, 22, True)[0]
            if lab.get_width() <= room:
                bs.blit(lab, (w - lab.get_width() - 12, 8 + text.line_height(16) + 4))
            else:  # a long message gets its own lines under the buttons, never over the title
                y += text.line_height(15) + 10
                lines = text.wrap(msg, 16, w - 24, bold=True)
                for ln in lines[:2]:
                    bs.blit(text.render(ln, 16, colour, bold=True), (12, y))
                    y += text.line_height(16)
        return bs
