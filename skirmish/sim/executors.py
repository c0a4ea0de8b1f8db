"""Where batches of games run: in-process, local processes, or a Dask cluster.

All three are `concurrent.futures.Executor`s, so the run loop does not care which one it has.
Results never depend on the choice: each game is a pure function of the plan and its index, and
the run loop consumes batches in index order. Dask is imported only here, only when asked for.

Faults are part of the interface (`skirmish.sim.run` asks for them by duck typing): `lost(exc)`
tells a lost worker from a failing game, `restart()` makes the executor usable again after a loss
(a new local pool; Dask reschedules by itself), and `check()` is called while a batch is awaited,
raising `ExecutorUnavailable` when no worker is left or the scheduler is gone, so a run never hangs.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import BrokenExecutor, CancelledError, Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

MAX_RESTARTS = 3
"""Times a local pool is rebuilt after a worker died before the run gives up (exit 2)."""

DASK_RETRIES = 2
"""Dask re-runs a failed task this many times (`Client.submit(retries=...)`)."""

NO_WORKER_SECONDS = 30.0
"""How long a Dask run waits with no worker at all before it ends with exit 2."""


class ExecutorUnavailable(Exception):
    """The executor cannot run the games (no Dask, scheduler unreachable or gone, no worker left)."""


class InlineExecutor(Executor):
    """Runs each task at submit time in this process: one worker without process start-up or pickling."""

    def worker_count(self) -> int:
        """Processes playing games: this one."""
        return 1

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


class LocalPool(Executor):
    """A process pool that can be rebuilt when a worker dies (killed, out of memory).

    A dead worker breaks a `ProcessPoolExecutor` for good: every pending future fails with
    `BrokenProcessPool`. The run loop then calls `restart()` and submits the lost batches again;
    since a game is a pure function of its index, the retried batch gives the same records.
    """

    restarts_all = True
    """After a restart every batch in flight must be submitted again (the old pool's futures are lost)."""

    def __init__(self, workers: int, max_restarts: int = MAX_RESTARTS) -> None:
        methods = multiprocessing.get_all_start_methods()
        self._ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
        self._workers = workers
        self._max_restarts = max_restarts
        self.restarts = 0
        self._pool = self._make()

    def _make(self) -> ProcessPoolExecutor:
        if self._ctx.get_start_method() == "fork":
            _share_before_fork()
        # Workers are started by the thread that submits; tie them to it only when that is the
        # main thread (a parent-death signal fires when the creating *thread* ends).
        tie = threading.current_thread() is threading.main_thread()
        return ProcessPoolExecutor(
            max_workers=self._workers,
            mp_context=self._ctx,
            initializer=worker_start,
            initargs=(os.getpid(), tie),
        )

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        return self._pool.submit(fn, *args, **kwargs)

    def lost(self, exc: BaseException) -> bool:
        return isinstance(exc, BrokenExecutor)

    def restart(self) -> None:
        if self.restarts >= self._max_restarts:
            raise ExecutorUnavailable(
                f"--workers {self._workers}: worker processes died {self.restarts + 1} times "
                "(killed, or out of memory?); giving up"
            )
        self.restarts += 1
        _close(self._pool, wait=False)
        self._pool = self._make()

    def check(self) -> None:
        return None

    def worker_count(self) -> int:
        """Worker processes the pool really runs (alive now), not the number asked for."""
        return len([p for p in getattr(self._pool, "_processes", {}).values() if p.is_alive()])

    def pids(self) -> list[int]:
        """The worker processes' ids (for the fault tests)."""
        return [p.pid for p in getattr(self._pool, "_processes", {}).values() if p.pid is not None]

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        _close(self._pool, wait=wait, cancel_futures=cancel_futures)
        if self._ctx.get_start_method() == "fork":
            gc.unfreeze()  # the parent's objects are the collector's again


PR_SET_PDEATHSIG = 1
"""Linux `prctl` option: the signal a process gets when its parent ends."""


def worker_start(parent: int, tie: bool = True) -> None:
    """Set up a worker process so it never outlives the command that started it.

    A worker waits on the pool's task queue, whose write end it holds itself, so when the parent
    ends without shutting the pool down (`kill -9`, the out-of-memory killer) it would wait for
    ever, holding the terminal's pipe open (a CI job that waits for the command hangs). On Linux
    the worker asks for SIGKILL when its parent goes (`prctl(PR_SET_PDEATHSIG)`), and ends at once
    if the parent has already gone. It also takes back the default SIGTERM action: the command's
    own handler (`skirmish.cli.main`) is for the parent, which cleans up and kills its workers.
    """
    with contextlib.suppress(ValueError, OSError):  # not the main thread, or no such signal
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if tie and sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError, TypeError):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:  # the parent ended before the line above took effect
        os._exit(1)


