"""Round-9 audit: the leftovers of round 8, each checked against the contract of cli.md.

- `skirmish validate` stopped at the first stage with a problem: a troupe with a misspelt key, an
  unknown weapon and a wrong points total showed the key only (fix, run again, see the weapon, fix,
  run again, see the points). Every stage now runs on what the one before could build.
- `--troupe "my troupe"` took a user file that `skirmish list troupes` skips (a listed name has no
  spaces): a name nobody was shown worked. Now refused as `list` skips it; its path still works.
- `int()` reads any Unicode digit and `1_000`: `--workers ２` ran two workers, `--option
  ko_points=５` scored 5, `--attack 1_0` was 10, while `--games ５` was refused. Every integer flag
  of every command now takes ASCII digits only (exit 2 naming the flag), whichever typer is installed.
- A path holding a newline printed its error over two lines (or folded to a space, naming a file
  that does not exist); control characters are now shown as escapes, on the one line.
"""

from __future__ import annotations

import inspect
import json
import typing
from pathlib import Path

import pytest
import typer.main
from helpers_cli import run, user_folder

from skirmish.cli.main import app
from skirmish.data.catalogue import content_root, resolve
from skirmish.data.errors import DataError
from skirmish.data.loader import load_troupe_data, parse_toml

ROOT = typer.main.get_command(app)
TEXT_NUMBERS = ("--at", "--games", "--seed", "--workers")
"""Flags typed `str` that hold a whole number the command converts itself."""


def _shipped(kind: str, name: str) -> str:
    return (content_root() / kind / f"{name}.toml").read_text(encoding="utf-8")


def _lines(err: str) -> list[str]:
    return err.strip().splitlines()


# ------------------------------------------------------------------ validate: every stage at once
def test_r9_audit_validate_shows_schema_armoury_and_building_problems_in_one_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _shipped("troupes", "team_avatar")
    text = text.replace('weapons = ["staff", "air_swipe"]', 'weapons = ["stafff", "air_swipe"]\nbogus = 1', 1)
    text = text.replace("points = 80", "points = 81", 1)
    bad = tmp_path / "t.toml"
    bad.write_text(text, encoding="utf-8")
    code, _, err = run(["validate", str(bad)], capsys)
    assert code == 2
    lines = _lines(err)
    assert len(lines) == 3, err
    assert lines[0] == f"skirmish: {bad}: models[0].profile.bogus: unknown key (not part of the format)"
    assert (
        lines[1] == f"skirmish: {bad}: models[0].profile.weapons[0]: no weapon named `stafff` in the armoury"
    )
    assert lines[2].startswith(f"skirmish: {bad}: points: building rule B-DECLARED")


