"""Where the table writes a game, and what it tells: the quick-save file, the picture path, the
replay of a game so far, and the writes made on leaving (never failing, always said)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from skirmish.data.errors import DataError
from skirmish.data.userdirs import default_output
from skirmish.engine.replay import Replay, save_game

if TYPE_CHECKING:
    from skirmish.engine import Game

SAVE_NAME = "skirmish-save.json"


def save_path() -> str:
    """The quick-save file, in the per-user data folder (`saves/`), never the folder started from."""
    return str(default_output("saves", SAVE_NAME))


def picture_path(game: Game) -> str:
    """Where F12 writes the board picture (the data folder's `screenshots/`)."""
    return str(default_output("screenshots", f"skirmish-board-{game.seed}-t{game.state.turn}.png"))


def replay_of(game: Game) -> Replay:
    """The game so far as a replay (to watch it, from the battle or the end screen)."""
    return Replay(
        game.scenario,
        game.troupes,
        game.options,
        game.seed,
        [p.bot for p in game.state.players],
        list(game.history),
        game.hash(),
        game.result(),
    )


def write_on_leave(game: Game, replay_out: str | None) -> tuple[str, bool]:
    """Write the game before leaving the battle: to the --replay file when one was asked for, and
    always to the save file (Ctrl+L resumes). Returns what to tell, and whether anything failed."""
    words: list[str] = []
    bad = False
    if not game.history:
        return "", False
    try:
        quick: str | None = save_path()
    except (OSError, DataError) as exc:  # the data folder cannot be made: say so, leave all the same
        quick = None
        words.append(f"Could not save: {exc}")
        bad = True
    for path in dict.fromkeys(p for p in (replay_out, quick) if p):
        try:
            save_game(game, path)
            words.append(f"Battle saved to {Path(path).resolve()}")
        except OSError as exc:  # leaving never fails; say what could not be written
            words.append(f"Could not save to {path}: {exc}")
            bad = True
    return " · ".join(words), bad
