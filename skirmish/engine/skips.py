"""Why a player's part of a step ended without a pass: the words the log (and the table) give.

A step a player cannot act in is skipped by the phase machine, and a step whose last option was
used ends by itself. Both used to happen silently, so a player pressing End Step for a step that
had already gone threw away the next one. These words are written to the log as `skip` events
(the log is not part of the state hash), so the UI can announce them and the log shows them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.engine.steps import charges, end_phase, shooting

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx

STEP_WORDS = {
    "deploy": "deployment",
    "movement": "movement",
    "take_cover": "Taking Cover",
    "shooting": "shooting",
    "charges": "charges",
    "advances": "advances",
}


def _reason(game: Ctx, player: int) -> str:
    step = game.state.step
    mine = [m for m in game.player_models(player) if m.active]
    if not mine:
        return "no model left on the table"
    if step == "movement":
        if all(m.moved for m in mine):
            return "all models have moved"
        return "no model can move (moved, in melee or Taking Cover)"
    if step == "take_cover":
        return "no model can Take Cover"
    if step == "shooting":
        ready = [m for m in mine if shooting.can_fire(game, m) and shooting.shot_specs(game, m)]
        if not ready:
            return "no model can shoot (fired, in melee or no ranged attack)"
        if not any(
            game.sees(m, t) and game.enemies(m, t) and t.active for m in ready for t in game.state.models
        ):
            return "no one in sight"
        return "no target to shoot at (AP too low or targets in melee)"
    if step == "charges":
        ready = [m for m in mine if charges.can_charge(game, m)]
        if not ready:
            return "no model can charge (charged, in melee or Taking Cover)"
        return "no one in sight to charge"
    if step == "advances" and not any(
        end_phase.can_advance(game, m) or end_phase.can_disengage(game, m) for m in mine
    ):
        return "no model won a melee"
    return "nothing left to do"


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


def note_skip(game: Ctx, player: int) -> None:
    """Log that `player`'s part of the step ends because nothing is left for them to do."""
    if not game.record_log or game.state.step not in STEP_WORDS:
        return
    name = game.state.players[player].name
    words = STEP_WORDS[game.state.step]
    ends = f"{words} over" if _acted(game, player) else f"{words} skipped"
    why = _reason(game, player)
    game.emit("skip", f"{name}: {why} — {ends}", reason=why, player=player)