def test_r9_audit_validate_names_an_unknown_weapon_beside_a_bad_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A schema problem that leaves no troupe (hp = 0) still lets the armoury names be checked."""
    text = _shipped("troupes", "team_avatar").replace('"staff"', '"stafff"', 1).replace("hp = 3", "hp = 0", 1)
    bad = tmp_path / "t.toml"
    bad.write_text(text, encoding="utf-8")
    code, _, err = run(["validate", str(bad), "--json"], capsys)
    assert code == 2
    fields = [line.split(": ")[2] for line in _lines(err)]
    assert fields == ["models[0].profile.hp", "models[0].profile.weapons[0]"]


def test_r9_audit_a_problem_is_said_once_though_two_stages_see_it(tmp_path: Path) -> None:
    """A weapon name the schema refuses (not a name) is not also reported as missing from the armoury."""
    data = parse_toml(_shipped("troupes", "team_avatar"), "t")
    data["models"][0]["profile"]["weapons"] = ["no such weapon"]
    data["models"][0]["profile"]["hp"] = 0
    with pytest.raises(DataError) as caught:
        load_troupe_data(data, "t")
    fields = [p.field for p in caught.value.problems]
    assert fields == ["models[0].profile.hp", "models[0].profile.weapons[0]"]
    assert len(set(fields)) == len(fields)


def test_r9_audit_validate_shows_a_scenario_key_outline_and_eclipse_in_one_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _shipped("scenarios", "day_of_black_sun")
    text = text.replace("\nturns = 6\n", "\nturns = 2\nbogus = 3\n", 1)
    text = text.replace(
        "[[18, 28], [30, 28], [30, 34], [18, 34]]", "[[18, 28], [30, 34], [30, 28], [18, 34]]"
    )
    bad = tmp_path / "s.toml"
    bad.write_text(text, encoding="utf-8")
    code, _, err = run(["validate", str(bad)], capsys)
    assert code == 2
    fields = [line.split(": ")[2] for line in _lines(err)]
    assert fields == ["bogus", "scoring.zones[0].polygon", "special.no_bending_turns"], err


def test_r9_audit_a_valid_file_still_validates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for kind, name in (("troupes", "team_avatar"), ("scenarios", "day_of_black_sun")):
        code, out, err = run(["validate", str(content_root() / kind / f"{name}.toml")], capsys)
        assert code == 0 and out.endswith(": ok\n"), err


# ------------------------------------------------------------------ names with white space
@pytest.fixture
def spaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    text = _shipped("troupes", "team_avatar")
    return user_folder(tmp_path, monkeypatch, troupes={"my troupe.toml": text, "mine.toml": text})


def test_r9_audit_a_name_list_skips_is_refused_as_a_troupe_name(
    spaced: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["list", "troupes"], capsys)
    assert code == 0 and "my troupe" not in out and "mine\t" in out
    argv = ["play", "--troupe", "my troupe", "--headless", "--bots", "--turns", "1"]
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    (line,) = _lines(err)
    assert line.startswith("skirmish: my troupe: ") and "my_troupe.toml" in line and "white space" in line
    code, _, err = run(["test-troupes", "my troupe", "team_avatar", "--games", "1", "--workers", "1"], capsys)
    assert code == 2 and "my_troupe.toml" in err and len(_lines(err)) == 1
    with pytest.raises(DataError):
        resolve("troupes", "my troupe")


def test_r9_audit_a_file_with_white_space_is_still_taken_by_its_path(
    spaced: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(spaced / "troupes" / "my troupe.toml")
    code, out, err = run(["play", "--troupe", path, "--headless", "--bots", "--turns", "1", "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["over"] is True


def test_r9_audit_list_still_says_it_skipped_the_file(
    spaced: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, err = run(["list", "troupes"], capsys)
    (line,) = _lines(err)
    assert "my troupe.toml" in line and "my_troupe.toml" in line


# ------------------------------------------------------------------ ASCII digits only
def _numeric_flags() -> list[tuple[list[str], str]]:
    """Every (command path, flag) whose value is a whole number, read from the command functions."""
    found: list[tuple[list[str], str]] = []

    def walk(cmd: typing.Any, path: list[str]) -> None:
        if hasattr(cmd, "commands"):
            for name, sub in sorted(cmd.commands.items()):
                walk(sub, [*path, name])
            return
        hints = typing.get_type_hints(inspect.unwrap(cmd.callback))
        for param in cmd.params:
            if param.param_type_name != "option":
                continue
            hint = hints[param.name]
            args = [a for a in typing.get_args(hint) if a is not type(None)]
            hint = args[0] if len(args) == 1 else hint
            flag = max(param.opts, key=len)
            if hint is int or (hint is str and flag in TEXT_NUMBERS):
                found.append((path, flag))

    walk(ROOT, [])
    return found


NUMERIC = _numeric_flags()


def test_r9_audit_the_numeric_flags_are_found() -> None:
    flags = {(" ".join(p), f) for p, f in NUMERIC}
    for expected in [
        ("test-troupes", "--workers"),
        ("test-troupes", "--games"),
        ("what-if", "--at"),
        ("play", "--seed"),
        ("campaign", "--games"),
        ("odds shoot", "--attack"),
        ("odds melee", "--defender-hp"),
        ("validate", "--points-limit"),
    ]:
        assert expected in flags
    assert len(flags) >= 30


@pytest.mark.parametrize("value", ["２", "١٢", "1_0", "0x10", "5.0", "", "٣"])
@pytest.mark.parametrize(("path", "flag"), NUMERIC, ids=[f"{' '.join(p)} {f}" for p, f in NUMERIC])
def test_r9_audit_every_integer_flag_takes_ascii_digits_only(
    path: list[str], flag: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run([*path, flag, value], capsys)
    assert code == 2 and out == "", err
    lines = _lines(err)
    assert lines and lines[0].startswith(f"skirmish: {flag} {value}: "), err
    assert "Traceback" not in err


@pytest.mark.parametrize("form", ["separate", "equals"])
def test_r9_audit_ascii_digits_still_work(form: str, capsys: pytest.CaptureFixture[str]) -> None:
    flags = ["--attack", "3", "--dodge", " 2 "] if form == "separate" else ["--attack=+3", "--dodge=2"]
    code, out, err = run(["odds", "shoot", *flags, "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["hit"] == pytest.approx(7 / 12)


def test_r9_audit_every_bad_number_is_said_in_one_run(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "test-troupes",
        "team_avatar",
        "fire_nation_army",
        "--games",
        "５",
        "--workers",
        "２",
        "--seed",
        "١",
    ]
    code, _, err = run(argv, capsys)
    assert code == 2
    assert [line.split(":")[1].split()[0] for line in _lines(err)] == ["--games", "--workers", "--seed"]


@pytest.mark.parametrize("value", ["５", "1_0"])
def test_r9_audit_an_option_value_takes_ascii_digits_only(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["play", "--headless", "--bots", "--turns", "1", "--option", f"ko_points={value}"]
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "", err
    assert _lines(err)[0].startswith("skirmish: --option ko_points")


def test_r9_audit_decimal_flags_refuse_nan_and_other_digits(capsys: pytest.CaptureFixture[str]) -> None:
    for value in ("nan", "inf", "１.５", "0,1"):
        code, _, err = run(["test-troupes", "a", "b", "--stop-width", value], capsys)
        assert code == 2 and _lines(err) == [
            f"skirmish: --stop-width {value}: a number, in the digits 0-9 (e.g. 0.1)"
        ]


def test_r9_audit_whole_numbers() -> None:
    from skirmish.cli.numbers import is_whole

    assert is_whole("12") and is_whole("-3") and is_whole(" +4 ")
    assert not any(is_whole(x) for x in ("１２", "1_2", "1e3", "", "-", "9" * 41))


# ------------------------------------------------------------------ control characters on one line
def test_r9_audit_a_newline_in_a_path_stays_on_the_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["validate", "a\nb.toml"], capsys)
    assert code == 2
    assert _lines(err) == ["skirmish: a\\nb.toml: cannot read the file (No such file or directory)"]
    code, _, err = run(
        ["play", "--headless", "--bots", "--replay", str(tmp_path / "x\ny" / "r.json")], capsys
    )
    assert code == 2 and len(_lines(err)) == 1 and "x\\ny" in err


def test_r9_audit_a_terminal_escape_in_a_path_is_shown_not_sent(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["validate", "\x1b[31mred\x07.toml"], capsys)
    assert code == 2 and "\x1b" not in err and "\x07" not in err
    assert "\\x1b[31mred\\x07.toml" in err


def test_r9_audit_an_ok_line_of_a_file_with_a_newline_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from skirmish.cli.errors import printable

    odd = tmp_path / "two\nlines.toml"
    odd.write_text(_shipped("troupes", "team_avatar"), encoding="utf-8")
    code, out, err = run(["validate", str(odd)], capsys)
    assert code == 0, err
    assert out == f"{printable(str(odd))}: ok\n" and out.count("\n") == 1


def test_r9_audit_printable_and_clip() -> None:
    from skirmish.cli.errors import clip, printable

    assert printable("plain — ü") == "plain — ü"
    assert printable("a\nb\rc\td\x00e\x9bf\u2028g\u202eh") == "a\\nb\\rc\\td\\x00e\\x9bf\\u2028g\\u202eh"
    assert clip("a\nb") == "a\\nb"


def test_r9_audit_a_name_with_a_control_character_is_no_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`list` would have printed the terminal escape of `a\\x1bb.toml` raw, as a name to type."""
    user_folder(tmp_path, monkeypatch, troupes={"a\x1b[2Jb.toml": _shipped("troupes", "team_avatar")})
    code, out, err = run(["list", "troupes"], capsys)
    assert code == 0 and "\x1b" not in out + err
    (line,) = _lines(err)
    assert "a\\x1b[2Jb.toml" in line and "a_[2Jb.toml" in line
    code, _, err = run(["play", "--troupe", "a\x1b[2Jb", "--headless", "--turns", "1"], capsys)
    assert code == 2 and "\x1b" not in err and "is not a name" in err


