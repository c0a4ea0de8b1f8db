"""Round-8 audit: an error line about a very long file name still says what is wrong.

Found: `skirmish play --headless --bots --replay <300 characters>.json` printed `skirmish: --replay
aaaa...` cut at 300 characters, the reason (`cannot use this path (File name too long)`) lost
past the cut; the same for `--screenshot`, `--csv` and `replay --screenshot`. The contract
(cli.md): one line naming the flag *and* the problem. Long words are now shortened in the middle.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from helpers_cli import run

from skirmish.cli.errors import KEEP, MAX_LINE, clip

LONG = "a" * 300


def test_clip_shortens_a_long_word_in_the_middle_and_keeps_the_reason() -> None:
    line = clip(f"--replay {LONG}.json: cannot use this path (File name too long)")
    assert len(line) <= MAX_LINE
    assert line.endswith(".json: cannot use this path (File name too long)")
    assert line.startswith("--replay " + "a" * KEEP + "…")


def test_clip_leaves_short_lines_and_cuts_what_cannot_be_shortened() -> None:
    assert clip("short line") == "short line"
    many = clip(" ".join(["word"] * 200))
    assert len(many) == MAX_LINE and many.endswith("…")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="NAME_MAX and its message are Linux's")
@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["play", "--headless", "--bots", "--turns", "1", "--replay", f"{LONG}.json"], "--replay"),
        (["play", "--headless", "--bots", "--turns", "1", "--screenshot", f"{LONG}.png"], "--screenshot"),
        (
            ["test-troupes", "team_avatar", "zuko_hunting_party", "--games", "1", "--csv", f"{LONG}.csv"],
            "--csv",
        ),
    ],
)
def test_a_too_long_output_name_says_why(
    argv: list[str],
    flag: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SKIRMISH_DATA", str(tmp_path / "data"))
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    (line,) = err.splitlines()
    assert line.startswith(f"skirmish: {flag} aaa")
    assert line.endswith("(File name too long)"), line
    assert len(line) <= MAX_LINE
