"""Types as a gate (issue 10): mypy in its default mode, with types-shapely, reports no error on
`skirmish/`. Skipped where the `lint` extra is not installed (CI installs it)."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_reports_no_errors() -> None:
    pytest.importorskip("mypy", reason="needs the lint extra (pip install -e '.[lint]')")
    try:
        metadata.distribution("types-shapely")
    except metadata.PackageNotFoundError:
        pytest.skip("needs types-shapely (the lint extra)")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "skirmish"], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
