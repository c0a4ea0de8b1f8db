"""What-if from a replay (issue 16, item 14): the rest of a golden game re-played N times with bots
and fresh dice gives one outcome distribution for a seed, whatever the number of workers; bad input
exits 2 with one line naming the flag."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from skirmish.engine.replay import load_replay
from skirmish.sim.executors import local_executor
from skirmish.sim.whatif import DRAW, WhatIfPlan, outcome_labels, play_batch, position, run_whatif

GOLDEN = Path(__file__).resolve().parent / "golden" / "open_battle_heuristic_s11.json"


def _recorded() -> tuple[str, dict, int]:
    """The golden game's recorded outcome label, result and action count (read, not hard-coded:
    an intended rules change regenerates the golden game)."""
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    result = data["result"]
    label = " + ".join(result["winners"]) if result["winners"] else DRAW
    return label, result, len(data["actions"])


def _run(workers: int, games: int = 6, seed: int = 3, at: int = 80) -> dict:
    plan = WhatIfPlan(load_replay(GOLDEN), at, seed)
    with local_executor(workers) as ex:
        result = run_whatif(plan, games, ex, batch_size=2)
    return result.summary()


def test_whatif_same_distribution_with_one_and_two_workers() -> None:
    one, two = _run(1), _run(2)
    assert one["outcomes"] == two["outcomes"]
    assert one["mean_battle_points"] == two["mean_battle_points"]
    assert sum(v["games"] for v in one["outcomes"].values()) == 6
    assert set(one["outcomes"]) == {"avatar", "fire_nation", DRAW}
    for v in one["outcomes"].values():
        lo, hi = v["ci95"]
        assert 0.0 <= lo <= v["rate"] <= hi <= 1.0
    assert one["actual"]["outcome"] == _recorded()[0]  # the golden game's recorded outcome


def test_whatif_endings_are_fresh_dice_from_the_position() -> None:
    """Every ending starts from the recorded position (the first `at` actions) and differs by its dice."""
    rep = load_replay(GOLDEN)
    plan = WhatIfPlan(rep, 80, 3)
    start = position(plan)
    assert start.hash() == rep.play(upto=80, record_log=False).hash()
    games = play_batch(plan, 0, 4)
    assert [g.index for g in games] == [0, 1, 2, 3]
    assert all(g.outcome in outcome_labels(start) for g in games)
    # the same index with the same seed is the same ending; the position itself is untouched
    assert play_batch(plan, 2, 3)[0] == games[2]
    assert start.hash() == rep.play(upto=80, record_log=False).hash()
    seeds = {WhatIfPlan(rep, 80, 3).game_seed(i) for i in range(4)}
    assert len(seeds) == 4


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "skirmish", "what-if", *args], capture_output=True, text=True, timeout=120
    )


def test_whatif_cli_json_reports_the_distribution_next_to_what_happened() -> None:
    r = _cli(str(GOLDEN), "--at", "100", "--games", "3", "--seed", "2", "--workers", "1", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    label, result, actions = _recorded()
    assert out["games"] == 3 and out["at"] == 100 and out["actions"] == actions
    assert sum(v["games"] for v in out["outcomes"].values()) == 3
    assert out["actual"] == {
        "outcome": label,
        "reason": result["reason"],
        "battle_points": result["battle_points"],
    }
    text = _cli(str(GOLDEN), "--at", "100", "--games", "2", "--workers", "1")
    assert text.returncode == 0
    said = label if label == DRAW else f"{label} won"
    assert f"What really happened: {said}" in text.stdout and "95% interval" in text.stdout


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (("missing.json", "--at", "3"), "missing.json"),
        ((str(GOLDEN), "--at", "100000"), "--at"),
        ((str(GOLDEN), "--at", "-1"), "--at"),
        ((str(GOLDEN), "--at", "3", "--games", "0"), "--games"),
        ((str(GOLDEN), "--at", "3", "--games", "many"), "--games"),
        ((str(GOLDEN), "--at", "3", "--workers", "0"), "--workers"),
    ],
)
def test_whatif_bad_input_exits_2_naming_the_flag(args: tuple[str, ...], flag: str) -> None:
    r = _cli(*args)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and flag in lines[0] and "Traceback" not in r.stderr