def _share_before_fork() -> None:
    """Load what every worker would load for itself, once, in the parent, and freeze it.

    Forked workers share the parent's memory pages until one writes to them. The compiled path
    finder (numba and LLVM, about 75 MB a process) loaded here is shared by all the workers
    instead of loaded by each after its first searches; `gc.freeze()` moves the parent's objects
    out of the collector's reach, so no worker's collection writes to (and so copies) their pages.
    The compiled sight kernel is loaded here too (each worker would load it after its first
    exact sight batches, each paying its machine code and check).
    """
    from skirmish.battlefield import sight_plain
    from skirmish.battlefield.paths import jit

    jit.compiled()
    sight_plain.compiled(now=True)
    gc.collect()
    gc.freeze()


def _close(pool: ProcessPoolExecutor, wait: bool, cancel_futures: bool = True) -> None:
    """Shut `pool` down and kill any worker still alive, so none outlives the run.

    A worker killed while it held the result queue's lock leaves its siblings blocked on that lock
    for ever; `ProcessPoolExecutor` does not always reap them, and an orphan that keeps the
    terminal's pipe open hangs whatever waits for the command (a test run, a CI job).
    """
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=wait, cancel_futures=cancel_futures)
    for proc in processes:
        if proc.is_alive():
            proc.kill()
            proc.join(timeout=5)


@contextmanager
def local_executor(workers: int) -> Iterator[Executor]:
    """In-process for one worker, else a process pool (fork on Linux: workers start in milliseconds)."""
    if workers <= 1:
        yield InlineExecutor()
        return
    pool = LocalPool(workers)
    try:
        yield pool
    except BaseException:
        # Interrupted (Ctrl+C, SIGTERM) or failed: do not wait for the batches being played,
        # kill the workers now (`_close`), so none outlives the command.
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True, cancel_futures=True)


class DaskExecutor(Executor):
    """A Dask `ClientExecutor` with retries, that notices a cluster with no worker or no scheduler.

    Dask re-runs a task whose worker died (up to the scheduler's `allowed-failures`) and a task that
    failed (`retries`); what it cannot do is finish without workers, where it waits for ever. So
    `check()` asks the scheduler how many workers it has (with a timeout: a dead scheduler must not
    hang the question) and gives up after `no_worker_seconds` without any.
    """

    restarts_all = False

    def __init__(
        self,
        client: Any,
        where: str,
        retries: int = DASK_RETRIES,
        no_worker_seconds: float = NO_WORKER_SECONDS,
    ) -> None:
        self.client = client
        self.where = where
        self._inner = client.get_executor(pure=False, retries=retries)
        self._no_worker_seconds = no_worker_seconds
        self._none_since: float | None = None
        self._last_check = 0.0

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        try:
            return self._inner.submit(fn, *args, **kwargs)
        except Exception as exc:
            if self.lost(exc) or self.client.status not in ("running", "connecting"):
                raise ExecutorUnavailable(f"{self.where}: the scheduler is gone ({_describe(exc)})") from None
            raise

    def lost(self, exc: BaseException) -> bool:
        from distributed import KilledWorker
        from distributed.comm.core import CommClosedError

        return isinstance(exc, KilledWorker | CancelledError | CommClosedError | OSError | TimeoutError)

    def restart(self) -> None:
        return None  # Dask reschedules lost tasks itself; a task it gave up on is submitted again

    def check(self) -> None:
        now = time.monotonic()
        if now - self._last_check < 1.0:
            return
        self._last_check = now
        if self.client.status not in ("running", "connecting"):
            raise ExecutorUnavailable(f"{self.where}: the connection to the scheduler is closed")
        try:
            info = self.client.sync(self.client.scheduler.identity, n_workers=-1, callback_timeout=10)
        except Exception as exc:  # noqa: BLE001 - any failure here means the scheduler cannot be asked
            raise ExecutorUnavailable(
                f"{self.where}: the scheduler does not answer ({_describe(exc)})"
            ) from None
        if info.get("workers"):
            self._none_since = None
            return
        if self._none_since is None:
            self._none_since = now
        elif now - self._none_since > self._no_worker_seconds:
            raise ExecutorUnavailable(
                f"{self.where}: no worker left for {self._no_worker_seconds:g} s; "
                "start workers or use --executor local"
            )

    def worker_count(self) -> int:
        """Workers the cluster has now (a remote scheduler's, not `--workers`); 0 if it cannot say."""
        try:
            return len(self.client.scheduler_info().get("workers", {}))
        except Exception:  # noqa: BLE001 - a gone scheduler has no workers to report
            return 0

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._inner.shutdown(wait=False)


