"""The project's errors survive pickling whole: a worker's error reaches the parent as it was raised.

A troupe test plays its games in worker processes and sends what a worker raised back to the
parent by pickling it. An exception pickles as its class and `args`, and these classes build
`args` from their arguments (one joined string), so unpickling called `__init__` with the wrong
arguments: an `IllegalAction` from a bot of one's own that chose an illegal move raised
`TypeError` in the pool's result thread, the pool broke and the run ended with "games were lost
(BrokenProcessPool)". Each now rebuilds with its own arguments and keeps its fields."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from skirmish.cli.errors import UsageProblem
from skirmish.data.errors import DataError, Problem
from skirmish.data.loader import RefusedJSON
from skirmish.engine.core.errors import IllegalAction
from skirmish.engine.setup import SetupError


@pytest.mark.parametrize(
    ("error", "fields"),
    [
        (IllegalAction("R-M2", "the path crosses impassable terrain"), ("rule", "reason")),
        (SetupError("R-P5", "model", "no model zuko here"), ("rule", "reason", "field", "detail")),
        (
            DataError([Problem("a.toml", "models[0].hp", "must be at least 1"), Problem("a.toml", "", "x")]),
            ("problems",),
        ),
        (RefusedJSON("models.hp", "NaN is not a number here"), ("field", "why")),
        (UsageProblem("--games: must be at least 1", "--seed: not a whole number"), ("lines",)),
    ],
)
def test_errors_pickle_with_their_fields(error: Exception, fields: tuple[str, ...]) -> None:
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error)
    assert str(back) == str(error)
    assert back.args == error.args
    for name in fields:
        assert getattr(back, name) == getattr(error, name)


BAD_BOT = '''
from skirmish.engine.core.actions import Move


class Bad:
    """Moves its first listed model 40" straight ahead: R-M2 refuses it."""

    name = "bad"

    def __init__(self, seed, player, game=None):
        self.player = player

    def choose(self, game):
        actions = game.legal_actions()
        for a in actions:
            if isinstance(a, Move):
                (x, y) = a.path[0]
                return Move(a.model, ((x, y), (x + 40.0, y)))
        return actions[0]
'''


def test_r_m2_an_illegal_move_in_a_worker_is_exit_2_naming_the_bot(tmp_path: Path) -> None:
    """The refusal raised in a worker reaches the parent whole: one line naming the flag and the
    rule, exit 2 (it was "games 0-0 were lost 5 times (BrokenProcessPool)")."""
    (tmp_path / "badbot_r9.py").write_text(BAD_BOT)
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "PYTHONHASHSEED": "0"}
    cmd = [sys.executable, "-m", "skirmish", "test-troupes", "team_avatar", "zuko_hunting_party"]
    cmd += ["--games", "4", "--workers", "2", "--bots", "badbot_r9:Bad"]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "BrokenProcessPool" not in done.stderr
    assert "--bots badbot_r9:Bad" in done.stderr and "R-M2" in done.stderr
