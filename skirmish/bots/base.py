"""What a bot is: something that picks the next action for the player to act."""

from __future__ import annotations

from typing import Protocol

from skirmish.engine.core.actions import Action
from skirmish.engine.game import Game


class Bot(Protocol):
    name: str

    def choose(self, game: Game) -> Action:
        """The action to apply now; it must be legal for `game.state.active_player`."""
        ...
