"""R-M2: the movement listing's round-4 records give exactly the lists made afresh. Each model's
straight lines are listed once per start and budget (`movement._straight_listing`) and its goals
kept on their inputs (`moving.goals_among`); at every position of golden replays (after every
action, and after undoing it) every active model's list, asked through the records, equals the
list made with every record emptied, and its goals those found afresh (test_engine_fast_paths
holds the goals to the old way of finding them).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.engine.effects.moving import goals_among
from skirmish.engine.game import Game
from skirmish.engine.replay import load_replay
from skirmish.engine.steps.movement import model_moves

pytestmark = pytest.mark.rule("R-M2")

GOLDEN = Path(__file__).parent / "golden"
REPLAYS = (
    "open_battle_random_s7_t3",
    "four_kingdoms_melee_heuristic_s5_t3",
    "hold_the_zones_heuristic_s2_t3",
)
RECORDS = ("model_moves", "straight_listing", "goals")


def _check(game: Game, where: str) -> None:
    for m in game.state.models:
        if not m.active:
            continue
        foes = game.enemy_mask(m) & ~game.gone_mask()
        goals = [goals_among(game, m, foes) for _ in range(2)]  # the second from the record
        game.memo.pop("goals", None)
        want = goals_among(game, m, foes)
        for got in goals:
            assert [g.tobytes() for g in got] == [g.tobytes() for g in want], where
        kept = model_moves(game, m)
        for name in RECORDS:
            game.memo.pop(name, None)
        assert kept == model_moves(game, m), where


@pytest.mark.parametrize("name", REPLAYS)
def test_r_m2_the_listing_records_give_the_fresh_lists(name: str) -> None:
    replay = load_replay(GOLDEN / f"{name}.json")
    game = replay.new_game(record_log=False, transactional=True)
    for i, action in enumerate(replay.actions):
        _check(game, f"{name} before action {i}")
        game.apply(action)
        if game.undo():
            _check(game, f"{name} after undoing action {i}")
            game.apply(action)
        if game.over:
            break
    _check(game, f"{name} at the end")
    assert game.hash() == replay.final_hash
