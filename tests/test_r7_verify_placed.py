"""The geometry tables refreshed from `placed` (one model's move named by `effects.moving.place`
and pushes): after every kind of change a game makes — moves, charges, advances, pushes, KOs,
removals, glides, walls, refusals and undos — the distances, melee contact, cover and height the
game answers are those worked out from scratch (R-C6, R-P5, R-B2), bit for bit, whether the
tables are asked after every action or only now and then (several models placed in between)."""

from __future__ import annotations

import numpy as np
import pytest

from skirmish.battlefield.measure import CONTACT, edge_distances
from skirmish.bots.runner import seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.core.actions import Move
from skirmish.engine.game import Game


def _bits(rows: list[list[float]]) -> list[list[str]]:
    return [[float(d).hex() for d in row] for row in rows]


def _check(game: Game) -> None:
    """Every table the game answers from equals its from-scratch value."""
    s = game.state
    models = s.models
    want = edge_distances(s.xy, s.radii).tolist()
    assert _bits([[game.distance(a, b) for b in models] for a in models]) == _bits(want)
    assert np.array_equal(game.distances(), np.array(want))
    act = [m.active for m in models]
    foes = [[game.enemies(a, b) for b in models] for a in models]
    melee = [
        [want[i][j] <= CONTACT and foes[i][j] and act[i] and act[j] for j in range(len(models))]
        for i in range(len(models))
    ]
    assert [game.in_melee(m) for m in models] == [a and any(row) for a, row in zip(act, melee, strict=True)]
    assert [[o.index for o in game.melee_enemies(m)] for m in models] == [
        [j for j, t in enumerate(row) if t] if a else [] for a, row in zip(act, melee, strict=True)
    ]
    assert np.array_equal(game.gone_mask(), [not a for a in act])
    facts = game.table.facts_of(s.xy)
    assert [game.cover(m) for m in models] == [
        0 if m.profile.flying or m.glide else r for m, (r, _, _) in zip(models, facts, strict=True)
    ]
    assert [game.height(m) for m in models] == [h for _, _, h in facts]
    pieces = [game.cover_piece(m) for m in models]
    assert pieces == [
        None if c < 0 or game.cover(m) == 0 else game.table.pieces[c].name
        for m, (_, c, _) in zip(models, facts, strict=True)
    ]


@pytest.mark.parametrize("every", [1, 5])
@pytest.mark.parametrize(
    "scenario", ["open_battle", "siege_of_ba_sing_se", "four_kingdoms_melee", "the_pursuit"]
)
def test_r_c6_tables_after_placed_equal_the_fresh_ones(scenario: str, every: int) -> None:
    sc = find_scenario(scenario)
    troupes = [find_troupe(side.troupe) for side in sc.sides]
    for seed, pol in ((3, "heuristic"), (4, "random")):
        pols = [pol] * len(sc.sides)
        game = Game(sc, troupes, seed=seed, bots=pols, record_log=False, transactional=seed == 3)
        bots = seat_bots(game, pols)
        steps = 0
        while not game.over and steps < 250:
            if steps % every == 0:
                _check(game)
            bot = bots[game.state.active_player]
            assert bot is not None
            action = bot.choose(game)
            if steps % 11 == 5:  # a refusal's snapshot and restore in between
                mover = next((m for m in game.state.models if m.player == game.state.active_player), None)
                if mover is not None:
                    game.refusal(Move(mover.id, [[-5.0, -5.0], [-6.0, -6.0]]))
            game.apply(action)
            if game.transactional and steps % 7 == 3 and game.can_undo:
                game.undo()
                if steps % 2:
                    _check(game)
                game.apply(action)
            steps += 1
        _check(game)


def test_r_c6_placed_runs_and_plain_moves() -> None:
    """`placed` lists the models placed since a version only while every change came through it."""
    sc = find_scenario("open_battle")
    game = Game(sc, [find_troupe(side.troupe) for side in sc.sides], seed=1, record_log=False)
    game.moved()
    v = game._version
    assert game._placed_since(v) is None  # no run yet: a refresh compares everything
    game.placed(3)
    assert game._placed_since(v) == [3]
    game.placed(1)
    game.placed(3)
    assert game._placed_since(v) == [1, 3]
    assert game._placed_since(v + 2) == [3]
    assert game._placed_since(v - 1) is None
    game.moved()
    assert game._placed_since(v) is None
    game.placed(2)
    assert game._placed_since(v) is None
    assert game._placed_since(game._version - 1) == [2]


def test_r_c6_a_model_placed_alone_and_others_moved_by_hand() -> None:
    """Positions written by hand and announced with `moved()` are compared as before."""
    sc = find_scenario("open_battle")
    game = Game(sc, [find_troupe(side.troupe) for side in sc.sides], seed=2, record_log=False)
    models = game.state.models
    _check(game)
    game.state.xy[0] = game.state.xy[5] + [0.0, game.state.radii[0] + game.state.radii[5]]
    game.placed(0)
    _check(game)
    game.state.xy[1] = game.state.xy[0] + [game.state.radii[0] + game.state.radii[1], 0.0]
    game.state.xy[2] = game.state.xy[6] + [0.1, 2.0]
    game.moved()
    _check(game)
    models[5].ko = True
    game.moved()
    _check(game)
    for k in (0, 1, 0, 7):
        game.state.xy[k] += [0.25, -0.5]
        game.placed(k)
    _check(game)
    game.placed(4)  # placed where it stood
    _check(game)


def test_r_p5_leaving_one_foe_of_two_keeps_the_melee() -> None:
    """A model in contact with two enemies stays in melee when one of them is placed away, and
    leaves it when the other is (R-P5): each row's answer is its whole row's, not the last entry's."""
    sc = find_scenario("open_battle")
    game = Game(sc, [find_troupe(side.troupe) for side in sc.sides], seed=2, record_log=False)
    s = game.state
    models, xy, r = s.models, s.xy, s.radii
    xy[0] = (20.0, 20.0)
    xy[5] = (20.0 + r[0] + r[5], 20.0)
    xy[6] = (20.0 - r[0] - r[6], 20.0)
    game.moved()
    _check(game)
    assert game.in_melee(models[0])
    xy[5] = (40.0, 30.0)
    game.placed(5)
    _check(game)
    assert game.in_melee(models[0]) and game.in_melee(models[6]) and not game.in_melee(models[5])
    xy[6] = (5.0, 30.0)
    game.placed(6)
    _check(game)
    assert not game.in_melee(models[0])
    xy[5] = (20.0 + r[0] + r[5], 20.0)
    game.placed(5)
    _check(game)
    assert game.in_melee(models[0]) and game.in_melee(models[5])
