"""Round-8 audit: a results file (`test-troupes --resume`) edited by hand is never an internal error.

Found: a record line whose value had the wrong kind (`"kos_b": "x"`) was read as it was and the
tallies crashed on it: `skirmish: internal error: TypeError: unsupported operand type(s) for +=:
'int' and 'str'`, exit 1 (the contract keeps exit 1 for our bugs). Such a line is now damaged like
a torn one: it and what follows are played again, so the final numbers are an uninterrupted run's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers_cli import run

from skirmish.sim.journal import record_from_json

ARGV = ["test-troupes", "team_avatar", "zuko_hunting_party", "--games", "2", "--batch", "1", "--workers", "1"]
STABLE = ("games", "wins_a", "wins_b", "draws", "mean_battle_points_a", "mean_kos_b", "models_a")


def _summary(out: str) -> dict[str, Any]:
    d = json.loads(out)
    return {k: d[k] for k in STABLE}


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run's results file."""
    from skirmish.cli.main import main

    path = tmp_path_factory.mktemp("resume") / "r.jsonl"
    with pytest.raises(SystemExit) as done:
        main([*ARGV, "--resume", str(path), "--json"])
    assert done.value.code in (0, None)
    return path


def _edit(raw: str, change: Any) -> str:
    lines = raw.splitlines()
    record = json.loads(lines[1])
    change(record["record"])
    lines[1] = json.dumps(record)
    return "\n".join(lines) + "\n"


EDITS = {
    "a string count": lambda r: r.update(kos_b="x"),
    "a float count": lambda r: r.update(turns=6.5),
    "a negative count": lambda r: r.update(turns=-1),
    "an unknown outcome": lambda r: r.update(outcome=7),
    "a seat of 2": lambda r: r.update(a_side=2),
    "a matchup the run lacks": lambda r: r.update(matchup=3),
    "a boolean seed": lambda r: r.update(seed=True),
    "a string in the points": lambda r: r.update(bp_a=["1"]),
    "a model line count as text": lambda r: r["models_a"][0].update(kos="2"),
    "a model line survival as a number": lambda r: r["models_a"][0].update(survived=2),
    "a list for the reason": lambda r: r.update(reason=["x"]),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_hand_edited_record_is_played_again(
    edit: str, clean: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = clean
    capsys.readouterr()
    fresh = tmp_path / "fresh.jsonl"
    code, out, err = run([*ARGV, "--resume", str(fresh), "--json"], capsys)
    assert code == 0, err
    expect = _summary(out)
    edited = tmp_path / "edited.jsonl"
    edited.write_text(_edit(source.read_text(), EDITS[edit]))
    code, out, err = run([*ARGV, "--resume", str(edited), "--json"], capsys)
    assert code == 0, err
    assert "internal error" not in err
    assert _summary(out) == expect
    assert edited.read_text() == fresh.read_text()  # the damaged line was written again, right


def test_a_record_this_program_wrote_still_reads(clean: Path) -> None:
    source = clean
    lines = source.read_text().splitlines()
    record = record_from_json(json.loads(lines[1])["record"], matchups=1)
    assert record.index == 0 and record.matchup == 0


def test_a_record_naming_another_matchup_is_refused() -> None:
    with pytest.raises(ValueError, match="not a game record"):
        record_from_json(
            {
                "matchup": 1,
                "index": 0,
                "seed": 1,
                "a_side": 0,
                "outcome": 0,
                "turns": 6,
                "reason": "",
                "bp_a": [],
                "bp_b": [],
                "kos_a": 0,
                "kos_b": 0,
                "models_a": [],
                "models_b": [],
            },
            matchups=1,
        )
