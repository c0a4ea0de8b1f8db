"""Replays and saves: one JSON format for finished games, games in progress and golden tests.

A replay holds the scenario, the troupes, the rule options, the seed and the ordered actions
(design principle 6). Re-applying the actions must reach the recorded state hash. Files are
written atomically (temporary file, then rename) so a crash never leaves half a save.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from skirmish.data.errors import DataError, Problem
from skirmish.data.loader import check_scenario_geometry, check_troupe_references, validation_problems
from skirmish.data.options import RuleOptions
from skirmish.data.scenario import Scenario
from skirmish.data.troupe import Troupe
from skirmish.engine.actions import Action, action_from_json
from skirmish.engine.errors import IllegalAction
from skirmish.engine.game import Game

FORMAT = "skirmish-replay"
VERSION = 1
MAX_REPLAY_BYTES = 64_000_000


def _short(text: str, limit: int = 160) -> str:
    """An action's repr cut to a readable length (a 200,000-point path must not fill the terminal)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class Replay:
    scenario: Scenario
    troupes: list[Troupe]
    options: RuleOptions
    seed: int
    bots: list[str | None]
    actions: list[Action]
    final_hash: str | None = None
    result: dict[str, Any] = field(default_factory=dict)
    name: str = "<replay>"

    def new_game(self, record_log: bool = True, transactional: bool = True) -> Game:
        return Game(
            self.scenario,
            self.troupes,
            seed=self.seed,
            options=self.options,
            bots=self.bots,
            record_log=record_log,
            transactional=transactional,
        )

    def play(self, record_log: bool = True, upto: int | None = None, transactional: bool = True) -> Game:
        """Re-apply the actions (the first `upto` of them); `DataError` naming the first illegal one.

        `transactional=False` skips the per-action snapshots (no undo afterwards): for verification."""
        game = self.new_game(record_log, transactional)
        for i, action in enumerate(self.actions[:upto]):
            try:
                game.apply(action)
            except IllegalAction as exc:
                raise DataError(
                    [Problem(self.name, f"actions[{i}]", f"{_short(repr(action))} is illegal: {exc}")]
                ) from None
        return game


def replay_of(game: Game) -> dict[str, Any]:
    """The game as a replay object (also the save format of a game in progress)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "status": "finished" if game.over else "in_progress",
        "seed": game.seed,
        "bots": [p.bot for p in game.state.players],
        "options": game.options.model_dump(mode="json"),
        "scenario": game.scenario.model_dump(mode="json"),
        "troupes": [t.model_dump(mode="json") for t in game.troupes],
        "actions": [a.to_json() for a in game.history],
        "final_hash": game.hash(),
        "result": game.result(),
    }


def dumps(game: Game) -> str:
    return json.dumps(replay_of(game), sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def _umask() -> int:
    """The process umask, read without changing it where Linux allows (`os.umask` sets it to read it)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write a whole file so a crash never leaves half of it: a temporary file in the same folder, then
    an atomic rename.

    Only a regular file (or a new one) is replaced that way. A symlink is followed and its target
    replaced, so the link survives; a device or FIFO (`/dev/null`, `/dev/full`, a named pipe) is
    written in place, never swapped for a regular file, so its errors surface as `OSError`. A new
    file gets the usual mode 0o666 & ~umask (mkstemp's 0o600 would hide saves from other users); a
    replaced file keeps its mode.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    p = Path(path)
    if p.is_symlink():
        try:
            p = p.resolve()
        except RuntimeError:  # a symlink loop (Python 3.11 reports it this way)
            raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path)) from None
    try:
        st: os.stat_result | None = p.stat()
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if st is not None and not stat.S_ISREG(st.st_mode):
        with open(p, "wb") as fh:
            fh.write(raw)
        return
    mode = stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask()
    folder = p.parent if str(p.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), mode)
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def save_game(game: Game, path: str | Path) -> None:
    write_atomic(path, dumps(game))


def _problems(exc: ValidationError, name: str, prefix: str) -> list[Problem]:
    return [
        Problem(name, f"{prefix}.{p.field}" if p.field != "(top level)" else prefix, p.message)
        for p in validation_problems(exc, name)
    ]


