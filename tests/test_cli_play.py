"""`skirmish play --headless --bots` and `skirmish replay` (cli.md, issue 4 "done when"; R-T4).

The same seed writes a byte-identical replay, `replay --verify` exits 0, and damaged files or bad
flags exit 2 with one line naming the problem and never a traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from skirmish.cli.main import main


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        main(argv)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0) if not isinstance(exc.code, str) else 2
    out, err = capsys.readouterr()
    return code, out, err


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    return subprocess.run([sys.executable, "-m", "skirmish", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip


@pytest.fixture(scope="module")
def seed11(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """The issue's acceptance game: default scenario and troupes, seed 11, played as a real process."""
    folder = tmp_path_factory.mktemp("seed11")
    done = _cli("play", "--headless", "--bots", "--seed", "11", "--replay", "r.json", cwd=folder)
    return folder / "r.json", done


def test_r_t4_play_headless_bots_seed_11_finishes_a_real_game(seed11) -> None:
    path, done = seed11
    assert done.returncode == 0, done.stderr
    assert "Result:" in done.stdout and "Turns:" in done.stdout and "Battle Points:" in done.stdout
    assert "KOs made:" in done.stdout and "Traceback" not in done.stderr
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["status"] == "finished" and data["seed"] == 11 and data["result"]["over"]
    assert data["scenario"]["name"] == "open_battle" and len(data["actions"]) > 20


def test_r_t4_same_seed_writes_a_byte_identical_replay_different_seed_another_game(
    seed11, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = seed11
    again, other = str(tmp_path / "again.json"), str(tmp_path / "other.json")
    code, _, err = _run(["play", "--headless", "--bots", "--seed", "11", "--replay", again], capsys)
    assert code == 0, err
    assert (tmp_path / "again.json").read_bytes() == path.read_bytes()
    code, _, _ = _run(["play", "--headless", "--bots", "--seed", "12", "--replay", other], capsys)
    assert code == 0
    assert (
        json.loads((tmp_path / "other.json").read_text())["actions"]
        != json.loads(path.read_text())["actions"]
    )


def test_replay_verify_exits_0(seed11, capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = seed11
    code, out, err = _run(["replay", str(path), "--verify"], capsys)
    assert code == 0, err
    assert "verified" in out


def test_replay_verify_as_a_process_exits_0(seed11) -> None:
    path, _ = seed11
    done = _cli("replay", path.name, "--verify", cwd=path.parent)
    assert done.returncode == 0 and "verified" in done.stdout, done.stderr


def test_truncated_replay_exits_2_with_a_message_and_no_traceback(seed11, tmp_path: Path) -> None:
    path, _ = seed11
    text = path.read_text(encoding="utf-8")
    bad = tmp_path / "cut.json"
    bad.write_text(text[: len(text) // 2], encoding="utf-8")
    done = _cli("replay", str(bad), "--verify", cwd=tmp_path)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr + done.stdout
    assert "cut.json" in done.stderr and "not valid JSON" in done.stderr


@pytest.mark.parametrize(
    "mutate, fragment",
    [
        (lambda d: d.update(final_hash="0" * 64), "does not reproduce"),
        (lambda d: d.update(format="something-else"), "format"),
        (lambda d: d.update(version=99), "version"),
        (lambda d: d["actions"].insert(0, {"type": "Fly", "model": "p0.aang"}), "actions[0]"),
        (
            lambda d: d["actions"].insert(
                0, {"type": "Shoot", "model": "p0.aang", "target": "p1.zuko", "weapon": "air_swipe"}
            ),
            "actions[0]",
        ),  # fmt: skip
        (lambda d: d.update(seed=-3), "seed"),
        (lambda d: d.update(troupes=[]), "troupes"),
    ],
    ids=[
        "tampered-hash",
        "foreign-format",
        "future-version",
        "unknown-action",
        "illegal-action",
        "bad-seed",
        "no-troupes",
    ],  # fmt: skip
)
def test_damaged_replay_exits_2_naming_the_problem(
    seed11, tmp_path: Path, capsys: pytest.CaptureFixture[str], mutate, fragment: str
) -> None:
    path, _ = seed11
    data = json.loads(path.read_text(encoding="utf-8"))
    mutate(data)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = _run(["replay", str(bad), "--verify"], capsys)
    assert code == 2
    assert fragment in err and "bad.json" in err and "Traceback" not in err + out


def test_missing_and_binary_replay_files_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(["replay", str(tmp_path / "nope.json"), "--verify"], capsys)
    assert code == 2 and "nope.json" in err
    (tmp_path / "bin.json").write_bytes(b"\x00\xff\xfe" * 10)
    code, _, err = _run(["replay", str(tmp_path / "bin.json"), "--verify"], capsys)
    assert code == 2 and "bin.json" in err


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["play", "--headless", "--bots", "--seed", "-1"], "--seed"),
        (["play", "--headless", "--bots=nobody"], "--bots"),
        (["play", "--headless", "--bots", "--turns", "0"], "--turns"),
        (["play", "--headless", "--bots", "--option", "bogus=1"], "bogus"),
        (["play", "--headless", "--bots", "--option", "premeasure"], "KEY=VALUE"),
        (["play", "--headless", "--bots", "--option", "ko_points=-4"], "ko_points"),
        (["play", "--headless", "--bots", "--replay", "/no/such/folder/r.json"], "--replay"),
        (["play", "no_such_scenario", "--headless", "--bots"], "no_such_scenario"),
        (["play", "--headless", "--bots", "--frobnicate"], "frobnicate"),
        (["play", "--headless", "--bots", "--seed", "eleven"], "--seed"),
    ],
)
def test_bad_flags_exit_2_with_one_line_naming_the_flag(
    argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(argv, capsys)
    assert code == 2, (out, err)
    assert fragment in err + out and "Traceback" not in err + out


def test_play_with_options_and_turns_records_them_in_the_replay(tmp_path: Path, capsys) -> None:
    out_file = tmp_path / "opt.json"
    argv = ["play", "--headless", "--bots", "random", "--seed", "5", "--turns", "2"]
    argv += ["--option", "priority_roll=true", "--replay", str(out_file)]
    code, out, err = _run(argv, capsys)
    assert code == 0, err
    data = json.loads(out_file.read_text())
    assert data["options"]["priority_roll"] is True and data["scenario"]["turns"] == 2
    assert data["bots"] == ["random", "random"] and data["result"]["turns"] <= 2
    code, out, _ = _run(["replay", str(out_file), "--verify"], capsys)
    assert code == 0
