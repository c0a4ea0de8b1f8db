"""The dice stream written out (`Dice.roll`, design principle 4): the faces, the generator's state
and the recorded rolls are those of the reference (SplitMix64 through `_splitmix64`, rejection
sampling against `(1 << 64) - (1 << 64) % sides`, a `Roll` built by its dataclass) for every die
size to a D25 and many seeds, and a roll made without `__init__` is the dataclass's value."""

from __future__ import annotations

import dataclasses
import random

import pytest

from skirmish.rules.dice import _MASK, Dice, Roll, _roll, _splitmix64


def _reference_roll(state: int, sides: int) -> tuple[int, int]:
    limit = (1 << 64) - ((1 << 64) % sides)
    while True:
        state, r = _splitmix64(state)
        if r < limit:
            return state, r % sides + 1


@pytest.mark.parametrize("seed", [0, 1, 11, 2**63 - 1, 2**64 - 1, 123456789])
def test_rolls_are_the_reference_splitmix_faces(seed: int) -> None:
    rng = random.Random(seed)
    dice = Dice(seed)
    state = seed & _MASK
    for k in range(2000):
        sides = rng.choice([6, 6, 6, 3, 1, 2, 4, 7, 8, 12, 20, 21, 25])
        state, face = _reference_roll(state, sides)
        assert dice.roll(sides, f"r{k}") == face
        assert dice.state == state
        assert dice.history[-1] == Roll(sides, face, f"r{k}")
    assert len(dice.history) == 2000


def test_the_kept_rejection_limits_are_the_reference_ones() -> None:
    from skirmish.rules.dice import _LIMITS

    for sides in range(1, len(_LIMITS)):
        assert _LIMITS[sides] == (1 << 64) - ((1 << 64) % sides)


def test_a_roll_made_without_init_is_the_dataclass_value() -> None:
    assert not hasattr(Roll, "__post_init__")
    for sides, value, purpose in [(6, 1, "shoot"), (3, 3, "AP bonus"), (20, 17, "")]:
        fast, ref = _roll(sides, value, purpose), Roll(sides, value, purpose)
        assert fast == ref and hash(fast) == hash(ref) and repr(fast) == repr(ref)
        assert dataclasses.asdict(fast) == dataclasses.asdict(ref)
        assert vars(fast) == vars(ref)
        with pytest.raises(dataclasses.FrozenInstanceError):
            fast.value = 2  # type: ignore[misc]


def test_forced_and_strict_dice_still_answer_first() -> None:
    d = Dice.forced([4, 2], strict=True)
    assert d.d6("a") == 4 and d.d3("b") == 2
    with pytest.raises(Exception, match="no forced roll"):
        d.d6("c")
    free = Dice(5)
    free.force(6)
    assert free.d6() == 6
    state = 5
    state, face = _reference_roll(state, 6)
    assert free.d6() == face and free.state == state
