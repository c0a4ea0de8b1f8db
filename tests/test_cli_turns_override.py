"""`--turns` may shorten a scenario past its own events (R-T4): the Day of Black Sun's eclipse turns
after the shortened game's last simply never come, while `validate` still refuses a scenario file
whose eclipse falls after the file's own turn limit."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers_cli import run

from skirmish.data.catalogue import resolve


@pytest.mark.parametrize("turns", ["1", "2"])
def test_r_t4_turns_shorter_than_the_eclipse_plays(turns: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["play", "day_of_black_sun", "--turns", turns, "--headless", "--bots"], capsys)
    assert code == 0, err
    assert f"turn limit of {turns} reached" in out
    assert err == ""


def _scenario_with(tmp_path: Path, old: str, new: str) -> Path:
    text = Path(resolve("scenarios", "day_of_black_sun")).read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "dbs.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_r_t4_validate_refuses_an_eclipse_after_the_files_last_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _scenario_with(tmp_path, "turns = 6", "turns = 2")
    code, out, err = run(["validate", str(path)], capsys)
    assert code == 2
    assert err.strip().splitlines() == [
        f"skirmish: {path}: special.no_bending_turns: turn 3 is after the last of the 2 turns"
    ]


def test_r_t4_an_eclipse_turn_below_one_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _scenario_with(tmp_path, "no_bending_turns = [2, 3]", "no_bending_turns = [0, 3]")
    code, _, err = run(["validate", str(path)], capsys)
    assert code == 2
    assert "special.no_bending_turns: turn 0 is not a turn" in err
