"""The engine's shortcuts must give exactly (bit for bit) the answers computed from scratch: the
sight pairs it keeps by position and the box test that settles most pairs without a line search
(R-B3), the distances and cover it re-measures only for the models that moved (R-C6, R-B2), and
the plain-float length of a straight candidate move (R-M2)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.measure import edge_distances, path_length
from skirmish.battlefield.sample import random_table, scatter_bases
from skirmish.battlefield.sight import sight_pairs, sight_table
from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.effects.senses import sense_range
from skirmish.engine.game import Game
from skirmish.engine.sight_pairs import open_centre_line, sight_boxes
from skirmish.engine.steps.movement import segment_length


def _reference(game: Game) -> np.ndarray:
    """Who sees whom computed from scratch: the sight table of the bases on the table, then
    Seismic Sense (the sensing model sees every model within its range)."""
    models = game.state.models
    on = np.array([m.on_table for m in models])
    vis = np.zeros((len(models), len(models)), dtype=bool)
    sub = sight_table(
        game.table, game.state.xy[on], game.state.radii[on], block_bases=game.options.models_block_sight
    )
    vis[np.ix_(on, on)] = sub
    dist = game.distances()
    for m in models:
        rng = sense_range(game, m)
        if rng > 0:
            vis[m.index] |= dist[m.index] <= rng
    return vis


@pytest.mark.parametrize(
    ("scenario", "block"),
    [("open_battle", False), ("open_battle", True), ("siege_of_ba_sing_se", False), ("the_pursuit", False)],
)
def test_r_b3_r_c6_sight_and_distances_match_a_fresh_computation(scenario: str, block: bool) -> None:
    sc = find_scenario(scenario)
    troupes = [find_troupe(side.troupe) for side in sc.sides]
    options = sc.options.model_copy(update={"models_block_sight": block})
    pols = ["random"] * len(sc.sides)
    game = Game(sc, troupes, seed=3, options=options, bots=pols, record_log=False)
    bots = seat_bots(game, pols)
    models = game.state.models
    checked = 0
    while not game.over and checked < 60:
        want = _reference(game)
        # Ask pair by pair first (the lazy path), in an order that mixes rows, then the whole table.
        got = np.array([[game.sees(a, b) for b in reversed(models)] for a in models])[:, ::-1]
        assert (got == want).all(), f"turn {game.state.turn} {game.state.step}"
        assert (game.sight() == want).all()
        assert game.sees_any([(a, b) for a in models for b in models if a is not b]) == bool(
            (want & ~np.eye(len(models), dtype=bool)).any()
        )
        xy = game.state.xy
        assert np.array_equal(game.distances(), edge_distances(xy, game.state.radii))
        rank, _ = game.table.cover_of(xy)
        heights = game.table.height_of(xy)
        for m in models:
            assert game.cover(m) == (0 if m.profile.flying or m.glide else int(rank[m.index]))
            assert game.height(m) == float(heights[m.index])
        bot = bots[game.state.active_player]
        assert bot is not None
        game.apply(bot.choose(game))
        checked += 1


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_r_b3_a_centre_line_clear_by_boxes_is_a_line_of_sight(seed: int) -> None:
    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=10)
    radii = rng.choice([0.5, 0.8, 1.2], 12)
    xy = scatter_bases(t, rng, radii)
    i, j = np.triu_indices(len(xy), 1)
    boxes = sight_boxes(t)
    clear = np.array([open_centre_line(boxes, *xy[a], *xy[b]) for a, b in zip(i, j, strict=True)])
    assert sight_pairs(t, xy, radii, i[clear], j[clear]).all()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-100, 100, allow_nan=False), min_size=4, max_size=4))
def test_r_m2_a_straight_move_measures_as_path_length_does(c: list[float]) -> None:
    pts = [[c[0], c[1]], [c[2], c[3]]]
    assert segment_length(pts) == path_length(np.array(pts))


def _wall_problem_by_shapely(game: Game, m, a, at):  # type: ignore[no-untyped-def]
    """The landing test as shapely alone answers it (the reference for the plain-float shortcut)."""
    import shapely

    from skirmish.engine.effects.abilities.wall import _wall_corners

    s = game.state
    poly = shapely.Polygon(_wall_corners(game, m, a, at))
    minx, miny, maxx, maxy = poly.bounds
    if minx < 0 or miny < 0 or maxx > game.scenario.board.width or maxy > game.scenario.board.height:
        return "the wall must stand on the table"
    dist = np.asarray(shapely.distance(poly, shapely.points(s.xy)))
    for o in s.models:
        if o.on_table and dist[o.index] < s.radii[o.index]:
            return f"the wall would land on {o.name}"
    return None


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 9), st.floats(-7, 7), st.floats(-7, 7))
def test_r_p4_earth_wall_landing_shortcut_agrees_with_shapely(who: int, dx: float, dy: float) -> None:
    from skirmish.data.loader import standard_armoury
    from skirmish.engine.effects.abilities.wall import _wall_problem

    sc = find_scenario("open_battle")
    game = Game(sc, [find_troupe(side.troupe) for side in sc.sides], seed=1, record_log=False)
    wall = standard_armoury().ability_by_name()["earth_wall"]
    m = game.state.models[who % len(game.state.models)]
    x, y = game.state.xy[m.index].tolist()
    # near bases (landing on one), far from all, and off the table's edge all come up
    at = (x + dx, y + dy)
    problem = _wall_problem(game, m, wall, at)
    if problem is not None and "within" in problem:
        return  # out of range: refused before the landing test, by the same code
    assert problem == _wall_problem_by_shapely(game, m, wall, at)
