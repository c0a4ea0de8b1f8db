"""The transcendental functions and small products the geometry uses, computed the same way on
every machine, so a replay recorded on one re-simulates to the same bytes on another.

numpy picks its loops for `cos`, `sin`, `arctan2`, `arccos` and `arcsin` by the CPU's vector
extensions at run time (AVX-512 machines get SIMD versions whose last bit differs from the C
library's), and `@` / `np.dot` go to a BLAS whose kernels are chosen by CPU too (fused
multiply-adds round differently). These go through the C library one element at a time, which is
what numpy itself does on a machine without those extensions, and write products out as plain
multiplications and additions. A test runs games with numpy's and OpenBLAS's CPU dispatch turned
down and checks the bytes do not move.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np


def _each(fn: Callable[[float], float], a: np.ndarray) -> np.ndarray:
    arr = np.asarray(a, dtype=float)
    out = np.fromiter(map(fn, arr.ravel().tolist()), dtype=float, count=arr.size)
    return out.reshape(arr.shape)


def cos(a: np.ndarray) -> np.ndarray:
    return _each(math.cos, a)


def sin(a: np.ndarray) -> np.ndarray:
    return _each(math.sin, a)


def arccos(a: np.ndarray) -> np.ndarray:
    return _each(math.acos, a)


def arcsin(a: np.ndarray) -> np.ndarray:
    return _each(math.asin, a)


def arctan2(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    yy, xx = np.broadcast_arrays(np.asarray(y, dtype=float), np.asarray(x, dtype=float))
    out = np.fromiter(map(math.atan2, yy.ravel().tolist(), xx.ravel().tolist()), dtype=float, count=yy.size)
    return out.reshape(yy.shape)


def dot2(w: np.ndarray, u: np.ndarray) -> np.ndarray:
    """`w @ u` for 2-vectors (`w` of shape (..., 2), `u` of shape (2,)): x products first, no fused
    multiply-add."""
    return w[..., 0] * u[0] + w[..., 1] * u[1]
