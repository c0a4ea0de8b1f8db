"""What-if in the replay viewer (issue 16, item 14): at any step, re-play the rest of the game N
times with bots and fresh dice, and show the outcome distribution next to what really happened.

The batch runs `sim.whatif.run_whatif` on a worker thread with the in-process executor, so the
window keeps drawing and Esc can stop it between endings; its answer depends only on the replay,
the step, N and the seed (never on timing), and is the same distribution `skirmish what-if`
prints for the same arguments.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import pygame

from skirmish.sim.executors import InlineExecutor
from skirmish.sim.whatif import WhatIfPlan, WhatIfResult, report_lines, run_whatif
from skirmish.ui import theme

if TYPE_CHECKING:
    from skirmish.engine.replay import Replay
    from skirmish.ui.theme import TextCache

DEFAULT_GAMES = 40
DEFAULT_SEED = 1
MAX_GAMES = 2000


class WhatIfRunner:
    """One what-if batch on a thread: progress while it runs, the result (or the error) after."""

    def __init__(self, replay: Replay, at: int, games: int, seed: int = DEFAULT_SEED) -> None:
        self.plan = WhatIfPlan(replay, at, seed)
        self.games = games
        self.done_games = 0
        self.result: WhatIfResult | None = None
        self.error = ""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="skirmish-what-if", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        try:
            self.result = run_whatif(
                self.plan,
                self.games,
                InlineExecutor(),
                batch_size=1,
                window=1,
                on_progress=self._progress,
                cancelled=self._stop.is_set,
            )
        except Exception as exc:  # noqa: BLE001 - shown in the overlay instead of killing the window
            self.error = f"{type(exc).__name__}: {exc}"

    def _progress(self, done: int, total: int) -> None:
        self.done_games = done

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def cancel(self) -> None:
        self._stop.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the batch ends (for tests and the screenshot); True when it has."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def lines(self) -> list[str]:
        if self.error:
            return [f"What if: could not re-play ({self.error})"]
        if self.running or self.result is None:
            return [
                f"What if: re-playing the rest from action {self.plan.at} with bots and fresh dice — "
                f"{self.done_games} of {self.games} endings (Esc stops)"
            ]
        out = report_lines(self.result, aligned=False)
        if self.result.games < self.games:
            out.insert(1, f"  (stopped after {self.result.games} of {self.games} endings)")
        return out + ["Esc or X closes"]


def parse_games(text: str) -> int | None:
    """The number typed into the what-if box, or None when it is not 1..MAX_GAMES."""
    try:
        n = int(text.strip())
    except ValueError:
        return None
    return n if 1 <= n <= MAX_GAMES else None


def draw_whatif(surf: pygame.Surface, text: TextCache, runner: WhatIfRunner, area: pygame.Rect) -> None:
    """The distribution (or the progress) in a box at the bottom of the board."""
    width = min(900, area.w - 20)
    lines: list[str] = []
    for ln in runner.lines():
        lines.extend(text.wrap(ln, 16, width - 24))
    lh = text.line_height(16)
    box = pygame.Rect(area.x + 10, 0, width, lh * len(lines) + 20)
    box.bottom = area.bottom - 10
    pygame.draw.rect(surf, (18, 20, 30), box, border_radius=5)
    pygame.draw.rect(surf, theme.ACCENT, box, 2, border_radius=5)
    for k, ln in enumerate(lines):
        colour = theme.ACCENT if k == 0 else theme.TEXT
        surf.blit(text.render(ln, 16, colour, bold=k == 0), (box.x + 12, box.y + 10 + k * lh))