def test_r9_audit_a_model_check_an_unknown_key_hid_is_said_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Pydantic runs a model's own checks only once its fields are valid: the unknown key hid them."""
    text = _shipped("scenarios", "open_battle").replace("player = 1", "player = 5", 1)
    text = text.replace('\ntitle = "', '\nbogus = 1\ntitle = "', 1)
    bad = tmp_path / "s.toml"
    bad.write_text(text, encoding="utf-8")
    code, _, err = run(["validate", str(bad)], capsys)
    assert code == 2
    assert [line.split(": ")[2] for line in _lines(err)] == ["bogus", "deployment[1].player"], err


def test_r9_audit_validate_still_sets_up_the_game_beside_other_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A zone too small for its default troupe is found beside an eclipse turn and an unknown key."""
    text = _shipped("scenarios", "day_of_black_sun")
    text = text.replace("\nturns = 6\n", "\nturns = 2\nbogus = 3\n", 1)
    text = text.replace("[[0, 0], [48, 0], [48, 8], [0, 8]]", "[[0, 0], [2, 0], [2, 2], [0, 2]]", 1)
    bad = tmp_path / "s.toml"
    bad.write_text(text, encoding="utf-8")
    code, _, err = run(["validate", str(bad)], capsys)
    assert code == 2
    fields = [line.split(": ")[2] for line in _lines(err)]
    assert fields[:2] == ["bogus", "special.no_bending_turns"] and fields[2].startswith("deployment"), err
