"""Running a batch of games on an executor and folding the results, in game-index order.

Batches are submitted a few at a time (a window of about three per worker) and consumed strictly
in index order, so the tallies, the CSV rows and the early-stopping decision are the same whatever
the number of workers, the executor or the order in which batches finish. Only the tallies and a
byte per game (for the running win-rate plot) are kept: memory stays flat however many games run.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import CancelledError, Executor, Future
from dataclasses import dataclass, field
from typing import Any

from skirmish.sim.executors import ExecutorUnavailable
from skirmish.sim.games import DRAW, WIN_A, WIN_B, GameRecord, ModelLine, Plan, batches, play_batch
from skirmish.sim.stats import PairedTable, paired_difference, wilson


@dataclass
class ModelTotals:
    """Sums over games of one model's figures (divide by `games` for per-game means)."""

    games: int = 0
    damage_dealt: int = 0
    damage_taken: int = 0
    kos: int = 0
    survived: int = 0
    ap_spent: int = 0
    abilities: int = 0

    def add(self, line: ModelLine) -> None:
        self.games += 1
        self.damage_dealt += line.damage_dealt
        self.damage_taken += line.damage_taken
        self.kos += line.kos
        self.survived += int(line.survived)
        self.ap_spent += line.ap_spent
        self.abilities += line.abilities

    def means(self) -> dict[str, float]:
        g = max(1, self.games)
        return {
            "kos": self.kos / g,
            "damage_dealt": self.damage_dealt / g,
            "damage_taken": self.damage_taken / g,
            "survival": self.survived / g,
            "ap_spent": self.ap_spent / g,
            "abilities_used": self.abilities / g,
        }


def _add_per_turn(sums: list[int], counts: list[int], points: tuple[int, ...]) -> None:
    for t, v in enumerate(points):
        if t >= len(sums):
            sums.append(0)
            counts.append(0)
        sums[t] += v
        counts[t] += 1


@dataclass
class Tally:
    """Everything summed over the games of one matchup so far."""

    games: int = 0
    wins_a: int = 0
    wins_b: int = 0
    draws: int = 0
    turns: int = 0
    bp_a: int = 0
    bp_b: int = 0
    kos_a: int = 0
    kos_b: int = 0
    outcomes: bytearray = field(default_factory=bytearray)
    lengths: bytearray = field(default_factory=bytearray)
    bp_turn_a: list[int] = field(default_factory=list)
    bp_turn_b: list[int] = field(default_factory=list)
    bp_turn_n: list[int] = field(default_factory=list)
    _bp_turn_n_b: list[int] = field(default_factory=list)
    models_a: dict[str, ModelTotals] = field(default_factory=dict)
    models_b: dict[str, ModelTotals] = field(default_factory=dict)
    reasons: dict[str, int] = field(default_factory=dict)
    wins_first_seat: int = 0
    wins_second_seat: int = 0

    def add(self, r: GameRecord) -> None:
        self.games += 1
        if r.outcome == WIN_A:
            self.wins_a += 1
        elif r.outcome == WIN_B:
            self.wins_b += 1
        else:
            self.draws += 1
        if r.outcome != DRAW:
            # The seat that won: side 0 moves (and, in the Duel, calls) first on turn 1.
            first_won = (r.outcome == WIN_A) == (r.a_side == 0)
            self.wins_first_seat += int(first_won)
            self.wins_second_seat += int(not first_won)
        self.outcomes.append(r.outcome + 1)  # 0 = B won, 1 = draw, 2 = A won
        self.lengths.append(min(255, r.turns))
        self.turns += r.turns
        self.bp_a += sum(r.bp_a)
        self.bp_b += sum(r.bp_b)
        self.kos_a += r.kos_a
        self.kos_b += r.kos_b
        _add_per_turn(self.bp_turn_a, self.bp_turn_n, r.bp_a)
        _add_per_turn(self.bp_turn_b, self._bp_turn_n_b, r.bp_b)
        for line in r.models_a:
            self.models_a.setdefault(line.key, ModelTotals()).add(line)
        for line in r.models_b:
            self.models_b.setdefault(line.key, ModelTotals()).add(line)
        key = r.reason.split(":")[0] if r.reason else "unknown"
        self.reasons[key] = self.reasons.get(key, 0) + 1

    @property
    def win_rate_a(self) -> float:
        return self.wins_a / self.games if self.games else 0.0

    def ci95_a(self) -> tuple[float, float]:
        return wilson(self.wins_a, self.games)

    def summary(self) -> dict[str, Any]:
        g = max(1, self.games)
        low, high = self.ci95_a()
        return {
            "games": self.games,
            "wins_a": self.wins_a,
            "wins_b": self.wins_b,
            "draws": self.draws,
            "win_rate_a": self.win_rate_a,
            "ci95_a": [low, high],
            "win_rate_b": self.wins_b / g if self.games else 0.0,
            "ci95_b": list(wilson(self.wins_b, self.games)),
            "draw_rate": self.draws / g if self.games else 0.0,
            "wins_first_seat": self.wins_first_seat,
            "wins_second_seat": self.wins_second_seat,
            "first_seat_win_rate": self.wins_first_seat / g if self.games else 0.0,
            "mean_turns": self.turns / g,
            "mean_battle_points_a": self.bp_a / g,
            "mean_battle_points_b": self.bp_b / g,
            "mean_kos_a": self.kos_a / g,
            "mean_kos_b": self.kos_b / g,
            "battle_points_per_turn_a": [s / n for s, n in zip(self.bp_turn_a, self.bp_turn_n, strict=True)],
            "battle_points_per_turn_b": [
                s / n for s, n in zip(self.bp_turn_b, self._bp_turn_n_b, strict=True)
            ],
            "end_reasons": dict(sorted(self.reasons.items())),
            "models_a": {k: v.means() for k, v in self.models_a.items()},
            "models_b": {k: v.means() for k, v in self.models_b.items()},
        }


