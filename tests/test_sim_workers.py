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


def _compiled_in_worker(_: int) -> bool:
    from skirmish.battlefield.paths import jit

    return bool(jit._LOADED) and jit._LOADED[0] is not None


def test_forked_workers_share_the_compiled_path_finder_the_parent_loaded() -> None:
    """The parent loads the compiled finder once and freezes its objects before the pool forks,
    so the workers share those pages (and start compiled) instead of each loading its own copy;
    the parent's collector gets its objects back when the pool shuts down."""
    import gc
    import multiprocessing

    from skirmish.battlefield.paths import jit

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork here: each worker loads the finder itself")
    pool = LocalPool(2)
    try:
        assert gc.get_freeze_count() > 0
        loaded = jit.compiled() is not None  # numba installed and not turned off
        assert pool.submit(_compiled_in_worker, 0).result() is loaded
    finally:
        pool.shutdown()
    assert gc.get_freeze_count() == 0
