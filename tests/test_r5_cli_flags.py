"""cli.md flags, checked against hostile and unusual command lines (round-5 audit)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers_cli import run, user_folder

from skirmish.data.catalogue import content_root


@pytest.fixture
def user_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data folder with the user's own scenario `my_field` and troupe `my_team`."""
    scen = (content_root() / "scenarios" / "open_battle.toml").read_text(encoding="utf-8")
    troupe = (content_root() / "troupes" / "team_avatar.toml").read_text(encoding="utf-8")
    return user_folder(
        tmp_path,
        monkeypatch,
        {"my_team.toml": troupe},
        {"my_field.toml": scen.replace("turns = 6", "turns = 1")},
    )


def test_a_bare_bots_before_the_users_own_scenario_name(
    user_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`play --headless --bots my_field` said `--bots my_field: unknown policy`: only shipped names
    were known to follow a bare --bots, though every command takes the user's names."""
    code, out, err = run(["play", "--headless", "--bots", "my_field", "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["turns"] == 1  # the user's scenario, not open_battle's 6 turns


def test_a_bare_bots_before_the_users_own_troupe_name(
    user_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["test-troupes", "--bots", "my_team", "team_avatar", "--games", "1", "--workers", "1", "--json"]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    report = json.loads(out)
    assert report["troupe_a"] == "my_team" and report["bots"] == "heuristic"


def test_a_bare_bots_before_a_name_that_is_nothing_is_still_an_unknown_policy(
    user_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["play", "--headless", "--bots", "no_such_thing"], capsys)
    assert code == 2 and err.startswith("skirmish: --bots no_such_thing: unknown policy"), err


@pytest.mark.parametrize("action", ["status", "play", "reset"])
def test_r_x3_campaign_workers_only_with_test_as_games(
    action: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--games` outside `campaign test` was refused, `--workers` silently ignored."""
    save = tmp_path / "camp.json"
    code, _, err = run(["campaign", action, "--headless", "--file", str(save), "--workers", "2"], capsys)
    assert code == 2 and err == f"skirmish: --workers: only with `campaign test`, not `campaign {action}`\n"
    assert not save.exists()


@pytest.mark.parametrize(
    "command", [["play", "--headless", "--bots"], ["test-troupes", "team_avatar", "team_avatar"]]
)
def test_an_option_given_twice_with_different_values_exits_2(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """`--option premeasure=true --option premeasure=false` played with the last one, silently."""
    argv = [*command, "--option", "premeasure=true", "--option", "premeasure=no"]
    code, _, err = run(argv, capsys)
    assert (
        code == 2
        and err == "skirmish: --option premeasure: given twice with different values; give it once\n"
    )


def test_an_option_given_twice_alike_is_that_option(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "--headless", "--bots", "--turns", "1", "--json"]
    code, out, err = run([*argv, "--option", "premeasure=true", "--option", "premeasure=yes"], capsys)
    assert code == 0, err
    assert json.loads(out)["over"] is True


def test_two_output_flags_naming_one_file_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--replay x.png --screenshot x.png` wrote the replay, said so, then overwrote it (exit 0)."""
    same = tmp_path / "same.png"
    cases = [
        (["play", "--headless", "--bots", "--replay", str(same), "--screenshot", str(same)], "--screenshot"),
        (["campaign", "play", "--headless", "--file", str(same), "--replay", str(same)], "--replay"),
        (
            ["test-troupes", "team_avatar", "zuko_hunting_party", "--csv", str(same), "--plot", str(same)],
            "--plot",
        ),
        (
            [
                "test-troupes",
                "team_avatar",
                "team_avatar",
                "--csv",
                str(same),
                "--resume",
                f"{tmp_path}/./same.png",
            ],
            "--resume",
        ),
    ]
    for argv, flag in cases:
        code, _, err = run(argv, capsys)
        assert code == 2 and err.startswith(f"skirmish: {flag} "), err
        assert "is the same file as" in err and not same.exists(), err


def test_an_output_flag_naming_the_file_read_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`play --replay <the default scenario's file>` replaced the shipped open_battle.toml with a
    replay (exit 0), and `replay r.png --screenshot r.png` the replay being read."""
    from skirmish.data.catalogue import resolve

    shipped = resolve("scenarios", "open_battle")
    before = shipped.read_bytes()
    troupe = tmp_path / "mine.toml"
    troupe.write_text(resolve("troupes", "team_avatar").read_text())
    rep = tmp_path / "r.png"
    code, _, err = run(["play", "--headless", "--bots", "--replay", str(rep)], capsys)
    assert code == 0, err
    replay_bytes = rep.read_bytes()
    camp = tmp_path / "camp.toml"
    camp.write_text((shipped.parent / "campaign" / "aangs_destiny.toml").read_text())
    camp_text = camp.read_text()
    cases = [
        (["play", "--headless", "--bots", "--turns", "1", "--replay", str(shipped)], "--replay", "SCENARIO"),
        (["test-troupes", "team_avatar", "team_avatar", "--csv", str(shipped)], "--csv", "--scenario"),
        (["campaign", "reset", "--campaign", str(camp), "--file", str(camp)], "--file", "--campaign"),
        (
            ["play", "--headless", "--bots", "--troupe", str(troupe), "--replay", str(troupe)],
            "--replay",
            "--troupe",
        ),
        (["replay", str(rep), "--verify", "--screenshot", str(rep)], "--screenshot", "FILE"),
    ]
    try:
        for argv, flag, other in cases:
            code, _, err = run(argv, capsys)
            assert code == 2 and err.startswith(f"skirmish: {flag} "), err
            assert f"the same file as {other}" in err, err
        assert shipped.read_bytes() == before and rep.read_bytes() == replay_bytes
        assert camp.read_text() == camp_text
    finally:  # a regression must not leave the shipped scenario broken for every later test
        if shipped.read_bytes() != before:
            shipped.write_bytes(before)


def test_an_output_through_a_missing_folder_and_dot_dot_is_refused_before_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--replay missing/../r.json` passed the check (the resolved folder exists), the game was
    played, and only the write failed."""
    out = f"{tmp_path}/missing/../r.json"
    code, stdout, err = run(["play", "--headless", "--bots", "--replay", out], capsys)
    assert (
        code == 2
        and stdout == ""
        and err == f"skirmish: --replay {out}: folder {tmp_path}/missing/.. does not exist\n"
    )
