"""Replays and saves: one JSON format for finished games, games in progress and golden tests.

A replay holds the scenario, the troupes, the rule options, the seed and the ordered actions
(design principle 6). Re-applying the actions must reach the recorded state hash. Files are
written atomically (temporary file, then rename) so a crash never leaves half a save.

The file is a strict pydantic model (`ReplayFile`, `skirmish schema replay`) read with the same
strictness as the TOML files: no string where a number belongs, no unknown or duplicate keys, no
NaN. Version 2 adds a `digest`: SHA-256 of each input part and of the recorded result, so
`--verify` names what was edited (docs/replays.md: accidental damage and casual edits, not a
signature). Version 1 files (the golden replays) are still read; they carry no digest.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints, ValidationError

from skirmish.data.atomic import write_atomic
from skirmish.data.base import Strict
from skirmish.data.errors import DataError, Problem
from skirmish.data.limits import MAX_REPLAY_ACTIONS
from skirmish.data.loader import (
    check_scenario_geometry,
    check_troupe_references,
    game_size_problems,
    loads_strict,
    validation_problems,
)
from skirmish.data.options import RuleOptions
from skirmish.data.scenario import Scenario
from skirmish.data.troupe import Troupe
from skirmish.engine.core.actions import Action, action_from_json
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.game import Game

FORMAT = "skirmish-replay"
VERSION = 2
READABLE_VERSIONS = (1, 2)
"""Version 1: no digest (the golden replays); version 2: with `digest`. Both re-simulate alike."""
MAX_REPLAY_BYTES = 64_000_000
DIGEST_PARTS = ("format", "scenario", "troupes", "options", "seed", "bots", "actions")
"""The inputs a replay's digest covers, each hashed on its own so a mismatch can be named."""

Hex64 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]


class ReplayDigest(Strict):
    """SHA-256 of each input part (canonical JSON), of all of them together, and of the result."""

    algorithm: Literal["sha256"] = "sha256"
    parts: dict[str, Hex64] = Field(description="One digest per input part: " + ", ".join(DIGEST_PARTS))
    inputs: Hex64 = Field(description="Digest of the part digests, in DIGEST_PARTS order.")
    result: Hex64 = Field(description="Digest of the recorded `result` and `final_hash`.")


