"""The engine's round-3 fast paths give exactly the answers of the slower code they replaced: shot
scores kept by their facts (R-C1, R-X1), "a friend within 5 inches" read from one comparison per
arrangement (R-C1), sight asked for many pairs in one batch (R-B3), the shooting candidates built
from those (R-C1, R-C6, R-P4), and the candidate moves kept by their paths with their default
goals found from masks (R-M2), and whole-path checks kept on exact inputs (R-M2, R-M3).

Each is checked at every position of golden replays (one with Earth Walls, one with premeasuring,
one of four players) — after every action and the refused action that follows it, and after undoing
it — against a reference written the old way (from scratch, one question at a time).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from skirmish.battlefield.paths import check_path
from skirmish.engine.core.actions import Action, Move, Shoot
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.core.state import ModelState
from skirmish.engine.effects.moving import (
    DIRECTIONS,
    beside,
    cover_points,
    default_goals,
    mover_of,
    path_problem,
)
from skirmish.engine.effects.shots import (
    WEAK_TO,
    ShotSpec,
    can_fire,
    open_target,
    open_targets,
    shot_scores,
    shot_scores_each,
    shot_specs,
    targetable,
)
from skirmish.engine.game import Game
from skirmish.engine.replay import load_replay
from skirmish.engine.steps import shooting
from skirmish.engine.steps.charges import charge_targets, foe_pairs
from skirmish.engine.steps.movement import model_moves
from skirmish.rules.combat import dodge_score, shooting_score
from skirmish.rules.modifiers import Modifier, Score

GOLDEN = Path(__file__).parent / "golden"
REPLAYS = (
    "open_battle_random_s7_t3",
    "open_battle_random_premeasure_s4_t3",
    "four_kingdoms_melee_heuristic_s5_t3",
    "open_battle_heuristic_s11",
)


def _friend_within_reference(game: Game, model: ModelState, inches: float) -> bool:
    row = game.distances()[model.index]
    return any(
        m.active and m is not model and not game.enemies(m, model) and row[m.index] <= inches
        for m in game.state.models
    )


def _shot_scores_reference(
    game: Game, shooter: ModelState, target: ModelState, spec: ShotSpec
) -> tuple[Score, Score]:
    """The scores as `shot_scores` worked them out before it kept them by their facts."""
    attack: list[Modifier] = []
    dodge: list[Modifier] = []
    s_cover = game.cover(shooter)
    t_cover = 0 if target.buffs.get(f"exposed:{shooter.id}") else game.cover(target)
    if game.height(shooter) > game.height(target):
        attack.append(Modifier("higher ground", 1))
    if s_cover >= 2:
        attack.append(Modifier("firing from cover", 1))
    if _friend_within_reference(game, shooter, 5.0):
        attack.append(Modifier('friend within 5"', 1))
    if t_cover == 0:
        attack.append(Modifier("target in the open", 1))
    elif t_cover == 1:
        attack.append(Modifier("target in light cover", -1))
    else:
        attack.append(Modifier("target in " + ("dense" if t_cover == 3 else "medium") + " cover", -2))
    if spec.bonus:
        attack.append(Modifier(spec.title, spec.bonus))
    if shooter.buffs.get("ranged"):
        attack.append(Modifier("ability bonus", shooter.buffs["ranged"]))
    if (
        game.options.weakness_cycle
        and spec.element
        and target.profile.elements
        and WEAK_TO[target.profile.elements[0].value] == spec.element
    ):
        attack.append(Modifier(f"{spec.element} against {target.profile.elements[0].value}", 1))
    if t_cover >= 2:
        dodge.append(Modifier("in " + ("dense" if t_cover == 3 else "medium") + " cover", 1))
    if s_cover == 0:
        dodge.append(Modifier("shooter in the open", 1))
    if target.buffs.get("dodge"):
        dodge.append(Modifier("ability bonus", target.buffs["dodge"]))
    if target.limping:
        dodge.append(Modifier("limping", -2))
    return shooting_score(shooter.profile.ranged, attack), dodge_score(target.profile.dodge, dodge)


def _candidates_reference(game: Game, player: int) -> list[Action]:
    """The shooting candidates as they were listed one target and one weapon at a time."""
    out: list[Action] = []
    for m in game.player_models(player):
        if not can_fire(game, m):
            continue
        for spec in shot_specs(game, m):
            if spec.ap_cost > m.ap:
                continue
            for t in game.state.models:
                if not targetable(game, m, t):
                    continue
                if game.options.premeasure and game.distance(m, t) > spec.range:
                    continue
                if _shot_scores_reference(game, m, t, spec)[0].base_total > 0:
                    out.append(Shoot(m.id, t.id, spec.name))
    return out


def _default_goals_reference(game: Game, m: ModelState) -> list[np.ndarray]:
    s = game.state
    here = s.xy[m.index]
    goals: list[np.ndarray] = []
    foes = [o for o in s.models if o.active and game.enemies(o, m)]
    if foes:
        d = s.xy[[o.index for o in foes]] - here
        goals.append(beside(game, m, foes[int(np.argmin(np.hypot(d[:, 0], d[:, 1])))]))
    covers = cover_points(game)
    if covers:
        d = np.array(covers, dtype=float).reshape(-1, 2) - here
        goals.append(covers[int(np.argmin(np.hypot(d[:, 0], d[:, 1])))])
    return goals


def _check_moves(game: Game, where: str) -> None:
    """The candidate moves of every active model, listed through the kept lists, equal the lists
    made afresh (the memo emptied first), and the default goals those of the old code (R-M2)."""
    for m in game.state.models:
        if not m.active:
            continue
        goals = default_goals(game, m)
        want = _default_goals_reference(game, m)
        assert len(goals) == len(want) and all(
            np.array_equal(a, b) for a, b in zip(goals, want, strict=True)
        ), where
        kept = model_moves(game, m)
        game.memo.pop("model_moves", None)
        assert kept == model_moves(game, m), where


def _check_paths(game: Game, where: str) -> None:
    """Whole-path checks kept on exact inputs equal `check_path` asked afresh, for every active
    model's eight straight lines of 6 inches (R-M2, R-M3), asked twice (the second from the memo)."""
    for m in game.state.models:
        if not m.active:
            continue
        mover = mover_of(game, m)
        start = game.state.xy[m.index].copy()
        for dx, dy in DIRECTIONS:
            path = np.array([start, start + 6.0 * np.array([dx, dy])])
            want = check_path(mover, path, max_length=6.0)
            assert path_problem(game, mover, path, 6.0) == want, where
            assert path_problem(game, mover, path, 6.0) == want, where


