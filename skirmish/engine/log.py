"""The game log: every action and every die, with the named modifiers behind each score."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from skirmish.rules.dice import Roll


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
