"""Why a player's part of a step ended without a pass: the words the log (and the table) give.

A step a player cannot act in is skipped by the phase machine, and a step whose last option was
used ends by itself. Both used to happen silently, so a player pressing End Step for a step that
had already gone threw away the next one. These words are written to the log as `skip` events
(the log is not part of the state hash), so the UI can announce them and the log shows them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.engine.core.flow import StepSpec

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx


def _reason(game: Ctx, spec: StepSpec, player: int) -> str:
    if not any(m.active for m in game.player_models(player)):
        return "no model left on the table"
    return spec.skip_reason(game, player) if spec.skip_reason is not None else "nothing left to do"


def _acted(game: Ctx, player: int) -> bool:
    """Whether the player did anything in the current step (judged from the log of this step)."""
    s = game.state
    for e in reversed(game.log):
        if e.turn != s.turn or e.step != s.step:
            return False
        if e.kind in ("skip", "pass", "turn", "ap_roll"):
            continue
        if e.models and any((m := s.model(mid)) is not None and m.player == player for mid in e.models[:1]):
            return True
    return False


def note_skip(game: Ctx, spec: StepSpec, player: int) -> None:
    """Log that `player`'s part of the step ends because nothing is left for them to do (the step's
    own words and reason, from its `StepSpec`)."""
    if not game.record_log or spec.skip_words is None:
        return
    name = game.state.players[player].name
    words = spec.skip_words
    ends = f"{words} over" if _acted(game, player) else f"{words} skipped"
    why = _reason(game, spec, player)
    game.emit("skip", f"{name}: {why} — {ends}", reason=why, player=player)
