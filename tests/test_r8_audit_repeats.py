"""Round-8 audit: a one-value flag given twice with different values is exit 2, not "the last wins".

Found: `skirmish play --headless --bots --replay a.json --replay b.json` wrote only `b.json`
(exit 0: `a.json`, asked for, was never written); `--seed 1 --seed 2`, `odds shoot --attack 3
--attack 4`, `test-troupes ... --games 10 --games 1000` kept the last value without a word. The
contract (cli.md): conflicting input is exit 2 with one line naming the flag.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer.main
from helpers_cli import run

from skirmish.cli.errors import UsageProblem
from skirmish.cli.main import app
from skirmish.cli.repeats import refuse_repeated, repeated_values

ROOT = typer.main.get_command(app)


def test_two_replay_paths_are_refused_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    argv = ["play", "--headless", "--bots", "--turns", "1", "--replay", str(a), "--replay", str(b)]
    code, out, err = run(argv, capsys)
    assert code == 2
    assert err == f"skirmish: --replay: given twice with different values ({a}, {b}); give it once\n"
    assert out == ""
    assert not a.exists() and not b.exists()


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["play", "--seed", "1", "--seed=2"], "--seed"),
        (["play", "--bots", "random", "--bots", "heuristic"], "--bots"),
        (["play", "--bots", "--bots", "random"], "--bots"),  # a bare --bots is the heuristic bot
        (["odds", "shoot", "--attack", "3", "--dodge", "2", "--attack", "4", "--json"], "--attack"),
        (["test-troupes", "a", "b", "--games", "1", "--games", "2"], "--games"),
        (["replay", "r.json", "--screenshot", "a.png", "--screenshot", "b.png"], "--screenshot"),
    ],
)
def test_each_command_refuses_a_flag_with_two_values(
    argv: list[str], flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2, err
    assert err.startswith(f"skirmish: {flag}: given twice with different values")
    assert len(err.splitlines()) == 1 and out == ""


def test_one_line_per_flag_given_twice() -> None:
    argv = ["test-troupes", "a", "b", "--games", "1", "--games", "2", "--workers", "1", "--workers", "2"]
    with pytest.raises(UsageProblem) as caught:
        refuse_repeated(ROOT, argv)
    assert [line.split(":")[0] for line in caught.value.lines] == ["--games", "--workers"]


@pytest.mark.parametrize(
    "argv",
    [
        # the same value twice changes nothing
        ["odds", "shoot", "--attack", "3", "--dodge", "2", "--attack", "3", "--json"],
        # switches and flags meant to repeat
        ["odds", "shoot", "--attack", "3", "--dodge", "2", "--json", "--json"],
        ["play", "--troupe", "team_avatar", "--troupe", "zuko_hunting_party"],
        ["play", "--option", "premeasure=true", "--option", "priority_roll=true"],
        # a value that looks like the flag is the flag's value, and after `--` nothing is a flag
        ["play", "--replay", "--seed", "--seed", "2"],
        ["validate", "--", "--seed", "1", "--seed", "2"],
        # no command, an unknown one: the parser's own messages
        ["--version"],
        ["nonsense", "--seed", "1", "--seed", "2"],
    ],
)
def test_what_is_not_a_conflict(argv: list[str]) -> None:
    refuse_repeated(ROOT, argv)


def test_same_value_twice_still_plays(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["odds", "shoot", "--attack", "3", "--attack", "3", "--dodge", "2", "--json"]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert json.loads(out)["hit"] == pytest.approx(7 / 12)


def test_leaf_options_are_read_from_the_command_itself() -> None:
    """`--seed` of `play` is one value; `--troupe` of `play` may repeat: read from the parameters."""
    play = ROOT.commands["play"]  # type: ignore[attr-defined]
    assert repeated_values(play, ["--troupe", "a", "--troupe", "b"]) == []
    assert repeated_values(play, ["--seed", "1", "--seed", "2"]) != []
