"""Scenario special rules: how long bot games of the rule-heavy scenarios take, and how they end.

Figures: seconds per full bot game (heuristic bots, shipped troupes, seeds 1-3) of the Pursuit, the
Avatar Duel and Escort the Avatar, the share of Pursuit games the heroes win, the share of duel
attacks answered by a reaction, and the time of one campaign chapter through the engine API.
"""

from __future__ import annotations

import time

from skirmish.bots.runner import play_out, seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.game import Game

SEEDS = (1, 2, 3)


def _games(name: str) -> tuple[float, list[Game]]:
    sc = find_scenario(name)
    troupes = [find_troupe(side.troupe) for side in sc.sides]
    policies = [side.bot or "heuristic" for side in sc.sides]
    games = []
    start = time.perf_counter()
    for seed in SEEDS:
        g = Game(sc, troupes, seed=seed, bots=policies)
        play_out(g, seat_bots(g, policies))
        games.append(g)
    return (time.perf_counter() - start) / len(SEEDS), games


def run() -> dict[str, float]:
    out: dict[str, float] = {}
    t, games = _games("the_pursuit")
    out["pursuit_seconds_per_game"] = t
    out["pursuit_hero_win_rate"] = sum(g.state.winning_team == g.state.players[0].team for g in games) / len(
        games
    )
    out["pursuit_mean_turns"] = sum(g.turn for g in games) / len(games)
    t, games = _games("avatar_duel")
    out["duel_seconds_per_game"] = t
    offers = sum(1 for g in games for e in g.log if e.kind == "offer")
    reactions = sum(1 for g in games for e in g.log if e.kind == "reaction")
    out["duel_reaction_rate"] = reactions / offers if offers else 0.0
    t, _ = _games("escort_the_avatar")
    out["escort_seconds_per_game"] = t
    from skirmish.engine import campaign as cp

    camp = cp.load_campaign()
    start = time.perf_counter()
    scenario, troupes = cp.chapter_setup(camp, cp.new_save(camp))
    policies = ["heuristic", "heuristic"]
    g = Game(scenario, troupes, seed=cp.chapter_seed(cp.new_save(camp)), bots=policies)
    play_out(g, seat_bots(g, policies))
    out["campaign_chapter_seconds"] = time.perf_counter() - start
    return out