def _check(game: Game, where: str) -> None:
    models = game.state.models
    _check_moves(game, where)
    _check_paths(game, where)
    # Sight asked in one batch first, before any pair-by-pair question warms the pair store.
    pairs = [(a, b) for a in models for b in reversed(models)]
    assert game.sees_each(pairs) == [game.sees(a, b) for a, b in pairs], where
    for m in models:
        for inches in (5.0, 2.5):
            assert game.friend_within(m, inches) == _friend_within_reference(game, m, inches), where
    for p in range(len(game.state.players)):
        assert shooting.candidates(game, p) == _candidates_reference(game, p), where
    mine = game.player_models(game.state.active_player)
    assert open_targets(game, mine) == [[t for t in models if open_target(game, m, t)] for m in mine], where
    assert foe_pairs(game, mine) == [(m, t) for m in mine for t in models if t.active and game.enemies(m, t)]
    for m in models:
        want = [t for t in models if t.active and game.enemies(m, t) and game.sees(m, t)]
        assert charge_targets(game, m) == want, where
        for spec in shot_specs(game, m):
            assert shot_scores_each(game, m, models, spec) == [shot_scores(game, m, t, spec) for t in models]
    for a in models:
        for spec in shot_specs(game, a):
            for b in models:
                assert shot_scores(game, a, b, spec) == _shot_scores_reference(game, a, b, spec), where


@pytest.mark.parametrize("name", REPLAYS)
def test_r_c1_r_b3_fast_paths_match_the_reference_after_actions_undo_and_refusals(name: str) -> None:
    replay = load_replay(GOLDEN / f"{name}.json")
    game = replay.new_game(record_log=False, transactional=True)
    for i, action in enumerate(replay.actions):
        _check(game, f"{name} before action {i}")
        game.apply(action)  # checked at the next "before" (after a refused action too)
        if game.undo():
            _check(game, f"{name} after undoing action {i}")
            game.apply(action)
        mover = next(m for m in game.state.models if m.on_table)
        with pytest.raises(IllegalAction):
            game.apply(Move(mover.id, ((-50.0, -50.0), (-60.0, -60.0))))
        if game.over:
            break
    _check(game, f"{name} at the end")
    assert game.hash() == replay.final_hash
