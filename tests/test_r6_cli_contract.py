"""cli.md and docs/json.md, word for word: defects found by the round-6 audit of the command line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers_cli import run, user_folder

from skirmish.data.catalogue import resolve

TEAM = resolve("troupes", "team_avatar")


# ----------------------------------------------------------------- docs/json.md: `list --json`
def test_docs_json_list_file_and_folder_paths_are_absolute_with_a_relative_data_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`file` is the absolute path read: a relative `$SKIRMISH_DATA` gave `rel dir/troupes/mine.toml`."""
    (tmp_path / "rel dir" / "troupes").mkdir(parents=True)
    (tmp_path / "rel dir" / "troupes" / "mine.toml").write_text(TEAM.read_text())
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SKIRMISH_DATA", "rel dir")
    code, out, err = run(["list", "troupes", "--json"], capsys)
    assert code == 0, err
    mine = [it for it in json.loads(out)["items"] if it["source"] == "user"]
    assert [it["file"] for it in mine] == [str(tmp_path / "rel dir" / "troupes" / "mine.toml")]
    code, out, err = run(["list", "folders", "--json"], capsys)
    assert code == 0, err
    assert all(os.path.isabs(f["path"]) for f in json.loads(out)["items"])


def test_docs_json_list_says_it_skipped_a_user_file_with_a_shipped_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An edited copy of `team_avatar.toml` in the data folder was left out of the list silently."""
    user_folder(tmp_path, monkeypatch, troupes={"team_avatar.toml": TEAM.read_text()})
    code, out, err = run(["list", "troupes", "--json"], capsys)
    assert code == 0, err
    items = json.loads(out)["items"]
    assert [it["source"] for it in items if it["name"] == "team_avatar"] == ["shipped"]
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert str(tmp_path / "troupes" / "team_avatar.toml") in lines[0] and "shipped" in lines[0]


# ----------------------------------------------------------------- docs/json.md: problems
def test_docs_json_troupe_cost_problems_are_problem_objects(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "A problem is always {file, field, message}": `troupe cost --json` gave strings."""
    garrison = resolve("troupes", "custom_ba_sing_se_garrison")
    code, out, err = run(["troupe", "cost", str(garrison), "--points-limit", "100", "--json"], capsys)
    assert code == 0, err  # building problems do not change the exit code of `cost`
    problems = json.loads(out)["problems"]
    assert problems and all(set(p) == {"file", "field", "message"} for p in problems)
    assert problems[0]["file"] == str(garrison) and "B-POINTS" in problems[0]["message"]


def test_docs_json_says_which_outputs_are_indented() -> None:
    """docs/json.md said every `--json` object is indented; odds, troupe cost, test-troupes,
    what-if and campaign print one line. The page now says which is which."""
    from skirmish.cli.main import main

    for argv, indented in (
        (["odds", "shoot", "--attack", "5", "--dodge", "3", "--json"], False),
        (["troupe", "cost", "team_avatar", "--json"], False),
        (["list", "scenarios", "--json"], True),
        (["validate", str(TEAM), "--json"], True),
    ):
        out = _stdout_of(main, argv)
        assert json.loads(out) and (out.count("\n") > 1) == indented, argv
    doc = (Path(__file__).parent.parent / "docs" / "json.md").read_text()
    assert "indented for `list`, `validate`,\n`play` and `replay`, on one line for `odds`" in doc


def _stdout_of(main, argv: list[str]) -> str:  # type: ignore[no-untyped-def]
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 0, argv
    return buf.getvalue()


# ----------------------------------------------------------------- one message per problem
@pytest.mark.parametrize("value", [",", "x,x", "nope,nope"])
def test_cli_bots_flag_one_line_per_distinct_problem(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`--bots ,` printed the same `unknown policy` line twice."""
    code, _, err = run(["play", "--headless", "--turns", "1", "--bots", value], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "unknown policy" in lines[0], err


@pytest.mark.parametrize(
    ("argv", "kind"),
    [
        (["replay", str(resolve("scenarios", "open_battle")), "--verify"], "a scenario"),
        (["replay", str(TEAM), "--headless"], "a troupe"),
        (["campaign", "status", "--file", str(TEAM)], "a troupe"),
        (["what-if", str(resolve("scenarios", "open_battle")), "--at", "1"], "a scenario"),
    ],
)
def test_cli_a_toml_data_file_given_for_a_replay_or_save_is_named_as_toml(
    argv: list[str], kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`replay open_battle.toml` said `is not valid JSON (truncated or damaged?)`: the file is fine,
    it is a scenario (round 5 named JSON given for TOML; this is the other way round)."""
    code, out, err = run(argv, capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and out == "", err
    assert f"is {kind} file (TOML), not JSON" in lines[0] and "damaged" not in lines[0]


def test_cli_text_that_is_neither_json_nor_a_data_file_still_says_where_json_breaks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for text in ("", "# a note\n", "a = 1\n", '{"format": "skirmish-replay",'):
        bad = tmp_path / "bad.json"
        bad.write_text(text)
        code, _, err = run(["replay", str(bad), "--verify"], capsys)
        assert code == 2 and "is not valid JSON (truncated or damaged?)" in err, (text, err)
