"""Shared fixtures: the repository's real troupes and scenarios, headless SDL."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# Files the program writes by default (saves, replays, pictures, the campaign save) go to the per-user
# data folder; the tests point it at a scratch folder so they never touch the real one.
os.environ["SKIRMISH_DATA"] = tempfile.mkdtemp(prefix="skirmish-test-data-")
atexit.register(shutil.rmtree, os.environ["SKIRMISH_DATA"], ignore_errors=True)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def root() -> Path:
    return ROOT