def _width(ci: tuple[float, float]) -> float:
    return ci[1] - ci[0]


StopRule = Callable[[list[Tally], PairedTable | None], bool]


def width_rule(width: float) -> StopRule:
    """Stop once every interval that matters is narrower than `width`.

    The interval of A's win rate in each matchup, or, in a paired comparison, the interval of
    the difference (the figure the comparison is for).
    """

    def rule(tallies: list[Tally], paired: PairedTable | None) -> bool:
        if paired is not None:
            _, (low, high) = paired_difference(paired)
            return high - low < width
        return all(t.games > 0 and _width(t.ci95_a()) < width for t in tallies)

    return rule


@dataclass
class RunResult:
    plan: Plan
    tallies: list[Tally]
    paired: PairedTable | None
    games_requested: int
    games_played: int
    stopped_early: bool
    seconds: float
    batch_size: int

    @property
    def games_per_second(self) -> float:
        total = self.games_played * len(self.tallies)
        return total / self.seconds if self.seconds > 0 else 0.0


Progress = Callable[[int, list[Tally]], None]
RecordSink = Callable[[GameRecord], None]
BatchSink = Callable[[list[GameRecord]], None]

MAX_BATCH_RETRIES = 3
"""Times one batch is submitted again after its worker was lost, before the run gives up."""

POLL_SECONDS = 0.5
"""How often a wait for a batch stops to ask the executor whether it still has workers."""


@dataclass
class _Flight:
    start: int
    stop: int
    future: Future[list[GameRecord]]
    attempts: int = 0


class _NoFaults:
    """The fault interface of an executor that has none (in-process): nothing is ever lost."""

    restarts_all = False

    def lost(self, exc: BaseException) -> bool:
        return False

    def restart(self) -> None:
        return None

    def check(self) -> None:
        return None


def _whole_batches(
    resumed: Sequence[GameRecord], spans: list[tuple[int, int]], per_game: int
) -> list[list[GameRecord]]:
    """The records of an interrupted run as the leading whole batches of `spans`, in fold order."""
    by_index: dict[int, list[GameRecord]] = {}
    for r in resumed:
        by_index.setdefault(r.index, []).append(r)
    out: list[list[GameRecord]] = []
    for s, e in spans:
        recs = [r for i in range(s, e) for r in sorted(by_index.get(i, []), key=lambda r: r.matchup)]
        if len(recs) != (e - s) * per_game:
            break
        out.append(recs)
    return out


