"""The window: a stack of scenes, the frame loop, and the entry points `skirmish play`/`replay` call.

`App.frame()` runs exactly one frame (read events, update the top scene, draw it, flip), so tests
drive the window with scripted events frame by frame under SDL's dummy driver, and the benchmark
times one frame. Nothing here decides a rule.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pygame

from skirmish.ui import theme
from skirmish.ui.battle import BattleScene, DeployScene
from skirmish.ui.endscreen import EndScene
from skirmish.ui.menu import MenuScene
from skirmish.ui.replay_view import ReplayScene
from skirmish.ui.scene import Scene
from skirmish.ui.theme import TextCache

if TYPE_CHECKING:
    from skirmish.data.options import RuleOptions
    from skirmish.data.scenario import Scenario
    from skirmish.data.troupe import Troupe
    from skirmish.engine import Game, Replay

DEFAULT_SIZE = (1600, 1000)
MIN_SIZE = (900, 600)


def text_scale(size: tuple[int, int]) -> float:
    """Text grows and shrinks with the window (1.0 at 1600x1000)."""
    return max(0.75, min(1.5, min(size[0] / 1600, size[1] / 1000) ** 0.7))


class App:
    """The window and its scene stack (design principle 12: no global session); the scenes' host
    (`scene.Host`): the only place that knows every screen, so the scenes never import each other."""

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, *, title: str = "Skirmish") -> None:
        self.seats = 1
        """People sharing a co-operative side (the Pursuit's heroes), hotseat."""
        theme.ensure_video_driver()
        pygame.display.init()
        pygame.font.init()
        pygame.display.set_caption(title)
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.size: tuple[int, int] = self.screen.get_size()
        self.text = TextCache(scale=text_scale(self.size))
        self.stack: list[Scene] = []
        self.running = True
        self.auto_end = False
        """Show the end screen as soon as a game ends (always so when bots play every side)."""
        self.clock = pygame.time.Clock()
        self.last_game: Game | None = None
        self.frames = 0

    # ------------------------------------------------------------------ the stack
    def top(self) -> Scene:
        return self.stack[-1]

    def push(self, scene: Scene) -> None:
        self.stack.append(scene)
        self._note(scene)
        scene.layout(self.size)

    def pop(self) -> None:
        if self.stack:
            self.stack.pop()
        if not self.stack:
            self.running = False
        else:
            self.top().layout(self.size)

    def replace(self, scene: Scene) -> None:
        if self.stack:
            self.stack.pop()
        self.push(scene)

    def quit(self) -> None:
        self.running = False

    def tell(self, words: str, bad: bool = False) -> None:
        say = getattr(self.top(), "say", None) if self.stack else None
        if words and say is not None:
            say(words, bad)

    # ------------------------------------------------------------------ the screens, by what they show
    def open_battle(
        self,
        game: Game,
        policies: list[str | None],
        *,
        replay_out: str | None = None,
        deploy: bool = False,
        speed: int = 1,
        replace: bool = False,
    ) -> None:
        kind = DeployScene if deploy else BattleScene
        scene = kind(self, game, policies, replay_out=replay_out, speed=speed)
        (self.replace if replace else self.push)(scene)

    def open_replay(self, replay: Replay) -> None:
        self.push(ReplayScene(self, replay))

    def open_end(self, game: Game, *, replay_out: str | None = None) -> None:
        self.push(EndScene(self, game, replay_out=replay_out))

    def open_menu(
        self,
        scenario: Scenario,
        troupes: list[Troupe],
        options: RuleOptions,
        *,
        seed: int,
        fresh: bool = False,
    ) -> None:
        if fresh:
            self.stack.clear()
        self.push(MenuScene(self, scenario, troupes, options, seed=seed))

    def _note(self, scene: Scene) -> None:
        game = getattr(scene, "game", None)
        if game is not None:
            self.last_game = game

    # ------------------------------------------------------------------ frames
    def resize(self, size: tuple[int, int]) -> None:
        size = (max(MIN_SIZE[0], size[0]), max(MIN_SIZE[1], size[1]))
        if size != self.size:
            self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
            self.size = self.screen.get_size()
            self.text.set_scale(text_scale(self.size))
            for s in self.stack:
                s.layout(self.size)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.VIDEORESIZE:
            self.resize((event.w, event.h))
        elif self.stack:
            self.top().handle(event)

    def frame(self, dt: float = 1 / 60, events: list[pygame.event.Event] | None = None) -> None:
        """One frame: events (from the queue unless given), update, draw, flip."""
        for event in pygame.event.get() if events is None else events:
            self.handle(event)
            if not self.running:
                return
        if not self.stack:
            self.running = False
            return
        scene = self.top()
        scene.update(dt)
        if self.stack:
            self._note(self.top())
            self.top().draw(self.screen)
            pygame.display.flip()
        self.frames += 1

    def run(self) -> None:
        last = time.perf_counter()
        while self.running and self.stack:
            self.clock.tick(60)
            now = time.perf_counter()
            self.frame(min(0.1, now - last))
            last = now


def run_play(
    scenario: Scenario,
    troupes: list[Troupe],
    options: RuleOptions,
    *,
    seed: int,
    bots: str | None,
    replay_out: str | None,
    screenshot: str | None,
    seats: int = 1,
) -> None:
    """`skirmish play` with a window: the menu (ready to start), deployment, the battle, the end screen.

    `seats`: how many people share the Pursuit's heroes (hotseat; the panel names whose hero acts)."""
    app = App()
    app.seats = seats
    app.push(MenuScene(app, scenario, list(troupes), options, seed=seed, bots=bots, replay_out=replay_out))
    try:
        app.run()
    finally:
        game = app.last_game
        if game is not None:
            if replay_out and game.history:
                from skirmish.engine.replay import dumps

                _write_out(replay_out, "--replay", dumps(game))
            if screenshot:
                _save_png(game, screenshot)
        pygame.quit()


def _write_out(path: str, flag: str, data: str | bytes) -> None:
    """Write an output the command line asked for; a failure is bad input (exit 2), not a crash."""
    from skirmish.data.errors import DataError, Problem
    from skirmish.engine.replay import write_atomic

    try:
        write_atomic(path, data)
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise DataError([Problem(path, "", f"{flag}: cannot write the file ({why})")]) from None
    print(f"{'Replay' if flag == '--replay' else 'Screenshot'} written to {path}")


def _save_png(game: Game, path: str) -> None:
    """Render the board to a private .png, then write those bytes to `path` (always a PNG)."""
    import os
    import tempfile

    from skirmish.ui.snapshot import save_game_png

    with tempfile.TemporaryDirectory(prefix="skirmish-shot-") as scratch:
        tmp = os.path.join(scratch, "board.png")
        save_game_png(game, tmp)
        with open(tmp, "rb") as fh:
            data = fh.read()
    _write_out(path, "--screenshot", data)


def run_replay(replay: Replay, *, screenshot: str | None) -> None:
    """`skirmish replay FILE` with a window: the replay viewer."""
    app = App(title=f"Skirmish replay — {replay.name}")
    scene = ReplayScene(app, replay)
    app.push(scene)
    try:
        app.run()
    finally:
        if screenshot:
            scene._show()
            _save_png(scene.view_game, screenshot)
        pygame.quit()
