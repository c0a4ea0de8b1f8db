"""The plain-float length of a path (`measure.path_length_py`, R-M2's allowance): the number
`measure.path_length` gives, bit for bit, for paths of every length from 2 to 200 points (numpy's
pairwise sum above eight segments), random, of equal steps, of tiny and huge steps."""

from __future__ import annotations

import random

import numpy as np
import pytest

from skirmish.battlefield.measure import path_length, path_length_py


@pytest.mark.parametrize("points", [2, 3, 8, 9, 10, 16, 17, 24, 63, 64, 65, 128, 129, 130, 137, 200])
def test_r_m2_plain_path_length_is_numpys(points: int) -> None:
    rng = random.Random(points)
    for trial in range(60):
        scale = rng.choice([1e-6, 0.01, 1.0, 5.0, 48.0, 1e6])
        if trial % 5 == 0:  # equal steps along a line: many equal terms
            step = [rng.uniform(-1, 1) * scale, rng.uniform(-1, 1) * scale]
            pts = [[10.0 + k * step[0], 20.0 + k * step[1]] for k in range(points)]
        else:
            pts = [[rng.uniform(0, 48) * scale, rng.uniform(0, 48) * scale] for _ in range(points)]
        if trial % 7 == 1:
            pts[rng.randrange(points)] = list(pts[0])  # a repeated point: a zero-length segment
        a = np.array(pts)
        d = np.diff(a, axis=0)
        numpy_sum = float(np.sqrt((d * d).sum(-1)).sum())  # the arrays' own formula, every length
        assert path_length_py(pts) == path_length(a) == numpy_sum
