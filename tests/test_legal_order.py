"""`legal_actions()` order pinned over every golden replay (stage 0 of the rulebook plan, issue 12).

The random bot picks by index into `legal_actions()`, so reordering the candidates changes games
even when the set is the same. Before the engine's steps are reorganised, this pins the exact
list (each action's `repr`, in order) at every position of every golden replay: one short hash
per position, kept in `tests/pinned/legal_actions_order.json`. A failure names the replay and the
first action index where the list differs.

Regenerate only for an intended rules change, in its own commit:
`python tests/test_legal_order.py --regenerate`.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from skirmish.engine.replay import load_replay

GOLDEN = Path(__file__).resolve().parent / "golden"
PINNED = Path(__file__).resolve().parent / "pinned" / "legal_actions_order.json"
"""Kept beside `golden/`, not in it: every file of `golden/` is a replay."""
DIGITS = 8
"""Hex digits kept per position: 32 bits, so an accidental match of a changed list is 1 in 4e9."""


def _digest(actions: list[object]) -> str:
    text = "\n".join(repr(a) for a in actions)
    return hashlib.sha256(text.encode()).hexdigest()[:DIGITS]


def _orders(path: Path) -> list[str]:
    """The digest of `legal_actions()` before each recorded action, then at the end."""
    rep = load_replay(path)
    game = rep.new_game(record_log=False)
    out = []
    for action in rep.actions:
        out.append(_digest(game.legal_actions()))
        game.apply(action)
    out.append(_digest(game.legal_actions()))
    assert game.hash() == rep.final_hash, f"{path.name}: asking legal_actions() changed the game"
    return out


def _replays() -> list[Path]:
    return sorted(GOLDEN.glob("*.json"))


@pytest.mark.parametrize("path", _replays(), ids=lambda p: p.stem)
def test_r_t1_legal_actions_order_is_pinned_over_the_golden_replay(path: Path) -> None:
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    assert path.stem in pinned, (
        f"{path.stem} is not pinned: run python tests/test_legal_order.py --regenerate"
    )
    want = [pinned[path.stem][i : i + DIGITS] for i in range(0, len(pinned[path.stem]), DIGITS)]
    got = _orders(path)
    assert len(got) == len(want), f"{path.stem}: {len(got)} positions, {len(want)} pinned"
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g == w, f"{path.stem}: legal_actions() differs before action {i} (of {len(got) - 1})"


if __name__ == "__main__":
    if "--regenerate" not in sys.argv:
        sys.exit("usage: python tests/test_legal_order.py --regenerate")
    data = {p.stem: "".join(_orders(p)) for p in _replays()}
    PINNED.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print("wrote", PINNED, {k: len(v) // DIGITS for k, v in data.items()})
