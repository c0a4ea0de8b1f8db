"""R-X3 campaign files: every problem names the campaign file and the field (round-6 audit)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers_cli import run, user_folder

from skirmish.data.catalogue import resolve
from skirmish.engine.campaign import campaign_path

CAMPAIGN = campaign_path("aangs_destiny").read_text()


def one_line(code: int, err: str) -> str:
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "internal error" not in err, err
    return lines[0]


def test_r_x3_a_chapter_heroes_troupe_that_is_not_there_names_chapters_i_heroes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Was `chapters[1].: no troupe of that name`: an empty field after the dot, the name unsaid."""
    assert 'heroes = "pursuit_heroes_earth"' in CAMPAIGN
    camp = tmp_path / "camp.toml"
    camp.write_text(CAMPAIGN.replace('heroes = "pursuit_heroes_earth"', 'heroes = "nosuch_troupe"', 1))
    for argv in (
        ["validate", str(camp)],
        ["campaign", "status", "--campaign", str(camp), "--file", "s.json"],
    ):
        line = one_line(*run(argv, capsys)[::2])
        assert line.startswith(
            f"skirmish: {camp}: chapters[1].heroes: `nosuch_troupe`: no troupe of that name"
        )


def test_r_x3_a_base_scenario_naming_a_missing_troupe_names_the_campaign_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user's own Pursuit as the base: its missing default troupe was said without the campaign."""
    pursuit = resolve("scenarios", "the_pursuit").read_text()
    assert 'troupe = "pursuit_adversaries"' in pursuit
    user_folder(
        tmp_path,
        monkeypatch,
        scenarios={
            "my_pursuit.toml": pursuit.replace('troupe = "pursuit_adversaries"', 'troupe = "gone"', 1)
        },
    )
    camp = tmp_path / "camp.toml"
    camp.write_text(CAMPAIGN.replace('scenario = "the_pursuit"', 'scenario = "my_pursuit"', 1))
    line = one_line(*run(["validate", str(camp)], capsys)[::2])
    assert line.startswith(f"skirmish: {camp}: scenario: `my_pursuit`: gone: no troupe of that name"), line


@pytest.mark.parametrize(
    ("argv", "flag", "action"),
    [
        (["campaign", "status", "--replay", "REPLAY"], "--replay", "status"),
        (["campaign", "reset", "--replay", "REPLAY"], "--replay", "reset"),
        (["campaign", "test", "--games", "1", "--replay", "REPLAY"], "--replay", "test"),
        (["campaign", "test", "--games", "1", "--bots", "random"], "--bots", "test"),
        (["campaign", "reset", "--bots", "random"], "--bots", "reset"),
    ],
)
def test_r_x3_campaign_replay_and_bots_only_with_play(
    argv: list[str], flag: str, action: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`campaign test --replay r.json` wrote no replay and `campaign test --bots random` reported
    heuristic games, both exit 0; like `--games` outside `test`, they are refused before any work."""
    replay, save = tmp_path / "r.json", tmp_path / "s.json"
    argv = [str(replay) if a == "REPLAY" else a for a in argv] + ["--file", str(save)]
    if action == "test":
        argv = argv[:-2]
    line = one_line(*run(argv, capsys)[::2])
    assert line == f"skirmish: {flag}: only with `campaign play`, not `campaign {action}`"
    assert not replay.exists() and not save.exists()
