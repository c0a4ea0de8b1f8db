"""Who acts first each turn (R-T2): a pluggable strategy, chosen by the rule options.

`Fixed` keeps the order of the scenario's sides; `PriorityRoll` has every player roll a D6 at the
start of each turn, highest first, ties rolling again among themselves. A new order (alternating,
by Battle Points) is one more class with an `order(ctx)` method.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from skirmish.data.options import RuleOptions
    from skirmish.engine.core.context import Ctx


class TurnOrder(Protocol):
    def order(self, ctx: Ctx) -> list[int] | None:
        """The players' order for the turn that begins now, or None to keep the current one."""


class Fixed:
    """The scenario's order of sides, every turn."""

    def order(self, ctx: Ctx) -> list[int] | None:
        return None


class PriorityRoll:
    """R-T2 option: every player rolls a D6, highest first; tied players roll again among themselves."""

    def order(self, ctx: Ctx) -> list[int] | None:
        start = len(ctx.dice.history)

        def rank(group: list[int]) -> list[int]:
            if len(group) <= 1:
                return group
            rolls = {p: ctx.dice.d6(f"priority {ctx.state.players[p].name}") for p in group}
            out: list[int] = []
            for value in sorted(set(rolls.values()), reverse=True):
                out.extend(rank([p for p in group if rolls[p] == value]))
            return out

        order = rank(list(range(len(ctx.state.players))))
        ctx.emit(
            "priority",
            "Priority roll: " + ", ".join(ctx.state.players[p].name for p in order),
            rolls_from=start,
        )
        return order


def for_options(options: RuleOptions) -> TurnOrder:
    return PriorityRoll() if options.priority_roll else Fixed()
