"""cli.md "a one-line message naming the file, the field or the flag": a troupe given for a side it
cannot play (R-X3's adversaries, the escort's Aang) is named, not the scenario file that is fine."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers_cli import run

from skirmish.data.catalogue import resolve


def one_line(code: int, err: str) -> str:
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "internal error" not in err, err
    return lines[0]


def test_r_x3_play_the_pursuit_with_heroes_as_adversaries_names_the_troupe(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Was 11 lines, each blaming `the_pursuit.toml: special.adversary_*[i]`."""
    argv = ["play", "the_pursuit", "--headless", "--bots", "--turns", "1"]
    code, out, err = run([*argv, "--troupe", "pursuit_heroes", "--troupe", "team_avatar"], capsys)
    line = one_line(code, err)
    assert line.startswith("skirmish: team_avatar: cannot play side `fire_nation` of `the_pursuit`: "), line
    assert "has no `prince_zuko`" in line and "(and 10 more)" in line and out == ""


@pytest.mark.parametrize(("a", "b", "blamed"), [("team_avatar", "zuko_hunting_party", "zuko_hunting_party")])
def test_r_x3_test_troupes_in_fixed_roles_names_the_troupe_that_cannot_play_its_role(
    a: str, b: str, blamed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """cli.md: in a scenario with fixed roles A keeps its role; B must be able to play the other."""
    code, _, err = run(["test-troupes", a, b, "--scenario", "the_pursuit", "--games", "2"], capsys)
    line = one_line(code, err)
    assert line.startswith(f"skirmish: {blamed}: cannot play side `fire_nation` of `the_pursuit`"), line
    assert "the_pursuit.toml" not in line


def test_escort_a_troupe_without_the_escorted_model_is_named_with_its_side(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = [
        "play",
        "escort_the_avatar",
        "--headless",
        "--bots",
        "--turns",
        "1",
        "--troupe",
        "zuko_hunting_party",
    ]
    code, _, err = run(argv, capsys)
    line = one_line(code, err)
    assert line == (
        "skirmish: zuko_hunting_party: cannot play side `avatar` of `escort_the_avatar`: "
        "special.escort_model: side `avatar`'s troupe has no model `aang`"
    )
    code, _, err = run(
        [
            "test-troupes",
            "team_avatar",
            "zuko_hunting_party",
            "--scenario",
            "escort_the_avatar",
            "--games",
            "2",
        ],
        capsys,
    )
    line = one_line(code, err)
    assert line.startswith("skirmish: zuko_hunting_party: cannot play side `avatar`"), line
    assert line.endswith("(troupe testing swaps the sides every other game)"), line


def test_a_scenario_that_fails_with_its_own_troupes_is_still_blamed_field_by_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The troupes given are not blamed for a scenario file's own mistake."""
    text = resolve("scenarios", "the_pursuit").read_text()
    bad = tmp_path / "pursuit.toml"
    bad.write_text(text.replace('adversary_stack = ["prince_zuko"', 'adversary_stack = ["nobody"', 1))
    argv = ["play", str(bad), "--headless", "--bots", "--turns", "1", "--troupe", "pursuit_heroes"]
    code, _, err = run(argv, capsys)
    assert code == 2, err
    assert f"skirmish: {bad}: special.adversary_stack[0]: the adversaries' troupe" in err
    assert "cannot play side" not in err
