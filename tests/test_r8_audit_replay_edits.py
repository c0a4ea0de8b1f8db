"""cli.md `skirmish replay FILE --verify` on hand-edited replays: the line names what was edited.

An edit that makes re-simulation fail (another seed, so an action is illegal on other dice; cut
actions, so the game stops short of `final_hash`) used to report only the symptom; the digest's
line naming the edited part now comes first, then the symptom. An action missing its fields names
them instead of leaking a Python `__init__` message."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers_cli import run

from skirmish.bots.runner import play_out, seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.core.actions import action_from_json, parse_action
from skirmish.engine.game import Game
from skirmish.engine.replay import dumps


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    scenario = find_scenario("open_battle")
    troupes = [find_troupe("team_avatar"), find_troupe("zuko_hunting_party")]
    game = Game(scenario, troupes, seed=3, bots=["heuristic", "heuristic"])
    play_out(game, seat_bots(game, ["heuristic", "heuristic"]))
    data: dict[str, Any] = json.loads(dumps(game))
    return data


def _verify(
    tmp_path: Path, data: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[str]]:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(["replay", str(path), "--verify"], capsys)
    return code, [line.removeprefix(f"skirmish: {path}: ") for line in err.strip().splitlines()]


def test_cli_replay_verify_names_an_edited_seed_before_the_action_it_broke(
    finished: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, lines = _verify(tmp_path, dict(finished, seed=finished["seed"] + 1), capsys)
    assert code == 2
    assert lines[0] == "digest.inputs: seed differs from the recorded digest (edited or damaged)"
    assert len(lines) == 2 and (lines[1].startswith("actions[") or lines[1].startswith("final_hash: "))


def test_cli_replay_verify_names_cut_actions_before_the_hash_they_miss(
    finished: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, lines = _verify(tmp_path, dict(finished, actions=finished["actions"][:50]), capsys)
    assert code == 2
    assert lines[0].startswith("digest.inputs: actions differs")
    assert len(lines) == 2 and lines[1].startswith("final_hash: re-simulation reached")


def test_cli_replay_verify_names_the_fields_an_action_lacks(
    finished: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    actions = [*finished["actions"][:5], {"type": "Move"}, *finished["actions"][6:]]
    code, lines = _verify(tmp_path, dict(finished, actions=actions), capsys)
    assert code == 2
    assert lines == ["actions[5]: Move needs the fields model, path"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "Move", "model": "p0.aang"}, "Move needs the field path"),
        ({"type": "Shoot", "model": "p0.aang"}, "Shoot needs the fields target, weapon"),
        ({"type": "Charge"}, "Charge needs the fields model, target"),
    ],
)
def test_an_action_missing_required_fields_names_them(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as err:
        action_from_json(data)
    assert str(err.value) == message
    with pytest.raises(ValueError, match="needs the field"):
        parse_action(f"{data['type']}()")
