"""What an action came to, as a toast over the board: a headline coloured by the result, the
engine's own sentences (a melee one line per pair), the floating results and the models involved.

Judged from the kinds of the events the action logged, never from their wording.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from skirmish.rules.modifiers import Score
from skirmish.ui.table_words import melee_lines, names_of

if TYPE_CHECKING:
    from skirmish.engine import Game

TOAST_SECONDS = 6.0
OUTCOME_KINDS = frozenset(
    {
        "shot",
        "shot_wasted",
        "perception",
        "impossible",
        "save",
        "wound",
        "ko",
        "charge",
        "charge_failed",
        "melee",
        "ability",
        "reaction",
        "removed",
        "take_cover",
        "offer",
        "decline",
    }
)
"""Log kinds worth a banner toast; moves (animated anyway), passes and turn notes are not."""
HIT = (255, 130, 100)
NO_EFFECT = (175, 190, 215)
DONE = (150, 220, 150)


@dataclass
class Toast:
    """What an action (yours or a bot's) came to, shown big over the board for a few seconds."""

    headline: str
    colour: tuple[int, int, int]
    lines: list[str]
    start: float
    until: float
    models: tuple[str, ...] = ()
    pairs: list[tuple[str, str]] = field(default_factory=list)
    floats: list[tuple[str, str, tuple[int, int, int]]] = field(default_factory=list)


def die_sum(score: Score) -> str:
    """A score before its die, in the log's order (positives first, then negatives, one "="):
    `D6 + Combat 1 + charged this turn 1 − enemy has a shield 1 = D6 + 1`."""
    parts = ["D6", "+", f"{score.stat_name} {score.stat}", *(str(m) for m in score.ordered)]
    total = score.base_total
    return " ".join(parts) + f" = D6 {'+' if total >= 0 else '−'} {abs(total)}"


def _hp_lost(text: str) -> str:
    found = re.search(r"loses (\d+) HP", text)
    return f"-{found.group(1)} HP" if found else "hit"


def outcome_toast(
    game: Game, events: list, now: float, note: str = "", named: Callable[[str], str] = str
) -> Toast | None:
    """The headline, the engine's own sentences and the marks for one applied action's events."""
    events = [e for e in events if e.kind in OUTCOME_KINDS]
    if not events:
        return None
    kinds = [e.kind for e in events]
    name = {m.id: m.name for m in game.state.models}
    floats: list[tuple[str, str, tuple[int, int, int]]] = []
    pairs: list[tuple[str, str]] = []
    headline, colour = "", DONE
    for e in events:
        who = e.models[0] if e.models else ""
        if e.kind in ("shot", "shot_wasted", "charge", "charge_failed") and len(e.models) >= 2:
            pairs.append((e.models[0], e.models[1]))
        if e.kind == "shot_wasted":
            floats.append((e.models[1], "wasted", NO_EFFECT))
        elif e.kind == "shot" and len(e.models) >= 2 and not ({"save", "wound", "ko"} & set(kinds)):
            if not ({"reaction", "offer"} & set(kinds)):
                floats.append((e.models[1], "dodged", NO_EFFECT))
        elif e.kind == "save":
            floats.append((who, "saved", NO_EFFECT))
        elif e.kind == "wound":
            floats.append((who, _hp_lost(e.text), HIT))
        elif e.kind == "ko":
            floats.append((who, "KO", HIT))
        elif e.kind == "charge_failed":
            floats.append((who, "short", NO_EFFECT))
        elif e.kind == "perception" and "fails" in e.text:
            floats.append((who, "lost", NO_EFFECT))
    if "ko" in kinds:
        ko = [name.get(e.models[0], "?") for e in events if e.kind == "ko" and e.models]
        headline, colour = f"KO — {', '.join(ko)} is KO'd", HIT
    elif "wound" in kinds:
        hurt = [f"{name.get(e.models[0], '?')} {_hp_lost(e.text)}" for e in events if e.kind == "wound"]
        headline, colour = "Hit — " + ", ".join(hurt), HIT
    elif "shot_wasted" in kinds:
        headline, colour = "Out of range — the shot is wasted", NO_EFFECT
    elif "charge_failed" in kinds:
        headline, colour = "The charge falls short", NO_EFFECT
    elif "save" in kinds:
        headline, colour = "Hit — but saved", NO_EFFECT
    elif "shot" in kinds:
        # a hit is always followed by a save or a wound; judge by the kinds, not by the wording
        dodged = not ({"save", "wound", "ko", "reaction", "offer"} & set(kinds))
        headline, colour = ("Dodged — no hit", NO_EFFECT) if dodged else ("Hit", HIT)
    elif "perception" in kinds and any("fails" in e.text for e in events):
        headline, colour = "Perception test failed — the target stays hidden", NO_EFFECT
    elif "charge" in kinds:
        headline = "Charge home — in base contact"
    elif "melee" in kinds:
        headline = "Melee resolved — no wounds"
    elif "ability" in kinds or "reaction" in kinds:
        headline = "Ability used"
    elif "offer" in kinds:
        headline = "A decision is offered"
    elif "take_cover" in kinds:
        headline = "Taking Cover"
    elif "removed" in kinds:
        headline = "Casualties removed"
    else:
        headline = "Done"
    if "shot_wasted" in kinds or "charge_failed" in kinds:
        note = ""  # the engine's sentence already tells the distance
    names = names_of(game)  # a melee reads one line per pair; the log has the full breakdown
    lines = ([note] if note else []) + [ln for e in events for ln in melee_lines(names, e) or [named(e.text)]]
    models = tuple(dict.fromkeys(m for e in events for m in e.models))
    return Toast(headline, colour, lines, now, now + TOAST_SECONDS, models, pairs, floats)
