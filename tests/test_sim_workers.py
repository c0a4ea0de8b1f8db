"""Troupe testing reports the workers that really played (issue 15), not only the number asked for."""

from __future__ import annotations

import json

import pytest

from skirmish.cli.main import main
from skirmish.sim.executors import InlineExecutor, LocalPool


def _square(x: int) -> int:
    return x * x


def test_the_local_pool_counts_the_processes_it_runs() -> None:
    assert InlineExecutor().worker_count() == 1
    pool = LocalPool(2)
    try:
        assert [pool.submit(_square, k).result() for k in range(4)] == [0, 1, 4, 9]
        assert pool.worker_count() == 2
    finally:
        pool.shutdown()


@pytest.mark.parametrize(("batch", "workers"), [(1, 2), (4, 1)])
def test_the_report_names_the_workers_that_played_and_those_asked_for(
    capsys: pytest.CaptureFixture[str], batch: int, workers: int
) -> None:
    """Two games in batches of 4 are one task: one worker plays however many were asked for."""
    argv = ["test-troupes", "team_avatar", "zuko_hunting_party", "--games", "2", "--turns", "1"]
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--workers", "2", "--batch", str(batch), "--json"])
    assert exc.value.code in (0, None)
    report = json.loads(capsys.readouterr().out)
    assert report["workers_requested"] == 2
    assert report["workers"] == workers
