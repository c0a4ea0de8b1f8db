"""cli.md `skirmish list troupes|scenarios`: one a line, the name other commands take (no spaces) first.

The name is the file's name: a user file whose `name` field differs from its file name is listed by
the file name, which `--troupe` / SCENARIO resolve; a file name with white space cannot be listed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers_cli import run, user_folder

from skirmish.data.catalogue import content_root, resolve, shipped


@pytest.fixture
def user_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    text = (content_root() / "troupes" / "team_avatar.toml").read_text(encoding="utf-8")
    scen = (content_root() / "scenarios" / "open_battle.toml").read_text(encoding="utf-8")
    troupes = {
        "mine.toml": text.replace('name = "team_avatar"', 'name = "other"'),
        "my troupe.toml": text.replace('name = "team_avatar"', 'name = "sp"'),
    }
    scenarios = {"my_field.toml": scen.replace('name = "open_battle"', 'name = "x"')}
    return user_folder(tmp_path, monkeypatch, troupes, scenarios)


@pytest.mark.parametrize("kind", ["troupes", "scenarios"])
def test_cli_list_names_are_what_other_commands_take(
    kind: str, user_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["list", kind], capsys)
    assert code == 0
    names = [line.split("\t", 1)[0] for line in out.splitlines()]
    assert names and all(name and not any(c.isspace() for c in name) for name in names)
    for name in names:
        assert resolve(kind, name).stem == name
    code, out, _ = run(["list", kind, "--json"], capsys)
    assert [item["name"] for item in json.loads(out)["items"]] == names


def test_cli_list_shows_a_user_file_by_its_file_name_not_its_name_field(
    user_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(["list", "troupes"], capsys)
    names = [line.split("\t", 1)[0] for line in out.splitlines()]
    assert "mine" in names and "other" not in names
    _, out, _ = run(["list", "scenarios"], capsys)
    assert "my_field" in [line.split("\t", 1)[0] for line in out.splitlines()]
    argv = ["play", "--troupe", "mine", "--headless", "--bots", "--turns", "1", "--json"]
    code, out, err = run(argv, capsys)
    assert code == 0, err


def test_cli_list_skips_a_file_name_with_spaces_and_says_so(
    user_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["list", "troupes"], capsys)
    assert code == 0
    assert "sp\t" not in out and "my troupe" not in out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "my troupe.toml" in lines[0] and "my_troupe.toml" in lines[0]


def test_cli_list_shipped_names_are_their_file_names(capsys: pytest.CaptureFixture[str]) -> None:
    for kind in ("troupes", "scenarios"):
        _, out, _ = run(["list", kind], capsys)
        listed = [line.split("\t", 1)[0] for line in out.splitlines()]
        assert listed[: len(shipped(kind))] == [p.stem for p in shipped(kind)]