def _describe(exc: BaseException) -> str:
    """An exception in a few words: its type and the start of its message."""
    text = " ".join(str(exc).split())
    if len(text) > 80:
        text = text[:79] + "…"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _security(scheduler: str) -> Any:
    """TLS settings for a `tls://` scheduler from the Dask config; `ExecutorUnavailable` without them."""
    from distributed import Security

    security: Any = Security()  # its TLS attributes are set from the Dask config at run time
    if not (security.tls_ca_file and security.tls_client_cert):
        raise ExecutorUnavailable(
            f"--scheduler {scheduler}: a tls:// scheduler needs certificates: set "
            "distributed.comm.tls.ca-file, .client.cert and .client.key in the Dask config "
            "(e.g. DASK_DISTRIBUTED__COMM__TLS__CA_FILE)"
        )
    return security


@contextmanager
def dask_executor(
    workers: int, scheduler: str | None, *, no_worker_seconds: float = NO_WORKER_SECONDS
) -> Iterator[Executor]:
    """A Dask executor: on the scheduler at `scheduler`, or on a local cluster of `workers` processes.

    The local cluster listens on loopback only (scheduler, workers and dashboard), uses one thread
    per worker process (games are pure Python: threads would only contend for the GIL) and a
    dashboard on a free port so two runs never collide.
    """
    try:
        import logging

        from distributed import Client, LocalCluster
    except ImportError:
        from skirmish import install_hint

        why = f"--executor dask: Dask is not installed ({install_hint('dask')})"
        raise ExecutorUnavailable(why) from None
    _quiet_dask_logs()
    cluster: Any = None
    where = f"--scheduler {scheduler}" if scheduler else "--executor dask"
    try:
        if scheduler is None:
            cluster = LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address="127.0.0.1:0",
                silence_logs=logging.ERROR,
            )
            client = Client(cluster)
        else:
            security = _security(scheduler) if scheduler.startswith("tls://") else None
            client = Client(scheduler, timeout="10s", security=security)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        if cluster is not None:
            cluster.close()
        what = f"scheduler {scheduler}" if scheduler else "a local cluster"
        raise ExecutorUnavailable(f"--scheduler: cannot connect to {what}: {exc}") from None
    ex = DaskExecutor(client, where, no_worker_seconds=no_worker_seconds)
    try:
        yield ex
    finally:
        _quietly_close(client, cluster)


def _quiet_dask_logs() -> None:
    """Dask and tornado log a traceback for every broken connection when a scheduler dies; the
    command reports that itself in one line, so their loggers are silenced below CRITICAL."""
    import logging

    names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] in ("distributed", "tornado")]
    for name in ("distributed", "tornado", *names):
        logging.getLogger(name).setLevel(logging.CRITICAL)


def _quietly_close(client: Any, cluster: Any) -> None:
    """Close the client and cluster; a scheduler that is already gone must not print a traceback."""
    import contextlib

    _quiet_dask_logs()
    with contextlib.suppress(Exception):
        client.close(timeout=5)
    if cluster is not None:
        with contextlib.suppress(Exception):
            cluster.close(timeout=10)


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
