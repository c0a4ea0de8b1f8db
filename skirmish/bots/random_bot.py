"""The random bot: uniform over the legal actions, from its own seeded stream."""

from __future__ import annotations

from skirmish.engine.core.actions import Action
from skirmish.engine.game import Game
from skirmish.rules.dice import Dice, derive_seed


class RandomBot:
    """Picks uniformly among `legal_actions()`; deterministic given the game's seed and its seat."""

    name = "random"

    def __init__(self, seed: int, player: int) -> None:
        self._dice = Dice(derive_seed(seed, 0xB07, player))

    def choose(self, game: Game) -> Action:
        actions = game.legal_actions()
        return actions[self._dice.roll(len(actions), "bot choice") - 1]
