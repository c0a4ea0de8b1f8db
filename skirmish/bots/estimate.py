"""Distances judged by eye: how a bot guesses a range it may not measure (R-C1, R-C3).

With `premeasure` off a player declares a shot, a ranged ability or a charge before anything is
measured, and a misjudged distance wastes the shot or leaves the charger short and open to a
counter-charge. A bot that reads exact distances never makes that mistake, so troupe tests would
never show the price of range guessing. This module gives a bot a seeded, documented error:

    guess = true distance x (1 + sigma x z),   z a standard normal cut at +-3, guess >= 0

so the error grows in proportion to the distance (judging 3" is easy, 20" is not). `sigma` is the
bot's skill: `exact` 0 (the old behaviour), `good` 0.05, `average` 0.10, `poor` 0.20. For scale,
`average` misjudges a 10" distance by more than 1" about a third of the time.

Determinism without touching the game's dice: `z` is not drawn from a stream at all but derived
by `derive_seed` from (game seed, seat, turn, observer, target), so
- the game's one dice stream is never read, and games of `exact` bots are byte for byte the same;
- asking twice about the same pair in the same turn gives the same answer (a consistent misreading,
  as a person's would be), whatever order the bot asks in, so undo or a copied game cannot make a
  bot act differently;
- a new turn is a fresh look: the error for the same pair changes from turn to turn.
The guess of a model's distance and of its charge path share `z`, so the guess of the path is never
shorter than the guess of the straight distance.
"""

from __future__ import annotations

import math

from skirmish.rules.dice import derive_seed

SKILLS: dict[str, float] = {"exact": 0.0, "good": 0.05, "average": 0.10, "poor": 0.20}
"""Relative standard error of a guessed distance, by skill."""

ESTIMATE_STREAM = 0xE57
"""Tag that keeps the estimate's seeds apart from every other stream derived from the game seed."""

Z_LIMIT = 3.0
"""The normal deviate is cut here: no guess is off by more than three standard errors."""

_TOP = float(1 << 63)


def _uniform(seed: int, *parts: int) -> float:
    """A number in (0, 1), a pure function of its arguments."""
    return (derive_seed(seed, *parts) + 0.5) / _TOP


def deviate(seed: int, player: int, turn: int, observer: int, target: int) -> float:
    """The standard normal deviate of one observer's look at one target in one turn (Box-Muller)."""
    u1 = _uniform(seed, ESTIMATE_STREAM, player, turn, observer, target, 1)
    u2 = _uniform(seed, ESTIMATE_STREAM, player, turn, observer, target, 2)
    z = math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
    return max(-Z_LIMIT, min(Z_LIMIT, z))


class DistanceJudge:
    """A seat's eye for distances: `guess` turns a true distance into the one the bot believes."""

    def __init__(self, seed: int, player: int, skill: str = "exact") -> None:
        if skill not in SKILLS:
            raise ValueError(f"unknown distance skill {skill!r} (known: {', '.join(SKILLS)})")
        self.seed = seed
        self.player = player
        self.skill = skill
        self.sigma = SKILLS[skill]

    @property
    def exact(self) -> bool:
        return self.sigma == 0.0

    def guess(self, true: float, turn: int, observer: int, target: int) -> float:
        """What this seat believes the distance from `observer` to `target` is (indices of models)."""
        if self.exact:
            return true
        z = deviate(self.seed, self.player, turn, observer, target)
        return max(0.0, true * (1.0 + self.sigma * z))
