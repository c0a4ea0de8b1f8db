"""R-B1, R-B2 and the geometry behind the R-C1/R-C4 modifiers, on the real default scenario."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from skirmish.battlefield.measure import (
    CONTACT,
    edge_distance,
    edge_distances,
    in_contact,
    path_length,
    truncate_path,
)
from skirmish.battlefield.table import Table
from skirmish.data.catalogue import content_root
from skirmish.data.loader import load_scenario
from skirmish.data.scenario import Cover, Terrain

ROOT = Path(__file__).resolve().parents[1]
CONTENT = content_root()


@pytest.fixture(scope="module")
def table() -> Table:
    return Table.from_scenario(load_scenario(CONTENT / "scenarios" / "open_battle.toml"))


def test_r_b1_pieces_carry_cover_sight_passability_and_height(table: Table) -> None:
    names = table.names
    assert table.width == 48 and table.height == 48
    assert table.pieces[names.index("bamboo_grove")].cover is Cover.dense
    assert table.blocks_sight[names.index("standing_stone")] and table.impassable[names.index("boulders")]
    assert table.heights[names.index("watch_hill")] == 1


def test_r_b1_table_is_cached_per_scenario() -> None:
    s = load_scenario(CONTENT / "scenarios" / "open_battle.toml")
    again = load_scenario(CONTENT / "scenarios" / "open_battle.toml")
    assert Table.from_scenario(s) is Table.from_scenario(s) is Table.from_scenario(again)


def test_r_b2_cover_levels_and_open_ground(table: Table) -> None:
    xy = np.array([[37, 18], [32, 33], [19, 23], [9, 22], [30, 4], [42, 27]], dtype=float)
    rank, piece = table.cover_of(xy)
    assert rank.tolist() == [3, 2, 1, 0, 0, 2]
    names = [table.names[p] if p >= 0 else None for p in piece]
    # The hill gives no cover: a model on it is in the open (its evidence is "no piece").
    assert names == ["bamboo_grove", "old_ruins", "tall_grass", None, None, "hedge"]


def test_r_b2_densest_piece_counts_when_pieces_overlap(table: Table) -> None:
    t = table.with_piece(
        Terrain(name="smoke", polygon=[[18, 21], [20, 21], [20, 23], [18, 23]], cover="dense")
    )
    rank, piece = t.cover_of(np.array([[19.0, 22.0]]))
    assert rank[0] == 3 and t.names[piece[0]] == "smoke"
    assert len(table.pieces) + 1 == len(t.pieces)  # the original table is unchanged


def test_r_b2_higher_ground_the_hill(table: Table) -> None:
    h = table.height_of(np.array([[9, 22], [30, 4]], dtype=float))
    assert h.tolist() == [1.0, 0.0]
    assert h[0] > h[1]  # the shooter on the hill is higher than the target below


def test_r_c1_seed_example_geometry_hill_friend_and_dense_cover(table: Table) -> None:
    """The seed's worked shot: a shooter on the hill with a friend 2" away, a target in dense cover."""
    xy = np.array([[9.0, 22.0], [9.0, 25.0], [36.0, 18.0]])  # shooter, friend, target
    radii = np.array([0.5, 0.5, 0.5])
    d = edge_distances(xy, radii)
    assert d[0, 1] == pytest.approx(2.0)
    assert d[0, 1] <= 5.0  # friendly model within 5": +1
    assert table.height_of(xy[[0]])[0] > table.height_of(xy[[2]])[0]  # higher ground: +1
    rank, piece = table.cover_of(xy)
    assert rank[2] == 3 and table.names[piece[2]] == "bamboo_grove"  # target in dense cover
    assert rank[0] == 0  # shooter in the open


def test_r_c6_edge_to_edge_and_contact() -> None:
    xy = np.array([[0.0, 0.0], [1.005, 0.0], [4.0, 0.0]])
    radii = np.array([0.5, 0.5, 0.8])
    d = edge_distances(xy, radii)
    assert d[0, 1] == pytest.approx(0.005) and d[0, 0] == 0.0
    assert edge_distance(xy[0], 0.5, xy[2], 0.8) == pytest.approx(2.7)
    c = in_contact(xy, radii)
    assert c[0, 1] and c[1, 0] and not c[0, 2] and not c[0, 0]
    assert CONTACT == 0.01


def test_r_m2_path_length_and_truncation() -> None:
    p = np.array([[0, 0], [3, 4], [3, 10]], dtype=float)
    assert path_length(p) == pytest.approx(11.0)
    t = truncate_path(p, 7.0)
    assert path_length(t) == pytest.approx(7.0) and t[-1].tolist() == pytest.approx([3.0, 6.0])
    assert path_length(truncate_path(p, 50)) == pytest.approx(11.0)


def test_r_b2_cover_memo_that_fills_up_keeps_every_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The per-centre memo is cleared when it grows past its bound; a question that mixes centres
    already known with new ones must still answer all of them, the same as a fresh table."""
    import skirmish.battlefield.table as table_mod

    monkeypatch.setattr(table_mod, "FACTS_MEMO", 3)
    s = load_scenario(CONTENT / "scenarios" / "open_battle.toml")
    t, fresh = Table.from_scenario(s), Table.from_scenario(s)
    rng = np.random.default_rng(7)
    seen = rng.uniform(0, 40, size=(4, 2))
    t.cover_of(seen)  # 4 centres: the memo is now over its bound
    mixed = np.vstack([seen[:2], rng.uniform(0, 40, size=(3, 2))])
    rank, piece = t.cover_of(mixed)
    want_rank, want_piece = fresh._cover_now(mixed)
    assert rank.tolist() == want_rank.tolist() and piece.tolist() == want_piece.tolist()
