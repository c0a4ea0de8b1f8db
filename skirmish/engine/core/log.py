"""The game log: every action and every die, with the named modifiers behind each score.

Each event carries a sentence for people (`text`) and, for rolls and scores, the same facts as
data (`data`): a shot's two scores with their named modifiers, a melee's scores per model, so a
notebook, an observer or the UI reads numbers instead of parsing sentences. The log is not part of
the state hash; neither the text nor the data is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from skirmish.rules.dice import Roll
from skirmish.rules.modifiers import Score


@dataclass(frozen=True)
class Event:
    """One thing that happened: when, what kind, a sentence for people, the models and dice involved."""

    turn: int
    phase: str
    step: str
    kind: str
    text: str
    models: tuple[str, ...] = ()
    rolls: tuple[Roll, ...] = ()
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "phase": self.phase,
            "step": self.step,
            "kind": self.kind,
            "text": self.text,
            "models": list(self.models),
            "rolls": [{"sides": r.sides, "value": r.value, "purpose": r.purpose} for r in self.rolls],
        }

    def __repr__(self) -> str:
        text = self.text if len(self.text) <= 60 else self.text[:59] + "…"
        return f"<Event t{self.turn} {self.step} {self.kind}: {text!r}>"


def score_data(score: Score) -> dict[str, Any]:
    """A score as plain data (JSON-ready): the characteristic, each named modifier in the order they
    apply (positive first), the die (None before the roll or when none was rolled) and the totals."""
    return {
        "stat": score.stat_name,
        "value": score.stat,
        "modifiers": [{"name": m.name, "value": m.value} for m in score.ordered],
        "die": score.die,
        "base_total": score.base_total,
        "total": score.total,
    }
