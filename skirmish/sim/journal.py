"""The results file of a batch run (`test-troupes --resume FILE`): what an interrupted run keeps.

One JSON object a line (JSONL), appended as the run folds its batches in index order:

    {"skirmish_results": 1, "run": "<digest>", "about": {...}}    the header: which run this is
    {"record": {...}}                                               one game's record
    {"batch": [start, stop]}                                        every game of that batch is above

Each batch is flushed and fsynced when its marker is written, so after a kill (or a full disk) the
file holds whole batches and perhaps a torn tail. Resuming keeps the records up to the last batch
marker, cuts the tail off, and the run plays only the batches after it; since a game depends only
on the plan and its index, and batches are folded in order either way, the final numbers are the
ones an uninterrupted run gives.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from skirmish.data.errors import DataError, Problem
from skirmish.sim.games import GameRecord, ModelLine, Plan

FORMAT = 1


def run_identity(
    plan: Plan, games: int, batch_size: int, extra: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """A digest of everything the run's numbers depend on, and a readable summary of it."""
    about = {
        "scenario": plan.scenario_arg,
        "troupes": [[m.a_arg, m.b_arg] for m in plan.matchups],
        "seed": plan.seed,
        "games": games,
        "batch": batch_size,
        "bots": plan.policy,
        "turns": plan.turns,
        "options": list(plan.option_args),
        **extra,
    }
    full = {
        **about,
        "scenario_data": plan.scenario.model_dump(mode="json"),
        "troupe_data": [[m.a.model_dump(mode="json"), m.b.model_dump(mode="json")] for m in plan.matchups],
        "options_data": plan.options.model_dump(mode="json"),
    }
    digest = hashlib.sha256(json.dumps(full, sort_keys=True).encode()).hexdigest()
    return digest, about


def record_to_json(r: GameRecord) -> dict[str, Any]:
    d = dataclasses.asdict(r)
    d.pop("replay", None)  # the replay is its own file in the --save-replays folder
    return d


def record_from_json(d: dict[str, Any], matchups: int | None = None) -> GameRecord:
    """A record read back; `ValueError` when it is not one this program wrote (`_check_record`)."""
    d = dict(d)
    d["bp_a"], d["bp_b"] = tuple(d["bp_a"]), tuple(d["bp_b"])
    d["models_a"] = [ModelLine(**m) for m in d["models_a"]]
    d["models_b"] = [ModelLine(**m) for m in d["models_b"]]
    r = GameRecord(**d)
    _check_record(r, matchups)
    return r


def _whole(v: Any, low: int = 0) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= low


def _check_record(r: GameRecord, matchups: int | None) -> None:
    """Raise `ValueError` unless every field has the kind and range a played game gives it.

    A hand-edited or damaged line (`"kos_b": "x"`, an outcome of 7, a matchup the run does not
    have) was taken as it was and crashed the tallies later (`internal error: TypeError`, exit 1);
    now it is treated like a torn line: it and what follows are played again.
    """
    from skirmish.sim.games import DRAW, WIN_A, WIN_B

    ints = (r.index, r.seed, r.turns, r.kos_a, r.kos_b, *r.bp_a, *r.bp_b)
    ok = (
        _whole(r.matchup)
        and (matchups is None or r.matchup < matchups)
        and all(_whole(v) for v in ints)
        and r.a_side in (0, 1)
        and _whole(r.a_side)
        and r.outcome in (WIN_A, WIN_B, DRAW)
        and _whole(r.outcome, low=-1)
        and isinstance(r.reason, str)
        and r.replay is None
    )
    for line in (*r.models_a, *r.models_b):
        counts = (line.damage_dealt, line.damage_taken, line.kos, line.ap_spent, line.abilities)
        ok = ok and isinstance(line.key, str) and isinstance(line.survived, bool)
        ok = ok and all(_whole(v) for v in counts)
    if not ok:
        raise ValueError(f"not a game record: {r!r:.200}")


@dataclass
class Resumed:
    """What an existing results file holds: whole batches of records, and where they end in the file."""

    records: list[GameRecord]
    end: int
    """Byte offset just after the last batch marker (the rest is a torn tail)."""


