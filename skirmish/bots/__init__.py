"""Players that choose actions: `random` (uniform over legal actions) and `heuristic`.

In a Pursuit (R-X3) the `heuristic` policy on the heroes' side is the Pursuit's own hero bot
(`bots.pursuit`): roles per objective, Air Glide, the Avatar protected, the Tracking clock.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.bots.heuristic import HeuristicBot
from skirmish.bots.random_bot import RandomBot

if TYPE_CHECKING:
    from skirmish.engine.game import Game

POLICIES: dict[str, type[HeuristicBot] | type[RandomBot]] = {"heuristic": HeuristicBot, "random": RandomBot}


def make_bot(policy: str, seed: int, player: int, game: Game | None = None) -> HeuristicBot | RandomBot:
    """A bot of `policy` for seat `player`; `ValueError` naming the known policies otherwise.

    With `game`, a scenario's own bot may stand in for the heuristic one (the Pursuit's heroes)."""
    try:
        cls = POLICIES[policy]
    except KeyError:
        raise ValueError(f"unknown bot policy {policy!r} (known: {', '.join(sorted(POLICIES))})") from None
    if game is not None and cls is HeuristicBot:
        from skirmish.engine.scenarios_pursuit import PursuitRules

        if isinstance(game.rules, PursuitRules) and game.state.players[player].team == game.rules.hero_team:
            from skirmish.bots.pursuit import PursuitHeroBot

            return PursuitHeroBot(seed, player)
    return cls(seed, player)
