"""The Earth Wall's plain-float shortcuts (R-P4) give exactly the answers they replace: where a bot's
wall rises (`_wall_point`, once built from 2-vectors) and which base it would land on (`_lands_on`,
which leaves to shapely only a base within `CLEAR_MARGIN` of its radius), on real tables and on
bases set at their radius's very edge, where the shortcut and shapely could part."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.bots.runner import seat_bots
from skirmish.data.armoury import Ability
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.data.loader import standard_armoury
from skirmish.engine.core.state import ModelState
from skirmish.engine.effects.abilities import wall
from skirmish.engine.effects.abilities.registry import ability_range
from skirmish.engine.game import Game


def _point_by_vectors(game: Game, m: ModelState, a: Ability) -> tuple[float, float] | None:
    """The wall's point as it was worked out with numpy 2-vectors (the reference)."""
    s = game.state
    foes = [t for t in s.models if t.active and game.enemies(m, t)]
    if not foes:
        return None
    here = s.xy[m.index]
    t = min(foes, key=lambda f: float(np.hypot(*(s.xy[f.index] - here))))
    d = s.xy[t.index] - here
    n = float(np.hypot(*d))
    if n < 1e-9:
        return None
    reach = min(ability_range(a, 6.0), max(1.5, n / 2))
    p = here + d / n * reach
    return (float(p[0]), float(p[1]))


def _lands_by_shapely(game: Game, m: ModelState, a: Ability, at: tuple[float, float]) -> ModelState | None:
    """The first base on the table the piece lands on, as shapely alone answers it (the reference)."""
    s = game.state
    poly = shapely.Polygon(wall._wall_corners(game, m, a, at))
    dist = np.asarray(shapely.distance(poly, shapely.points(s.xy)))
    return next((o for o in s.models if o.on_table and dist[o.index] < s.radii[o.index]), None)


def _earth_wall() -> Ability:
    return standard_armoury().ability_by_name()["earth_wall"]


def _played(name: str, seed: int, actions: int) -> Game:
    """A game of `name` played `actions` actions in by the heuristic bots (bases scattered, some KO'd)."""
    sc = find_scenario(name)
    game = Game(sc, [find_troupe(side.troupe) for side in sc.sides], seed=seed, record_log=False)
    bots = seat_bots(game, ["heuristic"] * len(sc.sides))
    for _ in range(actions):
        if game.over:
            break
        bot = bots[game.state.active_player]
        assert bot is not None
        game.apply(bot.choose(game))
    return game


@functools.cache
def _mid_game(seed: int) -> Game:
    return _played("four_kingdoms_melee", seed, 60 + 15 * seed)


def _frame_distance(game: Game, m: ModelState, a: Ability, at: tuple[float, float], o: ModelState) -> float:
    """The distance from `o`'s centre to the unrounded wall raised by `m` at `at`."""
    length, width = float(a.params.get("length", 4)), float(a.params.get("width", 1))
    x, y = game.state.xy[m.index].tolist()
    angle = math.atan2(at[1] - y, at[0] - x) + math.pi / 2
    ux, uy = math.cos(angle), math.sin(angle)
    qx, qy = game.state.xy[o.index, 0] - at[0], game.state.xy[o.index, 1] - at[1]
    ex = max(abs(qx * ux + qy * uy) - length / 2, 0.0)
    ey = max(abs(qy * ux - qx * uy) - width / 2, 0.0)
    return math.hypot(ex, ey)


@pytest.mark.parametrize("name", ["four_kingdoms_melee", "siege_of_ba_sing_se", "escort_the_avatar"])
def test_r_p4_wall_shortcuts_agree_with_their_references_through_real_games(name: str) -> None:
    """At every action of two real games, every model's wall point equals the vector reference, and
    walls raised at scattered points around each model land on the base shapely says."""
    a = _earth_wall()
    rng = np.random.default_rng(7)
    checked = 0
    for seed in (1, 2):
        sc = find_scenario(name)
        game = Game(sc, [find_troupe(side.troupe) for side in sc.sides], seed=seed, record_log=False)
        bots = seat_bots(game, ["heuristic"] * len(sc.sides))
        while not game.over:
            for m in game.state.models:
                assert wall._wall_point(game, m, a) == _point_by_vectors(game, m, a)
                x, y = game.state.xy[m.index].tolist()
                for dx, dy in rng.uniform(-6, 6, (2, 2)).tolist():
                    at = (x + dx, y + dy)
                    corners = wall._wall_corners(game, m, a, at)
                    assert wall._lands_on(game, m, a, at, corners) is _lands_by_shapely(game, m, a, at)
                    checked += 1
            bot = bots[game.state.active_player]
            assert bot is not None
            game.apply(bot.choose(game))
    assert checked > 1000


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 3),
    st.integers(0, 60),
    st.integers(0, 60),
    st.floats(-3e-5, 3e-5),
    st.floats(-2.0, 2.0),
    st.floats(-2.0, 2.0),
)
def test_r_p4_wall_landing_shortcut_is_shapely_at_a_base_radius_edge(
    seed: int, who: int, near: int, delta: float, dx: float, dy: float
) -> None:
    """A base whose radius is set within 3e-5 inch of its distance from the wall: on either side of
    the margin the shortcut decides, inside it shapely does, and the answer is always shapely's."""
    game = _mid_game(seed)
    a = _earth_wall()
    models = game.state.models
    m, o = models[who % len(models)], models[near % len(models)]
    if o is m or not o.on_table:
        return
    ox, oy = game.state.xy[o.index].tolist()
    at = (ox + dx, oy + dy)
    x, y = game.state.xy[m.index].tolist()
    if math.hypot(at[0] - x, at[1] - y) < 1e-3:
        return
    e = _frame_distance(game, m, a, at, o)
    if e + delta <= 0:
        return
    kept = game.state.radii
    radii = kept.copy()
    radii[o.index] = e + delta
    game.state.radii = radii
    try:
        corners = wall._wall_corners(game, m, a, at)
        assert wall._lands_on(game, m, a, at, corners) is _lands_by_shapely(game, m, a, at)
    finally:
        game.state.radii = kept
