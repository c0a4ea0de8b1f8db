"""Round 4's remembered answers of the heuristic bot give what working them out afresh gives.

The zone duties are kept per game on the index, HP and position of each of the player's active
models (what `zones.holders` reads, with toughness a function of HP); the melee odds are kept on
their exact arguments. Both are checked against the fresh answer at every decision of real games,
so the bot's choices (and the golden replays) cannot move.
"""

from __future__ import annotations

import pytest

from skirmish.bots.heuristic import HeuristicBot
from skirmish.bots.runner import seat_bots
from skirmish.bots.zones import holders
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine import queries
from skirmish.engine.game import Game
from skirmish.rules.odds import cached_melee_odds


def _start(scenario: str, seed: int) -> tuple[Game, list[HeuristicBot]]:
    sc = find_scenario(scenario)
    troupes = [find_troupe(s.troupe) for s in sc.sides if s.troupe is not None]
    pols: list[str | None] = ["heuristic"] * len(sc.sides)
    game = Game(sc, troupes, seed=seed, bots=pols, record_log=False)
    bots = [b for b in seat_bots(game, pols) if isinstance(b, HeuristicBot)]
    assert len(bots) == len(sc.sides)
    return game, bots


def _fresh_duties(bot: HeuristicBot, game: Game, player: int) -> dict[str, tuple[float, float]]:
    mine = [x for x in game.player_models(player) if x.active]
    tough = {x.id: bot._toughness(game, x) for x in mine}
    found = holders(bot._zones(game), mine, tough, game.state.xy[[x.index for x in mine]])
    return {k: (float(v[0]), float(v[1])) for k, v in found.items()}


@pytest.mark.parametrize("scenario", ["open_battle", "hold_the_zones", "four_kingdoms_melee"])
def test_zone_duties_kept_per_arrangement_are_the_fresh_ones(scenario: str) -> None:
    """At every decision (before and after the bot chooses), every player's remembered duties equal
    `holders` worked out from nothing; HP changes and KOs happen on the way."""
    checked = 0
    for seed in (2, 7):
        game, bots = _start(scenario, seed)
        while not game.over and game.state.turn <= 5:
            for player, bot in enumerate(bots):
                got = bot._zone_duties(game, player)
                assert {k: (float(v[0]), float(v[1])) for k, v in got.items()} == _fresh_duties(
                    bot, game, player
                )
                checked += 1
            game.apply(bots[game.state.active_player].choose(game))
    assert checked > 200


@pytest.mark.parametrize("scenario", ["open_battle", "four_kingdoms_melee"])
def test_r_c4_melee_matchup_odds_kept_are_the_fresh_odds(scenario: str) -> None:
    """`matchup`'s melee odds (kept on their exact arguments across pairs, decisions and games) equal
    the odds worked out with nothing kept, for every pair of enemies at every charges decision of
    real games, charging or not (R-C4)."""
    game, bots = _start(scenario, 4)
    checked = 0
    while not game.over and game.state.turn <= 4:
        if game.state.step == "charges" and game.state.pending is None:
            for me in game.player_models(game.state.active_player):
                for foe in game.state.models:
                    if not (me.active and foe.active and game.enemies(me, foe)):
                        continue
                    for charging in (False, True):
                        kept = queries.matchup(game, me, foe, charging=charging)
                        cached_melee_odds.cache_clear()
                        fresh = queries.matchup(game, me, foe, charging=charging)
                        assert kept == fresh
                        checked += 1
        game.apply(bots[game.state.active_player].choose(game))
    assert checked > 50
