"""The list's filter measures a listed path in plain floats (R-M2: a move shorter than 0.25" is
not listed): `movement._listed_length` is `path_length(np.asarray(pts))` bit for bit for every
length of path, around the plain/numpy limit too, and so `_listed_path` keeps and drops what it
kept and dropped."""

from __future__ import annotations

import random

import numpy as np
import pytest

from skirmish.battlefield.measure import path_length
from skirmish.engine.steps import movement
from skirmish.engine.steps.movement import MIN_LISTED, PLAIN_LENGTH, _listed_length, _listed_path, end_key


@pytest.mark.parametrize("points", [2, 3, 8, 9, 17, 64, 129, PLAIN_LENGTH, PLAIN_LENGTH + 1, 260])
def test_r_m2_a_listed_paths_length_is_path_lengths(points: int) -> None:
    rng = random.Random(points)
    for trial in range(40):
        scale = rng.choice([1e-4, 0.01, 0.3, 1.0, 48.0])
        pts = [[rng.uniform(0, 48), rng.uniform(0, 48)]]
        for _ in range(points - 1):
            pts.append([pts[-1][0] + rng.uniform(-1, 1) * scale, pts[-1][1] + rng.uniform(-1, 1) * scale])
        if trial % 6 == 1:
            pts[rng.randrange(points)] = list(pts[0])  # a zero-length segment
        want = path_length(np.asarray(pts))
        assert _listed_length(pts) == want
        # The filter itself: kept (with its end) exactly when the old test kept it.
        seen: set[tuple[float, float]] = set()
        kept = _listed_path(np.array(pts), seen)
        assert (kept is not None) == (want >= MIN_LISTED)
        assert seen == ({end_key(pts[-1])} if kept is not None else set())


def test_r_m2_short_paths_at_the_listing_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Paths measuring 0.25" and a hair either side are kept and dropped as before."""
    for length in (MIN_LISTED, np.nextafter(MIN_LISTED, 0.0), np.nextafter(MIN_LISTED, 1.0)):
        for k in (2, 3, 5):
            step = float(length) / (k - 1)
            pts = [[10.0 + i * step, 10.0] for i in range(k)]
            assert _listed_length(pts) == path_length(np.asarray(pts))
    assert movement.PLAIN_LENGTH == 200
