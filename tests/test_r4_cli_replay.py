"""cli.md `skirmish replay FILE --verify`: exit 0 only when the replay re-simulates to what it records.

Two hand edits the hash and the digest cannot see went through: `status` (derived from the game,
so outside the digest) and, in a version 1 file (no digest), a `result` value of another JSON type
that Python's `==` equates (`true` for `1`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers_cli import run

from skirmish.bots.runner import play_out, seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.game import Game
from skirmish.engine.replay import dumps


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    scenario = find_scenario("open_battle").model_copy(update={"turns": 2})
    troupes = [find_troupe("team_avatar"), find_troupe("zuko_hunting_party")]
    game = Game(scenario, troupes, seed=5, bots=["random", "random"])
    play_out(game, seat_bots(game, ["random", "random"]))
    data: dict[str, Any] = json.loads(dumps(game))
    return data


def write(tmp_path: Path, data: dict[str, Any], name: str = "r.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def verify_one_problem(path: Path, capsys: pytest.CaptureFixture[str], field: str) -> str:
    code, _, err = run(["replay", str(path), "--verify"], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith(f"skirmish: {path}: {field}: "), err
    return lines[0]


def test_cli_replay_verify_accepts_the_untouched_file(
    finished: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert finished["status"] == "finished"
    assert run(["replay", str(write(tmp_path, finished)), "--verify"], capsys)[0] == 0
    v1 = {k: v for k, v in finished.items() if k != "digest"} | {"version": 1}
    assert run(["replay", str(write(tmp_path, v1)), "--verify"], capsys)[0] == 0


@pytest.mark.parametrize("version", [1, 2])
def test_cli_replay_verify_refuses_an_edited_status(
    version: int, finished: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = dict(finished, status="in_progress")
    if version == 1:
        data = {k: v for k, v in data.items() if k != "digest"} | {"version": 1}
    line = verify_one_problem(write(tmp_path, data), capsys, "status")
    assert "the re-simulated game is over" in line


def test_cli_replay_verify_accepts_a_save_in_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    troupes = [find_troupe("team_avatar"), find_troupe("zuko_hunting_party")]
    game = Game(find_scenario("open_battle"), troupes, seed=3, bots=["random", "random"])
    bots = seat_bots(game, ["random", "random"])
    for _ in range(30):
        bot = bots[game.state.active_player]
        assert bot is not None
        game.apply(bot.choose(game))
    data = json.loads(dumps(game))
    assert data["status"] == "in_progress"
    assert run(["replay", str(write(tmp_path, data)), "--verify"], capsys)[0] == 0
    line = verify_one_problem(write(tmp_path, dict(data, status="finished")), capsys, "status")
    assert "still in progress" in line


def test_cli_replay_verify_v1_result_compares_as_json_not_as_python(
    finished: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = {k: v for k, v in finished.items() if k != "digest"} | {"version": 1}
    result = json.loads(json.dumps(data["result"]))
    side, points = next(iter(result["battle_points"].items()))
    assert points in (0, 1)
    result["battle_points"][side] = bool(points)  # 1 -> true, 0 -> false: equal in Python, not in JSON
    line = verify_one_problem(write(tmp_path, dict(data, result=result)), capsys, "result")
    assert "battle_points" in line
