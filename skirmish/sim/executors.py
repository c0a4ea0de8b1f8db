"""Where batches of games run: in-process, local processes, or a Dask cluster.

All three are `concurrent.futures.Executor`s, so the run loop does not care which one it has.
Results never depend on the choice: each game is a pure function of the plan and its index, and
the run loop consumes batches in index order. Dask is imported only here, only when asked for.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class ExecutorUnavailable(Exception):
    """The executor asked for cannot be started (Dask not installed, scheduler unreachable)."""


class InlineExecutor(Executor):
    """Runs each task at submit time in this process: one worker without process start-up or pickling."""

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        fut: Future[T] = Future()
        try:
            fut.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller through the future
            fut.set_exception(exc)
        return fut


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


@contextmanager
def local_executor(workers: int) -> Iterator[Executor]:
    """In-process for one worker, else a process pool (fork on Linux: workers start in milliseconds)."""
    if workers <= 1:
        yield InlineExecutor()
        return
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        yield pool


@contextmanager
def dask_executor(workers: int, scheduler: str | None) -> Iterator[Executor]:
    """A Dask `ClientExecutor`: on the scheduler at `scheduler`, or on a local cluster of `workers` processes.

    The local cluster uses one thread per worker process (games are pure Python: threads would
    only contend for the GIL) and a dashboard on a free port so two runs never collide.
    """
    try:
        import logging

        from distributed import Client, LocalCluster
    except ImportError:
        raise ExecutorUnavailable(
            "--executor dask: Dask is not installed (pip install 'skirmish[dask]')"
        ) from None
    cluster: Any = None
    try:
        if scheduler is None:
            cluster = LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                silence_logs=logging.ERROR,
            )
            client = Client(cluster)
        else:
            client = Client(scheduler, timeout="10s")
    except (OSError, TimeoutError, ValueError) as exc:
        if cluster is not None:
            cluster.close()
        where = f"scheduler {scheduler}" if scheduler else "a local cluster"
        raise ExecutorUnavailable(f"--scheduler: cannot connect to {where}: {exc}") from None
    try:
        yield client.get_executor(pure=False)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


@contextmanager
def make_executor(kind: str, workers: int, scheduler: str | None = None) -> Iterator[Executor]:
    """The executor named on the command line (`local` or `dask`)."""
    if kind == "local":
        with local_executor(workers) as ex:
            yield ex
    elif kind == "dask":
        with dask_executor(workers, scheduler) as ex:
            yield ex
    else:
        raise ExecutorUnavailable(f"--executor {kind}: choose local or dask")
