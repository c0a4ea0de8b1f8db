"""The whole-path check's plain-float recognition of short legal paths (R-M2, R-M3, R-C3, R-B4):
`_legal_short` says True only where the numpy reference (`_check_path_reference`) finds no
problem, and for every short path the reference passes — so `check_path` answers what the
reference answers. Held on random tables (paths through and beside bases and impassable pieces,
off the table, too long, ending in or short of enemy contact, charges, flyers, out-of-play bases)
and on every path the engine checks through bot games of every shipped scenario."""

from __future__ import annotations

import numpy as np
import pytest
from helpers_engine import play_bot_games, random_mover
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.measure import CONTACT
from skirmish.battlefield.paths import Mover
from skirmish.battlefield.paths import check as check_mod
from skirmish.battlefield.paths.check import SHORT_PATH, _check_path_reference, _legal_short, check_path
from skirmish.engine.steps import movement


def _agree(mover: Mover, path: np.ndarray, budget: float, target: int | None) -> bool:
    want = _check_path_reference(mover, path, max_length=budget, contact_target=target)
    fast = _legal_short(mover, path, budget, target)
    if fast:
        assert want is None
    if want is None and 2 <= len(path) <= SHORT_PATH:
        assert fast
    assert check_path(mover, path, max_length=budget, contact_target=target) == want
    return want is None


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_m2_short_paths_are_judged_as_the_reference_judges_them(seed: int) -> None:
    rng = np.random.default_rng(seed)
    mover = random_mover(rng, with_ignore=True)
    xy, radii, enemy = mover.xy, mover.radii, mover.enemy
    long = rng.random() < 0.3  # a path with arcs: many short steps (and one past the limit)
    k = int(rng.integers(9, SHORT_PATH + 2)) if long else int(rng.integers(1, 10))
    steps = rng.normal(size=(k - 1, 2)) * float(rng.choice([0.05, 0.2] if long else [0.3, 1.5, 4.0]))
    path = np.vstack([xy[0], xy[0] + np.cumsum(steps, axis=0)]) if k > 1 else xy[:1].copy()
    target = None
    foes = np.flatnonzero(enemy)
    if len(foes) and rng.random() < 0.5:
        # End beside an enemy: in contact (a charge's end, or an illegal move's), or just short.
        f = int(rng.choice(foes))
        away = path[-1] - xy[f]
        norm = float(np.hypot(*away))
        unit = away / norm if norm > 1e-9 else np.array([1.0, 0.0])
        gap = float(rng.choice([0.0, CONTACT / 2, CONTACT, CONTACT * 1.5, 0.3]))
        path[-1] = xy[f] + unit * (radii[0] + radii[f] + gap)
        if rng.random() < 0.6:
            target = f
    if rng.random() < 0.05:
        path[int(rng.integers(0, len(path)))] = np.nan
    length = float(np.sum(np.hypot(*np.diff(path, axis=0).T))) if len(path) > 1 else 0.0
    budget = (
        float(rng.choice([length, length + 1e-7, length - 1e-3, 6.0, 12.0])) if np.isfinite(length) else 6.0
    )
    _agree(mover, path, budget, target)


@pytest.mark.usefixtures("own_tables")  # fresh searches counted: none answered by earlier tests' memos
@pytest.mark.parametrize(
    "scenario",
    ["open_battle", "siege_of_ba_sing_se", "four_kingdoms_melee", "escort_the_avatar", "the_pursuit"],
)
def test_r_m2_every_path_of_bot_games_is_judged_as_the_reference_judges_it(
    scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every path the engine and the bots check in a heuristic and a random game (the real tables,
    the real positions): the fast answer, where it is given, is the reference's."""

    seen = {"legal": 0, "all": 0}
    real = check_mod._legal_short

    def both(mover: Mover, path: np.ndarray, max_length: float, contact_target: int | None) -> bool:
        fast = real(mover, path, max_length, contact_target)
        want = _check_path_reference(mover, path, max_length=max_length, contact_target=contact_target)
        assert not fast or want is None
        p = np.asarray(path, dtype=float)
        if want is None and p.ndim == 2 and 2 <= len(p) <= SHORT_PATH:
            assert fast
        seen["all"] += 1
        seen["legal"] += want is None
        return fast

    monkeypatch.setattr(check_mod, "_legal_short", both)
    # Every applied Move is checked again, as before round 9 (`movement.listed_here` lets a listed
    # one skip `check_path`): those checks are most of the paths this test watches.
    monkeypatch.setattr(movement, "listed_here", lambda *args: False)
    play_bot_games(scenario, ((1, "heuristic"), (2, "random")))
    assert seen["legal"] > 10
