"""The typed refusal of an action (design principle 3)."""

from __future__ import annotations

from dataclasses import dataclass


class IllegalAction(ValueError):
    """An action the rules forbid now. `rule` names the rule ID; the game state is left unchanged."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.reason = message
        super().__init__(f"{rule}: {message}")

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its own arguments: a refusal raised in a troupe test's worker (a bot of
        one's own choosing an illegal move) crosses back to the parent, where the default
        (`args`, the one joined string) could not rebuild it and broke the worker pool."""
        return (type(self), (self.rule, self.reason), self.__dict__)


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the engine would refuse an action now: the rule ID and the reason in words.

    Each rule's conditions are written once, as a function returning a `Refusal` or None: the step's
    handler raises it (`refuse`), its candidate generator and option check ask whether it is None,
    and `queries.why_not` shows it to a player."""

    rule: str
    reason: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.reason}"


REFUSED = Refusal("", "")
"""What a `*_refusal` function returns with `words=False`: refused, without composing why (the
option checks and candidate lists ask only whether there is a refusal; the conditions stay
written once)."""


def refuse(refusal: Refusal | None) -> None:
    """Raise `IllegalAction` for `refusal`, if there is one."""
    if refusal is not None:
        raise IllegalAction(refusal.rule, refusal.reason)