class ReplayFile(Strict):
    """A replay or save file (`skirmish replay`, `--replay`, golden tests), checked strictly."""

    format: Literal["skirmish-replay"]
    version: int = Field(description="1 (no digest) or 2.")
    status: Literal["finished", "in_progress"] = "finished"
    seed: int = Field(ge=0)
    bots: list[Annotated[str, StringConstraints(max_length=64)] | None] = Field(default_factory=list)
    options: RuleOptions = Field(default_factory=RuleOptions)
    scenario: Scenario
    troupes: list[Troupe] = Field(min_length=1)
    actions: list[dict[str, Any]] = Field(
        max_length=MAX_REPLAY_ACTIONS, description="The actions in order, as `Action.to_json()`."
    )
    final_hash: Hex64 | None = None
    result: dict[str, Any] = Field(default_factory=dict)
    digest: ReplayDigest | None = None


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
    digest: dict[str, Any] | None = None
    version: int = VERSION
    status: str | None = None
    """`finished` or `in_progress` as the file records it; None when it does not say (not checked)."""

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
    out: dict[str, Any] = {
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
    out["digest"] = digest_of(out)
    return out


def _sha(value: Any) -> str:
    """SHA-256 of a value's canonical JSON (sorted keys, no spaces, no NaN): the same bytes on every
    machine for the same value."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def digest_of(data: dict[str, Any]) -> dict[str, Any]:
    """The digest of a replay object (as `replay_of` builds it or as read and normalised)."""
    parts = {
        k: _sha([data.get("version"), data.get(k)] if k == "format" else data.get(k)) for k in DIGEST_PARTS
    }
    return {
        "algorithm": "sha256",
        "parts": parts,
        "inputs": _sha([parts[k] for k in DIGEST_PARTS]),
        "result": _sha({"result": data.get("result"), "final_hash": data.get("final_hash")}),
    }


def replay_object(rep: Replay) -> dict[str, Any]:
    """A parsed replay as a replay object again, normalised by its models (what the digest covers)."""
    return {
        "format": FORMAT,
        "version": rep.version,
        "seed": rep.seed,
        "bots": list(rep.bots),
        "options": rep.options.model_dump(mode="json"),
        "scenario": rep.scenario.model_dump(mode="json"),
        "troupes": [t.model_dump(mode="json") for t in rep.troupes],
        "actions": [a.to_json() for a in rep.actions],
        "final_hash": rep.final_hash,
        "result": rep.result,
    }


def digest_problems(rep: Replay) -> list[Problem]:
    """Parts of a replay that differ from its recorded digest, named (`digest: options, troupes ...`).

    A version 1 file has no digest and passes; a version 2 file must have one. The digest is over the
    parsed, normalised models, so re-indenting or reordering keys changes nothing, while any changed
    value does.
    """
    return _digest_check(rep)[0]


def _digest_check(rep: Replay) -> tuple[list[Problem], list[str] | None]:
    """`digest_problems`, with the edited input parts it named (`_edited_parts`; None when the
    inputs match or there is no digest)."""
    if rep.digest is None:
        if rep.version >= 2:
            return [Problem(rep.name, "digest", "is missing (a version 2 replay records its digest)")], None
        return [], None
    now = digest_of(replay_object(rep))
    named = _edited_parts(rep.digest, now)
    problems = []
    if named is not None:
        what = ", ".join(named) or "the part list"
        verb = "differ" if len(named) > 1 else "differs"
        problems.append(
            Problem(rep.name, "digest.inputs", f"{what} {verb} from the recorded digest (edited or damaged)")
        )
    if rep.digest.get("result") != now["result"]:
        problems.append(
            Problem(
                rep.name,
                "digest.result",
                "the recorded result or final_hash differs from the recorded digest (edited or damaged)",
            )
        )
    return problems, named


def _edited_parts(recorded: dict[str, Any], now: dict[str, Any]) -> list[str] | None:
    """The input parts whose digest differs from the recorded one (unknown recorded parts too; an
    empty list when only `inputs` differs), or None when the inputs all match."""
    recorded_parts = recorded.get("parts", {})
    changed = [k for k in DIGEST_PARTS if recorded_parts.get(k) != now["parts"][k]]
    extra = sorted(set(recorded_parts) - set(DIGEST_PARTS))
    if changed or extra or recorded.get("inputs") != now["inputs"]:
        return changed + extra
    return None


def _causes(tampered: list[Problem], named: list[str] | None, failed: list[Problem]) -> list[Problem]:
    """The digest's `digest.inputs` line (`named` its edited parts) to put before a re-simulation
    failure, unless the failure already names every edited part (an edited action failing as
    `actions[i]`)."""
    cause = [p for p in tampered if p.field == "digest.inputs"]
    roots = {re.split(r"[.\[]", p.field)[0] for p in failed}
    return [] if named and set(named) <= roots else cause


def dumps(game: Game) -> str:
    return json.dumps(replay_of(game), sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def save_game(game: Game, path: str | Path) -> None:
    write_atomic(path, dumps(game))


def parse_replay(data: Any, name: str) -> Replay:
    """Check a replay object field by field (strictly, as the TOML files are); `DataError` lists every
    problem found, each naming the file and the field."""
    if not isinstance(data, dict):
        raise DataError([Problem(name, "", "is not a replay (a JSON object is expected)")])
    if data.get("format") != FORMAT:
        raise DataError([Problem(name, "format", f"is not a Skirmish replay (format should be {FORMAT!r})")])
    version = data.get("version")
    if type(version) is not int or version not in READABLE_VERSIONS:
        raise DataError(
            [
                Problem(
                    name,
                    "version",
                    f"version {version!r} is not supported (this build reads versions "
                    f"{', '.join(map(str, READABLE_VERSIONS))})",
                )
            ]
        )
    problems: list[Problem] = []
    try:
        model = ReplayFile.model_validate_json(json.dumps(data, allow_nan=False), strict=True)
    except ValidationError as exc:
        raise DataError(validation_problems(exc, name)) from None
    except ValueError:  # allow_nan: a NaN put in by a caller that built the object in Python
        raise DataError([Problem(name, "", "holds NaN or Infinity, which replays never do")]) from None
    problems.extend(check_scenario_geometry(model.scenario, name))
    # The limit `--troupe` keeps (a game's cost grows with the square of its models) holds for a
    # replay's troupes too: an edited file must not make `what-if` play 120-model games.
    problems.extend(game_size_problems(list(model.troupes), name, "troupes"))
    for i, troupe in enumerate(model.troupes):
        problems.extend(
            Problem(name, f"troupes[{i}].{p.field}", p.message) for p in check_troupe_references(troupe, name)
        )
    actions: list[Action] = []
    for i, a in enumerate(model.actions):
        try:
            actions.append(action_from_json(a))
        except ValueError as exc:
            problems.append(Problem(name, f"actions[{i}]", str(exc)))
    if len(model.troupes) != len(model.scenario.sides):
        problems.append(
            Problem(
                name,
                "troupes",
                f"the scenario has {len(model.scenario.sides)} sides but "
                f"{len(model.troupes)} troupes are given",
            )
        )
    if version >= 2 and model.digest is None:
        problems.append(Problem(name, "digest", "is missing (a version 2 replay records its digest)"))
    if problems:
        raise DataError(problems)
    return Replay(
        model.scenario,
        list(model.troupes),
        model.options,
        model.seed,
        list(model.bots),
        actions,
        model.final_hash,
        dict(model.result),
        name,
        model.digest.model_dump(mode="json") if model.digest is not None else None,
        version,
        model.status if "status" in data else None,
    )


def load_replay(path: str | Path) -> Replay:
    """Read and check a replay or save file; `DataError` (exit 2 at the command line) if it is damaged."""
    from skirmish.data.loader import read_text

    name = str(path)
    text = read_text(Path(path), MAX_REPLAY_BYTES, what="replays")
    return load_replay_text(text, name)


def load_replay_text(text: str, name: str) -> Replay:
    """A replay from its JSON text (already read, e.g. from a pipe); `DataError` naming the field."""
    data = loads_strict(
        text,
        name,
        invalid="is not valid JSON (truncated or damaged?)",
        nested="is nested too deeply to be a replay",
    )
    return parse_replay(data, name)


def verify(replay: Replay) -> tuple[bool, str]:
    """Re-simulate and compare with the recorded hash: (ok, the hash reached)."""
    game = replay.play(record_log=False, transactional=False)
    reached = game.hash()
    return (replay.final_hash is not None and reached == replay.final_hash), reached


def verify_problems(replay: Replay) -> list[Problem]:
    """Re-simulate a replay: no problems when it reaches its `final_hash`, its digest matches and its
    recorded result is the re-simulated one; else the problems, each naming its field.

    An illegal action is named by its index (`actions[i]`); a wrong or missing hash by `final_hash`;
    a table whose deployment zones cannot hold the troupes by `scenario.deployment`; each after the
    digest's problems, which name the edited part that caused it. A replay that re-simulates but
    was edited where the game does not look (an option no step reads, a profile stat never rolled,
    the `result`) is caught by its digest (`digest.*`) and the result comparison (`result`).
    """
    # The digest is asked first: where an edit makes re-simulation fail, the failure is a symptom
    # (an action illegal on other dice) and the digest names the cause (`digest.inputs: seed ...`).
    # (The recorded result's digest is left out there: a failure line already names `final_hash`.)
    tampered, named = _digest_check(replay)
    try:
        game = replay.play(record_log=False, transactional=False)
    except DataError as exc:
        return _causes(tampered, named, list(exc.problems)) + list(exc.problems)
    except ValueError as exc:  # auto_deploy: the troupes do not fit their zones
        failed = [Problem(replay.name, "scenario.deployment", str(exc))]
        return _causes(tampered, named, failed) + failed
    reached = game.hash()
    ok = replay.final_hash is not None and reached == replay.final_hash
    if ok and replay.result and not _same(_plain(game.result()), replay.result):
        now = _plain(game.result())
        differ = sorted(
            k for k in set(replay.result) | set(now) if not _same(now.get(k), replay.result.get(k))
        )
        tampered.append(
            Problem(replay.name, "result", f"{', '.join(differ)} differ from the re-simulated game's result")
        )
    if ok and replay.status is not None and (replay.status == "finished") != game.over:
        # Not in the digest (it is derived from the game), so an edit is caught here.
        really = "over" if game.over else "still in progress"
        tampered.append(
            Problem(replay.name, "status", f"says {replay.status!r} but the re-simulated game is {really}")
        )
    if ok:
        return tampered
    if replay.final_hash is None:
        why = f"is missing, so nothing can be checked (re-simulation reached {reached[:16]}…)"
    else:
        why = (
            f"re-simulation reached {reached[:16]}…, not the recorded {replay.final_hash[:16]}… — "
            "the replay does not reproduce"
        )
    failed = [Problem(replay.name, "final_hash", why)]
    return _causes(tampered, named, failed) + failed


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON: `true` is not `1` and `1.0` is not `1` (Python's `==` says both are)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _plain(value: dict[str, Any]) -> dict[str, Any]:
    """A result as it reads back from JSON (tuples become lists), for comparing with a recorded one."""
    out: dict[str, Any] = json.loads(json.dumps(value))
    return out
