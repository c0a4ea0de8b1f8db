"""The end screen: the result, Battle Points per turn, KOs, saving and watching the replay."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from skirmish.data.errors import DataError
from skirmish.ui import theme
from skirmish.ui.control.saves import replay_of
from skirmish.ui.scene import Button, Scene, click_buttons, draw_button, draw_help, draw_panel
from skirmish.ui.snapshot import render_game
from skirmish.ui.table_words import result_words

if TYPE_CHECKING:
    from skirmish.engine import Game
    from skirmish.ui.scene import Host


class EndScene(Scene):
    name = "end"

    def __init__(self, app: Host, game: Game, replay_out: str | None = None) -> None:
        super().__init__(app)
        self.game = game
        self.replay_out = replay_out or ""
        self.message = ""
        self.buttons: list[Button] = []
        self.show_help = False
        self._board: pygame.Surface | None = None
        self._board_size: tuple[int, int] | None = None

    def save_replay(self) -> None:
        from skirmish.engine.replay import save_game

        try:
            if not self.replay_out:  # no --replay given: the per-user data folder's replays/
                from skirmish.data.userdirs import default_output

                self.replay_out = str(default_output("replays", f"skirmish-replay-{self.game.seed}.json"))
            save_game(self.game, self.replay_out)
            self.message = f"Replay saved to {Path(self.replay_out).resolve()}"
        except (OSError, DataError) as exc:
            self.message = f"Could not save: {exc}"

    def watch(self) -> None:
        self.app.open_replay(replay_of(self.game))

    def new_game(self) -> None:
        g = self.game
        self.app.open_menu(g.scenario, list(g.troupes), g.options, seed=g.seed + 1, fresh=True)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            k = event.key
            if self.show_help:
                self.show_help = False
            elif k == pygame.K_F1 or k == pygame.K_QUESTION:
                self.show_help = True
            elif k == pygame.K_s:
                self.save_replay()
            elif k in (pygame.K_w, pygame.K_r):
                self.watch()
            elif k in (pygame.K_b, pygame.K_ESCAPE):
                self.app.pop()
            elif k == pygame.K_n:
                self.new_game()
            elif k == pygame.K_q:
                self.app.quit()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            click_buttons(self.buttons, event.pos)

    def draw(self, surf: pygame.Surface) -> None:
        w, h = surf.get_size()
        if self._board is None or self._board_size != (w, h):
            self._board = render_game(self.game, (w, h), text=self.text)
            self._board.set_alpha(90)
            self._board_size = (w, h)
        surf.fill(theme.BG)
        surf.blit(self._board, (0, 0))
        g = self.game
        r = g.result()
        box = pygame.Rect(0, 0, min(1000, w - 60), min(420, h - 60))
        box.center = (w // 2, h // 2)
        draw_panel(surf, box)
        x, y = box.x + 24, box.y + 18
        surf.blit(self.text.render(result_words(g), 26, theme.ACCENT, bold=True), (x, y))
        y += self.text.line_height(26) + 10
        surf.blit(
            self.text.render(f"{g.scenario.title} · {r['turns']} turns · seed {g.seed}", 18, theme.TEXT_DIM),
            (x, y),
        )
        y += self.text.line_height(18) + 14
        turns = max((len(v) for v in r["battle_points_per_turn"].values()), default=0)
        col = max(44, int(48 * self.text.scale))
        name_w = 200
        heads = ["Battle Points", *[f"T{t + 1}" for t in range(turns)], "total", "KOs", "left"]
        xs = [x] + [x + name_w + k * col for k in range(turns + 3)]
        for cx, head in zip(xs, heads, strict=True):
            surf.blit(self.text.render(head, 18, theme.TEXT, bold=True), (cx, y))
        y += self.text.line_height(18) + 4
        for p in g.state.players:
            cells = [
                p.name[:18],
                *map(str, r["battle_points_per_turn"][p.name]),
                str(p.total_points),
                str(r["kos"][p.name]),
                str(r["models_left"][p.name]),
            ]
            for cx, cell in zip(xs, cells, strict=False):
                surf.blit(self.text.render(cell, 18, theme.side_text_colour(p.index)), (cx, y))
            y += self.text.line_height(18) + 2
        y += 10
        kos = [m for m in g.state.models if m.ko]
        if kos:
            surf.blit(
                self.text.render(
                    "KO'd: " + ", ".join(f"{m.name} (turn {m.ko_turn})" for m in kos), 16, theme.TEXT
                ),
                (x, y),
            )
            y += self.text.line_height(16) + 6
        self.buttons = [
            Button(f"Save replay ({self.replay_out or 'to the replays folder'})", "S", self.save_replay),
            Button("Watch the replay", "W", self.watch),
            Button("Back to the board", "B", self.app.pop),
            Button("New game", "N", self.new_game),
            Button("Quit", "Q", self.app.quit),
        ]
        bx, by = x, box.bottom - 60
        for b in self.buttons:
            rect = draw_button(surf, self.text, b, bx, by, 17)
            bx = rect.right + 10
        if self.message:
            surf.blit(self.text.render(self.message, 16, theme.TEXT_GOOD), (x, by - 30))
        if self.show_help:
            draw_help(surf, self.text, "End of the game", self.help_lines())

    def help_lines(self) -> list[tuple[str, str]]:
        return [
            ("S", "save the replay"),
            ("W, R", "watch the replay"),
            ("B, Esc", "back to the board"),
            ("N", "new game (menu)"),
            ("Q", "quit"),
            ("F1, ?", "this help"),
        ]
