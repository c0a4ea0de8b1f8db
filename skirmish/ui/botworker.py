"""Bots think off the drawing loop, on a private copy of the game.

The worker thread gets a deep copy of the game taken at the moment the bot's turn came (the
terrain, scenario and troupes are shared: nothing writes them), so the window keeps drawing
while the bot thinks. The chosen action depends only on that copy and on the bot's own state,
never on timing: the window applies it only if the live game is still exactly where it was
copied (same number of actions and same state hash); otherwise the answer is thrown away.
"""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skirmish.bots.base import Bot
    from skirmish.engine import Game
    from skirmish.engine.core.actions import Action
    from skirmish.engine.queries import GameState


def _shared(game: Game) -> dict[int, Any]:
    """Objects a copy may share with the original: read-only data (scenario, troupes, tables)."""
    from skirmish.sim.whatif import shared_objects

    return shared_objects(game)


def fork_game(game: Game) -> Game:
    """An independent copy of `game` for a bot to think on (no log, no undo stack)."""
    return game.fork(_shared(game))


def copy_state(game: Game) -> GameState:
    """A copy of the game state sharing the read-only data (for the replay viewer's frames)."""
    return copy.deepcopy(game.state, _shared(game))


@dataclass
class _Job:
    history_len: int
    state_hash: str
    action: Action | None = None
    error: BaseException | None = None
    done: bool = False


class BotWorker:
    """Runs `bot.choose(copy)` on a thread; `poll(game)` returns the action once ready and still valid."""

    def __init__(self) -> None:
        self._job: _Job | None = None
        self._thread: threading.Thread | None = None

    @property
    def busy(self) -> bool:
        return self._job is not None and not self._job.done

    @property
    def pending(self) -> bool:
        return self._job is not None

    def start(self, bot: Bot, game: Game) -> None:
        job = _Job(len(game.history), game.hash())
        fork = fork_game(game)

        def work() -> None:
            try:
                job.action = bot.choose(fork)
            except BaseException as exc:  # reported on the drawing thread
                job.error = exc
            finally:
                job.done = True

        self._job = job
        self._thread = threading.Thread(target=work, name="skirmish-bot", daemon=True)
        self._thread.start()

    def poll(self, game: Game) -> Action | None:
        """The bot's action if it is done and the game has not moved on; raises the bot's error."""
        job = self._job
        if job is None or not job.done:
            return None
        self._job = None
        if job.error is not None:
            raise job.error
        if job.history_len != len(game.history) or job.state_hash != game.hash():
            return None
        return job.action

    def wait(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def cancel(self) -> None:
        """Forget the current job (its answer will be ignored); the thread ends on its own."""
        self._job = None