def parse_replay(data: Any, name: str) -> Replay:
    """Check a replay object field by field; `DataError` lists every problem found."""
    if not isinstance(data, dict):
        raise DataError([Problem(name, "", "is not a replay (a JSON object is expected)")])
    if data.get("format") != FORMAT:
        raise DataError([Problem(name, "format", f"is not a Skirmish replay (format should be {FORMAT!r})")])
    if data.get("version") != VERSION:
        raise DataError(
            [
                Problem(
                    name,
                    "version",
                    f"version {data.get('version')!r} is not supported (this build reads version {VERSION})",
                )
            ]
        )
    problems: list[Problem] = []
    known = {
        "format",
        "version",
        "status",
        "seed",
        "bots",
        "options",
        "scenario",
        "troupes",
        "actions",
        "final_hash",
        "result",
    }
    for key in sorted(set(data) - known):
        problems.append(Problem(name, key, "unknown key (not part of the format)"))
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        problems.append(Problem(name, "seed", "must be a whole number >= 0"))
    scenario = troupes_ok = None
    try:
        scenario = Scenario.model_validate(data.get("scenario"))
        problems.extend(check_scenario_geometry(scenario, name))
    except ValidationError as exc:
        problems.extend(_problems(exc, name, "scenario"))
    troupes: list[Troupe] = []
    raw_troupes = data.get("troupes")
    if not isinstance(raw_troupes, list) or not raw_troupes:
        problems.append(Problem(name, "troupes", "must be a list of troupes"))
    else:
        for i, t in enumerate(raw_troupes):
            try:
                troupe = Troupe.model_validate(t)
                problems.extend(
                    Problem(name, f"troupes[{i}].{p.field}", p.message)
                    for p in check_troupe_references(troupe, name)
                )
                troupes.append(troupe)
            except ValidationError as exc:
                problems.extend(_problems(exc, name, f"troupes[{i}]"))
        troupes_ok = len(troupes) == len(raw_troupes)
    try:
        options = RuleOptions.model_validate(data.get("options", {}))
    except ValidationError as exc:
        problems.extend(_problems(exc, name, "options"))
        options = RuleOptions()
    bots = data.get("bots", [])
    if not isinstance(bots, list) or not all(b is None or isinstance(b, str) for b in bots):
        problems.append(Problem(name, "bots", "must be a list of bot names or nulls"))
        bots = []
    actions: list[Action] = []
    raw_actions = data.get("actions")
    if not isinstance(raw_actions, list):
        problems.append(Problem(name, "actions", "must be a list"))
    else:
        for i, a in enumerate(raw_actions):
            try:
                actions.append(action_from_json(a))
            except ValueError as exc:
                problems.append(Problem(name, f"actions[{i}]", str(exc)))
    final_hash = data.get("final_hash")
    if final_hash is not None and (not isinstance(final_hash, str) or len(final_hash) != 64):
        problems.append(Problem(name, "final_hash", "must be a 64-character SHA-256 hex digest"))
    if scenario is not None and troupes_ok and len(troupes) != len(scenario.sides):
        problems.append(
            Problem(
                name,
                "troupes",
                f"the scenario has {len(scenario.sides)} sides but {len(troupes)} troupes are given",
            )
        )
    if problems:
        raise DataError(problems)
    assert scenario is not None and isinstance(seed, int)
    result: dict[str, Any] = data["result"] if isinstance(data.get("result"), dict) else {}
    return Replay(scenario, troupes, options, seed, list(bots), actions, final_hash, result, name)


def load_replay(path: str | Path) -> Replay:
    """Read and check a replay or save file; `DataError` (exit 2 at the command line) if it is damaged."""
    from skirmish.data.loader import read_text

    name = str(path)
    text = read_text(Path(path), MAX_REPLAY_BYTES, what="replays")
    return load_replay_text(text, name)


def load_replay_text(text: str, name: str) -> Replay:
    """A replay from its JSON text (already read, e.g. from a pipe); `DataError` naming the field."""
    try:
        data = json.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as exc:
        raise DataError(
            [
                Problem(
                    name,
                    "",
                    f"is not valid JSON (truncated or damaged?): {exc.msg} at line "
                    f"{exc.lineno} column {exc.colno}",
                )
            ]
        ) from None
    except RecursionError:
        raise DataError([Problem(name, "", "is nested too deeply to be a replay")]) from None
    return parse_replay(data, name)


def verify(replay: Replay) -> tuple[bool, str]:
    """Re-simulate and compare with the recorded hash: (ok, the hash reached)."""
    game = replay.play(record_log=False, transactional=False)
    reached = game.hash()
    return (replay.final_hash is not None and reached == replay.final_hash), reached


def verify_problems(replay: Replay) -> list[Problem]:
    """Re-simulate a replay: no problems when it reaches its `final_hash`, else the one that stops it.

    An illegal action is named by its index (`actions[i]`); a wrong or missing hash by `final_hash`;
    a table whose deployment zones cannot hold the troupes by `scenario.deployment`.
    """
    try:
        ok, reached = verify(replay)
    except DataError as exc:
        return list(exc.problems)
    except ValueError as exc:  # auto_deploy: the troupes do not fit their zones
        return [Problem(replay.name, "scenario.deployment", str(exc))]
    if ok:
        return []
    if replay.final_hash is None:
        why = f"is missing, so nothing can be checked (re-simulation reached {reached[:16]}…)"
    else:
        why = (
            f"re-simulation reached {reached[:16]}…, not the recorded {replay.final_hash[:16]}… — "
            "the replay does not reproduce"
        )
    return [Problem(replay.name, "final_hash", why)]
