"""Players that choose actions: `heuristic`, `guess`, `random`, and any bot named by import path or plugin.

The policies are listed in one place, `skirmish.bots.registry` (light to import: the CLI reads the
names from it without loading the engine); this module keeps the short names.
In a Pursuit (R-X3) the `heuristic` policy on the heroes' side is the Pursuit's own hero bot
(`bots.pursuit`): roles per objective, Air Glide, the Avatar protected, the Tracking clock.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.bots import registry
from skirmish.bots.registry import DEFAULT, NAMED, UnknownPolicy, names

if TYPE_CHECKING:
    from skirmish.bots.base import Bot
    from skirmish.engine.game import Game

POLICIES: tuple[str, ...] = tuple(NAMED)
"""The shipped policy names (plugins and `module:Class` paths are accepted too: `registry.names`)."""

__all__ = ["DEFAULT", "POLICIES", "UnknownPolicy", "make_bot", "names"]


def make_bot(policy: str, seed: int, player: int, game: Game | None = None) -> Bot:
    """A bot of `policy` for seat `player`; with `game`, a scenario's own bot may stand in for the
    heuristic one (the Pursuit's heroes play `bots.pursuit.PursuitHeroBot`)."""
    if game is not None and policy == "heuristic":
        from skirmish.engine.scenarios import PursuitRules

        if isinstance(game.rules, PursuitRules) and game.state.players[player].team == game.rules.hero_team:
            from skirmish.bots.pursuit import PursuitHeroBot

            return PursuitHeroBot(seed, player)
    return registry.make_bot(policy, seed, player)
