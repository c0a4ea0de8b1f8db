"""Issue 11, items 4 and 5: outputs that cannot be lost and batch runs that survive faults.

Killed writers leave the old file or the new one; a full disk is exit 2 naming the flag; a killed
local worker or Dask worker costs a retry, not the run; no worker left is a clear exit 2 in
bounded time; `--resume` finishes an interrupted run with the numbers of an uninterrupted one.
Games are one-turn Avatar Duels (a tenth of a second each) so every test takes a few seconds.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import json
import os
import signal
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

import pytest
from helpers_cli import run as cli

import skirmish.data.atomic as atomic
from skirmish.data.atomic import clean_stale_temporaries, write_atomic
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.sim.executors import ExecutorUnavailable, InlineExecutor, LocalPool
from skirmish.sim.games import GameRecord, Matchup, Plan
from skirmish.sim.journal import read_results, record_from_json, record_to_json, run_identity
from skirmish.sim.run import run

ROOT = Path(__file__).resolve().parents[1]
FAST_RUN = ["test-troupes", "team_avatar", "zuko_hunting_party", "--turns", "1", "--seed", "5"]


@pytest.fixture(scope="module")
def plan() -> Plan:
    scenario = find_scenario("open_battle").model_copy(update={"turns": 1})
    a, b = find_troupe("team_avatar"), find_troupe("zuko_hunting_party")
    return Plan(
        scenario, (Matchup(a, b, "team_avatar", "zuko_hunting_party"),), scenario.options, seed=7, turns=1
    )


def _numbers(report: dict[str, Any]) -> dict[str, Any]:
    """The figures a run must reproduce (not its timing)."""
    drop = {"seconds", "games_per_second", "workers", "executor"}
    return {k: v for k, v in report.items() if k not in drop}


def _rows(records: list[GameRecord]) -> list[dict[str, Any]]:
    return [record_to_json(r) for r in records]


# ---------------------------------------------------------------- the atomic writer
_WRITER = """
import sys
from skirmish.data.atomic import write_atomic
target, size = sys.argv[1], int(sys.argv[2])
print("ready", flush=True)
i = 0
while True:
    write_atomic(target, (b"AB"[i % 2 : i % 2 + 1]) * size)
    i += 1
