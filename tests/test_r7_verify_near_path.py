"""The whole path's box rejections (`check._near_path`, R-M2, R-M3): the bases and impassable
pieces a path's bounding box rejects are rejected by every segment's own box test in
`kernel._seg_clear`, so each segment of a path (arcs of many short steps, straight runs, paths
beside and through bases and pieces) is judged clear or not alike on what is left and on
everything, and `_legal_short` gives the reference's answers (`test_r5_engine_check_path`)."""

from __future__ import annotations

import numpy as np
from helpers_engine import random_mover
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.paths.check import SHORT_PATH, _near_path
from skirmish.battlefield.paths.kernel import _seg_clear
from skirmish.battlefield.paths.obstacles import BOX_SLACK


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_m2_segments_judge_alike_on_what_the_path_box_keeps(seed: int) -> None:
    rng = np.random.default_rng(seed)
    mover = random_mover(rng)
    xy, n = mover.xy, len(mover.xy)
    k = int(rng.integers(3, SHORT_PATH + 1))
    if rng.random() < 0.5:  # a random walk
        steps = rng.normal(size=(k - 1, 2)) * float(rng.choice([0.05, 0.2, 1.0, 4.0]))
        path = np.vstack([xy[0], xy[0] + np.cumsum(steps, axis=0)])
    else:  # a wavering line toward another base or a piece's corner, to pass beside or through it
        corners = [np.asarray(pc[0][:2]) for pc in mover.obstacles(xy[0], target=None).kern.py]
        goals = [xy[j] for j in range(1, n)] + corners
        goal = goals[int(rng.integers(0, len(goals)))] + rng.normal(size=2) * float(
            rng.choice([0.0, 0.5, 1.5])
        )
        line = xy[0] + np.linspace(0.0, 1.0, k)[:, None] * (goal - xy[0])
        path = line + np.vstack([np.zeros((1, 2)), rng.normal(size=(k - 1, 2)) * 0.3])
    pts: list[list[float]] = path.tolist()
    obs = mover.obstacles(path[0], target=None)
    bases, pieces = obs.bases_py(), obs.kern.py
    tl, tl2 = obs.tlim + BOX_SLACK, obs.tlim2
    near_bases, near_pieces = _near_path(pts, bases, pieces, tl)
    assert [b for b in bases if b in near_bases] == near_bases  # a subset, in the same order
    for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
        for outside in (False, True):
            want = _seg_clear(x0, y0, x1, y1, bases, pieces, tl, tl2, outside)
            assert _seg_clear(x0, y0, x1, y1, near_bases, near_pieces, tl, tl2, outside) == want
