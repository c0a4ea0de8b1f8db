"""The code style the project promises: `ruff check` and `ruff format --check` are clean."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _ruff() -> list[str]:
    exe = Path(sys.executable).with_name("ruff")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("ruff")
    if found is None:
        pytest.skip("ruff is not installed")
    return [found]


@pytest.mark.parametrize("args", [["check", "."], ["format", "--check", "."]])
def test_ruff_is_clean(args: list[str]) -> None:
    result = subprocess.run([*_ruff(), *args], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
