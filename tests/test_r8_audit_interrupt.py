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
def test_sigint_during_a_troupe_test_leaves_no_csv(tmp_path: Path) -> None:
    env = {**os.environ, "SKIRMISH_DATA": str(tmp_path / "data"), "PYTHONPATH": str(ROOT)}
    env.update(SKIRMISH_NO_JIT="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "skirmish", "test-troupes", "team_avatar", "zuko_hunting_party"]
        + ["--games", "400", "--workers", "1", "--csv", "out.csv"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509
    )
    # Under way once the CSV's temporary file is there: past start-up (a signal before Python's
    # own handler would kill it outright) and into the games.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if any(p.name.endswith(".tmp") for p in tmp_path.iterdir()):
            break
        time.sleep(0.05)
    time.sleep(0.3)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.decode().strip().splitlines()[-1] == "skirmish: interrupted"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "data") == []