"""


def test_a_writer_killed_mid_write_leaves_the_old_file_or_the_new(tmp_path: Path) -> None:
    """SIGKILL at random moments of a stream of saves: never a torn file; the next save cleans up."""
    target = tmp_path / "save.json"
    size = 2_000_000
    target.write_bytes(b"O" * size)
    for k in range(4):
        proc = subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(target), str(size)], stdout=subprocess.PIPE, cwd=ROOT
        )
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
        time.sleep(0.05 + 0.07 * k)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        data = target.read_bytes()
        assert len(data) == size and data in (b"O" * size, b"A" * size, b"B" * size)
    write_atomic(target, b"final")
    assert target.read_bytes() == b"final"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]  # stale temporaries are gone


def test_stale_temporaries_of_a_live_writer_are_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    live = tmp_path / f".out.csv.{os.getppid()}.abcdefgh.tmp"
    dead = tmp_path / ".out.csv.999999999.abcdefgh.tmp"
    other = tmp_path / ".other.csv.999999999.abcdefgh.tmp"
    for p in (live, dead, other):
        p.write_text("x")
    assert clean_stale_temporaries(target) == [dead]
    assert live.exists() and other.exists()
    assert clean_stale_temporaries(folder=tmp_path) == [other]


def test_the_folder_is_fsynced_after_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append("dir" if os.path.isdir(f"/proc/self/fd/{fd}") else "file")
        real_fsync(fd)

    monkeypatch.setattr(atomic.os, "fsync", fsync)
    write_atomic(tmp_path / "a.json", "x")
    assert synced == ["file", "dir"]


class _FullDisk(types.SimpleNamespace):
    """`os` for the atomic writer, with fsync failing as on a full disk (ENOSPC)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)

    @staticmethod
    def fsync(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("flag", ["--save-replays", "--csv"])
def test_a_full_disk_is_exit_2_naming_the_flag_and_the_old_csv_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, flag: str
) -> None:
    old = tmp_path / "old.csv"
    old.write_text("the previous run\n")
    monkeypatch.setattr(atomic, "os", _FullDisk())
    argv = [*FAST_RUN, "--games", "4", "--workers", "1", "--csv", str(old)]
    if flag == "--save-replays":
        argv += ["--save-replays", str(tmp_path / "replays")]
    code, _, err = cli(argv, capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert flag in lines[0] and "No space left on device" in lines[0] and "Traceback" not in err
    assert old.read_text() == "the previous run\n"  # kept until a run completes
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_csv_is_complete_or_untouched_and_replays_come_back_to_the_client(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "games.csv"
    reps = tmp_path / "replays"
    code, _, err = cli(
        [*FAST_RUN, "--games", "4", "--workers", "2", "--csv", str(out), "--save-replays", str(reps)], capsys
    )
    assert code == 0, err
    assert len(out.read_text().splitlines()) == 5
    assert sorted(p.name for p in reps.iterdir()) == [f"game_m0_{i:06d}.json" for i in range(4)]
    code, _, err = cli(["replay", str(reps / "game_m0_000003.json"), "--verify"], capsys)
    assert code == 0, err


# ---------------------------------------------------------------- a killed local worker
def _kill_one_worker(pool: LocalPool, when: int) -> Any:
    fired: list[int] = []

    def progress(done: int, tallies: list[Any]) -> None:
        if done >= when and not fired:
            pids = pool.pids()
            assert pids
            os.kill(pids[0], signal.SIGKILL)
            fired.append(pids[0])

    return progress, fired


def test_a_killed_local_worker_costs_a_retry_not_the_run(plan: Plan) -> None:
    games, size = 12, 2
    clean: list[GameRecord] = []
    expect = run(plan, games, InlineExecutor(), batch_size=size, on_record=clean.append)
    got: list[GameRecord] = []
    pool = LocalPool(2)
    try:
        progress, fired = _kill_one_worker(pool, 2)
        result = run(plan, games, pool, batch_size=size, window=4, on_record=got.append, on_progress=progress)
    finally:
        pool.shutdown()
    assert fired and pool.restarts >= 1
    assert result.tallies[0].summary() == expect.tallies[0].summary()
    assert _rows(got) == _rows(clean)
    assert not _children_alive(), "workers of the broken pool outlived the run"


def _children_alive() -> list[int]:
    """Child processes of this one that still run (zombies excluded), other than multiprocessing's
    resource tracker: one per process, started by the first spawned pool or cluster of any test
    that ran in this process before (a Dask cluster's), and meant to live as long as it does."""
    me = os.getpid()
    alive = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            mine = int(fields[1]) == me and fields[0] != "Z"
            if mine and b"multiprocessing.resource_tracker" not in (d / "cmdline").read_bytes():
                alive.append(int(d.name))
    return alive


def test_workers_that_keep_dying_end_in_exit_2(plan: Plan) -> None:
    pool = LocalPool(2, max_restarts=1)
    try:

        def progress(done: int, tallies: list[Any]) -> None:
            for pid in pool.pids():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)

        started = time.monotonic()
        with pytest.raises(ExecutorUnavailable, match="died"):
            run(plan, 40, pool, batch_size=1, window=4, on_progress=progress)
        assert time.monotonic() - started < 60
    finally:
        pool.shutdown()


# ---------------------------------------------------------------- --resume
def test_resume_after_a_kill_gives_the_numbers_of_a_clean_run(tmp_path: Path) -> None:
    """SIGKILL the command mid-run; `--resume` with the same command completes it, same figures."""
    games = ["--games", "16", "--batch", "2", "--workers", "1", "--json"]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    clean = subprocess.run(
        [sys.executable, "-m", "skirmish", *FAST_RUN, *games],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert clean.returncode == 0, clean.stderr
    results, out = tmp_path / "run.jsonl", tmp_path / "run.csv"
    out.write_text("old\n")
    argv = [sys.executable, "-m", "skirmish", *FAST_RUN, *games, "--resume", str(results), "--csv", str(out)]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=tmp_path)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if results.exists() and results.read_bytes().count(b'"batch"') >= 2:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    assert out.read_text() == "old\n"  # the CSV is renamed into place only at the end
    marks = results.read_bytes().count(b'"batch"')
    assert 2 <= marks < 8, marks
    with results.open("ab") as fh:
        fh.write(b'{"record": {"matchup": 0, "ind')  # a torn last line, as a kill mid-write leaves
    resumed = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert _numbers(json.loads(resumed.stdout)) == _numbers(json.loads(clean.stdout))
    assert len(out.read_text().splitlines()) == 17
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_resume_refuses_the_results_of_another_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "run.jsonl"
    code, _, err = cli([*FAST_RUN, "--games", "2", "--workers", "1", "--resume", str(results)], capsys)
    assert code == 0, err
    code, _, err = cli([*FAST_RUN, "--games", "3", "--workers", "1", "--resume", str(results)], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "--resume" in lines[0] and "another run" in lines[0], err


def test_records_round_trip_through_the_results_file(plan: Plan, tmp_path: Path) -> None:
    from skirmish.sim.journal import ResultsWriter

    records: list[GameRecord] = []
    run(plan, 4, InlineExecutor(), batch_size=2, on_record=records.append)
    assert [record_from_json(record_to_json(r)) for r in records] == records
    digest, about = run_identity(plan, 4, 2, {})
    w = ResultsWriter(tmp_path / "r.jsonl", digest, about, None)
    w.batch(records[:2])
    w.batch(records[2:3])  # as if killed before the batch's last record and marker
    w.close()
    raw = (tmp_path / "r.jsonl").read_bytes()
    (tmp_path / "r.jsonl").write_bytes(raw[: raw.rindex(b'{"batch"')])
    found = read_results(tmp_path / "r.jsonl", digest)
    assert found.records == records[:2]


# ---------------------------------------------------------------- Dask
def test_dask_killed_worker_gives_the_full_identical_result(plan: Plan) -> None:
    pytest.importorskip("distributed")
    from skirmish.sim.executors import dask_executor

    games, size = 8, 2
    expect = run(plan, games, InlineExecutor(), batch_size=size)
    with dask_executor(2, None) as ex:
        client = ex.client  # type: ignore[attr-defined]
        assert "127.0.0.1" in client.dashboard_link
        assert all(addr.startswith("tcp://127.0.0.1:") for addr in client.scheduler_info()["workers"])
        pids = list(client.run(os.getpid).values())
        fired: list[int] = []

        def progress(done: int, tallies: list[Any]) -> None:
            if not fired:
                os.kill(pids[0], signal.SIGKILL)
                fired.append(pids[0])

        result = run(plan, games, ex, batch_size=size, window=4, on_progress=progress)
        # Replays travel back with the records (the client writes them): never to a worker's disk.
        with_replays = dataclasses.replace(plan, replay_dir=str(Path("/nonexistent/on/any/worker")))
        got: list[GameRecord] = []
        run(with_replays, 2, ex, batch_size=1, on_record=got.append)
    assert fired
    assert result.tallies[0].summary() == expect.tallies[0].summary()
    assert [json.loads(r.replay or "{}").get("seed") for r in got] == [plan.game_seed(0), plan.game_seed(1)]


def test_dask_with_no_worker_left_ends_in_bounded_time(plan: Plan) -> None:
    pytest.importorskip("distributed")
    from skirmish.sim.executors import dask_executor

    with dask_executor(1, None, no_worker_seconds=1.0) as ex:
        client = ex.client  # type: ignore[attr-defined]

        def progress(done: int, tallies: list[Any]) -> None:
            client.cluster.scale(0)  # every worker gone, and no nanny to start another

        started = time.monotonic()
        with pytest.raises(ExecutorUnavailable, match="no worker left|scheduler"):
            run(plan, 30, ex, batch_size=1, window=2, on_progress=progress, poll=0.2)
        assert time.monotonic() - started < 30


def test_a_tls_scheduler_without_certificates_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    code, _, err = cli(
        [*FAST_RUN, "--games", "2", "--executor", "dask", "--scheduler", "tls://127.0.0.1:1"], capsys
    )
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "--scheduler tls://127.0.0.1:1" in lines[0], err
    assert "Traceback" not in err and "TypeError" not in err


def test_dask_scheduler_gone_is_executor_unavailable_not_a_traceback(plan: Plan) -> None:
    pytest.importorskip("distributed")
    from skirmish.sim.executors import dask_executor

    with dask_executor(1, None) as ex:
        client = ex.client  # type: ignore[attr-defined]

        def progress(done: int, tallies: list[Any]) -> None:
            client.cluster.close()  # the scheduler (and its workers) go away mid-run

        started = time.monotonic()
        with pytest.raises(ExecutorUnavailable, match="scheduler"):
            run(plan, 30, ex, batch_size=1, window=2, on_progress=progress, poll=0.2)
        assert time.monotonic() - started < 30


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.fuzz
@pytest.mark.parametrize("kill", ["scheduler", "worker"])
def test_an_external_cluster_that_dies_ends_in_exit_2_without_a_traceback(tmp_path: Path, kill: str) -> None:
    """A real `dask scheduler` and `dask worker` (no nanny) in subprocesses; one is SIGKILLed mid-run."""
    pytest.importorskip("distributed")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    sched = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "distributed.cli.dask_scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--no-dashboard",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "distributed.cli.dask_worker",
            address,
            "--nthreads",
            "1",
            "--no-nanny",
            "--no-dashboard",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        reps = tmp_path / "replays"
        argv = [
            sys.executable,
            "-m",
            "skirmish",
            *FAST_RUN,
            "--games",
            "400",
            "--batch",
            "1",
            "--executor",
            "dask",
        ]
        argv += ["--scheduler", address, "--save-replays", str(reps)]
        time.sleep(3)
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not (reps.is_dir() and len(list(reps.iterdir())) >= 3):
            time.sleep(0.1)
        assert reps.is_dir() and len(list(reps.iterdir())) >= 3, "the run never got going"
        (sched if kill == "scheduler" else worker).send_signal(signal.SIGKILL)
        out, err = proc.communicate(timeout=90)
        lines = err.strip().splitlines()
        assert proc.returncode == 2 and len(lines) == 1, err
        assert "--scheduler" in lines[0] and "Traceback" not in err
    finally:
        for p in (worker, sched):
            with contextlib.suppress(ProcessLookupError):
                p.kill()
            p.wait(10)


def test_resume_refuses_a_fifo_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "run.jsonl"
    os.mkfifo(fifo)  # opening it to write would block with no reader
    code, _, err = cli([*FAST_RUN, "--games", "2", "--workers", "1", "--resume", str(fifo)], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "--resume" in lines[0] and "regular file" in lines[0], err
