"""`moving.beside` in plain floats and `goals_among`'s memo keyed on the foes' mask (round 9):
the same goals, bit for bit, as the 2-vector formulas and the memo keyed on the foes' indices."""

from __future__ import annotations

import numpy as np
import pytest
from helpers_engine import new_game

from skirmish.bots.runner import seat_bots
from skirmish.engine.effects import moving
from skirmish.engine.game import Game

pytestmark = pytest.mark.usefixtures("own_tables")


def _beside_reference(game: Game, m: object, f: object, gap: float = 0.3) -> np.ndarray:
    """The round-8 formula on numpy 2-vectors."""
    s = game.state
    d = s.xy[m.index] - s.xy[f.index]  # type: ignore[attr-defined]
    n = float(np.hypot(*d))
    unit = d / n if n > 1e-9 else np.array([0.0, -1.0])
    out: np.ndarray = s.xy[f.index] + unit * (s.radii[m.index] + s.radii[f.index] + gap)  # type: ignore[attr-defined]
    return out


def _goals_reference(game: Game, m: object, foes: np.ndarray) -> list[np.ndarray]:
    """`goals_among` without its memo, with the reference `beside`."""
    s = game.state
    here = s.xy[m.index]  # type: ignore[attr-defined]
    idx = np.flatnonzero(foes)
    goals = []
    if len(idx):
        d = s.xy[idx] - here
        goals.append(
            _beside_reference(game, m, s.models[int(idx[int(np.argmin(np.hypot(d[:, 0], d[:, 1])))])])
        )
    covers = moving.cover_points(game)
    if covers:
        d = game.memo["cover_points"][2] - here
        goals.append(covers[int(np.argmin(np.hypot(d[:, 0], d[:, 1])))])
    return goals


def test_r9_skip_beside_plain_floats_equal_the_vector_formula() -> None:
    game = new_game("open_battle", seed=3)
    s = game.state
    m, f = s.models[0], s.models[-1]
    rng = np.random.default_rng(9)
    cases = []
    for _ in range(3000):
        cases.append((rng.uniform(-5, 60, 2), rng.uniform(-5, 60, 2)))
    base = np.array([12.5, 7.25])
    for off in (0.0, 1e-9, np.nextafter(1e-9, 0), np.nextafter(1e-9, 1), 1e-12, 3e-9, 1e-300):
        cases.append((base + [off, 0.0], base.copy()))
        cases.append((base + [0.0, -off], base.copy()))
        cases.append((base + [off * 0.6, off * 0.8], base.copy()))
    for k, (a, b) in enumerate(cases):
        s.xy[m.index], s.xy[f.index] = a, b
        # Radii with long mantissas too, so that a reordered sum would show.
        s.radii[m.index], s.radii[f.index] = (0.5, 0.75) if k % 2 else rng.uniform(0.1, 1.6, 2)
        for gap in (0.3, 0.0, 1.7):
            got = moving.beside(game, m, f, gap)
            want = _beside_reference(game, m, f, gap)
            assert got.tobytes() == want.tobytes(), (a.tolist(), b.tolist(), gap)


def test_r9_skip_goals_among_equals_the_reference_along_a_game() -> None:
    """At each of a random game's first 150 actions, for every model in play, with its real foes
    and with a random subset of them (the memo must tell the masks apart at the same positions)."""
    game = new_game("open_battle", seed=4)
    bots = seat_bots(game, ["random", "random"])
    rng = np.random.default_rng(4)
    checked = 0
    for _ in range(150):
        if game.over:
            break
        gone = game.gone_mask()
        for m in game.state.models:
            if not m.active:
                continue
            real = game.enemy_mask(m) & ~gone
            for foes in (real, real & (rng.random(len(real)) < 0.5), np.zeros_like(real)):
                got = moving.goals_among(game, m, foes)
                want = _goals_reference(game, m, foes)
                assert [g.tobytes() for g in got] == [w.tobytes() for w in want]
                checked += 1
        game.apply(bots[game.state.active_player].choose(game))  # type: ignore[union-attr]
    assert checked > 1000
