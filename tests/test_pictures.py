"""Pictures that do not mislead (issue 16, item 12): the troupe-test plot shows wins, draws and
losses with their intervals; `skirmish board` draws with the game's colours, labels in words and a
legend entry for every mark and line it draws."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from pathlib import Path

import pygame
import pytest

from skirmish.cli.main import main
from skirmish.sim.stats import wilson


def test_plot_running_rates_of_wins_draws_and_losses(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from skirmish.sim.plots import OUTCOMES, plot_run, running_rate

    outcomes = bytes([2, 1, 0, 1, 2, 1])  # A won, draw, B won, ...
    xs, draws, low, high = running_rate(outcomes, 1)
    assert xs == [1, 2, 3, 4, 5, 6]
    assert draws == [0.0, 0.5, 1 / 3, 0.5, 0.4, 0.5]
    assert (low[-1], high[-1]) == wilson(3, 6)
    assert [w for _, w, _ in OUTCOMES] == ["A wins", "draws", "B wins"]
    out = tmp_path / "p.png"
    plot_run(out, "A v B", [("A v B", outcomes)], [("A aang", 1.0, 0.5)], bytes([6] * 6))
    img = pygame.image.load(str(out))
    assert img.get_width() > 1800  # four panels: running shares, final shares, damage, length


def test_board_png_game_colours_words_and_a_legend_for_every_mark(tmp_path: Path) -> None:
    from skirmish.data.catalogue import find_scenario
    from skirmish.ui import theme
    from skirmish.ui.board_png import MARGIN, SCALE, legend_entries
    from skirmish.ui.legend_art import LEGEND

    out = tmp_path / "b.png"
    with pytest.raises(SystemExit) as exc:
        main(["board", "open_battle", "--png", str(out)])
    assert exc.value.code in (0, None)
    img = pygame.image.load(str(out))
    # the avatar zone's dashed edge at y = 8" is drawn in the side's colour, as in the game
    px = (int(MARGIN + 47.7 * SCALE), int(MARGIN + (48 - 8) * SCALE))
    assert tuple(img.get_at(px))[:3] == theme.side_colour(0)
    sc = find_scenario("open_battle")
    entries = [w for _, w in legend_entries(sc, bases=True, sight=True)]
    for _, words in LEGEND:
        assert words in entries
    assert "avatar deployment zone (dashed, side colour)" in entries
    assert "fire_nation deployment zone (dashed, side colour)" in entries
    assert any(w.startswith("clear line of sight") for w in entries)
    assert any(w.startswith("blocked line of sight") for w in entries)
    assert any(w.startswith("sample base") for w in entries)
