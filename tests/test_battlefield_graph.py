"""R-C3 (exact shortest path): the path finder's tangent graph is built in plain floats for a few
circles and in numpy for many; both must give the same nodes, bit for bit, or the same search
would find different paths (and replays would differ) depending on how many obstacles it met."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.paths import Mover
from skirmish.battlefield.paths.search import _graph_numpy, _graph_py
from skirmish.battlefield.paths.tangents import _discs
from skirmish.battlefield.sample import random_table, scatter_bases


def same_bytes(a: tuple[list, ...], b: tuple[list, ...]) -> None:
    for col_a, col_b in zip(a, b, strict=True):
        assert len(col_a) == len(col_b)
        assert [type(v) for v in col_a] == [type(v) for v in col_b]
        assert np.array(col_a).tobytes() == np.array(col_b).tobytes()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_c3_plain_float_and_numpy_tangent_graphs_are_the_same_bytes(seed: int) -> None:
    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=int(rng.integers(0, 6)))
    radii = rng.choice([0.5, 0.8, 1.2], 8)
    xy = scatter_bases(t, rng, radii)
    obs = Mover(t, 0, xy, radii, np.arange(8) >= 4).obstacles(xy[0])
    nb, npc = len(obs.centres), len(obs.polys)
    inc_b = np.sort(rng.choice(nb, int(rng.integers(0, nb + 1)), replace=False)).astype(np.int64)
    inc_t = np.sort(rng.choice(npc, int(rng.integers(0, min(npc, 2) + 1)), replace=False)).astype(np.int64)
    circles = [_discs(t, obs, inc_b, inc_t)]
    # Arbitrary circles too: overlapping, nested, repeated (no common tangents) and touching.
    k = int(rng.integers(1, 9))
    cx, cy = rng.uniform(0, t.width, k), rng.uniform(0, t.height, k)
    rad = rng.uniform(0.3, 3.0, k)
    cx[-1], cy[-1], rad[-1] = cx[0], cy[0], rad[0] if rng.random() < 0.5 else rad[0] / 2
    circles.append((cx, cy, rad))
    for cx, cy, rad in circles:
        starts = [xy[0], rng.uniform(0, t.width, 2)]
        if len(cx):
            starts.append(np.array([cx[0] + rad[0], cy[0]]))  # on a circle: a node of it
        goals = [xy[1], rng.uniform(0, t.width, 2)]
        for s in starts:
            for g in goals:
                args = (t, obs, cx, cy, rad, float(s[0]), float(s[1]), float(g[0]), float(g[1]), inc_b, inc_t)
                same_bytes(_graph_py(*args), _graph_numpy(*args))
