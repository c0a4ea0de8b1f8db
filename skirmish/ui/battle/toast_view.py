"""The outcome toast over the board (`toasts.Toast`, made by the controller): the box with the
headline and the engine's sentences, the line from actor to target under the bases, and the results
rising from the models, laid out clear of every name label and of each other (`floats.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from skirmish.ui import theme
from skirmish.ui.floats import place_floats

if TYPE_CHECKING:
    from skirmish.ui.battle.table import Table


class ToastView:
    def __init__(self) -> None:
        self._cache: tuple[object, pygame.Surface] | None = None
        self.float_rects: list[pygame.Rect] = []

    def marks(self, scene: Table, surf: pygame.Surface, *, before_models: bool) -> None:
        """Under the bases: who acted on whom (a line); over them: the result rising from the model."""
        t = scene.control.toast
        if t is None:
            return
        s = scene.control.state
        pos = scene.model_positions()

        def at(mid: str) -> tuple[float, float] | None:
            m = s.model(mid)
            if m is None or m.removed and mid not in pos:
                return None
            p = pos.get(mid, (float(s.xy[m.index, 0]), float(s.xy[m.index, 1])))
            return scene.view.to_screen(*p)

        if before_models:
            for a, b in t.pairs:
                pa, pb = at(a), at(b)
                if pa is None or pb is None:
                    continue
                pygame.draw.line(surf, (20, 20, 20), pa, pb, 5)
                pygame.draw.line(surf, t.colour, pa, pb, 3)
            return
        age = scene.control.time - t.start
        lift = round(12 * min(1.0, age / 1.5))  # a short rise, then it stays put, readable
        labs, wanted = [], []
        for mid, words, colour in t.floats:
            p = at(mid)
            m = s.model(mid)
            if p is None or m is None:
                continue
            lab = scene.text.render(words, 20, colour, bold=True)
            r = float(s.radii[m.index]) * scene.view.scale + 4
            labs.append(lab)
            wanted.append((p[0], p[1] - r - lift, p[1] + r + 10, lab.get_width() + 10, lab.get_height() + 4))
        taken = [*scene.label_rects.values(), self.rect(scene)]
        for lab, rect in zip(labs, place_floats(wanted, taken, scene.board_rect), strict=True):
            if rect is None:
                continue
            pygame.draw.rect(surf, (20, 20, 24), rect, border_radius=4)
            surf.blit(lab, (rect.x + 5, rect.y + 2))
            self.float_rects.append(rect)

    def surface(self, scene: Table, width: int) -> pygame.Surface:
        """The toast box, rendered once per toast and width."""
        t = scene.control.toast
        assert t is not None
        text = scene.text
        key = (id(t), width, text.scale)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        head = text.render(t.headline, 24, t.colour, bold=True)
        lh = text.line_height(15)
        wrapped: list[str] = []
        for ln in t.lines:
            wrapped.extend(text.wrap(ln, 15, width - 24))
        if len(wrapped) > 7:
            wrapped = wrapped[:6] + [f"… {len(wrapped) - 6} more lines in the log"]
        h = 12 + head.get_height() + 6 + lh * len(wrapped) + 10
        box = pygame.Surface((width, h), pygame.SRCALPHA)
        box.fill((18, 20, 28, 228))
        pygame.draw.rect(box, t.colour, box.get_rect(), 2)
        box.blit(head, (12, 10))
        y = 12 + head.get_height() + 6
        for ln in wrapped:
            box.blit(text.render(ln, 15, theme.TEXT), (12, y))
            y += lh
        self._cache = (key, box)
        return box

    def rect(self, scene: Table) -> pygame.Rect:
        """Where the toast box goes: at the top or the bottom of the board, whichever is away from
        the models involved (the floats keep clear of it too)."""
        board = scene.board_rect
        width = int(min(760, board.w * 0.62))
        box = self.surface(scene, width)
        ctl = scene.control
        s = ctl.state
        ys = [
            scene.view.to_screen(*s.xy[m.index])[1]
            for mid in ctl.toast.models  # type: ignore[union-attr]
            if (m := s.model(mid)) is not None
        ]
        x0, _ = scene.view.to_screen(0, ctl.game.scenario.board.height)
        left = max(board.x + 8, int(x0) + 8)
        if ys and sum(ys) / len(ys) < board.centery:
            y = board.bottom - box.get_height() - 8
        else:
            y = board.y + 8 + (34 if scene.los_model else 0)
        return pygame.Rect(min(left, board.right - box.get_width() - 8), y, *box.get_size())

    def draw(self, scene: Table, surf: pygame.Surface) -> None:
        rect = self.rect(scene)
        surf.blit(self.surface(scene, rect.w), rect.topleft)
