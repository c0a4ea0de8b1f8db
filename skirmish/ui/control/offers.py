"""What the banner offers the player to act now: one `Offer` per button, greyed with the reason.

Whether a button is live and why not are the engine's answers (`BattleControl.ask`, i.e.
`queries.why_not_model`: the engine's own checks, stopped before any target or route is chosen), so
a greyed button the engine would accept, or the reverse, cannot happen. `command` names what the
button does; the scene runs it (the same names as the key table, `ui/battle/keys.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from skirmish.engine import STEPS
from skirmish.ui.control.battle import SPEEDS
from skirmish.ui.table_words import spec_words

if TYPE_CHECKING:
    from skirmish.engine import Refusal
    from skirmish.ui.control.battle import BattleControl

NEED = "select one of your models"


@dataclass(frozen=True)
class Offer:
    """One banner button: its label, hotkey, the command it runs (with `arg`), live or greyed why."""

    label: str
    hotkey: str
    command: str | None
    enabled: bool = True
    reason: str = ""
    arg: int = 0


def _why(refusal: Refusal | str | None) -> str:
    return "" if refusal is None else refusal if isinstance(refusal, str) else refusal.reason


def offers(ctl: BattleControl) -> list[Offer]:
    """The buttons for now: results and replay at the end, the bot's controls on its turn, the
    answers to a pending decision, else what the step allows the selected model."""
    g = ctl.game
    s = g.state
    out: list[Offer] = []
    if g.over:
        return [Offer("Results", "Enter", "show_end"), Offer("Replay", "W", "watch_replay")]
    if ctl.is_bot_turn():
        who = s.players[s.active_player]
        thinking = f"{who.name}'s bot is thinking" if not ctl.bot_paused else "bots paused"
        return [
            Offer(thinking, "P", "toggle_pause"),
            Offer(f"Speed: {SPEEDS[ctl.speed][0]}", "+/-", "faster"),
            Offer("Undo", "U", "undo", g.can_undo, "dice rolled since"),
        ]
    if s.pending is not None:
        items = ctl.choices.items if ctl.choices is not None else []
        for k, (label, action, why) in enumerate(items[:9]):
            out.append(Offer(label, str(k + 1), "choose", action is not None, why, k))
        return out
    allowed = STEPS[s.step].actions
    m = ctl.selected_model()
    mine = m is not None and m.player == s.active_player and m.active
    if "Deploy" in allowed:
        out.append(Offer("Drag a model to re-place it", "drag", None, mine, "" if mine else NEED))
        out.append(Offer("Keep this deployment, done", "E", "end_step"))
    if "Move" in allowed or "Advance" in allowed:
        verb = "Move" if "Move" in allowed else "Advance/Disengage"
        kind = ctl.path_kind(m) if m is not None and mine else None
        if m is None or not mine:
            why = NEED
        elif kind is None:  # the engine's refusal of the kind this step moves with
            why = _why(ctl.ask("Move" if "Move" in allowed else "Advance", m))
        else:
            why = "draw a path"
        live = kind is not None and len(ctl.path) >= 2
        out.append(Offer(f"{verb}: drag a path, Enter commits", "Enter", "commit_path", live, why))
    if "TakeCover" in allowed:
        refusal = ctl.ask("TakeCover", m) if m is not None and mine else NEED
        out.append(Offer("Take Cover", "C", "take_cover", refusal is None, _why(refusal)))
    if "Shoot" in allowed:
        refusal = ctl.why_not_shoot(m) if m is not None and mine else NEED
        spec = ctl.current_spec(m) if m is not None and mine else None
        label = "Shoot" + (f" ({spec_words(spec)})" if spec else "")
        out.append(Offer(label, "S", "shoot", refusal is None, _why(refusal)))
        if m is not None and mine and len(ctl.shot_specs(m)) > 1:
            out.append(Offer("Next weapon", "W", "next_weapon"))
    if "Charge" in allowed:
        refusal = ctl.ask("Charge", m) if m is not None and mine else NEED
        out.append(Offer("Charge", "H", "charge", refusal is None, _why(refusal)))
    if "UseAbility" in allowed:
        out.append(Offer("Abilities", "A", "abilities", mine, NEED))
    if "Deploy" not in allowed:
        out.append(Offer(f"End {STEPS[s.step].title}", "E", "end_step"))
    out.append(Offer("Undo", "U", "undo", g.can_undo, "no action since the last dice"))
    return out
