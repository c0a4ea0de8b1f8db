"""Golden replays: scenario + troupes + options + seed + actions must reach the recorded state hash.

Each file in `tests/golden/` is an ordinary replay (the `skirmish replay` format) of a bot game on
a shipped scenario. Re-applying its actions must be legal all the way and reach its `final_hash`
and recorded result. A change to the rules that alters any outcome shows up here; if the change
is intended, regenerate with `python tests/test_golden.py --regenerate` and say so in the commit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers_engine import scenario, troupe  # noqa: E402

from skirmish.engine.replay import dumps, load_replay, verify  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden"

CASES: dict[str, dict] = {
    "open_battle_heuristic_s11": {"scenario": "open_battle", "seed": 11, "bots": ["heuristic", "heuristic"]},
    "open_battle_random_s7_t3": {
        "scenario": "open_battle", "seed": 7, "bots": ["random", "random"], "turns": 3,
    },
    "open_battle_mixed_priority_s3_t4": {
        "scenario": "open_battle", "seed": 3, "bots": ["heuristic", "random"], "turns": 4,
        "options": {"priority_roll": True},
    },
    "open_battle_random_premeasure_s4_t3": {
        "scenario": "open_battle", "seed": 4, "bots": ["random", "random"], "turns": 3,
        "options": {"premeasure": True},
    },
    "four_kingdoms_melee_heuristic_s5_t3": {
        "scenario": "four_kingdoms_melee", "seed": 5, "bots": ["heuristic"] * 4, "turns": 3,
    },
    "hold_the_zones_heuristic_s2_t3": {
        "scenario": "hold_the_zones", "seed": 2, "bots": ["heuristic"] * 2, "turns": 3,
    },
}  # fmt: skip


def _generate(name: str) -> str:
    from skirmish.bots.runner import play_out, seat_bots
    from skirmish.engine.game import Game

    case = CASES[name]
    update = {"turns": case["turns"]} if "turns" in case else {}
    sc = scenario(case["scenario"], **update)
    opts = sc.options.with_overrides(case.get("options", {}))
    game = Game(sc, [troupe(s.troupe) for s in sc.sides], seed=case["seed"], options=opts, bots=case["bots"])
    play_out(game, seat_bots(game, case["bots"]))
    return dumps(game)


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_replay_reaches_its_recorded_hash_and_result(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    assert path.exists(), f"missing {path}: run python tests/test_golden.py --regenerate"
    rep = load_replay(path)
    assert rep.actions and rep.final_hash
    ok, reached = verify(rep)
    assert ok, f"{name}: re-simulation reached {reached}, recorded {rep.final_hash}"
    game = rep.play()
    assert game.over
    recorded = json.loads(path.read_text(encoding="utf-8"))["result"]
    assert json.loads(json.dumps(game.result())) == recorded


def test_golden_replay_prefix_is_a_resumable_save() -> None:
    """A save of a game in progress (the first actions of a golden replay) continues to the same end."""
    rep = load_replay(GOLDEN / "open_battle_random_s7_t3.json")
    half = len(rep.actions) // 2
    partial = rep.play(upto=half)
    assert not partial.over
    save = json.loads(dumps(partial))
    assert save["status"] == "in_progress" and len(save["actions"]) == half
    for action in rep.actions[half:]:
        partial.apply(action)
    assert partial.hash() == rep.final_hash


if __name__ == "__main__":
    if "--regenerate" not in sys.argv:
        sys.exit("usage: python tests/test_golden.py --regenerate")
    GOLDEN.mkdir(exist_ok=True)
    for case_name in sorted(CASES):
        (GOLDEN / f"{case_name}.json").write_text(_generate(case_name), encoding="utf-8")
        print("wrote", case_name)
