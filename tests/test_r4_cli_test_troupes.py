"""cli.md `skirmish test-troupes ... --csv OUT`: each row's `command` replays that game exactly, also
when a troupe is a file whose path has spaces (it is shell-quoted, one argument per path)."""

from __future__ import annotations

import csv
import json
import shlex
import shutil
from pathlib import Path

import pytest
from helpers_cli import run

from skirmish.data.catalogue import content_root


def test_cli_test_troupes_csv_command_of_a_spaced_path_replays_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "my troupes é"
    folder.mkdir()
    troupe = folder / "team avatar.toml"
    shutil.copy(content_root() / "troupes" / "team_avatar.toml", troupe)
    out_csv = tmp_path / "games.csv"
    argv = ["test-troupes", str(troupe), "zuko_hunting_party", "--games", "2", "--workers", "1"]
    code, _, err = run([*argv, "--turns", "2", "--csv", str(out_csv), "--json"], capsys)
    assert code == 0, err
    rows = list(csv.DictReader(out_csv.open(encoding="utf-8")))
    assert len(rows) == 2
    for row in rows:
        words = shlex.split(row["command"])
        assert words[:2] == ["skirmish", "play"] and str(troupe) in words
        code, out, err = run([*words[1:], "--json"], capsys)
        assert code == 0, err
        result = json.loads(out)
        assert result["turns"] == int(row["turns"]) and str(result["seed"]) == row["seed"]


def test_cli_test_troupes_csv_command_of_plain_names_is_unquoted() -> None:
    from skirmish.data.catalogue import find_scenario, find_troupe
    from skirmish.data.options import RuleOptions
    from skirmish.sim.games import Matchup, Plan

    a, b = find_troupe("team_avatar"), find_troupe("zuko_hunting_party")
    plan = Plan(
        find_scenario("open_battle"),
        (Matchup(a, b, "team_avatar", "zuko_hunting_party"),),
        RuleOptions(),
        1,
        option_args=("premeasure=true",),
    )
    command = plan.command(0, 1)
    assert "'" not in command and '"' not in command
    assert command.startswith("skirmish play open_battle --troupe zuko_hunting_party --troupe team_avatar ")
    assert command.endswith(" --headless --bots heuristic --option premeasure=true")
