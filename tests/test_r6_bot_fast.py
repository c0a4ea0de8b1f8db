"""Round 6's cheaper answers of the heuristic bot are the answers they replace, bit for bit.

- `zones.holders_of` (the zones' order and centres worked out once) gives `zones.holders`' spots,
  at random tables with ties in toughness and distance;
- `zones.scoring_zone` (kept per process by the zone's data) is `make_zone` of a fresh polygon;
- `zones.contains_xy` (shapely's point test without its wrappers) answers as `shapely.contains_xy`;
- `Score.base_total` (a plain loop) is the characteristic plus the sum of the modifiers;
- the position scores' cover bonus read from a table by rank is the `np.where` choice it replaces;
- the bot's best range, kept across decisions on the engine's shot list and the model's AP, is
  the range worked out afresh at every decision of real games.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.bots import heuristic
from skirmish.bots.heuristic import HeuristicBot
from skirmish.bots.runner import seat_bots
from skirmish.bots.zones import contains_xy as zone_contains
from skirmish.bots.zones import holders, holders_of, holding_of, make_zone, scoring_zone
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.game import Game
from skirmish.rules.modifiers import Modifier, Score

_coord = st.floats(min_value=-5.0, max_value=60.0, allow_nan=False)


def _square(x: float, y: float, side: float) -> tuple[tuple[float, float], ...]:
    return ((x, y), (x + side, y), (x + side, y + side), (x, y + side))


@settings(max_examples=300, deadline=None)
@given(
    pts=st.lists(st.tuples(_coord, _coord), min_size=1, max_size=10),
    hps=st.lists(st.integers(min_value=1, max_value=4), min_size=10, max_size=10),
    zones=st.lists(
        st.tuples(st.integers(min_value=0, max_value=3), _coord, _coord, st.sampled_from([3.0, 6.0])),
        min_size=0,
        max_size=4,
    ),
    dup=st.booleans(),
)
def test_holders_of_gives_the_reference_holders(
    pts: list[tuple[float, float]],
    hps: list[int],
    zones: list[tuple[int, float, float, float]],
    dup: bool,
) -> None:
    """The same model -> spot map, in the same order, as `holders` (ties in toughness broken by the
    distance, then the index; models standing on one point tie in distance too)."""
    if dup and len(pts) > 1:
        pts = [pts[0], *pts[:-1]]  # two models on one point
    xy = np.array(pts, dtype=float)
    # indices out of order, as a player's models in a game with other players' models between
    mine = [SimpleNamespace(id=f"m{k}", index=3 * k + 1) for k in range(len(pts))]
    tough = {x.id: float(hps[k] * 2) for k, x in enumerate(mine)}
    made = [scoring_zone(f"z{k % 2}{k}", p, _square(x, y, s)) for k, (p, x, y, s) in enumerate(zones)]
    want = holders(made, mine, tough, xy)  # type: ignore[arg-type]
    got = holders_of(holding_of(made), mine, tough, xy.tolist())  # type: ignore[arg-type]
    assert list(got) == list(want)
    for key, spot in want.items():
        assert got[key].tobytes() == spot.tobytes()


def test_scoring_zone_is_make_zone_of_a_fresh_polygon() -> None:
    corners = ((10.0, 10.0), (16.0, 10.0), (16.0, 16.0), (10.0, 16.0))
    fresh = make_zone("centre", 2, shapely.Polygon(corners))
    kept = scoring_zone("centre", 2, corners)
    assert kept is scoring_zone("centre", 2, corners)
    assert (kept.name, kept.points) == (fresh.name, fresh.points)
    assert kept.poly.equals_exact(fresh.poly, 0)
    assert kept.centre.tobytes() == fresh.centre.tobytes()
    assert [s.tobytes() for s in kept.spots] == [s.tobytes() for s in fresh.spots]


@settings(max_examples=300, deadline=None)
@given(
    stat=st.integers(min_value=-5, max_value=12),
    values=st.lists(st.integers(min_value=-6, max_value=6), max_size=8),
)
def test_r_c1_base_total_is_stat_plus_the_modifiers(stat: int, values: list[int]) -> None:
    score = Score("Ranged", stat, tuple(Modifier(f"m{k}", v) for k, v in enumerate(values)))
    assert score.base_total == stat + sum(values)
    assert type(score.base_total) is int
    assert score.with_die(4).total == stat + sum(values) + 4


@settings(max_examples=200, deadline=None)
@given(ranks=st.lists(st.integers(min_value=0, max_value=3), min_size=1, max_size=20))
def test_position_cover_bonus_by_table_is_the_where_choice(ranks: list[int]) -> None:
    rank = np.array(ranks, dtype=np.int8)
    near = np.linspace(0.0, 8.0, len(ranks))
    base = -np.abs(near - 4.0) * 0.4
    as_float = rank.astype(float)
    want = base + np.where(as_float >= 2, 2.5, np.where(as_float == 1, 1.0, 0.0))
    want -= np.where(near < 3.0, 1.0, 0.0)
    got = base + heuristic._SHOOTER_COVER[rank]
    got -= near < 3.0
    assert got.tobytes() == want.tobytes()
    fighter = base + np.where(as_float >= 2, 1.0, 0.0)
    assert (base + heuristic._FIGHTER_COVER[rank]).tobytes() == fighter.tobytes()


@pytest.mark.parametrize("scenario", ["open_battle", "four_kingdoms_melee", "the_pursuit"])
def test_best_range_kept_across_decisions_is_the_fresh_range(scenario: str) -> None:
    """At every decision of two games (AP spent, turns passing, models KO'd), every model's kept best
    range equals `_best_range_now` worked out from nothing."""
    sc = find_scenario(scenario)
    troupes = [find_troupe(s.troupe) for s in sc.sides if s.troupe is not None]
    pols: list[str | None] = [s.bot or "heuristic" for s in sc.sides]
    checked = 0
    for seed in (3, 8):
        game = Game(sc, troupes, seed=seed, bots=pols, record_log=False)
        bots = seat_bots(game, pols)
        keeper = HeuristicBot(seed, 0)
        while not game.over and game.state.turn <= 4:
            for m in game.state.models:
                assert keeper._best_range(game, m) == HeuristicBot._best_range_now(game, m)
                checked += 1
            bot = bots[game.state.active_player]
            assert bot is not None
            game.apply(bot.choose(game))
    assert checked > 300


@settings(max_examples=200, deadline=None)
@given(
    corners=st.lists(st.tuples(_coord, _coord), min_size=3, max_size=8),
    pts=st.lists(st.tuples(_coord, _coord), min_size=1, max_size=12),
)
def test_zone_contains_xy_is_shapelys(
    corners: list[tuple[float, float]], pts: list[tuple[float, float]]
) -> None:
    """The zones' point test without shapely's wrappers answers as `shapely.contains_xy`, for points
    in, out, on a corner and on an edge's midpoint (boundary points are not contained)."""
    poly = shapely.Polygon(corners)
    if not poly.is_valid or poly.area <= 0:
        return
    zone = make_zone("z", 1, shapely.Polygon(corners))
    (ax, ay), (bx, by) = corners[0], corners[1]
    xy = np.array([*pts, corners[0], ((ax + bx) / 2, (ay + by) / 2)], dtype=float)
    want = shapely.contains_xy(shapely.Polygon(corners), xy[:, 0], xy[:, 1])
    assert (zone_contains(zone.poly, xy[:, 0], xy[:, 1]) == want).all()
    for (x, y), w in zip(xy, want, strict=True):
        assert bool(zone_contains(zone.poly, x, y)) == bool(w)
