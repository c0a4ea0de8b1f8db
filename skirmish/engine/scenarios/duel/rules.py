"""The Avatar Duel's rules (R-X1, R-X2): *Avatar War* played on the table.

Each turn is one round of the source game. Avatars move (standard movement, Air Glide, Earth Wall);
then every Avatar builds up to four techniques **behind its shield** (`Build`, one per player, in
player order but hidden from the others until revealed — the replay keeps them, the observation
of another player does not); then the round of attacks: in player order each Avatar may call
ATTACK (`Attack`: reveal one technique, pick a target in sight and range), the target chooses
which technique defends (`Defend`, or `Decline` to take it), the exchange is resolved by
`exchange.resolve`, and the defender may counter-attack, and so on down the chain; then the next
player may attack. The round ends when an Avatar that built techniques has none left, when
nobody can or will attack, or when only one Avatar stands. Pieces return, the order rotates so no
seat always calls first, and the next turn begins. The last Avatar standing wins; at the turn
limit the most endurance left wins, equal is a draw.

Everything that changes lives in `state.extra["duel"]` (hashed, snapshotted, replayed). What a
player may know of it is `observe(player)`: their own techniques, the revealed ones of the others,
and for the others' hidden ones only that they exist.
"""

from __future__ import annotations

from typing import Any

from skirmish.engine.core.flow import Step, StepSpec, step
from skirmish.engine.scenarios.duel.build import DuelBuild
from skirmish.engine.scenarios.duel.round import DuelRound

DUEL_STEPS: tuple[StepSpec, ...] = (
    step(Step.BUILD, "move", "Building techniques behind the shield", "R-T1", "Build"),
    step(Step.DUEL, "combat", "ATTACK! and counter-attack", "R-T1"),
    step(Step.ROUND_END, "end", "The round ends: pieces return", "R-T1"),
)
"""The Duel's own steps; their hooks are the rules object's (`DuelRules.extensions`)."""

DUEL_PENDING_ACTIONS = {
    "duel_call": frozenset({"Attack", "Decline"}),
    "duel_defend": frozenset({"Defend", "Decline"}),
}
"""The Duel's pending decisions: call an attack (or not), defend against one (or not)."""

DUEL_TURN: tuple[str | StepSpec, ...] = (Step.AP_ROLL, Step.MOVEMENT, *DUEL_STEPS, Step.TURN_END)
"""The Avatar Duel's turn (R-X2): move, build in secret, the round of attacks, pieces return (the
standard steps by name: they keep their own hooks). Its attacks are offered one at a time as
pending decisions (`duel_call`, `duel_defend`)."""


class DuelRules(DuelBuild, DuelRound):
    """Victory `duel`: the Avatar Duel of hidden techniques; the last Avatar standing wins."""

    def turn_steps(self) -> tuple[str | StepSpec, ...] | None:
        return DUEL_TURN

    def extensions(self) -> dict[str, dict[str, Any]]:
        return {
            "begin": {
                "build": self._begin_build,
                "duel": self._begin_round,
                "round_end": self._round_end,
            },
            "has_options": {"build": self._can_build},
            "generators": {"build": self._build_candidates},
            "handlers": {
                "Build": self._do_build,
                "Attack": self._do_attack,
                "Defend": self._do_defend,
            },
            "decline": {"duel_call": self._do_decline, "duel_defend": self._do_decline},
            "pending": {"duel_call": self._call_actions, "duel_defend": self._defend_actions},
            "pending_actions": DUEL_PENDING_ACTIONS,
        }

    def winner(self) -> tuple[int | None, str]:
        g = self.game
        left = g.teams_on_table()
        if len(left) == 1:
            return left[0], "the last Avatar standing is the true Avatar"
        if not left:
            return None, "the last Avatars fell together"
        score = {
            t: sum(len(self.st["endurance"][m.id]) for m in g.state.models if g.team(m) == t and m.active)
            for t in left
        }
        best = max(score.values())
        top = [t for t, v in score.items() if v == best]
        text = ", ".join(
            f"{'/'.join(p.name for p in g.state.players if p.team == t)} {v}"
            for t, v in sorted(score.items())
        )
        if len(top) == 1:
            return top[0], f"more endurance left ({text})"
        return None, f"equal endurance left ({text})"
