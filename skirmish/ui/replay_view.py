"""The replay viewer: step forward and back by action or by turn, jump to a turn, play at a speed.

The replay is re-simulated once, a slice per frame (so even a long game never freezes the
window), keeping a copy of the state after every action. Stepping back is then just showing an
earlier copy; the log shows the events up to that point and the dice of the step shown.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from skirmish.engine import IllegalAction
from skirmish.ui import theme
from skirmish.ui.botworker import copy_state
from skirmish.ui.panels import DIE, LogPanel, ProfileCard, draw_die
from skirmish.ui.render import ModelMarks, draw_models
from skirmish.ui.scene import Button, Scene, TextPrompt, click_buttons, draw_button, draw_help
from skirmish.ui.table_words import result_words, score_words, status_words, turn_words
from skirmish.ui.terrain_art import StaticLayer
from skirmish.ui.view import BoardView
from skirmish.ui.whatif_view import DEFAULT_GAMES, WhatIfRunner, draw_whatif, parse_games

if TYPE_CHECKING:
    from skirmish.battlefield.table import Table
    from skirmish.engine.queries import GameState
    from skirmish.engine.replay import Replay
    from skirmish.ui.scene import Host

RATES = (1.0, 2.0, 5.0, 10.0, 30.0)
"""Actions per second when playing."""


@dataclass
class Frame:
    state: GameState
    table: Table
    log_len: int
    turn: int


class ReplayScene(Scene):
    name = "replay"

    def __init__(self, app: Host, replay: Replay) -> None:
        super().__init__(app)
        self.replay = replay
        self.sim = replay.new_game(record_log=True)
        self.view_game = replay.new_game(record_log=False)
        self.frames: list[Frame] = [self._frame()]
        self.error = ""
        self.notice = ""
        """A complaint about the viewer's own input (a bad turn number), cleared by the next step."""
        self.index = 0
        self.playing = False
        self.rate = 1
        self._acc = 0.0
        self.view = BoardView(replay.scenario.board.width, replay.scenario.board.height)
        self.static = StaticLayer()
        self.log_panel = LogPanel()
        self.log_panel.names = {m.id: m.name for m in self.sim.state.models}
        self.card = ProfileCard()
        self.hovered: str | None = None
        self.prompt: TextPrompt | None = None
        self.show_help = False
        self.buttons: list[Button] = []
        self.whatif: WhatIfRunner | None = None
        """The what-if batch from the shown step (X), its progress and then its distribution."""
        self.board_rect = pygame.Rect(0, 0, 10, 10)
        self._shown = -1
        self.layout(app.size)
        self.view.fit(tuple(self.board_rect))

    def _frame(self) -> Frame:
        g = self.sim
        return Frame(copy_state(g), g.table, len(g.log), g.state.turn)

    @property
    def total(self) -> int:
        return len(self.replay.actions)

    @property
    def ready(self) -> int:
        """How many actions have been simulated so far."""
        return len(self.frames) - 1

    def simulate(self, budget_s: float = 0.008) -> None:
        """Re-apply the next actions for at most `budget_s` seconds of this frame."""
        end = time.perf_counter() + budget_s
        while self.ready < self.total and not self.error:
            action = self.replay.actions[self.ready]
            try:
                self.sim.apply(action)
            except IllegalAction as exc:
                self.error = f"action {self.ready + 1} ({action!r}) is illegal: {exc}"
                break
            self.frames.append(self._frame())
            if time.perf_counter() > end:
                break

    def simulate_all(self) -> None:
        while self.ready < self.total and not self.error:
            self.simulate(1.0)

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        s = self.text.scale
        self.banner_h = int(100 * s)
        side_w = int(min(460, max(300, w * 0.3)))
        old = self.board_rect.copy()
        self.board_rect = pygame.Rect(0, self.banner_h, w - side_w, h - self.banner_h - int(70 * s))
        self.step_rect = pygame.Rect(0, self.board_rect.bottom, w - side_w, h - self.board_rect.bottom)
        self.card.rect = pygame.Rect(w - side_w, self.banner_h, side_w, int(min(260 * s, h * 0.3)))
        self.log_panel.rect = pygame.Rect(
            w - side_w, self.card.rect.bottom, side_w, h - self.card.rect.bottom
        )
        self.card.max_h = int(h - self.banner_h - 120 * s)
        if old.size != self.board_rect.size:
            self.view.fit(tuple(self.board_rect))
        else:
            self.view.rect = tuple(self.board_rect)

    # ------------------------------------------------------------------ navigation
    def goto(self, index: int) -> None:
        self.notice = ""  # a navigation that worked clears the last complaint (UX review 12)
        if index > self.ready:
            while self.ready < min(index, self.total) and not self.error:
                self.simulate(1.0)
        self.index = max(0, min(index, self.ready))

    def step(self, delta: int) -> None:
        self.goto(self.index + delta)

    def turn_start(self, turn: int) -> int:
        """Index of the first frame of `turn` (simulating as far as needed)."""
        self.simulate_all()
        for i, f in enumerate(self.frames):
            if f.turn >= turn:
                return i
        return self.ready

    def next_turn(self) -> None:
        self.goto(self.turn_start(self.frames[self.index].turn + 1))

    def prev_turn(self) -> None:
        cur = self.frames[self.index].turn
        start = self.turn_start(cur)
        self.goto(self.turn_start(cur - 1) if self.index == start else start)

    def jump(self, text: str) -> None:
        try:
            self.goto(self.turn_start(int(text.strip())))
        except ValueError:
            self.notice = f"not a turn number: {text!r}"

    def ask_whatif(self, event: pygame.event.Event | None = None) -> None:
        """X: how many endings to re-play from the shown step (a box; Enter starts)."""
        if self.whatif is not None and self.whatif.running:
            return
        if self.whatif is not None:  # a result is shown: X closes it
            self.whatif = None
            return
        if self.index >= self.total:
            self.notice = "the game is over at this step: step back to re-play the rest"
            return
        self.prompt = TextPrompt(
            f"What if: re-play the rest from action {self.index} with bots and fresh dice: how many endings?",
            str(DEFAULT_GAMES),
            self.start_whatif,
        )
        if event is not None:
            self.prompt.opened_by(event)

    def start_whatif(self, text: str) -> None:
        games = parse_games(text)
        if games is None:
            self.notice = f"not a number of endings (1 to 2000): {text!r}"
            return
        self.whatif = WhatIfRunner(self.replay, self.index, games)
        self.whatif.start()

    def handle(self, event: pygame.event.Event) -> None:
        if self.prompt is not None and self.prompt.handle(event):
            if not self.prompt.active:
                self.prompt = None
            return
        if event.type == pygame.KEYDOWN:
            k = event.key
            shift = bool(event.mod & pygame.KMOD_SHIFT)
            if self.whatif is not None and k == pygame.K_ESCAPE:
                if self.whatif.running:
                    self.whatif.cancel()
                else:
                    self.whatif = None
            elif k == pygame.K_x:
                self.ask_whatif(event)
            elif self.show_help:
                self.show_help = False
            elif k == pygame.K_F1 or k == pygame.K_QUESTION or (k == pygame.K_SLASH and shift):
                self.show_help = True
            elif k == pygame.K_RIGHT:
                self.next_turn() if shift else self.step(1)
            elif k == pygame.K_LEFT:
                self.prev_turn() if shift else self.step(-1)
            elif k == pygame.K_PAGEDOWN:
                self.next_turn()
            elif k == pygame.K_PAGEUP:
                self.prev_turn()
            elif k == pygame.K_HOME:
                self.goto(0)
            elif k == pygame.K_END:
                self.simulate_all()
                self.goto(self.ready)
            elif k == pygame.K_SPACE:
                self.playing = not self.playing
            elif k in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
                self.rate = min(len(RATES) - 1, self.rate + 1)
            elif k in (pygame.K_MINUS, pygame.K_KP_MINUS):
                self.rate = max(0, self.rate - 1)
            elif k == pygame.K_t:
                self.prompt = TextPrompt("Jump to turn", "", self.jump)
                self.prompt.opened_by(event)
            elif k == pygame.K_f:
                self.view.fit(tuple(self.board_rect))
            elif k in (pygame.K_ESCAPE, pygame.K_q):
                if self.whatif is not None:
                    self.whatif.cancel()  # a batch still running stops at its next ending
                self.app.pop()  # the last scene popped closes the window
        elif event.type == pygame.MOUSEBUTTONDOWN:
            if event.button == 1:
                if click_buttons(self.buttons, event.pos):
                    return
                i = self.log_panel.event_at(event.pos)
                if i is not None:
                    self.log_panel.selected = i
            elif event.button == 2:
                self._pan = event.pos
        elif event.type == pygame.MOUSEMOTION:
            m = self._model_at(event.pos)
            self.hovered = m
            if event.buttons[1] and getattr(self, "_pan", None):
                self.view.pan(event.pos[0] - self._pan[0], event.pos[1] - self._pan[1])
                self._pan = event.pos
        elif event.type == pygame.MOUSEWHEEL:
            pos = pygame.mouse.get_pos()
            if self.log_panel.rect.collidepoint(pos):
                self.log_panel.scroll_by(3 * event.y)
            else:
                self.view.zoom_at(1.15**event.y, *pos)

    def _model_at(self, pos: tuple[int, int]) -> str | None:
        if not self.board_rect.collidepoint(pos):
            return None
        bx, by = self.view.to_board(*pos)
        s = self.view_game.state
        for m in s.models:
            if (
                not m.removed
                and (s.xy[m.index, 0] - bx) ** 2 + (s.xy[m.index, 1] - by) ** 2 <= s.radii[m.index] ** 2
            ):
                return m.id
        return None

    def update(self, dt: float) -> None:
        self.simulate()
        if self.playing:
            self._acc += dt * RATES[self.rate]
            while self._acc >= 1.0:
                self._acc -= 1.0
                if self.index >= self.total:
                    self.playing = False
                    break
                self.step(1)

    # ------------------------------------------------------------------ drawing
    def _show(self) -> None:
        if self._shown == self.index:
            return
        f = self.frames[self.index]
        self.view_game.state = f.state
        self.view_game.table = f.table
        self.view_game.moved()
        self._shown = self.index

    def draw(self, surf: pygame.Surface) -> None:
        self._show()
        g = self.view_game
        f = self.frames[self.index]
        surf.fill(theme.BG)
        clip = surf.get_clip()
        surf.set_clip(self.board_rect)
        surf.blit(self.static.get(self.view, g, self.text), self.board_rect.topleft)
        prev = self.frames[self.index - 1].log_len if self.index > 0 else 0
        involved = frozenset(m for e in self.sim.log[prev : f.log_len] for m in e.models)
        self.draw_trails(surf, prev, f.log_len)
        draw_models(
            surf,
            self.view,
            g,
            self.text,
            ModelMarks(hovered=self.hovered, highlighted=involved),
            show_removed=False,
        )
        surf.set_clip(clip)
        # banner
        w = surf.get_width()
        pygame.draw.rect(surf, theme.PANEL, (0, 0, w, self.banner_h))
        surf.blit(
            self.text.render(f"Replay — {g.scenario.title} — {turn_words(g)}", 22, theme.TEXT, bold=True),
            (12, 6),
        )
        status = f"action {self.index}/{self.total}" + (
            "" if self.ready == self.total else f" (loading {self.ready})"
        )
        status += (
            f" · {'playing' if self.playing else 'paused'} at {RATES[self.rate]:g}/s · {result_words(g)}"
        )
        surf.blit(self.text.render(status, 17, theme.ACCENT if g.over else theme.TEXT), (12, 34))
        sc = self.text.render(score_words(g) + "   [F1] help", 16, theme.TEXT_DIM)
        surf.blit(sc, (w - sc.get_width() - 12, 8))
        st = status_words(g)
        if st:  # beside the status line, cut short before it rather than drawn over it
            st = self.text.clip(st, 16, w - 36 - self.text.size(status, 17)[0])
            line = self.text.render(st, 16, theme.ACCENT)
            surf.blit(line, (w - line.get_width() - 12, 8 + self.text.line_height(16)))
        self.buttons = [
            Button("back 1", "Left", lambda: self.step(-1), self.index > 0),
            Button("forward 1", "Right", lambda: self.step(1), self.index < self.total),
            Button("prev turn", "PgUp", self.prev_turn),
            Button("next turn", "PgDn", self.next_turn),
            Button(
                "pause" if self.playing else "play",
                "Space",
                lambda: setattr(self, "playing", not self.playing),
            ),
            Button("slower", "-", lambda: setattr(self, "rate", max(0, self.rate - 1))),
            Button("faster", "+", lambda: setattr(self, "rate", min(len(RATES) - 1, self.rate + 1))),
            Button(
                "jump to turn",
                "T",
                lambda: setattr(self, "prompt", TextPrompt("Jump to turn", "", self.jump)),
            ),
            Button("what if?", "X", self.ask_whatif, self.index < self.total),
        ]
        x = 12
        for b in self.buttons:
            x = draw_button(surf, self.text, b, x, 62, 15).right + 6
        if self.error or self.notice:
            surf.blit(self.text.render(self.error or self.notice, 16, theme.TEXT_BAD), (x + 10, 66))
        # this step's action and dice
        pygame.draw.rect(surf, theme.PANEL, self.step_rect)
        act = self.step_words(prev, f.log_len)
        surf.blit(self.text.render(act, 15, theme.TEXT), (self.step_rect.x + 10, self.step_rect.y + 4))
        dx = self.step_rect.x + 10
        dy = self.step_rect.y + 8 + self.text.line_height(15)
        for e in self.sim.log[prev : f.log_len]:
            for r in e.rolls:
                if dx + DIE > self.step_rect.right - 10:
                    break
                draw_die(surf, self.text, r, dx, dy)
                dx += DIE + 4
        texts = [e.text for e in self.sim.log[prev : f.log_len] if e.rolls]
        if texts:
            lab = self.text.render(texts[-1][:160], 14, theme.TEXT)
            surf.blit(lab, (dx + 10, dy + 2))
        hov = g.state.model(self.hovered) if self.hovered else None
        self.log_panel.sync(self.sim.log, self.text, upto=f.log_len)
        self.log_panel.draw(surf, self.text, self.sim.log)
        self.card.draw(surf, self.text, g, hov)
        if self.whatif is not None:
            draw_whatif(surf, self.text, self.whatif, self.board_rect)
        if self.prompt is not None:
            self.prompt.draw(surf, self.text)
        if self.show_help:
            draw_help(surf, self.text, "Replay", self.help_lines())

    def step_words(self, start: int, end: int) -> str:
        """The shown action in the log's own words ("Sokka moves 6.0" (of 6")"), not its repr."""
        if self.index == 0:
            return "Start: deployment"
        texts = [e.text for e in self.sim.log[start:end] if e.kind not in ("turn", "ap_roll")]
        texts = texts or [e.text for e in self.sim.log[start:end]]
        words = f"Action {self.index}: " + (" · ".join(texts) if texts else "(nothing logged)")
        room = self.step_rect.w - 20
        lines = self.text.wrap(words, 15, room)
        return lines[0] + (" …" if len(lines) > 1 else "")

    def draw_trails(self, surf: pygame.Surface, start: int, end: int) -> None:
        """The path of every model that moved in the shown action, with a dot where it ended."""
        for e in self.sim.log[start:end]:
            path = e.data.get("path") if e.data else None
            if not path or len(path) < 2:
                continue
            pts = [self.view.to_screen(float(p[0]), float(p[1])) for p in path]
            pygame.draw.lines(surf, (20, 20, 20), False, pts, 5)
            pygame.draw.lines(surf, theme.ACCENT, False, pts, 3)
            pygame.draw.circle(surf, theme.ACCENT, pts[0], 4)

    def help_lines(self) -> list[tuple[str, str]]:
        return [
            ("Right / Left", "one action forward / back"),
            ("Shift+Right / Shift+Left", "next / previous turn"),
            ("PgDn / PgUp", "next / previous turn"),
            ("Home / End", "start / end of the game"),
            ("T", "jump to a turn"),
            ("X", "what if? re-play the rest from here N times (bots, fresh dice)"),
            ("Space", "play / pause"),
            ("+ / -", "faster / slower"),
            ("wheel, middle drag", "zoom / pan"),
            ("F", "fit the board"),
            ("click the log", "mark an event"),
            ("Esc, Q", "leave the replay"),
            ("F1, ?", "this help"),
        ]
