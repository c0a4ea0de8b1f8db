"""R-M2 listing: `movement.end_key` (the key two listed moves ending at one place share) is
`round(v, 3)` of each coordinate bit for bit, worked out without `round`'s decimal conversion
where the answer is certain; near and at the half-way ties (multiples of 1/16 lie exactly on one),
at zero with its sign, huge, NaN and infinite values `round` answers itself."""

from __future__ import annotations

import math
import struct

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.engine.steps.movement import _round3, end_key, end_key_reference


def bits(v: float) -> bytes:
    return struct.pack("<d", v)


def same(a: float, b: float) -> bool:
    return bits(a) == bits(b) or (math.isnan(a) and math.isnan(b))


def check(x: float, y: float) -> None:
    got, want = end_key([x, y]), end_key_reference([x, y])
    assert same(got[0], want[0]) and same(got[1], want[1]), (x, y, got, want)
    assert same(_round3(x), round(x, 3)) and same(_round3(y), round(y, 3))


@settings(max_examples=3000, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True), st.floats(-100.0, 100.0))
def test_r_m2_end_key_is_round_to_three_places_bit_for_bit(x: float, y: float) -> None:
    check(x, y)
    check(y, x)


def test_r_m2_end_key_at_ties_near_ties_zeros_and_the_tables_range() -> None:
    rng = np.random.default_rng(20261202)
    table = rng.uniform(-60.0, 60.0, 200_000).tolist()
    ties = [k / 16 for k in range(-2000, 2000)] + [k / 2000 for k in range(-4000, 4000)]
    near = [math.nextafter(v, d) for v in ties for d in (-math.inf, math.inf)]
    near += [v + s * 1e-9 for v in ties for s in (-1.0, 1.0)]
    special = [0.0, -0.0, 1e-4, -1e-4, 4.9e-4, -4.9e-4, 5e-4, -5e-4, 5e-324, -5e-324, 1e6, 1e6 + 0.0005,
               999_999.9995, 1e300, -1e300, math.inf, -math.inf, math.nan]  # fmt: skip
    values = table + ties + near + special
    for x, y in zip(values, reversed(values), strict=True):
        check(x, y)
