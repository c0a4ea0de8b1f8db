"""Round-8 audit: a troupe test stopped by SIGTERM or SIGKILL leaves no process and no file behind.

Found: `skirmish test-troupes A B --csv out.csv` sent SIGTERM (`kill`, `timeout`, a CI job being
stopped) died at once with the default action; its two worker processes, orphaned, waited on the
pool's task queue for ever (holding the terminal's pipe open), and `.out.csv.<pid>.<random>.tmp`
stayed in the folder. Killed outright (SIGKILL, the out-of-memory killer), the parent cannot clean
up, and the workers waited for ever too.

The contract (cli.md, README "Your files"): nothing is left half-written; the command ends when
it is told to. SIGTERM now unwinds like Ctrl+C: exit 143 with `skirmish: terminated`, the CSV's
temporary file removed, the workers killed; a worker also dies with its parent.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers_cli import run

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; Linux only")

ROOT = Path(__file__).resolve().parents[1]


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from /proc)."""
    kids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            kids.append(int(entry))
    return kids


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _start_run(folder: Path) -> tuple[subprocess.Popen[bytes], list[int]]:
    """A long two-worker troupe test writing a CSV into `folder`, once its workers play."""
    env = {
        **os.environ,
        "SKIRMISH_DATA": str(folder / "data"),
        "PYTHONPATH": str(ROOT),
        "SKIRMISH_NO_JIT": "1",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "skirmish", "test-troupes", "team_avatar", "zuko_hunting_party"]
        + ["--games", "400", "--workers", "2", "--csv", "out.csv", "--json"],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while time.monotonic() < deadline and proc.poll() is None:
        workers = _children(proc.pid)
        if len(workers) >= 2 and any(p.name.endswith(".tmp") for p in folder.iterdir()):
            break
        time.sleep(0.1)
    if len(workers) < 2:
        proc.kill()
        proc.communicate()
        pytest.fail("the run never started its two workers")
    time.sleep(0.5)  # let the workers take their first batches
    return proc, workers


def _gone(pids: list[int], seconds: float = 15) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(_alive(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


def test_sigterm_unwinds_a_troupe_test_exit_143_no_worker_no_file_left(tmp_path: Path) -> None:
    proc, workers = _start_run(tmp_path)
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM
    assert err.decode().strip().splitlines()[-1] == "skirmish: terminated"
    assert "Traceback" not in err.decode()
    assert _gone(workers), f"workers {workers} outlived the command"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "data") == []


def test_workers_die_with_a_parent_killed_outright(tmp_path: Path) -> None:
    proc, workers = _start_run(tmp_path)
    proc.kill()
    proc.communicate(timeout=60)
    assert _gone(workers), f"workers {workers} outlived their killed parent"


def test_main_puts_the_sigterm_handler_back(capsys: pytest.CaptureFixture[str]) -> None:
    """In-process callers (the tests, an embedding program) keep their own SIGTERM action."""
    before = signal.getsignal(signal.SIGTERM)
    code, out, _err = run(["odds", "shoot", "--attack", "3", "--dodge", "2", "--json"], capsys)
    assert code == 0 and out.startswith("{")
    assert signal.getsignal(signal.SIGTERM) is before
