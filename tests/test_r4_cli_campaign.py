"""cli.md `skirmish campaign status|play|reset|test [--json]`: with `--json` every action prints one
JSON object on stdout and nothing else (play and reset printed their text lines and ignored it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers_cli import run


def test_r_x3_cli_campaign_reset_json_is_the_fresh_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "camp.json"
    code, out, err = run(["campaign", "reset", "--file", str(save), "--json"], capsys)
    assert code == 0, err
    report = json.loads(out)
    assert report["started"] is True and report["games"] == 0 and report["next_box"]["box"] == 1
    code, status, _ = run(["campaign", "status", "--file", str(save), "--json"], capsys)
    assert code == 0 and json.loads(status) == report


@pytest.mark.parametrize(("seed", "won", "next_box"), [(3, True, 2), (2, False, 1)])
def test_r_x3_cli_campaign_play_json_is_one_object(
    seed: int, won: bool, next_box: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save, replay = tmp_path / "camp.json", tmp_path / "box.json"
    argv = ["campaign", "play", "--file", str(save), "--headless", "--seed", str(seed), "--json"]
    code, out, err = run([*argv, "--replay", str(replay)], capsys)
    assert code == 0, err
    report = json.loads(out)  # the whole of stdout
    assert report["played"] is True and report["won"] is won and report["box"] == 1
    assert report["seed"] == seed and report["attempt"] == 1 and report["replay"] == str(replay)
    assert report["next_box"] == next_box and report["complete"] is False
    assert isinstance(report["reason"], str) and report["turns"] >= 1
    code, status, _ = run(["campaign", "status", "--file", str(save), "--json"], capsys)
    assert json.loads(status)["next_box"]["box"] == next_box
    code, _, err = run(["replay", str(replay), "--verify"], capsys)
    assert code == 0, err
