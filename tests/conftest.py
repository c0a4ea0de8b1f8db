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


@pytest.fixture
def own_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test's games play on prepared tables of their own, dropped afterwards. A process keeps
    its prepared tables (and the memos of searches and listings they carry) across games, so a
    test that plays real games would otherwise hand its answers to a later test in the same
    worker that counts fresh searches, or be handed an earlier test's: such counts then depend
    on which tests ran before."""
    from collections import OrderedDict

    from skirmish.battlefield import table as table_mod

    monkeypatch.setattr(table_mod, "_CACHE", OrderedDict())
    monkeypatch.setattr(table_mod, "_CACHE_BY_ID", {})
