"""Confidence intervals a troupe designer can trust.

A win rate from a few hundred games is an estimate; the interval says how far it might be off.
The Wilson score interval is used rather than the textbook normal ("Wald") interval because the
latter collapses to zero width at 0 or N wins and undercovers badly near the edges, which is
exactly where a lopsided troupe lives. For two variants of a troupe played on the same seeds, the
difference of their win rates uses Newcombe's hybrid score interval for paired proportions: it is
built from the two Wilson intervals and the correlation between the paired results, so it is
narrower than treating the runs as independent (the point of playing the same seeds).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The two-sided 95% standard normal quantile."""


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion `successes / n`; (0, 1) when n is 0."""
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    # Exact ends at 0 and n (floating point would otherwise give 1e-17 instead of 0).
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


@dataclass
class PairedTable:
    """Outcomes of two variants on the same seeds: `both` won, `only_first`, `only_second`, `neither`."""

    both: int = 0
    only_first: int = 0
    only_second: int = 0
    neither: int = 0

    def add(self, first_won: bool, second_won: bool) -> None:
        if first_won and second_won:
            self.both += 1
        elif first_won:
            self.only_first += 1
        elif second_won:
            self.only_second += 1
        else:
            self.neither += 1

    @property
    def n(self) -> int:
        return self.both + self.only_first + self.only_second + self.neither


def paired_difference(table: PairedTable, z: float = Z95) -> tuple[float, tuple[float, float]]:
    """Difference of win rates (second minus first) and Newcombe's hybrid score interval (method 10).

    Newcombe, R. G. (1998), "Improved confidence intervals for the difference between binomial
    proportions based on paired data", Statistics in Medicine 17, 2635-2650.
    """
    n = table.n
    if n == 0:
        return 0.0, (-1.0, 1.0)
    e, f, g, h = table.both, table.only_second, table.only_first, table.neither
    # Variant 2 wins in `e + f` games, variant 1 in `e + g`.
    p1, p2 = (e + f) / n, (e + g) / n
    l1, u1 = wilson(e + f, n, z)
    l2, u2 = wilson(e + g, n, z)
    diff = p1 - p2
    denom = (e + f) * (g + h) * (e + g) * (f + h)
    phi = (e * h - f * g) / math.sqrt(denom) if denom > 0 else 0.0
    d_low = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    d_high = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return diff, (max(-1.0, diff - d_low), min(1.0, diff + d_high))
