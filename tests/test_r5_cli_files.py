"""cli.md "2 on bad input (with a one-line message naming the file, the field or the flag — never a
Python traceback)": hostile files found by the round-5 audit of the command-line contract."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers_cli import run

from skirmish.data.catalogue import resolve

HUGE = "1" + "0" * 5000
"""Python's int() refuses a literal of more than 4,300 digits with a plain ValueError (exit 1 before)."""


def one_problem(code: int, err: str, *words: str) -> None:
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert lines[0].startswith("skirmish: ") and "internal error" not in err, err
    for w in words:
        assert w in lines[0], err


def a_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    out = tmp_path / "r.json"
    code, _, err = run(["play", "--headless", "--bots", "--seed", "3", "--replay", str(out)], capsys)
    assert code == 0, err
    return out


def a_save(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    save = tmp_path / "camp.json"
    code, _, err = run(["campaign", "play", "--file", str(save), "--headless", "--seed", "3"], capsys)
    assert code == 0, err
    return save


def test_a_number_of_thousands_of_digits_in_a_toml_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    troupe, scenario = tmp_path / "big_troupe.toml", tmp_path / "big_scenario.toml"
    troupe.write_text(resolve("troupes", "team_avatar").read_text().replace("hp = 3", f"hp = {HUGE}", 1))
    battle = resolve("scenarios", "open_battle").read_text()
    scenario.write_text(battle.replace("turns = 6", f"turns = {HUGE}"))
    for bad, argv in (
        (troupe, ["validate", str(troupe)]),
        (troupe, ["troupe", "cost", str(troupe)]),
        (troupe, ["play", "--headless", "--bots", "--troupe", str(troupe), "--troupe", "team_avatar"]),
        (scenario, ["validate", str(scenario)]),
        (scenario, ["play", str(scenario), "--headless", "--bots"]),
    ):
        code, _, err = run(argv, capsys)
        one_problem(code, err, str(bad), "too long")


def test_a_number_of_thousands_of_digits_in_a_replay_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rep = a_replay(tmp_path, capsys)
    text = rep.read_text()
    rep.write_text(text.replace('"seed": 3', f'"seed": {HUGE}', 1))
    for verb in (["validate"], ["replay", "--verify"], ["replay", "--headless"]):
        argv = [verb[0], str(rep), *verb[1:]]
        code, _, err = run(argv, capsys)
        one_problem(code, err, str(rep), "too long")
    code, out, err = run(["replay", str(rep), "--verify", "--json"], capsys)
    assert code == 2 and json.loads(out)["ok"] is False, err


def test_r_x3_a_campaign_save_is_read_as_strictly_as_a_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A key given twice (json.loads kept the last one), NaN, and a number too long to read."""
    save = a_save(tmp_path, capsys)
    text = save.read_text()
    assert '"attempts": 0' in text
    cases = {
        '"attempts": 0, "attempts": 1': ("attempts", "twice"),
        '"attempts": NaN': ("NaN",),
        f'"attempts": {HUGE}': ("too long",),
    }
    for edit, words in cases.items():
        save.write_text(text.replace('"attempts": 0', edit, 1))
        for argv in (
            ["campaign", "status", "--file", str(save)],
            ["campaign", "play", "--headless", "--file", str(save), "--json"],
            ["validate", str(save)],
        ):
            code, _, err = run(argv, capsys)
            one_problem(code, err, str(save), *words)
        assert save.read_text() == text.replace('"attempts": 0', edit, 1)  # never rewritten


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [("hero", "nobody", "rewards[0].hero"), ("ability", "no_such_ability", "rewards[0].ability")],
)
def test_r_x3_a_save_reward_for_no_hero_or_no_ability_exits_2(
    field: str, value: str, named: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`with_rewards` skips a reward it cannot give: an edited save was played without a word."""
    save = a_save(tmp_path, capsys)
    data = json.loads(save.read_text())
    assert data["rewards"], "Box 1 won: it carries its rewards"
    data["rewards"][0][field] = value
    if field == "ability":
        data["rewards"][0]["stat"] = None
    save.write_text(json.dumps(data))
    for argv in (
        ["campaign", "status", "--file", str(save)],
        ["campaign", "play", "--headless", "--file", str(save)],
        ["validate", str(save)],
    ):
        code, _, err = run(argv, capsys)
        one_problem(code, err, str(save), named, value)


def test_r_x3_validate_checks_a_save_against_the_campaign_it_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = a_save(tmp_path, capsys)
    data = json.loads(save.read_text())
    data["campaign"] = "no_such_campaign"
    save.write_text(json.dumps(data))
    code, _, err = run(["validate", str(save)], capsys)
    one_problem(code, err, str(save), "campaign", "no_such_campaign")


@pytest.mark.parametrize(
    "content",
    ['{\n "format": "skirmish-replay"\n}\n', "a,b,c\n1,2,3\n", "notes without a newline", "{}\n"],
)
def test_resume_never_overwrites_a_file_that_is_no_results_file(
    content: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--resume r.json` on a replay emptied it and wrote results there, exit 0."""
    mine = tmp_path / "mine.json"
    mine.write_text(content)
    argv = ["test-troupes", "team_avatar", "zuko_hunting_party", "--games", "2", "--workers", "1"]
    code, _, err = run([*argv, "--resume", str(mine)], capsys)
    one_problem(code, err, "--resume", str(mine), "not a Skirmish results file")
    assert mine.read_text() == content


def test_resume_starts_afresh_over_a_header_cut_short(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "results.jsonl"
    results.write_bytes(b'{"about":{"bat')  # killed while the header was being written
    argv = ["test-troupes", "team_avatar", "zuko_hunting_party", "--games", "2", "--workers", "1", "--json"]
    code, out, err = run([*argv, "--resume", str(results)], capsys)
    assert code == 0, err
    assert json.loads(out)["games"] == 2
    assert results.read_bytes().startswith(b'{"about":') and b"skirmish_results" in results.read_bytes()


def _reader_gone(*args: object, **kwargs: object) -> None:
    raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize("verb", ["play", "replay --headless", "replay --verify"])
def test_files_asked_for_are_written_before_a_closed_stdout_ends_the_command(
    verb: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`skirmish play --replay r.json --screenshot b.png | head -1` exited 0 without writing them: the
    result was printed first, and a closed stdout ends the command quietly at that print."""
    from skirmish.cli import play_cmds

    rep = a_replay(tmp_path, capsys)
    replay_out, shot = tmp_path / "again.json", tmp_path / "board.png"
    if verb == "play":
        argv = ["play", "--headless", "--bots", "--seed", "3", "--replay", str(replay_out)]
    else:
        argv = ["replay", str(rep), verb.split()[1]]
    monkeypatch.setattr(play_cmds, "print", _reader_gone, raising=False)
    code, _, err = run([*argv, "--screenshot", str(shot)], capsys)
    assert code == 0, err
    assert shot.read_bytes().startswith(b"\x89PNG")
    if verb == "play":
        assert replay_out.read_text() == rep.read_text()


@pytest.mark.parametrize("coordinate", [1e300, 1e308, -1e7, 10**30])
def test_a_replay_point_far_off_any_table_is_refused_as_it_is_read(
    coordinate: float, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A path point of 1e300 squared past the largest float: numpy's RuntimeWarning on stderr (two
    lines more than the one problem) before the move was refused as too long."""
    rep = a_replay(tmp_path, capsys)
    data = json.loads(rep.read_text())
    i, move = next((i, a) for i, a in enumerate(data["actions"]) if "path" in a)
    move["path"][1] = [coordinate, coordinate]
    rep.write_text(json.dumps(data))
    for verb in (["validate"], ["replay", "--verify"], ["replay", "--headless"]):
        code, _, err = run([verb[0], str(rep), *verb[1:]], capsys)
        one_problem(code, err, str(rep), f"actions[{i}]", "at most 1,000,000 inches")


def test_what_if_refuses_a_replay_that_does_not_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An edited result was reported as "what really happened" (exit 0)."""
    rep = a_replay(tmp_path, capsys)
    data = json.loads(rep.read_text())
    data["result"]["winners"] = ["avatar"] if data["result"]["winners"] != ["avatar"] else ["fire_nation"]
    rep.write_text(json.dumps(data))
    code, _, err = run(["what-if", str(rep), "--at", "5", "--games", "2", "--workers", "1"], capsys)
    assert code == 2 and "internal error" not in err, err
    assert f"skirmish: {rep}: digest.result:" in err and f"skirmish: {rep}: result: winners" in err


def test_what_if_names_a_seed_of_thousands_of_digits_and_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["what-if", "r.json", "--at", "5", "--seed", HUGE]
    code, _, err = run(argv, capsys)
    one_problem(code, err, "--seed 1000", "a whole number >= 0")


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--headless", "--bots", "--troupe", "LONG"],
        ["test-troupes", "LONG", "team_avatar", "--games", "1"],
        ["troupe", "cost", "LONG"],
        ["board", "LONG"],
        ["campaign", "status", "--file", "/tmp/LONG.json"],
        ["campaign", "status", "--campaign", "LONG"],
    ],
)
def test_a_name_longer_than_the_file_system_takes_exits_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """A 5,000-character name was OSError ENAMETOOLONG from the lookup: an internal error, exit 1."""
    long = "a" * 5000
    code, _, err = run([a.replace("LONG", long) for a in argv], capsys)
    assert code == 2 and "internal error" not in err and err.startswith("skirmish: "), err
    assert "File name too long" in err or "cannot use this" in err, err


@pytest.mark.parametrize("text", ["[]", "[1, 2]\n", "3", "null"])
def test_validate_names_json_that_is_no_object_as_a_replay_not_as_toml(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`[]` in r.json was reported as 'is not valid TOML: Invalid initial character for a key part'."""
    bad = tmp_path / "r.json"
    bad.write_text(text)
    code, _, err = run(["validate", str(bad)], capsys)
    one_problem(code, err, str(bad), "is not a replay (a JSON object is expected)")


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "FILE", "--headless"],
        ["play", "--headless", "--troupe", "FILE", "--troupe", "team_avatar"],
        ["board", "FILE"],
        ["troupe", "cost", "FILE"],
        ["test-troupes", "FILE", "team_avatar", "--games", "1"],
    ],
)
def test_a_replay_given_for_a_scenario_or_troupe_is_named_as_json(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It said 'is not valid TOML: Invalid statement (at line 1, column 1)'."""
    rep = a_replay(tmp_path, capsys)
    code, _, err = run([str(rep) if a == "FILE" else a for a in argv], capsys)
    one_problem(code, err, str(rep), "is JSON (a replay or a save?)")


def test_replay_headless_of_a_game_in_progress_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A save of a game in progress printed 'Result: draw — ' (no winner yet read as a draw)."""
    from skirmish.engine.replay import dumps, load_replay

    rep = a_replay(tmp_path, capsys)
    save = tmp_path / "save.json"
    save.write_text(dumps(load_replay(rep).play(upto=50)))
    code, out, err = run(["replay", str(save), "--verify"], capsys)
    assert code == 0, err
    code, out, err = run(["replay", str(save), "--headless"], capsys)
    assert code == 0, err
    result = next(line for line in out.splitlines() if line.startswith("Result: "))
    assert result.startswith("Result: unfinished — the game stops in turn "), result


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ('abilities = ["air_blast",', 'abilities = ["air_blast", "air_blast",', "abilities[1]"),
        ('weapons = ["staff", "air_swipe"]', 'weapons = ["staff", "staff"]', "weapons[1]"),
        ('elements = ["air"]', 'elements = ["air", "air"]', "elements[1]"),
        ('keywords = ["avatar", "airbender"]', 'keywords = ["avatar", "avatar"]', "keywords[1]"),
    ],
)
def test_r_p3_r_p4_a_name_listed_twice_in_a_profile_exits_2(
    old: str, new: str, field: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An ability listed twice was accepted and offered twice in every list of legal actions."""
    src = resolve("troupes", "team_avatar").read_text()
    assert old in src
    bad = tmp_path / "twice.toml"
    bad.write_text(src.replace(old, new, 1))
    for argv in (["validate", str(bad)], ["play", "--headless", "--bots", "--troupe", str(bad)]):
        code, _, err = run(argv, capsys)
        one_problem(code, err, str(bad), f"models[0].profile.{field}", "is listed twice")


def test_a_replay_of_more_models_than_a_game_holds_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--troupe` refuses more than 60 models in one game; a replay's troupes were not checked, so
    an edited file had 120 models re-simulated (and `what-if` would play its endings)."""
    from skirmish.engine.replay import digest_of

    rep = tmp_path / "melee.json"
    code, _, err = run(
        ["play", "four_kingdoms_melee", "--headless", "--bots", "--turns", "1", "--replay", str(rep)], capsys
    )
    assert code == 0, err
    data = json.loads(rep.read_text())
    for troupe in data["troupes"]:
        last = troupe["models"][-1]
        last["profile"]["unique"] = False
        troupe["models"], troupe["heroic"] = [dict(last, count=30)], True
    data["actions"] = []
    data["digest"] = digest_of(data)
    rep.write_text(json.dumps(data))
    for argv in (
        ["validate", str(rep)],
        ["replay", str(rep), "--verify"],
        ["what-if", str(rep), "--at", "0"],
    ):
        code, _, err = run(argv, capsys)
        one_problem(code, err, str(rep), "troupes: 30 + 30 + 30 + 30 = 120 models in one game")
