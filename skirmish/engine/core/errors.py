"""The typed refusal of an action (design principle 3)."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules forbid now. `rule` names the rule ID; the game state is left unchanged."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.reason = message
        super().__init__(f"{rule}: {message}")
