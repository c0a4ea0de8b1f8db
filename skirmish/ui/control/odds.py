"""The learners' odds while targeting: the engine's `matchup` for the pair, in words.

The scores, saves and chances are the engine's own (`skirmish.engine.queries.matchup`), so the
preview counts what the rules count: friends already fighting the target, the target Taking
Cover, the charge bonus a charge that reaches will bring. It never reveals a distance (R-C1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.engine import queries
from skirmish.ui.toasts import die_sum

if TYPE_CHECKING:
    from skirmish.engine import Game
    from skirmish.engine.queries import ModelState, ShotSpec
    from skirmish.rules.modifiers import Score

FRIENDS = "friends in the melee"
"""The engine's name for the +1 per friend already fighting (R-C4)."""


def _friends(score: Score) -> int:
    return sum(mod.value for mod in score.modifiers if mod.name == FRIENDS)


def odds_lines(
    game: Game, m: ModelState | None, t: ModelState | None, kind: str, spec: ShotSpec | None
) -> list[str]:
    """The odds box for `m` shooting (`kind` "shoot", with `spec`) or charging `t`; [] for none."""
    if m is None or t is None or not game.enemies(m, t) or not t.active:
        return []
    if not game.sees(m, t):  # no odds for a target that cannot be chosen (R-B3)
        return [f"{t.name} is out of {m.name}'s sight: no odds"]
    if kind == "shoot":
        if spec is None:
            return []
        shot = queries.matchup(game, m, t, weapon=spec.name)
        armour, shield, odds = shot.armour, shot.shield, shot.odds
        lines = [
            f"{m.name} shoots {t.name} with {spec.title}",
            f"Shooting: {die_sum(shot.attack)}",
            f"Dodge: {die_sum(shot.dodge)}",
            f"Saves: armour {f'{armour}+' if armour else 'none'} · "
            f"shield {f'{shield}+' if shield else 'none'}"
            + (" · Taking Cover: 3+ Wall Shield" if shot.taking_cover else ""),
        ]
        if odds.impossible:
            lines.append("Impossible Shot (score not above 0)")
        else:
            lines.append(f"hit {odds.hit:.0%} · wound {odds.wound:.0%} · KO {odds.ko:.0%}")
        if shot.taking_cover:
            lines.append(f"first a Perception test: {m.profile.perception} or less on a D6")
        lines.append("if it is in range — the odds never reveal the distance")
        return lines
    fight = queries.matchup(game, m, t, charging=True)
    mine, theirs = _friends(fight.attack), _friends(fight.defend)
    mo = fight.odds
    return [
        f"{m.name} charges {t.name} (one exchange, 1 against 1, if the charge reaches)"
        + (f"; friends already in the melee: {mine} of yours, {theirs} of theirs" if mine or theirs else ""),
        f"{m.name}: {die_sum(fight.attack)}",
        f"{t.name}: {die_sum(fight.defend)}",
        f"{t.name} wounded {mo.defender_wounded:.0%} (KO {mo.defender_ko:.0%}) · "
        f"{m.name} wounded {mo.attacker_wounded:.0%} (KO {mo.attacker_ko:.0%})",
    ]
