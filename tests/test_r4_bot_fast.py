"""The zone runner's "beyond the zone" test, written with each norm and dot product taken once, is
the test it replaces: the same answer for every enemy, at random points and on the edge cases
(an enemy where the runner stands, the zone straight ahead or behind)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.bots.zones import lies_beyond


def _reference(xy: np.ndarray, here: np.ndarray, zone: np.ndarray, index: int) -> bool:
    """The round 3 test: a cosine with both norms taken afresh for every enemy."""

    def dot(a: np.ndarray, b: np.ndarray) -> float:
        return float(a[0] * b[0] + a[1] * b[1])

    def cos(a: np.ndarray, b: np.ndarray) -> float:
        na, nb = float(np.hypot(*a)), float(np.hypot(*b))
        return 0.0 if na < 1e-9 or nb < 1e-9 else dot(a, b) / (na * nb)

    to_zone = zone - here
    to_zone = to_zone / float(np.hypot(*to_zone))
    far = float(np.hypot(*(zone - here))) * 0.9
    ahead = xy[index] - here
    return dot(ahead, to_zone) > far and cos(ahead, to_zone) > 0.8


_coord = st.floats(min_value=-5.0, max_value=60.0, allow_nan=False)


@settings(max_examples=400, deadline=None)
@given(
    pts=st.lists(st.tuples(_coord, _coord), min_size=2, max_size=8),
    zone=st.tuples(_coord, _coord),
)
def test_lies_beyond_is_the_reference(pts: list[tuple[float, float]], zone: tuple[float, float]) -> None:
    xy = np.array(pts, dtype=float)
    here, goal = xy[0].copy(), np.array(zone)
    if float(np.hypot(*(goal - here))) < 1.0:
        return  # the runner is at its zone: never asked
    # an enemy where the runner stands, one on the line to the zone, one just past it
    extra = np.array([here, here + (goal - here) * 0.95, here + (goal - here) * 1.3])
    xy = np.vstack([xy, extra])
    beyond = lies_beyond(xy, here, goal)
    for i in range(len(xy)):
        assert beyond(SimpleNamespace(index=i)) == _reference(xy, here, goal, i)  # type: ignore[arg-type]
