"""The design's layer order (import-linter contracts in pyproject.toml) holds."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_import_linter_contracts_hold() -> None:
    pytest.importorskip("importlinter", reason="needs import-linter (pip install -e '.[test]')")
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_odds_command_stays_headless() -> None:
    code = (
        "import sys; from skirmish.cli.main import main\n"
        "try:\n    main(['odds','shoot','--attack','3','--dodge','2','--json'])\n"
        "except SystemExit: pass\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('pygame','matplotlib','dask','distributed')]\n"
        "print('BAD', bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout
    assert "BAD []" in out, out
