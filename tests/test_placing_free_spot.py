"""The free spot a returning model takes (R-X3: the Pursuit's adversaries come back from the stack,
R-T1: in their deployment zone) is the first grid point, nearest the zone's centre, clear of every
base: the kept grid and the all-points-at-once clearance give the spot the point-by-point search
over a freshly built grid gives, at every position of real games."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.core.state import ModelState
from skirmish.engine.effects import placing
from skirmish.engine.effects.placing import SPACING, free_spot
from skirmish.engine.game import Game


def _reference(game: Game, model: ModelState) -> tuple[float, float] | None:
    """The search as it was: build the grid, then test each point against each base in turn."""
    s = game.state
    r = float(s.radii[model.index])
    others = [o.index for o in s.models if o.on_table and o is not model]
    grid = placing._grid(placing.zone_of(game, model.player), placing.impassable_area(game), r)
    for x, y in grid:
        if all(np.hypot(x - s.xy[j, 0], y - s.xy[j, 1]) >= r + s.radii[j] + SPACING - 1e-9 for j in others):
            return float(x), float(y)
    return None


def _game(name: str, seed: int) -> Game:
    sc = find_scenario(name)
    troupes = [find_troupe(side.troupe) for side in sc.sides]  # type: ignore[arg-type]
    policies = [side.bot or "heuristic" for side in sc.sides]
    return Game(sc, troupes, seed=seed, bots=policies, record_log=False, transactional=False)


def _check_every_model(game: Game) -> int:
    asked = 0
    for m in game.state.models:
        assert free_spot(game, m) == _reference(game, m)
        asked += 1
    return asked


def test_r_x3_free_spot_equals_the_point_by_point_search_through_pursuit_games() -> None:
    asked = 0
    for seed in (3, 11):
        game = _game("the_pursuit", seed)
        bots = seat_bots(game, [side.bot or "heuristic" for side in game.scenario.sides])
        for k in range(400):
            if game.over:
                break
            if k % 7 == 0:
                asked += _check_every_model(game)
            bot = bots[game.state.active_player]
            assert bot is not None
            game.apply(bot.choose(game))
    assert asked > 100


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 48), st.floats(0, 48)), min_size=1, max_size=12), st.integers(0, 1))
def test_r_t1_free_spot_equals_the_point_by_point_search_on_crowded_zones(
    spots: list[tuple[float, float]], player: int
) -> None:
    """Bases dropped anywhere (crowding the zone, overlapping it, or none near) on open_battle."""
    game = _game("open_battle", 1)
    s = game.state
    xy = s.xy.copy()
    for k, (x, y) in enumerate(spots[: len(s.models)]):
        xy[k] = (x, y)
    s.xy = np.asarray(xy)
    game.moved()
    for m in s.models:
        if m.player == player:
            assert free_spot(game, m) == _reference(game, m)
