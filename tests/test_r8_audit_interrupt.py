"""Round-8 audit: Ctrl+C says `skirmish: interrupted` (exit 130) and leaves no output behind.

Found: Typer turns a KeyboardInterrupt into a quiet `Exit(130)`, so `skirmish play ... ^C` ended
with exit 130 and not a word on stderr; the command's own `interrupted` line never showed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers_cli import run

ROOT = Path(__file__).resolve().parents[1]


def test_ctrl_c_in_a_command_is_one_line_exit_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from skirmish.cli import odds_cmds

    def interrupted(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(odds_cmds, "shoot", interrupted)
    code, out, err = run(["odds", "shoot", "--attack", "3", "--dodge", "2", "--json"], capsys)
    assert (code, out, err) == (130, "", "skirmish: interrupted\n")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals")
def test_sigint_during_a_game_leaves_no_replay(tmp_path: Path) -> None:
    env = {**os.environ, "SKIRMISH_DATA": str(tmp_path / "data"), "PYTHONPATH": str(ROOT)}
    env.update(SKIRMISH_NO_JIT="1", SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    proc = subprocess.Popen(
        [sys.executable, "-m", "skirmish", "play", "four_kingdoms_melee", "--headless", "--bots"]
        + ["--turns", "50", "--replay", "r.json"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509
    )
    time.sleep(1.5)  # the game is under way (a 50-turn four-sided game takes several seconds)
    if proc.poll() is not None:
        pytest.skip("the game ended before it could be interrupted")
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.decode().strip().splitlines()[-1] == "skirmish: interrupted"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "data") == []
