"""Hidden information stays hidden (rules.md R-X3, design principle: `game.observation(player)`):
the Pursuit's Fire Nation deck and adversary stack are shuffled face down, so no player's
observation may tell their order (it showed both lists whole: the next card and adversary)."""

from __future__ import annotations

import json

from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine import Game


def _pursuit_after(actions: int, seed: int = 5) -> Game:
    scenario = find_scenario("the_pursuit")
    troupes = [find_troupe(side.troupe or "") for side in scenario.sides]
    game = Game(scenario, troupes, seed=seed)
    bots = seat_bots(game, ["heuristic", "heuristic"])
    for _ in range(actions):
        if game.over:
            break
        game.apply(bots[game.state.active_player].choose(game))
    return game


def test_r_x3_no_observation_tells_the_order_of_the_deck_or_the_stack() -> None:
    longest = [0, 0]
    for actions in (3, 20, 60):
        game = _pursuit_after(actions)
        st = game.state.extra["pursuit"]
        longest = [max(longest[0], len(st["deck"] or [])), max(longest[1], len(st["stack"]))]
        before = [json.dumps(game.observation(p), sort_keys=True) for p in range(len(game.state.players))]
        for p in range(len(game.state.players)):
            seen = game.observation(p)["scenario"]["pursuit"]
            assert "deck" not in seen and "stack" not in seen
            assert seen["stack_left"] == len(st["stack"])
            assert seen["deck_left"] == (None if st["deck"] is None else len(st["deck"]))
        # Another order of the same face-down cards and adversaries: no player can tell.
        st["deck"] = list(reversed(st["deck"] or []))
        st["stack"] = list(reversed(st["stack"]))
        after = [json.dumps(game.observation(p), sort_keys=True) for p in range(len(game.state.players))]
        assert after == before
    assert min(longest) >= 2, "some position had a deck and a stack whose order could be told"
