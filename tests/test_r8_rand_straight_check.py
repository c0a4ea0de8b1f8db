"""The whole-path check of a straight move without an obstacle set (R-M2, R-M3, R-C3, R-B4):
`check._straight_clear` works each base's row out in its own loop instead of asking
`Mover.obstacles`, so `_legal_short` must answer what it answered through the set
(`_legal_short_with_set`) for every two-point path: on random tables with bases at a segment's
clearance and a hair either side of it, enemies touching the start, charge targets, flyers and
the out-of-play, and at every check of bot games on the shipped scenarios."""

from __future__ import annotations

import numpy as np
import pytest
from helpers_engine import play_bot_games
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.measure import CONTACT, OVERLAP_TOL
from skirmish.battlefield.paths import Mover
from skirmish.battlefield.paths import check as check_mod
from skirmish.battlefield.paths.check import _check_path_reference, _legal_short, _legal_short_with_set
from skirmish.battlefield.sample import random_table, scatter_bases
from skirmish.engine.steps import movement


def _same(mover: Mover, path: np.ndarray, budget: float, target: int | None) -> bool:
    """The straight form's answer is the set form's, and never legal where the reference is not."""
    fast = _legal_short(mover, path, budget, target)
    assert fast == _legal_short_with_set(mover, path, budget, target)
    if fast:
        assert _check_path_reference(mover, path, max_length=budget, contact_target=target) is None
    return fast


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_m2_r_m3_a_straight_move_is_judged_as_through_the_obstacle_set(seed: int) -> None:
    rng = np.random.default_rng(seed)
    table = random_table(rng, pieces=int(rng.integers(0, 10)))
    n = 9
    radii = rng.choice([0.5, 0.8, 1.0], n)
    xy = scatter_bases(table, rng, radii)
    enemy = rng.random(n) < 0.5
    enemy[0] = False
    ignore = rng.random(n) < 0.15 if rng.random() < 0.4 else None
    if ignore is not None:
        ignore[0] = False
    start = xy[0].copy()
    end = start + rng.normal(size=2) * float(rng.choice([0.5, 2.0, 6.0]))
    # Put some bases at the segment's clearance (the row's limit), and a hair inside or outside.
    d = end - start
    length = float(np.hypot(*d))
    unit = d / length if length > 1e-9 else np.array([1.0, 0.0])
    normal = np.array([-unit[1], unit[0]])
    for k in range(1, n):
        if rng.random() < 0.35:
            grow = CONTACT + 1e-7 if enemy[k] else 0.0
            lim = radii[k] + radii[0] + grow - OVERLAP_TOL
            along = float(rng.uniform(-0.2, 1.2)) * length
            off = lim + float(rng.choice([0.0, 1e-12, -1e-12, 1e-9, -1e-9]))
            xy[k] = start + unit * along + normal * off * float(rng.choice([-1.0, 1.0]))
    # An enemy touching the start (it may be moved away from), and an end in contact with one.
    foes = np.flatnonzero(enemy)
    if len(foes) and rng.random() < 0.3:
        f = int(rng.choice(foes))
        xy[f] = start + normal * (radii[0] + radii[f] + float(rng.choice([0.0, CONTACT, CONTACT + 1e-9])))
    target = None
    if len(foes) and rng.random() < 0.4:
        f = int(rng.choice(foes))
        away = end - xy[f]
        norm = float(np.hypot(*away))
        u = away / norm if norm > 1e-9 else np.array([1.0, 0.0])
        end = xy[f] + u * (radii[0] + radii[f] + float(rng.choice([0.0, CONTACT, CONTACT * 1.5, 0.3])))
        if rng.random() < 0.6:
            target = f
    mover = Mover(
        table,
        0,
        xy,
        radii,
        enemy if rng.random() < 0.9 else None,
        flying=bool(rng.random() < 0.2),
        ignore=ignore,
    )
    path = np.array([start, end])
    budget = float(rng.choice([float(np.hypot(*(end - start))), 6.0, 12.0]))
    _same(mover, path, budget, target)


@pytest.mark.usefixtures("own_tables")  # fresh searches counted: none answered by earlier tests' memos
@pytest.mark.parametrize(
    "scenario", ["open_battle", "siege_of_ba_sing_se", "four_kingdoms_melee", "the_pursuit"]
)
def test_r_m2_every_straight_check_of_bot_games_is_the_set_forms(
    scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every path the engine checks in a random and a heuristic game (the real tables and
    positions, with the game's own obstacle memo): the two forms agree on each."""

    seen = {"straight": 0, "legal": 0}
    real = check_mod._legal_short

    def both(mover: Mover, path: np.ndarray, max_length: float, contact_target: int | None) -> bool:
        fast = real(mover, path, max_length, contact_target)
        assert fast == _legal_short_with_set(mover, path, max_length, contact_target)
        seen["straight"] += np.asarray(path).shape == (2, 2)
        seen["legal"] += fast
        return fast

    monkeypatch.setattr(check_mod, "_legal_short", both)
    # Every applied Move is checked again, as before round 9 (`movement.listed_here` lets a listed
    # one skip `check_path`): those checks are most of the paths this test watches.
    monkeypatch.setattr(movement, "listed_here", lambda *args: False)
    play_bot_games(scenario, ((3, "random"), (4, "heuristic")))
    assert seen["straight"] > 10 and seen["legal"] > 10
