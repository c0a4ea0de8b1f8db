"""Turn points of the battle: the end-step guard, the hotseat hand-over and the turn summary.

Headless (the card is drawn by `ui/handover.py`).

Issue 16, items 8 and 11. One E press could carry into the next step and throw away a player's
movement (seen twice in a real window): after the step or the player to act changes, the end-step
key is ignored for `END_STEP_GUARD_SECONDS` of scene time (the frame's `dt`, so tests drive it
exactly; the engine never sees a clock). When the seat passes from one person to another (hotseat)
a hand-over card covers the table until the next player presses Enter, and when a turn ends the
card first says what the turn came to (KOs, points and why, who holds what).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from skirmish.engine import STEPS as SPECS
from skirmish.ui.table_words import turn_summary

if TYPE_CHECKING:
    from skirmish.engine import Game

END_STEP_GUARD_SECONDS = 0.8
"""How long the end-step key is ignored after the step or the player to act changes."""


@dataclass(frozen=True)
class TurnPoint:
    """Where the game is, as far as a player's attention goes: a change means "look again"."""

    turn: int
    step: str
    player: int
    pending: bool

    @classmethod
    def of(cls, game: Game) -> TurnPoint:
        s = game.state
        return cls(s.turn, s.step, s.active_player, s.pending is not None)


@dataclass
class HandOver:
    """The card over the table: a title, the turn's summary (if a turn just ended), who is next."""

    title: str
    lines: list[str] = field(default_factory=list)
    next_player: int | None = None
    next_words: str = ""


def card_for(
    game: Game, before: TurnPoint, after: TurnPoint, people: list[bool], *, hotseat: bool
) -> HandOver | None:
    """The card to show when the game moved from `before` to `after`, or None.

    `people[p]` is True for seats a person plays. A turn summary is shown whenever a person plays;
    the hand-over only when the seat passes between two people (hotseat).
    """
    if game.over or not any(people):
        return None
    card: HandOver | None = None
    if after.turn > before.turn and before.turn >= 1:
        card = HandOver(f"Turn {before.turn} is over", turn_summary(game, before.turn))
    handover = (
        hotseat
        and after.player != before.player
        and people[after.player]
        and (people[before.player] or card is not None)
    )
    if handover:
        p = game.state.players[after.player]
        step = SPECS[after.step].title if after.step in SPECS else after.step
        what = (
            "answer the decision offered"
            if after.pending
            else "deployment"
            if after.step == "deploy"
            else f"turn {after.turn}, {step}"
        )
        if card is None:
            card = HandOver(f"Hand over to {p.name}")
        card.next_player = after.player
        card.next_words = f"{p.name} to act: {what}. Pass the seat, then press Enter (or click)."
    elif card is not None:
        card.next_words = "Press Enter (or click) to go on."
    return card


def skip_words(texts: list[str]) -> str:
    """Skipped steps in one line: the same words for several players are said once.

    `avatar: no one in sight — shooting skipped` and the same for fire_nation read
    `no one in sight — shooting skipped (avatar, fire_nation)`.
    """
    by_words: dict[str, list[str]] = {}
    for t in texts:
        who, _, words = t.partition(": ")
        by_words.setdefault(words or t, []).append(who)
    return " · ".join(f"{words} ({', '.join(who)})" for words, who in by_words.items())
