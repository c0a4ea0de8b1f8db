"""Players that choose actions: `random` (uniform over legal actions) and `heuristic`."""

from __future__ import annotations

from skirmish.bots.heuristic import HeuristicBot
from skirmish.bots.random_bot import RandomBot

POLICIES: dict[str, type[HeuristicBot] | type[RandomBot]] = {"heuristic": HeuristicBot, "random": RandomBot}


def make_bot(policy: str, seed: int, player: int) -> HeuristicBot | RandomBot:
    """A bot of `policy` for seat `player`; `ValueError` naming the known policies otherwise."""
    try:
        cls = POLICIES[policy]
    except KeyError:
        raise ValueError(f"unknown bot policy {policy!r} (known: {', '.join(sorted(POLICIES))})") from None
    return cls(seed, player)
