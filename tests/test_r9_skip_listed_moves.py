"""A Move the listing produced is not checked again when it is applied on exactly the inputs it
was listed for (round 9): these tests hold that skip to what `check_path` would have said.

The skip is sound only if every path the listing lists passes `check_path` on the position it was
listed for, so the first test watches every listing of real bot games (`model_moves` with the
default and with given goals, and the single goal moves `toward` gives the heuristic bot's
queries) and checks each listed path with the mover `do_move` would check it with. The others
apply listed moves after their inputs changed, and hand-made paths, and see them checked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from helpers_engine import advance_to, assert_illegal, new_game, place, play_bot_games

from skirmish.battlefield.paths import check_path
from skirmish.data.catalogue import shipped
from skirmish.engine import queries
from skirmish.engine.core.actions import Move
from skirmish.engine.effects import moving
from skirmish.engine.effects.moving import move_budget, mover_of
from skirmish.engine.steps import movement

pytestmark = pytest.mark.usefixtures("own_tables")


PLAYS = [(1, "random"), (2, "heuristic"), (3, "heuristic")]
SCENARIOS = [p.stem for p in shipped("scenarios")]
"""Every shipped scenario (a new one is swept too)."""


def _checker(seen: set[tuple[object, ...]], counts: dict[str, int]) -> Callable[[Any, Any, Any], None]:
    def check(game: Any, m: Any, path: Any) -> None:
        if path is None or len(path) < 2:
            return
        pts = np.asarray(path, dtype=float)
        mover = mover_of(game, m)
        key = (mover.table, mover.xy.tobytes(), m.index, pts.tobytes(), move_budget(game, m))
        if key in seen:
            return
        seen.add(key)
        counts["paths"] += 1
        problem = check_path(mover, pts, max_length=move_budget(game, m))
        assert problem is None, f"listed path {pts.tolist()} refused: {problem}"

    return check


@pytest.mark.parametrize("scenario_name", SCENARIOS)
def test_r9_skip_every_listed_move_passes_check_path(
    monkeypatch: pytest.MonkeyPatch, scenario_name: str
) -> None:
    seen: set[tuple[object, ...]] = set()
    counts = {"paths": 0}
    check = _checker(seen, counts)
    listing, toward = movement.model_moves, movement.toward

    def model_moves(game: Any, m: Any, goals: Any = None) -> list[Move]:
        out = listing(game, m, goals)
        for mv in out:
            check(game, m, mv.path)
        return out

    def toward_checked(
        game: Any, m: Any, goal: Any, budget: float, enemy: Any, gone: Any, search: bool = True
    ) -> Any:
        path = toward(game, m, goal, budget, enemy, gone, search)
        check(game, m, path)
        return path

    monkeypatch.setattr(movement, "model_moves", model_moves)
    monkeypatch.setattr(queries, "move_options", model_moves)
    monkeypatch.setattr(movement, "toward", toward_checked)
    play_bot_games(scenario_name, PLAYS)
    assert counts["paths"] > 100


def _counting(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Count `check_path` calls made by a Move's check (`validate_path` asks it by this name)."""
    calls = {"n": 0}
    real = moving.check_path

    def counted(*args: Any, **kw: Any) -> Any:
        calls["n"] += 1
        return real(*args, **kw)

    monkeypatch.setattr(moving, "check_path", counted)
    return calls


def _at_movement(seed: int = 1) -> Any:
    game = new_game("open_battle", seed=seed)
    advance_to(game, "movement")
    return game


def _listed(game: Any) -> tuple[Any, list[Move]]:
    """The first model of the player to act with listed moves, and its default-goals list."""
    for m in game.player_models(game.state.active_player):
        moves = queries.move_options(game, m)
        if len(moves) >= 3:
            return m, moves
    raise AssertionError("no model with moves")


def test_r9_skip_listed_move_applied_on_its_inputs_is_not_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _at_movement()
    m, moves = _listed(game)
    calls = _counting(monkeypatch)
    game.apply(moves[-1])
    assert calls["n"] == 0
    assert game.state.xy[m.index].tolist() == list(moves[-1].path[-1])
    assert m.moved


def test_r9_skip_goal_query_move_is_not_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The heuristic bot's single goal moves (`first_move_option`, `straight_goal_move`) count as
    listed too (`note_listed`), on their own inputs."""
    game = _at_movement()
    m, moves = _listed(game)
    goal = np.array(moves[0].path[-1]) + 1.0
    first = queries.first_move_option(game, m, goal)
    assert first is not None
    calls = _counting(monkeypatch)
    game.apply(first)
    assert calls["n"] == 0


def test_r9_skip_listed_move_after_its_inputs_changed_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _at_movement()
    m, moves = _listed(game)
    move = moves[-1]
    # Another model of the same side steps aside (far from the path, still legal): checked again.
    other = next(x for x in game.player_models(m.player) if x is not m and x.active)
    x, y = game.state.xy[other.index].tolist()
    place(game, {other.id: (x, y + 1e-9)})
    calls = _counting(monkeypatch)
    game.apply(move)
    assert calls["n"] == 1
    assert m.moved


def test_r9_skip_listed_move_made_illegal_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A listed move whose end another base now stands on is refused, naming the rule, with the
    state unchanged (the skip did not trust the stale listing)."""
    game = _at_movement()
    m, moves = _listed(game)
    move = moves[-1]
    other = next(x for x in game.player_models(m.player) if x is not m and x.active)
    place(game, {other.id: move.path[-1]})
    calls = _counting(monkeypatch)
    problem = assert_illegal(game, move, "R-M2")
    assert calls["n"] == 1
    assert not m.moved
    assert "overlap" in str(problem).lower() or "base" in str(problem).lower(), str(problem)


def test_r9_skip_budget_or_flying_change_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget is one of the inputs: a listed move with a smaller budget now is checked (and
    refused as too long when it is)."""
    game = _at_movement()
    m, moves = _listed(game)
    longest = max(moves, key=lambda mv: float(np.hypot(*np.subtract(mv.path[-1], mv.path[0]))))
    m.limping = True  # half Move (R-P5)
    calls = _counting(monkeypatch)
    assert_illegal(game, longest, "R-M2")
    assert calls["n"] == 1


def test_r9_skip_hand_made_path_is_always_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """An equal path made by hand (not the listed object) is checked: the skip is by identity."""
    game = _at_movement()
    m, moves = _listed(game)
    listed = moves[-1]
    copy = Move(m.id, tuple((float(x), float(y)) for x, y in listed.path))
    assert copy == listed and copy.path is not listed.path
    calls = _counting(monkeypatch)
    game.apply(copy)
    assert calls["n"] == 1
    assert m.moved


def test_r9_skip_undo_and_fork_keep_the_records_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """The records hold inputs, not a version: after an undo the position is the listed one again,
    so the listed move skips its check and lands where it did; a fork, moved elsewhere, checks it."""
    game = _at_movement(seed=2)
    m, moves = _listed(game)
    fork = game.fork()
    calls = _counting(monkeypatch)
    game.apply(moves[-1])
    after = game.state.xy.tobytes()
    assert game.undo()
    assert not m.moved
    game.apply(moves[-1])
    assert calls["n"] == 0
    assert game.state.xy.tobytes() == after
    fm = fork.state.models[m.index]
    other = next(x for x in fork.player_models(fm.player) if x is not fm and x.active)
    place(fork, {other.id: moves[-1].path[-1]})
    assert_illegal(fork, Move(fm.id, moves[-1].path), "R-M2")
    assert calls["n"] == 1
