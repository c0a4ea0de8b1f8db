"""Round-8 audit: a stdout or stderr that cannot take the output is never a traceback or exit 1.

Found:
- `skirmish list troupes >&-` (stdout closed by the shell): a Python traceback ending in
  `AttributeError: 'NoneType' object has no attribute 'flush'`, exit 1.
- `skirmish list troupes > /dev/full` (a full disk): `internal error: OSError: [Errno 28] No space
  left on device`, exit 1, which the contract keeps for the program's own bugs.
- `skirmish validate missing.toml 2>/dev/full`: exit 1 instead of the refused input's 2.

Now: stdout that cannot be written is exit 2, `skirmish: stdout: cannot write the output (...)`,
like any output path; a closed stream's output goes nowhere; the exit code is the command's own.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not os.path.exists("/dev/full"), reason="/dev/full is Linux's"
)

ROOT = Path(__file__).resolve().parents[1]
ODDS = ["odds", "shoot", "--attack", "3", "--dodge", "2", "--json"]


def _skirmish(args: list[str], tmp_path: Path, **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "SKIRMISH_DATA": str(tmp_path / "data"), "PYTHONPATH": str(ROOT)}
    return subprocess.run(  # type: ignore[call-overload,no-any-return]
        [sys.executable, "-m", "skirmish", *args], cwd=tmp_path, env=env, timeout=120, **kwargs
    )


@pytest.mark.parametrize("args", [ODDS, ["list", "troupes"], ["list", "scenarios", "--json"]])
def test_a_full_stdout_is_exit_2_naming_stdout(args: list[str], tmp_path: Path) -> None:
    with open("/dev/full", "w") as full:
        done = _skirmish(args, tmp_path, stdout=full, stderr=subprocess.PIPE)
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert err == "skirmish: stdout: cannot write the output (No space left on device)\n"


@pytest.mark.parametrize("args", [ODDS, ["list", "troupes"]])
def test_a_closed_stdout_is_no_traceback(args: list[str], tmp_path: Path) -> None:
    done = _skirmish(args, tmp_path, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, stdout=None,
                     preexec_fn=lambda: os.close(1))  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""


def test_a_full_stderr_keeps_the_refusals_exit_code(tmp_path: Path) -> None:
    with open("/dev/full", "w") as full:
        done = _skirmish(["validate", "missing.toml"], tmp_path, stdout=subprocess.PIPE, stderr=full)
    assert done.returncode == 2


def test_a_closed_stderr_keeps_the_refusals_exit_code(tmp_path: Path) -> None:
    done = _skirmish(["validate", "missing.toml"], tmp_path, stdout=subprocess.PIPE,
                     preexec_fn=lambda: os.close(2))  # fmt: skip
    assert done.returncode == 2
