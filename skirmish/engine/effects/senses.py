"""Hidden models and who finds them (R-M4, R-M5): Seismic Sense, the Perception test before shooting
at, aiming at or charging a model Taking Cover.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.engine.core.state import ModelState, abilities_of
from skirmish.rules.combat import perception_test

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx


def sense_range(game: Ctx, m: ModelState) -> float:
    """Seismic Sense: the range within which a model sees through sight-blocking terrain and hiding models."""
    return sense_ranges(game)[m.index] if m.active else 0.0


def sense_ranges(game: Ctx) -> list[float]:
    """Each model's Seismic Sense range by index, active or not (0 without the ability): a model's
    abilities (its profile and its player's armoury) never change during a game."""
    found: list[float] | None = game.memo.get("sense_ranges")
    models = game.state.models
    if found is None or len(found) != len(models):
        found = []
        for m in models:
            best = 0.0
            for a in abilities_of(m, game.armoury(m)):
                if a.effect == "sense":
                    best = max(best, float(a.params.get("range", a.range or 0)))
            found.append(best)
        game.memo["sense_ranges"] = found
    return found


def finds_hidden(
    game: Ctx, m: ModelState, target: ModelState, doing: str, lost: str, *, shot: bool = False
) -> bool:
    """R-M4, R-M5: the Perception test before shooting at, aiming an ability at or charging a model
    Taking Cover; True when `m` may go on (no test needed, or passed). The one place it is rolled
    and logged, so shots, aimed abilities and charges test alike. `shot`: a nullified cover counts."""
    if not target.taking_cover or (spotted if shot else sees_hidden)(game, m, target):
        return True
    start = len(game.dice.history)
    passed, roll = perception_test(game.dice, m.profile.perception)
    game.emit(
        "perception",
        f"{m.name} tests Perception to {doing} (Taking Cover): rolls {roll} vs {m.profile.perception}, "
        + ("passes" if passed else f"fails — {lost}"),
        (m.id, target.id),
        rolls_from=start,
        roll=roll,
        need=m.profile.perception,
        passed=passed,
    )
    return passed


def spotted(game: Ctx, shooter: ModelState, target: ModelState) -> bool:
    """No Perception test for this shot: Seismic Sense, or the shooter nullified the target's cover
    this turn (its ability already took the test, or needed none: ruling R-C6 in docs/rules.md)."""
    return bool(target.buffs.get(f"exposed:{shooter.id}")) or sees_hidden(game, shooter, target)


def sees_hidden(game: Ctx, shooter: ModelState, target: ModelState) -> bool:
    """Seismic Sense: no Perception test against a model Taking Cover within its range."""

    rng = sense_range(game, shooter)
    return rng > 0 and game.distance(shooter, target) <= rng
