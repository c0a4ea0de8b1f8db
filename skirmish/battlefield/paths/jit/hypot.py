"""`math.hypot` of two floats as CPython computes it, written for numba (`jit_astar`).

CPython's `math.hypot` is not the C library's `hypot`: since 3.10 it computes the norm with a
power-of-two scaling, exact squaring (Veltkamp-Dekker splitting in 3.11, an error-free product
from 3.12), compensated summation and one correction step of the square root (`vector_norm` in
Modules/mathmodule.c). numba's `math.hypot` calls the C library, whose last bit differs on some
inputs, so the compiled path finder would price edges differently from the reference and pop
them in another order. These are the same operations in the same order, so the same doubles.

Only +, -, *, /, sqrt, frexp and ldexp are used, which IEEE doubles round the same everywhere
(numba compiles without fast-math, so nothing is contracted into a fused multiply-add).
`VARIANT` names the algorithm for the running Python; `jit` checks it against `math.hypot` on
a fixed table of values before trusting it and runs the Python reference otherwise.
"""

from __future__ import annotations

import math
import sys

from numba import njit

T27 = 134217729.0
"""The Veltkamp splitting constant, 2**27 + 1."""

DBL_MIN = 2.2250738585072014e-308
"""The smallest normal double (3.12's `vector_norm` divides subnormal inputs by it)."""

VARIANT = "3.11" if sys.version_info[:2] == (3, 11) else "3.12"
"""Which CPython `vector_norm` `hypot` replicates: 3.11's three accumulators, or 3.12's two
(checked equal to `math.hypot` on six million pairs under CPython 3.12.1 and 3.13.0 as well)."""


@njit(cache=True)
def _norm_311(a: float, b: float, mx: float) -> float:
    """CPython 3.11's `vector_norm` for two non-negative finite coordinates, mx their maximum > 0."""
    _, max_e = math.frexp(mx)
    csum = 1.0
    frac1 = 0.0
    frac2 = 0.0
    frac3 = 0.0
    if max_e >= -1023:
        scale = math.ldexp(1.0, -max_e)
        for x0 in (a, b):
            x = x0 * scale
            t = x * T27
            hi = t - (t - x)
            lo = x - hi
            x = hi * hi
            old = csum
            csum += x
            frac1 += (old - csum) + x
            x = 2.0 * hi * lo
            old = csum
            csum += x
            frac2 += (old - csum) + x
            frac3 += lo * lo
        h = math.sqrt(csum - 1.0 + (frac1 + frac2 + frac3))
        x = h
        t = x * T27
        hi = t - (t - x)
        lo = x - hi
        x = -hi * hi
        old = csum
        csum += x
        frac1 += (old - csum) + x
        x = -2.0 * hi * lo
        old = csum
        csum += x
        frac2 += (old - csum) + x
        x = -lo * lo
        old = csum
        csum += x
        frac3 += (old - csum) + x
        x = csum - 1.0 + (frac1 + frac2 + frac3)
        return (h + x / (2.0 * h)) / scale
    # ldexp(1.0, -max_e) would overflow: divide by the maximum instead.
    for x0 in (a, b):
        x = x0 / mx
        x = x * x
        old = csum
        csum += x
        frac1 += (old - csum) + x
    return mx * math.sqrt(csum - 1.0 + frac1)


@njit(cache=True)
def _mul(x: float, y: float) -> tuple[float, float]:
    """The exact product as (rounded, error): Dekker's `mul12`, which is what 3.12's fma-based
    `dl_mul` computes as long as the error is representable (it is for |x|, |y| < 1 here, but
    for products below the normal range, where `jit`'s start-up check would catch a mismatch)."""
    t = x * T27
    xh = t - (t - x)
    xl = x - xh
    t = y * T27
    yh = t - (t - y)
    yl = y - yh
    p = xh * yh
    q = xh * yl + xl * yh
    z = p + q
    zz = p - z + q + xl * yl
    return z, zz


@njit(cache=True)
def _norm_312(a: float, b: float, mx: float) -> float:
    """CPython 3.12's `vector_norm` for two non-negative finite coordinates, mx their maximum > 0."""
    _, max_e = math.frexp(mx)
    if max_e < -1023:  # 3.12 recurses once on the inputs divided by DBL_MIN (normals then)
        return DBL_MIN * _norm_312_normal(a / DBL_MIN, b / DBL_MIN, mx / DBL_MIN)
    return _norm_312_normal(a, b, mx)


@njit(cache=True)
def _norm_312_normal(a: float, b: float, mx: float) -> float:
    """`_norm_312` once the maximum is a normal double."""
    _, max_e = math.frexp(mx)
    scale = math.ldexp(1.0, -max_e)
    csum = 1.0
    frac1 = 0.0
    frac2 = 0.0
    for x0 in (a, b):
        x = x0 * scale
        phi, plo = _mul(x, x)
        s = csum + phi
        slo = (csum - s) + phi
        csum = s
        frac1 += plo
        frac2 += slo
    h = math.sqrt(csum - 1.0 + (frac1 + frac2))
    phi, plo = _mul(-h, h)
    s = csum + phi
    slo = (csum - s) + phi
    csum = s
    frac1 += plo
    frac2 += slo
    x = csum - 1.0 + (frac1 + frac2)
    h += x / (2.0 * h)
    return h / scale


@njit(cache=True)
def hypot(x: float, y: float) -> float:
    """`math.hypot(x, y)` bit for bit (`math_hypot`: absolute values, their maximum, NaN and
    infinity first, then `vector_norm`)."""
    a = abs(x)
    b = abs(y)
    mx = 0.0
    if a > mx:
        mx = a
    if b > mx:
        mx = b
    if math.isinf(mx):
        return mx
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if mx == 0.0:
        return mx
    if VARIANT == "3.11":
        return _norm_311(a, b, mx)
    return _norm_312(a, b, mx)
