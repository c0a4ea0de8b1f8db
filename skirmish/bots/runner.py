"""Playing a game to its end with bots in some or all seats."""

from __future__ import annotations

from collections.abc import Sequence

from skirmish.bots import make_bot
from skirmish.bots.base import Bot
from skirmish.engine.game import Game

MAX_ACTIONS = 50_000
"""A bound far above any real game, so a bot bug cannot loop forever."""


class BotStuck(RuntimeError):
    """A bot chose an illegal action or the game did not end; the message says where."""


def seat_bots(game: Game, policies: Sequence[str | None]) -> list[Bot | None]:
    return [None if p is None else make_bot(p, game.seed, i, game) for i, p in enumerate(policies)]


def play_out(game: Game, bots: Sequence[Bot | None], max_actions: int = MAX_ACTIONS) -> Game:
    """Let the bots act until the game is over (every seat must have a bot)."""
    for _ in range(max_actions):
        if game.over:
            return game
        p = game.state.active_player
        bot = bots[p]
        if bot is None:
            raise BotStuck(f"player {p} has no bot")
        action = bot.choose(game)
        game.apply(action)
    raise BotStuck(f"the game did not end within {max_actions} actions")
