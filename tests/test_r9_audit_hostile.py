"""Round-9 audit, as a hostile checker from an installed wheel: what it found, each fixed here.

- `campaign test --workers N` had no upper bound (`test-troupes` and `what-if` stop at 512): a fork
  pool starts every worker at once, so `--workers 100000` forked that many processes.
- `test-troupes --games 2 --workers 64` started 64 processes for its one batch of games.
- A bot of the user's own (`--bots mod:Class`) whose module exits or raises as it is imported
  ended the command with that exit code (5, or 1 for `sys.exit("boom")`), or an internal error;
  one that chooses a move the rules refuse was an internal error (exit 1). Both are bad input
  naming the flag (exit 2): the shipped bots only choose what the engine offers.
- A damaged JSON file said `Unterminated string starting at at line 4 column 2`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from helpers_cli import run

import skirmish.sim.executors as executors


def _lines(err: str) -> list[str]:
    return err.strip().splitlines()


@pytest.mark.parametrize("workers", ["0", "513", "100000"])
def test_r9_audit_campaign_test_bounds_its_workers(workers: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["campaign", "test", "--games", "1", "--workers", workers], capsys)
    assert code == 2 and out == ""
    assert _lines(err) == [f"skirmish: --workers {workers}: choose 1 to 512 worker processes"]


def test_r9_audit_a_troupe_test_starts_no_more_workers_than_batches(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    asked: list[int] = []
    real = executors.make_executor

    def spy(kind: str, workers: int, scheduler: str | None = None) -> Any:
        asked.append(workers)
        return real(kind, 1, scheduler)  # played in-process: only the size asked for is checked

    monkeypatch.setattr(executors, "make_executor", spy)
    argv = ["test-troupes", "team_avatar", "fire_nation_army", "--games", "2", "--workers", "8", "--json"]
    argv += ["--turns", "1"]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert asked == [2]  # two games of one a task: two tasks, two workers (8 were asked for)


@pytest.fixture
def own_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "exits_r9.py").write_text("raise SystemExit(5)\n", encoding="utf-8")
    (tmp_path / "says_r9.py").write_text("import sys\nsys.exit('boom')\n", encoding="utf-8")
    (tmp_path / "raises_r9.py").write_text("raise RuntimeError('at import')\n", encoding="utf-8")
    (tmp_path / "cheats_r9.py").write_text(
        "class Bot:\n"
        "    def __init__(self, seed, player):\n"
        "        pass\n\n"
        "    def choose(self, game):\n"
        "        return 42\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in ("exits_r9", "says_r9", "raises_r9", "cheats_r9"):
        sys.modules.pop(name, None)


@pytest.mark.parametrize(
    ("policy", "why"),
    [
        ("exits_r9:Bot", "importing it failed (SystemExit(5))"),
        ("says_r9:Bot", "importing it failed (SystemExit('boom'))"),
        ("raises_r9:Bot", "importing it failed (RuntimeError: at import)"),
    ],
)
def test_r9_audit_a_bot_module_that_fails_on_import_is_bad_input(
    own_bots: Path, policy: str, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["play", "--headless", "--turns", "1", "--bots", policy], capsys)
    assert code == 2 and out == ""
    assert _lines(err) == [f"skirmish: --bots {policy}: {why}"]


def test_r9_audit_a_bot_of_ones_own_that_cheats_is_bad_input(
    own_bots: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["play", "--headless", "--turns", "1", "--bots", "heuristic,cheats_r9:Bot"], capsys)
    assert code == 2 and out == ""
    (line,) = _lines(err)
    assert line.startswith("skirmish: --bots heuristic,cheats_r9:Bot: the bot chose a move the rules refuse")
    argv = ["test-troupes", "team_avatar", "fire_nation_army", "--games", "2", "--workers", "1"]
    code, _, err = run([*argv, "--bots-b", "cheats_r9:Bot"], capsys)
    assert code == 2
    assert _lines(err)[0].startswith(
        "skirmish: --bots-b cheats_r9:Bot: the bot chose a move the rules refuse"
    )


def test_r9_audit_a_damaged_json_file_says_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "save.json"
    bad.write_text('{\n "attempts": 0,\n "campaign": "aang', encoding="utf-8")
    code, _, err = run(["campaign", "status", "--file", str(bad)], capsys)
    assert code == 2
    (line,) = _lines(err)
    assert "at at" not in line and "Unterminated string starting at line 3 column" in line


def test_r9_audit_a_looping_link_is_not_called_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    loop = tmp_path / "loop.toml"
    loop.symlink_to(loop)
    code, _, err = run(["play", str(loop), "--headless"], capsys)
    assert code == 2
    assert _lines(err) == [f"skirmish: {loop}: is a symbolic link to no file (missing or a loop)"]


@pytest.mark.parametrize("kind", ["replay", "troupe"])
def test_r9_audit_campaign_reset_never_overwrites_another_kind_of_file(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from skirmish.data.catalogue import content_root

    if kind == "replay":
        target = tmp_path / "r.json"
        code, _, err = run(["play", "--headless", "--bots", "--turns", "1", "--replay", str(target)], capsys)
        assert code == 0, err
    else:
        target = tmp_path / "mine.toml"
        target.write_text((content_root() / "troupes" / "team_avatar.toml").read_text(encoding="utf-8"))
    before = target.read_bytes()
    code, out, err = run(["campaign", "reset", "--file", str(target)], capsys)
    assert code == 2 and out == ""
    (line,) = _lines(err)
    assert line.startswith(f"skirmish: --file {target}: is ") and "not a campaign save" in line
    assert target.read_bytes() == before


def test_r9_audit_campaign_reset_still_replaces_a_damaged_save(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "c.json"
    save.write_text('{\n "attempts": 0,\n "campaign": "aang', encoding="utf-8")
    code, _, err = run(["campaign", "reset", "--file", str(save), "--json"], capsys)
    assert code == 0, err
    code, _, err = run(["campaign", "status", "--file", str(save)], capsys)
    assert code == 0, err


def test_r9_audit_an_option_with_no_key_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["play", "--headless", "--bots", "--turns", "1", "--option", "=true"], capsys)
    assert code == 2
    assert _lines(err) == [
        "skirmish: --option =true: the key is empty; write KEY=VALUE, e.g. premeasure=true"
    ]


def test_r9_audit_troupe_cost_reads_its_scenario_beside_a_points_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["troupe", "cost", "team_avatar", "--points-limit", "100", "--scenario", "nope"]
    code, _, err = run(argv, capsys)
    assert code == 2 and _lines(err)[0].startswith("skirmish: nope: no scenario of that name")
    code, out, err = run([*argv[:-1], "open_battle", "--json"], capsys)
    assert code == 0, err
    assert '"points_limit": 100' in out


@pytest.mark.parametrize("action", ["status", "reset"])
def test_r9_audit_campaign_refuses_a_seed_it_would_ignore(
    action: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "c.json"
    code, out, err = run(["campaign", action, "--seed", "5", "--file", str(save)], capsys)
    assert code == 2 and out == "" and not save.exists()
    assert _lines(err) == [
        f"skirmish: --seed: only with `campaign play` or `campaign test`, not `campaign {action}`"
    ]


def test_r9_audit_campaign_status_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only reading, it made the data folder (`~/.local/share/skirmish`) on a machine that never played."""
    data = tmp_path / "data"
    monkeypatch.setenv("SKIRMISH_DATA", str(data))
    monkeypatch.delenv("SKIRMISH_CAMPAIGN_SAVE", raising=False)
    code, out, err = run(["campaign", "status", "--json"], capsys)
    assert code == 0, err
    assert '"started": false' in out and not data.exists()
    code, out, err = run(["campaign", "reset"], capsys)
    assert code == 0 and (data / "campaign.json").is_file(), err
