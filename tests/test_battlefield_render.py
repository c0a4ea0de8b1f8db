"""The board picture (R-B1 terrain drawn by kind) and the `skirmish board` command."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from skirmish.cli.main import main
from skirmish.data.catalogue import content_root
from skirmish.data.loader import load_scenario

ROOT = Path(__file__).resolve().parents[1]
CONTENT = content_root()


def test_r_b1_board_png_draws_terrain_and_bases(tmp_path: Path) -> None:
    import pygame

    from skirmish.ui.board_png import render_board

    out = tmp_path / "b.png"
    s = load_scenario(CONTENT / "scenarios" / "open_battle.toml")
    render_board(
        s,
        np.array([[10.0, 10.0]]),
        np.array([0.5]),
        [(0, 0, 255)],
        ["a"],
        [((10.0, 10.0), (30.0, 30.0), True)],
        path=str(out),
    )
    img = pygame.image.load(str(out))
    assert img.get_width() > 48 * 10
    # The standing stone (sight-blocking) is drawn solid grey at its centre (23.5, 13.5).
    from skirmish.ui.board_png import BLOCKING, MARGIN, SCALE

    px = (int(MARGIN + 23.0 * SCALE), int(MARGIN + (48 - 14.5) * SCALE))
    assert tuple(img.get_at(px))[:3] == BLOCKING


def test_board_command_exit_codes(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "o.png"
    try:
        main(["board", "open_battle", "--png", str(out)])
    except SystemExit as e:
        assert e.code in (0, None)
    assert out.stat().st_size > 1000
    for argv in (
        ["board", "no_such_scenario", "--png", str(out)],
        ["board", "open_battle", "--png", "x.jpg"],
    ):
        try:
            main(argv)
        except SystemExit as e:
            assert e.code == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and err.count("\n") == 1


def test_board_without_png_writes_to_the_data_folder_not_the_folder_started_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`skirmish board` with no `--png` puts the picture where the program's other pictures go
    (`screenshots/` in the data folder, named for the scenario) and says where; a `board.png` in
    the folder it was started from is left alone."""
    data = tmp_path / "data"
    here = tmp_path / "here"
    here.mkdir()
    (here / "board.png").write_bytes(b"mine")
    monkeypatch.setenv("SKIRMISH_DATA", str(data))
    monkeypatch.chdir(here)
    try:
        main(["board", "open_battle"])
    except SystemExit as e:
        assert e.code in (0, None)
    out = data / "screenshots" / "board-open_battle.png"
    assert out.stat().st_size > 1000
    assert (here / "board.png").read_bytes() == b"mine"
    assert sorted(p.name for p in here.iterdir()) == ["board.png"]
    assert str(out) in capsys.readouterr().out
