"""Statistics of troupe testing: the Wilson interval and the paired (Newcombe) difference interval."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.sim.stats import PairedTable, paired_difference, wilson


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        (0, 10, 0.0, 0.27753),  # z^2 / (n + z^2)
        (10, 10, 0.72247, 1.0),
        (5, 10, 0.23659, 0.76341),  # the textbook 5/10 case
        (1, 20, 0.00888, 0.23613),
        (50, 100, 0.40383, 0.59617),
    ],
)
def test_wilson_known_cases(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, abs=1e-5)
    assert hi == pytest.approx(high, abs=1e-5)


def test_wilson_no_games_is_the_whole_range_and_bad_counts_are_refused() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(3, 2)
    with pytest.raises(ValueError):
        wilson(-1, 2)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_contains_the_estimate_is_in_range_and_mirrors(kn: tuple[int, int]) -> None:
    k, n = kn
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    mlo, mhi = wilson(n - k, n)
    assert lo == pytest.approx(1 - mhi, abs=1e-12)
    assert hi == pytest.approx(1 - mlo, abs=1e-12)


def test_wilson_shrinks_like_one_over_root_n() -> None:
    w100 = (lambda ci: ci[1] - ci[0])(wilson(50, 100))
    w10000 = (lambda ci: ci[1] - ci[0])(wilson(5000, 10000))
    assert w100 / w10000 == pytest.approx(10, rel=0.02)


def test_paired_difference_no_discordant_pairs_is_zero() -> None:
    t = PairedTable(both=30, only_first=0, only_second=0, neither=70)
    diff, (lo, hi) = paired_difference(t)
    assert diff == 0.0
    assert lo <= 0.0 <= hi
    assert hi - lo < 0.1  # identical results: the difference is pinned near 0


def test_paired_difference_matches_the_normal_interval_for_many_games() -> None:
    # 10,000 paired games, variant wins 600 the original loses, the original 400 the other way.
    t = PairedTable(both=3000, only_first=400, only_second=600, neither=6000)
    diff, (lo, hi) = paired_difference(t)
    n, f, g = 10_000, 600, 400
    assert diff == pytest.approx(0.02)
    half = 1.959964 * math.sqrt((f + g) / n - ((f - g) / n) ** 2) / math.sqrt(n)
    assert lo == pytest.approx(diff - half, abs=0.0005)
    assert hi == pytest.approx(diff + half, abs=0.0005)


def test_paired_difference_swapping_the_variants_negates_it() -> None:
    t = PairedTable(both=12, only_first=2, only_second=9, neither=21)
    s = PairedTable(both=12, only_first=9, only_second=2, neither=21)
    d1, (l1, h1) = paired_difference(t)
    d2, (l2, h2) = paired_difference(s)
    assert d1 == pytest.approx(-d2)
    assert l1 == pytest.approx(-h2)
    assert h1 == pytest.approx(-l2)
    assert l1 < d1 < h1
    assert l1 >= -1.0 and h1 <= 1.0


def test_paired_is_narrower_than_treating_runs_as_independent() -> None:
    t = PairedTable(both=40, only_first=5, only_second=15, neither=40)
    _, (lo, hi) = paired_difference(t)
    p1, p2, n = 55 / 100, 45 / 100, 100
    unpaired = 2 * 1.96 * math.sqrt(p1 * (1 - p1) / n + p2 * (1 - p2) / n)
    assert hi - lo < unpaired