def run(
    plan: Plan,
    games: int,
    executor: Executor,
    *,
    batch_size: int,
    window: int = 6,
    stop: StopRule | None = None,
    paired: bool = False,
    on_record: RecordSink | None = None,
    on_progress: Progress | None = None,
    on_batch: BatchSink | None = None,
    resumed: Sequence[GameRecord] = (),
    retries: int = MAX_BATCH_RETRIES,
    poll: float = POLL_SECONDS,
) -> RunResult:
    """Play `games` indices of every matchup of `plan` on `executor`; fold the results in index order.

    `stop` is consulted after each batch, in order; when it says so the remaining batches are
    cancelled and never counted, even if a worker already finished them. `paired` keeps the 2x2
    table of the first two matchups (a variant and its original against the same opponent).

    `resumed` holds the records of an interrupted run of the same plan: its leading whole batches
    are folded (and passed to `on_record`) as if just played, and only the rest is played.
    `on_batch` receives each newly played batch, in order, to be kept (the results file). A batch
    whose worker is lost (a killed process, a dead Dask worker) is submitted again, at most
    `retries` times; the executor's `check()` is asked every `poll` seconds while waiting, and
    ends the run with `ExecutorUnavailable` when no worker is left.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    faults: Any = executor if hasattr(executor, "lost") else _NoFaults()
    tallies = [Tally() for _ in plan.matchups]
    table = PairedTable() if paired else None
    spans = batches(games, batch_size)
    done = _whole_batches(resumed, spans, len(plan.matchups))
    todo = deque(spans[len(done) :])
    inflight: deque[_Flight] = deque()
    started = time.perf_counter()
    played = 0
    stopped = False

    def fill() -> None:
        while todo and len(inflight) < window:
            s, e = todo.popleft()
            inflight.append(_Flight(s, e, executor.submit(play_batch, plan, s, e)))

    def fold(records: list[GameRecord]) -> bool:
        """Add one batch to the tallies; True when the stopping rule says enough."""
        nonlocal played
        by_index: dict[int, dict[int, GameRecord]] = {}
        for r in records:
            tallies[r.matchup].add(r)
            by_index.setdefault(r.index, {})[r.matchup] = r
            if on_record is not None:
                on_record(r)
        if table is not None:
            for idx in sorted(by_index):
                pair = by_index[idx]
                table.add(pair[0].outcome == WIN_A, pair[1].outcome == WIN_A)
        played = tallies[0].games
        if on_progress is not None:
            on_progress(played, tallies)
        return stop is not None and stop(tallies, table)

    def resubmit(flights: list[_Flight]) -> None:
        for f in flights:
            f.attempts += 1
            f.future = executor.submit(play_batch, plan, f.start, f.stop)

    def wait(f: _Flight) -> list[GameRecord]:
        while True:
            try:
                return f.future.result(timeout=poll)
            except TimeoutError:
                if not f.future.done():  # still running: is anyone left to run it?
                    faults.check()
                    continue
                exc: BaseException | None = f.future.exception()
            except (Exception, CancelledError) as caught:
                exc = caught
            assert exc is not None
            if not faults.lost(exc):
                raise exc
            if f.attempts >= retries:
                raise ExecutorUnavailable(
                    f"games {f.start}-{f.stop - 1} were lost {f.attempts + 1} times "
                    f"({type(exc).__name__}); giving up"
                ) from None
            faults.restart()
            resubmit([f, *inflight] if faults.restarts_all else [f])

    try:
        for records in done:
            if fold(records):
                stopped = bool(todo)
                todo.clear()
                break
        fill()
        while inflight:
            flight = inflight[0]
            records = wait(flight)
            inflight.popleft()
            if on_batch is not None:
                on_batch(records)
            if fold(records):
                stopped = bool(todo or inflight)
                break
            fill()
    finally:
        for f in inflight:
            f.future.cancel()
    seconds = time.perf_counter() - started
    return RunResult(plan, tallies, table, games, played, stopped, seconds, batch_size)


def outcome_name(outcome: int) -> str:
    return {WIN_A: "A", WIN_B: "B", DRAW: "draw"}[outcome]
