"""Where a troupe-testing run's records go as they arrive: the CSV, the replays folder, the `--resume`
results file, and the progress bar on a terminal. Each write failure is one line naming its flag.
"""

from __future__ import annotations

import contextlib
import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from skirmish.cli.errors import UsageProblem

CSV_COLUMNS = [
    "troupe_a",
    "troupe_b",
    "index",
    "seed",
    "sides",
    "side0",
    "side1",
    "winner",
    "winner_troupe",
    "turns",
    "battle_points_a",
    "battle_points_b",
    "battle_points_per_turn_a",
    "battle_points_per_turn_b",
    "kos_a",
    "kos_b",
    "reason",
    "command",
]


@contextlib.contextmanager
def csv_target(path: str) -> Iterator[IO[str]]:
    """The CSV as a text stream into a temporary file, renamed over `path` when the run ends well.

    An existing CSV is kept whole until then, and a killed run leaves it untouched (its temporary
    file is removed by the next write to `path`); every write failure is exit 2 naming `--csv`.
    """
    from skirmish.data.atomic import atomic_output

    try:
        with atomic_output(path) as raw:
            text = io.TextIOWrapper(raw, encoding="utf-8", newline="", write_through=False)
            try:
                yield text
                text.flush()
            finally:
                text.detach()
    except OSError as exc:
        raise UsageProblem(f"--csv {path}: cannot write the file ({exc.strerror or exc})") from None


class CsvSink:
    """Writes one row per game as results arrive (in index order): nothing is kept in memory."""

    def __init__(self, fh: IO[str], plan: Any, path: str) -> None:
        self.plan = plan
        self.path = path
        self.writer = csv.writer(fh)
        self._write(CSV_COLUMNS)

    def _write(self, row: list[Any]) -> None:
        try:
            self.writer.writerow(row)
        except OSError as exc:
            raise UsageProblem(f"--csv {self.path}: cannot write the file ({exc.strerror or exc})") from None

    def __call__(self, r: Any) -> None:
        from skirmish.sim.run import outcome_name

        m = self.plan.matchups[r.matchup]
        side0, side1 = (m.a_arg, m.b_arg) if r.a_side == 0 else (m.b_arg, m.a_arg)
        winner = outcome_name(r.outcome)
        self._write(
            [
                m.a_arg,
                m.b_arg,
                r.index,
                r.seed,
                "A,B" if r.a_side == 0 else "B,A",
                side0,
                side1,
                winner,
                {"A": m.a_arg, "B": m.b_arg}.get(winner, ""),
                r.turns,
                sum(r.bp_a),
                sum(r.bp_b),
                ";".join(map(str, r.bp_a)),
                ";".join(map(str, r.bp_b)),
                r.kos_a,
                r.kos_b,
                r.reason,
                self.plan.command(r.matchup, r.index),
            ]
        )


class ReplaySink:
    """Writes each game's replay, sent back with its record, into the `--save-replays` folder.

    Written here on the client, never by the workers: on a cluster their disks are not the user's.
    """

    def __init__(self, folder: str) -> None:
        from skirmish.data.atomic import clean_stale_temporaries

        self.folder = Path(folder)
        clean_stale_temporaries(folder=self.folder)  # once for the folder, not once per replay

    def __call__(self, r: Any) -> None:
        from skirmish.data.atomic import write_atomic

        if r.replay is None:  # a game resumed from the results file: its replay was written then
            return
        name = r.replay_name()
        try:
            write_atomic(self.folder / name, r.replay, clean=False)
        except OSError as exc:
            raise UsageProblem(
                f"--save-replays {self.folder}: cannot write {name} ({exc.strerror or exc})"
            ) from None
        r.replay = None  # the text is on disk: do not keep it in memory


def fan_out(sinks: list[Any]) -> Any:
    if not sinks:
        return None

    def each(r: Any) -> None:
        for sink in sinks:
            sink(r)

    return each


class Results:
    """The `--resume` results file: the whole batches it already holds, and appending new ones."""

    def __init__(self, path: str, writer: Any, resumed: list[Any]) -> None:
        self.path = path
        self.writer = writer
        self.resumed = resumed

    def batch(self, records: list[Any]) -> None:
        try:
            self.writer.batch(records)
        except OSError as exc:
            why = exc.strerror or exc
            raise UsageProblem(f"--resume {self.path}: cannot write the file ({why})") from None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.writer.close()


def open_results(path: str, plan: Any, games: int, size: int, identity: dict[str, Any]) -> Results:
    from skirmish.sim.journal import ResultsWriter, read_results, run_identity

    digest, about = run_identity(plan, games, size, identity)
    p = Path(path)
    if p.exists() and not p.is_file():  # a FIFO or device would block or swallow the results
        raise UsageProblem(
            f"--resume {path}: is not a regular file; give a file (new, or an interrupted run's)"
        )
    resumed: list[Any] = []
    at: int | None = None
    if p.exists() and p.stat().st_size > 0:
        found = read_results(p, digest, matchups=len(plan.matchups))
        if found.end > 0:
            resumed, at = found.records, found.end
    try:
        writer = ResultsWriter(p, digest, about, at)
    except OSError as exc:
        raise UsageProblem(f"--resume {path}: cannot write the file ({exc.strerror or exc})") from None
    return Results(path, writer, resumed)


class ProgressBar:
    """A rich progress bar on stderr with the running win rate and time left; nothing off a terminal."""

    def __init__(self, total: int, label: str) -> None:
        from rich.console import Console

        self.console = Console(stderr=True)
        self.progress: Any = None
        if not self.console.is_terminal:
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeRemainingColumn(),
            console=self.console,
            transient=True,
        )
        self.task = self.progress.add_task(label, total=total, rate="")

    def __enter__(self) -> ProgressBar:
        if self.progress is not None:
            self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()

    def update(self, done: int, tallies: list[Any]) -> None:
        if self.progress is None:
            return
        if len(tallies) == 1:
            t = tallies[0]
            lo, hi = t.ci95_a()
            rate = f"A wins {t.win_rate_a:.1%} [{lo:.1%}, {hi:.1%}]"
        else:
            rate = "  ".join(f"{t.win_rate_a:.0%}" for t in tallies[:6])
        self.progress.update(self.task, completed=done, rate=rate)
