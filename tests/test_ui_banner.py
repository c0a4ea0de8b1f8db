"""The banner's lines never run under each other: a scenario status too long for the row beside the
result (the Pursuit's track, objective and cards) is wrapped into rows of its own in a screenshot
and cut short with an ellipsis in the window's and the replay viewer's banners."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import sys
from pathlib import Path

import pygame
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers_engine import new_game  # noqa: E402

from skirmish.ui.snapshot import render_game  # noqa: E402
from skirmish.ui.table_words import status_words  # noqa: E402
from skirmish.ui.theme import TextCache  # noqa: E402


def _text() -> TextCache:
    pygame.font.init()
    return TextCache()


@settings(max_examples=60, deadline=None)
@given(
    words=st.lists(st.text(alphabet="abcdefghij KLM·—", min_size=0, max_size=14), max_size=30),
    width=st.integers(0, 900),
)
def test_ui_clip_fits_its_width_and_keeps_a_fitting_text(words: list[str], width: int) -> None:
    text = _text()
    s = " ".join(words)
    out = text.clip(s, 16, width)
    if text.size(s, 16)[0] <= width:
        assert out == s
    else:
        assert out == "" or (out.endswith("…") and text.size(out, 16)[0] <= width)
        assert s.startswith(out.removesuffix("…"))


def _banner_height(surf: pygame.Surface) -> int:
    """The first row, below the title, where the banner's panel colour is gone from the left
    third: its edge line, where the board starts."""
    from skirmish.ui import theme

    third = surf.get_width() // 3
    for y in range(20, surf.get_height()):
        if all(surf.get_at((x, y))[:3] != theme.PANEL[:3] for x in range(0, third, 7)):
            return y
    return surf.get_height()


def test_ui_snapshot_wraps_a_long_status_under_the_result() -> None:
    size = (900, 700)
    game = new_game("the_pursuit", seed=3)
    text = TextCache(scale=0.7)
    pygame.font.init()
    st = status_words(game)
    rows = text.wrap(st, 17, size[0] - 32)
    assert len(rows) >= 2  # too long for one row at this width, let alone beside the result
    assert all(text.size(r, 17)[0] <= size[0] - 32 for r in rows)
    plain = _banner_height(render_game(new_game("open_battle", seed=3), size, text=text))
    pursuit = _banner_height(render_game(game, size, text=text))
    # The Pursuit's banner is taller by its status rows, so the board starts lower.
    assert pursuit - plain == len(rows) * text.line_height(17)