def _lines(raw: bytes) -> Iterator[tuple[int, bytes]]:
    """(offset after the line, line) for each complete line."""
    pos = 0
    while True:
        nl = raw.find(b"\n", pos)
        if nl < 0:
            return
        yield nl + 1, raw[pos:nl]
        pos = nl + 1


NOT_RESULTS = "is not a Skirmish results file (give a new file, or an interrupted run's)"
HEADER_START = b'{"about":'
"""How every header line begins (its keys are written sorted: about, run, skirmish_results)."""


def _torn_header(raw: bytes) -> bool:
    """Whether a file without a whole line is the start of a header cut short by a crash: only then
    may it be started afresh. Anything else (a replay, a CSV, notes) is someone's file."""
    n = min(len(raw), len(HEADER_START))
    return raw[:n] == HEADER_START[:n]


def read_results(path: Path, digest: str, flag: str = "--resume", matchups: int | None = None) -> Resumed:
    """The whole batches of an interrupted run in `path`; `DataError` if the file is another run's.

    `matchups`, when given, is how many the run plays: a record naming another is damaged."""
    from skirmish.data.loader import read_text

    name = str(path)
    raw = read_text(path, limit=2_000_000_000, what="results files").encode("utf-8")
    records: list[GameRecord] = []
    pending: list[GameRecord] = []
    end = 0
    if b"\n" not in raw and not _torn_header(raw):
        raise DataError([Problem(name, "", f"{flag}: {NOT_RESULTS}")])
    for n, (after, line) in enumerate(_lines(raw)):
        try:
            obj = json.loads(line)
        except ValueError:
            if n == 0:  # a whole first line that is no header: another file, never to be overwritten
                raise DataError([Problem(name, "", f"{flag}: {NOT_RESULTS}")]) from None
            break  # a torn line: everything from here on is dropped
        if n == 0:
            if not isinstance(obj, dict) or obj.get("skirmish_results") != FORMAT:
                raise DataError([Problem(name, "", f"{flag}: {NOT_RESULTS}")])
            if obj.get("run") != digest:
                about_raw = obj.get("about")
                about: dict[str, Any] = about_raw if isinstance(about_raw, dict) else {}
                what = ", ".join(f"{k} {about[k]}" for k in ("games", "seed", "scenario") if k in about)
                raise DataError(
                    [
                        Problem(
                            name,
                            "",
                            f"{flag}: holds the results of another run ({what or 'unknown'}); resume "
                            "with the same troupes, scenario, seed, games and flags, or give a new file",
                        )
                    ]
                )
            end = after
            continue
        if not isinstance(obj, dict):
            break
        if "record" in obj:
            try:
                pending.append(record_from_json(obj["record"], matchups))
            except (TypeError, KeyError, ValueError, AttributeError):
                break
        elif "batch" in obj:
            records.extend(pending)
            pending = []
            end = after
        else:
            break
    return Resumed(records, end)


class ResultsWriter:
    """Appends batches to a results file, each made durable (flush + fsync) before the next."""

    def __init__(self, path: Path, digest: str, about: dict[str, Any], resume_at: int | None) -> None:
        self.path = path
        if resume_at is None:
            self.fh: IO[bytes] = open(path, "wb")  # noqa: SIM115 - closed by `close`
            self._write({"skirmish_results": FORMAT, "run": digest, "about": about})
            self._sync()
        else:
            self.fh = open(path, "r+b")  # noqa: SIM115 - closed by `close`
            self.fh.truncate(resume_at)  # drop a torn tail
            self.fh.seek(resume_at)

    def _write(self, obj: dict[str, Any]) -> None:
        self.fh.write(json.dumps(obj, sort_keys=True, separators=(",", ":")).encode("utf-8") + b"\n")

    def _sync(self) -> None:
        self.fh.flush()
        os.fsync(self.fh.fileno())

    def batch(self, records: list[GameRecord]) -> None:
        for r in records:
            self._write({"record": record_to_json(r)})
        if records:
            self._write({"batch": [min(r.index for r in records), max(r.index for r in records) + 1]})
        self._sync()

    def close(self) -> None:
        self.fh.close()
