"""The Pursuit's kept answers (R-X3) equal those worked out afresh, at every decision of real games:
the heroes' bot's hunt points and roles in plain floats with the speeds kept per game, and the
rules' adversary list and zone polygons kept from the start."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from skirmish.bots.pursuit import AVATAR, PursuitHeroBot
from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.core.state import ModelState
from skirmish.engine.game import Game
from skirmish.engine.scenarios import PursuitRules


def _hunt_point_by_vectors(bot: PursuitHeroBot, game: Game, m: ModelState) -> tuple[float, float] | None:
    """The hunter's point as it was worked out with numpy 2-vectors (the reference)."""
    assert isinstance(game.rules, PursuitRules)
    foes = game.rules.active_adversaries()
    if not foes:
        return None
    s = game.state
    a = min(foes, key=lambda f: (game.distance(m, f), f.index))
    d = game.distance(m, a)
    here, there = np.asarray(s.xy[m.index]), np.asarray(s.xy[a.index])
    gap = float(np.hypot(*(here - there)))
    shooter = AVATAR in m.profile.keywords or (bot._is_shooter(game, m) and not game.in_melee(a))
    reach = max(2.0, bot._best_range(game, m) - 1.0) if shooter else max(1.0, m.profile.charge - 1.0)
    if d <= reach or gap < 1e-6:
        return None
    stand = float(s.radii[a.index] + s.radii[m.index]) + (reach if shooter else 0.0)
    p = there + (here - there) / gap * stand
    return (float(p[0]), float(p[1]))


def _roles_by_vectors(bot: PursuitHeroBot, game: Game) -> dict[str, str]:
    """The heroes' roles as they were worked out with numpy 2-vectors and speeds asked afresh."""
    rules = bot._rules(game)
    heroes = [m for m in game.player_models(bot.player) if m.active]
    roles = {m.id: "hunter" for m in heroes}
    o, goal = rules.current_objective(), rules.objective_point()
    if o is None or goal is None:
        return roles
    dist = {m.id: float(np.hypot(*(np.asarray(game.state.xy[m.index]) - np.asarray(goal)))) for m in heroes}
    if o.kind == "reach":
        runner = min(heroes, key=lambda m: (dist[m.id] / bot._speed_now(game, m), m.index))
        roles[runner.id] = "runner"
    else:
        hold = [m for m in heroes if AVATAR not in m.profile.keywords] or heroes
        ranked = sorted(hold, key=lambda m: (-bot._toughness(game, m), dist[m.id], m.index))
        for m in ranked[:2]:
            roles[m.id] = "holder"
    return roles


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_r_x3_kept_pursuit_answers_equal_fresh_ones_through_real_games(seed: int) -> None:
    sc = find_scenario("the_pursuit")
    game = Game(sc, [find_troupe(side.troupe) for side in sc.sides], seed=seed, record_log=False)
    bots = seat_bots(game, [side.bot or "heuristic" for side in sc.sides])
    rules = game.rules
    assert isinstance(rules, PursuitRules)
    heroes = [b for b in bots if isinstance(b, PursuitHeroBot)]
    assert heroes
    checked = 0
    while not game.over:
        assert rules.adversaries() == [x for x in game.state.models if game.team(x) == rules.adversary_team]
        for z in sc.scoring.zones:
            fresh = shapely.Polygon(z.polygon)
            assert rules._zone_polygon(z.name).equals_exact(fresh, 0)
            for x in game.state.models:
                assert rules.in_zone(x, z.name) == bool(shapely.contains_xy(fresh, *game.state.xy[x.index]))
        o = rules.current_objective()
        for bot in heroes:
            assert bot.roles(game) == _roles_by_vectors(bot, game)
            if o is not None and o.kind != "defeat":
                zone = next(z for z in sc.scoring.zones if z.name == o.target)
                poly = shapely.Polygon([(float(x), float(y)) for x, y in zone.polygon])
                for x in game.state.models:
                    assert bot._in_zone(game, x) == bool(shapely.contains_xy(poly, *game.state.xy[x.index]))
            for x in game.player_models(bot.player):
                assert bot._speed(game, x) == bot._speed_now(game, x)
                if x.active:
                    assert bot._hunt_point(game, x) == _hunt_point_by_vectors(bot, game, x)
                    checked += 1
        bot = bots[game.state.active_player]
        assert bot is not None
        game.apply(bot.choose(game))
    assert checked > 100
