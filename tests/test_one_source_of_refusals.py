"""Each rule's conditions are written once (issue 12): the step's `*_refusal` function is what the
handler raises, what the candidate generator and the option check ask, and what `why_not` (the
UI's greyed buttons) shows. Checked at every position of every golden replay, for every model of
the player to act, in the steps where models move, take cover, charge and advance."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from skirmish.engine import queries
from skirmish.engine.core.actions import Action, Advance, Charge, Move, TakeCover
from skirmish.engine.core.errors import Refusal
from skirmish.engine.core.state import ModelState
from skirmish.engine.game import Game
from skirmish.engine.replay import load_replay
from skirmish.engine.steps.charges import charger_refusal
from skirmish.engine.steps.end_phase import advance_refusal
from skirmish.engine.steps.movement import cover_refusal, move_refusal

GOLDEN = Path(__file__).parent / "golden"


def _stay(game: Game, m: ModelState) -> list[tuple[float, float]]:
    x, y = map(float, game.state.xy[m.index])
    return [(x, y), (x, y)]


def _first_enemy(game: Game, m: ModelState) -> str:
    return next(t.id for t in game.state.models if t.active and game.enemies(m, t))


CHECKS: dict[
    str, tuple[type[Action], Callable[..., Refusal | None], Callable[[Game, ModelState], Action]]
] = {
    "movement": (Move, move_refusal, lambda g, m: Move(m.id, _stay(g, m))),
    "take_cover": (TakeCover, cover_refusal, lambda g, m: TakeCover(m.id)),
    "charges": (Charge, charger_refusal, lambda g, m: Charge(m.id, _first_enemy(g, m))),
    "advances": (Advance, advance_refusal, lambda g, m: Advance(m.id, _stay(g, m))),
}


def _check_position(game: Game) -> int:
    s = game.state
    if s.over or s.pending is not None or s.step not in CHECKS:
        return 0
    kind, refusal_of, probe = CHECKS[s.step]
    offered = {a.model for a in game.legal_actions() if isinstance(a, kind)}  # type: ignore[attr-defined]
    checked = 0
    for m in game.player_models(s.active_player):
        refusal = refusal_of(game, m)
        if refusal is None:
            continue
        assert m.id not in offered, f"{m.id}: offered {kind.__name__} although {refusal}"
        assert queries.why_not(game, probe(game, m)) == refusal
        checked += 1
    return checked


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_r_m2_r_m4_r_c3_r_e1_one_copy_of_each_refusal(path: Path) -> None:
    rep = load_replay(path)
    game = rep.new_game()
    checked = _check_position(game)
    for action in rep.actions:
        game.apply(action)
        checked += _check_position(game)
    assert game.hash() == rep.final_hash, "asking why_not changed the game"
    assert checked > 0, "no refused model was met: the test checked nothing"
