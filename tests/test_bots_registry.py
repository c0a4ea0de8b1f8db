"""Custom bots (issue 12, item 6): one list of policies, bots by import path or entry point, and a
different bot per side in the troupe tester.

The custom bot is a real package written to a temporary folder, with a `.dist-info` folder beside
it (what `pip install` leaves), so `importlib.metadata` finds its `skirmish.bots` entry point; the
commands run as real processes with that folder on PYTHONPATH.
"""

from __future__ import annotations

import csv
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from skirmish.bots import registry
from skirmish.bots.heuristic import HeuristicBot
from skirmish.bots.random_bot import RandomBot
from skirmish.cli.main import main

BOT_SOURCE = '''
"""A tiny custom bot: shoots the first shot it is offered, charges the first charge, else passes."""

from skirmish.engine import Charge, Decline, EndStep, Shoot


class MyBot:
    name = "mybot"

    def __init__(self, seed: int, player: int) -> None:
        self.player = player

    def choose(self, game):
        actions = game.legal_actions()
        for kind in (Shoot, Charge):
            for action in actions:
                if isinstance(action, kind):
                    return action
        return Decline() if game.state.pending is not None else EndStep()


class NotABot:
    pass
'''


@pytest.fixture(scope="module")
def plugin_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("plugin")
    (root / "mypkg").mkdir()
    (root / "mypkg" / "__init__.py").write_text(BOT_SOURCE, encoding="utf-8")
    info = root / "mypkg-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mypkg\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[skirmish.bots]\nmybot = mypkg:MyBot\n", encoding="utf-8")
    return root


def _cli(args: list[str], path: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONHASHSEED": "0"}
    env["PYTHONPATH"] = os.pathsep.join([str(path), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    argv = [sys.executable, "-m", "skirmish", *args]
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_shipped_policies_are_listed_once_and_resolve() -> None:
    assert list(registry.NAMED) == ["heuristic", "guess", "random"] == registry.names()[:3]
    assert registry.resolve("heuristic") is HeuristicBot and registry.resolve("random") is RandomBot
    assert registry.resolve("skirmish.bots.random_bot:RandomBot") is RandomBot
    assert isinstance(registry.make_bot("random", 3, 1), RandomBot)


@pytest.mark.parametrize(
    ("policy", "fragment"),
    [
        ("clever", "unknown bot policy 'clever' (known: heuristic, guess, random"),
        ("no_such_module:Bot", "cannot import 'no_such_module'"),
        ("skirmish.bots.registry:Nothing", "has no 'Nothing'"),
        ("skirmish.bots.registry:DEFAULT", "not a bot class"),
        ("", "give a name"),
    ],
)
def test_a_bad_policy_is_refused_saying_why(policy: str, fragment: str) -> None:
    with pytest.raises(registry.UnknownPolicy) as info:
        registry.resolve(policy)
    assert fragment in str(info.value)
    assert registry.check(policy) == str(info.value)


def test_play_headless_with_a_bot_from_an_installed_package(plugin_path: Path, tmp_path: Path) -> None:
    """`skirmish play --headless --bots mypkg:MyBot` (import path) and `--bots mybot` (entry point)."""
    for policy in ("mypkg:MyBot", "mybot"):
        out = tmp_path / f"{policy.replace(':', '_')}.json"
        done = _cli(
            ["play", "--headless", "--bots", policy, "--seed", "4", "--turns", "2", "--replay", str(out)],
            plugin_path,
            tmp_path,
        )
        assert done.returncode == 0, done.stderr
        assert "Result:" in done.stdout and "Traceback" not in done.stderr
        replay = json.loads(out.read_text(encoding="utf-8"))
        assert replay["bots"] == [policy, policy]
        assert any(a["type"] == "Shoot" for a in replay["actions"])  # the custom bot really played
        verify = _cli(["replay", str(out), "--verify"], plugin_path, tmp_path)
        assert verify.returncode == 0, verify.stderr


def test_a_bad_bots_value_exits_2_naming_the_flag(plugin_path: Path, tmp_path: Path) -> None:
    for value, fragment in [
        ("mypkg:NotABot", "not a bot class"),
        ("mypkg:Missing", "has no 'Missing'"),
        ("genius", "unknown policy (choose heuristic, guess, random, mybot, or module:Class)"),
    ]:
        done = _cli(["play", "--headless", "--bots", value], plugin_path, tmp_path)
        assert done.returncode == 2, done.stdout
        assert done.stderr.startswith(f"skirmish: --bots {value}: ") and fragment in done.stderr
        assert "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


def test_help_lists_the_named_policies(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "heuristic, guess, random (default heuristic)" in text and "module:Class" in text


def test_troupe_tester_seats_a_different_bot_per_side_on_the_same_seeds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--bots-a random --bots-b heuristic`: A's bot follows A when the sides swap; each game replays
    exactly with the `skirmish play` command of its CSV row (`--bots random,heuristic` in seat order)."""
    out = tmp_path / "games.csv"
    base = ["test-troupes", "team_avatar", "zuko_hunting_party", "--games", "2", "--seed", "5"]
    base += ["--turns", "2", "--workers", "1", "--json"]
    with pytest.raises(SystemExit) as exc:
        main([*base, "--bots-a", "random", "--bots-b", "heuristic", "--csv", str(out)])
    assert exc.value.code in (0, None)
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 2 and (report["bots_a"], report["bots_b"]) == ("random", "heuristic")
    rows = list(csv.DictReader(out.open()))
    seats = []
    for row in rows:
        argv = shlex.split(row["command"])
        seats.append(argv[argv.index("--bots") + 1])
        replay = tmp_path / f"r{row['seed']}.json"
        with pytest.raises(SystemExit) as done:
            main([*argv[1:], "--replay", str(replay)])
        assert done.value.code in (0, None)
        capsys.readouterr()
        assert json.loads(replay.read_text(encoding="utf-8"))["result"]["turns"] == int(row["turns"])
    assert seats == ["random,heuristic", "heuristic,random"]  # A on side 0, then A on side 1
    with pytest.raises(SystemExit) as exc:
        main([*base, "--bots-a", "nobody"])
    assert exc.value.code == 2
    assert "--bots-a nobody: unknown policy" in capsys.readouterr().err


def test_the_registry_is_light_to_import() -> None:
    """The CLI builds its help from the registry's names: that must not load the engine or numpy."""
    code = (
        "import sys, skirmish.bots.registry as r; r.describe()\n"
        "print(sorted(m for m in sys.modules if m.startswith(('skirmish.engine', 'numpy', 'shapely'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
