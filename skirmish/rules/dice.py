"""The game's one source of randomness (design principle 4).

A small counter-based generator (SplitMix64) keeps the whole state in one integer, so it
serialises into a save or replay as a number and two games with the same seed roll the same
dice on any machine. Tests force rolls with `Dice.forced`; every roll is recorded with its
purpose so the log can show every die, failures too.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

_MASK = (1 << 64) - 1


_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
"""SplitMix64's increment and its two multipliers (`_splitmix64`; `Dice.roll` writes it out)."""


def _splitmix64(state: int) -> tuple[int, int]:
    state = (state + _GAMMA) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return state, z ^ (z >> 31)


def derive_seed(seed: int, *parts: int) -> int:
    """A well-mixed seed for a sub-stream (e.g. game `i` of a batch run with seed `seed`)."""
    state = seed & _MASK
    for part in parts:
        state, out = _splitmix64(state ^ (part & _MASK))
        state = out
    return state & ((1 << 63) - 1)


@dataclass(frozen=True)
class Roll:
    """One die rolled: its size, the face and why it was rolled."""

    sides: int
    value: int
    purpose: str


_NEW = object.__new__
_SETATTR = object.__setattr__


def _roll(sides: int, value: int, purpose: str) -> Roll:
    """`Roll(sides, value, purpose)`, the same value (equal, the same hash and fields) made without
    the frozen dataclass's `__init__` call: the fields are set as that `__init__` sets them (`Roll`
    has no `__post_init__`, which a test holds), and every die of a game makes one."""
    roll: Roll = _NEW(Roll)
    _SETATTR(roll, "sides", sides)
    _SETATTR(roll, "value", value)
    _SETATTR(roll, "purpose", purpose)
    return roll


_LIMITS = tuple((1 << 64) - ((1 << 64) % sides) if sides else 0 for sides in range(21))
"""The rejection limit of each die up to a D20: the largest multiple of its sides below 2**64."""


@dataclass(frozen=True, slots=True)
class DiceSnapshot:
    """Where a dice stream stood: enough to put it back exactly (an undo, a refused action).

    The history is kept as a length, not a copy: rolls are only ever appended, so cutting the list
    back to this length restores it, and a snapshot per action stays cheap."""

    state: int
    history_len: int
    forced: tuple[int, ...]


class ForcedDiceExhausted(RuntimeError):
    """A test forced fewer rolls than the situation needed."""


class Dice:
    """A seeded dice stream. `roll(6, "shoot")` returns 1..6; every roll is appended to `history`."""

    __slots__ = ("_state", "_forced", "history", "seed", "_strict_forced")

    def __init__(self, seed: int = 0, *, state: int | None = None) -> None:
        self.seed = seed
        self._state = (seed & _MASK) if state is None else state
        self._forced: deque[int] = deque()
        self._strict_forced = False
        self.history: list[Roll] = []

    @classmethod
    def forced(cls, values: Iterable[int], *, strict: bool = True) -> Dice:
        """Dice that roll `values` in order; with `strict`, running out raises instead of rolling."""
        d = cls(0)
        d._forced.extend(values)
        d._strict_forced = strict
        return d

    def force(self, *values: int) -> None:
        """Queue faces to be rolled next (for tests)."""
        self._forced.extend(values)

    @property
    def state(self) -> int:
        """The generator's whole state: store it to resume the same stream."""
        return self._state

    @property
    def pending_forced(self) -> int:
        return len(self._forced)

    def roll(self, sides: int = 6, purpose: str = "") -> int:
        if sides < 1:
            raise ValueError("a die has at least one side")
        if self._forced:
            value = self._forced.popleft()
            if not 1 <= value <= sides:
                raise ValueError(f"forced roll {value} is not a face of a D{sides}")
        elif self._strict_forced:
            raise ForcedDiceExhausted(f"no forced roll left for D{sides} ({purpose})")
        else:
            # Rejection sampling keeps every face exactly equally likely. `_splitmix64` written
            # out (the same integer operations), the state kept local until the face is found.
            limit = _LIMITS[sides] if sides < len(_LIMITS) else (1 << 64) - ((1 << 64) % sides)
            state = self._state
            while True:
                state = (state + _GAMMA) & _MASK
                z = ((state ^ (state >> 30)) * _MIX1) & _MASK
                z = ((z ^ (z >> 27)) * _MIX2) & _MASK
                r = z ^ (z >> 31)
                if r < limit:
                    break
            self._state = state
            value = r % sides + 1
        self.history.append(_roll(sides, value, purpose))
        return value

    def d6(self, purpose: str = "") -> int:
        return self.roll(6, purpose)

    def d3(self, purpose: str = "") -> int:
        return self.roll(3, purpose)

    def snapshot(self) -> DiceSnapshot:
        """The stream's position now, for `restore` (so no one else touches its private fields)."""
        return DiceSnapshot(self._state, len(self.history), tuple(self._forced))

    def restore(self, snap: DiceSnapshot) -> None:
        """Put the stream back where `snap` was taken: the same next rolls, the later rolls forgotten.

        Only a snapshot of this stream taken earlier makes sense (the history is cut, not rebuilt)."""
        if snap.history_len > len(self.history):
            raise ValueError(
                "a dice snapshot from later than now (or from another stream) cannot be restored"
            )
        self._state = snap.state
        del self.history[snap.history_len :]
        self._forced.clear()
        self._forced.extend(snap.forced)

    def copy(self) -> Dice:
        d = Dice(self.seed, state=self._state)
        d._forced = deque(self._forced)
        d._strict_forced = self._strict_forced
        d.history = list(self.history)
        return d


class WouldRoll(Exception):
    """Raised by `NoRolls` when the rules reach for a die: the action got past every check."""


class NoRolls(Dice):
    """A stream that refuses to roll, for asking whether an action would be accepted.

    A roll is where an action commits (design principle 8: dice are commit points), so an action
    that gets as far as its first die has passed every check; stopping there means asking never
    rolls, never uses up forced test dice and never learns a result."""

    def roll(self, sides: int = 6, purpose: str = "") -> int:
        raise WouldRoll(purpose)
