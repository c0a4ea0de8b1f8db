"""The `skirmish` command on hostile input (QA review): bad output paths, odd files, odd flags.

The contract (cli.md): exit 0 on success, 2 on bad input with one line naming the file, field or
flag (never a traceback), 1 on an internal error. Games here are one turn of the Avatar Duel, so
the whole module runs in seconds. /dev/full is never touched (FIFOs stand in for special files).
"""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from helpers_cli import run

from skirmish.cli.errors import MAX_LINE, UsageProblem, clip, output_path, write_output
from skirmish.cli.main import _bots_flag, main
from skirmish.data.catalogue import content_root
from skirmish.data.errors import DataError
from skirmish.data.loader import read_text
from skirmish.engine.replay import write_atomic

SCENARIOS = content_root() / "scenarios"
TROUPES = content_root() / "troupes"
GAME = ["play", "avatar_duel", "--headless", "--bots", "--turns", "1"]
HAS_PROC = Path("/proc/self").is_dir()


def bad_input(argv: list[str], capsys: pytest.CaptureFixture[str], *fragments: str) -> str:
    """Exit 2, one stderr line holding every fragment, no traceback; the line is returned."""
    code, _, err = run(argv, capsys)
    lines = err.strip().splitlines()
    assert code == 2, err
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for f in fragments:
        assert f in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def duel_replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real one-turn replay written by `skirmish play`."""
    path = tmp_path_factory.mktemp("replay") / "duel.json"
    with pytest.raises(SystemExit) as exc:
        main([*GAME, "--replay", str(path)])
    assert exc.value.code == 0
    return path


def _fifo_reader(path: Path, into: list[bytes]) -> threading.Thread:
    def read() -> None:
        with open(path, "rb") as fh:
            into.append(fh.read())

    t = threading.Thread(target=read, daemon=True)
    t.start()
    return t


# ---------------------------------------------------------------- 2: output paths, checked up front
def test_play_replay_to_a_directory_exits_2_before_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run([*GAME, "--replay", str(tmp_path)], capsys)
    assert code == 2 and "--replay" in err and "directory" in err and len(err.splitlines()) == 1
    assert "Scenario:" not in out  # refused before any game was played


def test_play_replay_into_a_missing_folder_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad_input([*GAME, "--replay", str(tmp_path / "no" / "r.json")], capsys, "--replay", "does not exist")


@pytest.mark.skipif(not HAS_PROC, reason="needs /proc")
def test_play_replay_where_no_file_can_be_made_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    bad_input([*GAME, "--replay", "/proc/skirmish-nope.json"], capsys, "--replay", "/proc")


def test_play_screenshot_to_a_directory_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "shot.png"
    folder.mkdir()
    bad_input([*GAME, "--screenshot", str(folder)], capsys, "--screenshot", "directory")


def test_replay_screenshot_to_a_directory_exits_2_before_the_log(
    duel_replay: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "x.png"
    folder.mkdir()
    code, out, err = run(["replay", str(duel_replay), "--headless", "--screenshot", str(folder)], capsys)
    assert code == 2 and "--screenshot" in err and out == ""


def test_board_png_to_a_directory_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "dir.png"
    folder.mkdir()
    bad_input(["board", "open_battle", "--png", str(folder)], capsys, "--png", "directory")


@pytest.mark.parametrize("flag", ["--csv", "--plot"])
def test_test_troupes_output_to_a_directory_exits_2_before_the_run(
    flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "out.png"
    folder.mkdir()
    argv = [
        "test-troupes",
        "avatar_roku",
        "avatar_kyoshi",
        "--games",
        "2",
        "--workers",
        "1",
        flag,
        str(folder),
    ]
    bad_input(argv, capsys, flag)


def test_test_troupes_save_replays_on_an_existing_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    existing = tmp_path / "r.json"
    existing.write_text("{}")
    argv = ["test-troupes", "avatar_roku", "avatar_kyoshi", "--games", "2", "--save-replays", str(existing)]
    bad_input(argv, capsys, "--save-replays", "existing file")
    assert existing.read_text() == "{}"


@pytest.mark.parametrize("flag", ["--file", "--replay"])
def test_campaign_output_to_a_directory_exits_2(
    flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = [] if flag == "--file" else ["--file", str(tmp_path / "save.json")]  # --file once only
    argv = ["campaign", "play", "--headless", *save, flag, str(tmp_path)]
    bad_input(argv, capsys, flag, "directory")


def test_output_path_accepts_a_new_file_and_an_existing_folder(tmp_path: Path) -> None:
    assert output_path(str(tmp_path / "new.json"), "--replay") == tmp_path / "new.json"
    assert output_path(str(tmp_path), "--save-replays", folder=True) == tmp_path
    assert output_path(str(tmp_path / "fresh"), "--save-replays", folder=True) == tmp_path / "fresh"
    assert list(tmp_path.iterdir()) == []  # the probe file is gone


def test_a_write_that_fails_late_is_exit_2_naming_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder checked up front can still fail at write time (a full disk): same one line, exit 2."""
    import skirmish.engine.replay as replay_mod

    def full(path: object, data: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(replay_mod, "write_atomic", full)
    out = tmp_path / "r.json"
    bad_input([*GAME, "--replay", str(out)], capsys, "--replay", str(out), "No space left")


def test_write_output_maps_os_errors_to_a_usage_problem(tmp_path: Path) -> None:
    with pytest.raises(UsageProblem) as exc:
        write_output(tmp_path / "gone" / "x.json", "--replay", "{}")
    assert exc.value.lines[0].startswith("--replay ")


# ---------------------------------------------------------------- 3: write_atomic
def test_write_atomic_writes_a_fifo_in_place(tmp_path: Path) -> None:
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = _fifo_reader(fifo, got)
    write_atomic(fifo, "through the pipe")
    reader.join(5)
    assert got == [b"through the pipe"]
    assert stat.S_ISFIFO(fifo.lstat().st_mode)  # still a FIFO, not replaced by a regular file


def test_write_atomic_follows_a_symlink_and_keeps_the_link(tmp_path: Path) -> None:
    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target.name)
    write_atomic(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


def test_write_atomic_new_files_follow_the_umask_and_old_ones_keep_their_mode(tmp_path: Path) -> None:
    old_mask = os.umask(0o022)
    try:
        write_atomic(tmp_path / "a.json", "x")
        assert stat.S_IMODE((tmp_path / "a.json").stat().st_mode) == 0o644
        os.umask(0o077)
        write_atomic(tmp_path / "b.json", "x")
        assert stat.S_IMODE((tmp_path / "b.json").stat().st_mode) == 0o600
    finally:
        os.umask(old_mask)
    (tmp_path / "a.json").chmod(0o640)
    write_atomic(tmp_path / "a.json", b"bytes too")
    assert stat.S_IMODE((tmp_path / "a.json").stat().st_mode) == 0o640
    assert (tmp_path / "a.json").read_bytes() == b"bytes too"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json"]  # no temp files left


def test_write_atomic_refuses_a_directory(tmp_path: Path) -> None:
    with pytest.raises(IsADirectoryError):
        write_atomic(tmp_path, "x")


# ---------------------------------------------------------------- 4, 5: scenario problems name the file
def _mutated_scenario(tmp_path: Path, old: str, new: str) -> Path:
    text = (SCENARIOS / "open_battle.toml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "mutant.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_r_t4_deployment_zone_too_small_exits_2_naming_scenario_and_deployment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _mutated_scenario(
        tmp_path,
        "polygon = [[0, 40], [48, 40], [48, 48], [0, 48]]",
        "polygon = [[0, 40], [1, 40], [1, 41], [0, 41]]",
    )
    bad_input(["play", str(path), "--headless", "--bots"], capsys, str(path), "deployment[1]")
    bad_input(["validate", str(path)], capsys, str(path), "deployment[1]")


def test_unknown_default_troupe_is_named_as_sides_troupe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _mutated_scenario(tmp_path, 'troupe = "team_avatar"', 'troupe = "nobody"')
    bad_input(["validate", str(path)], capsys, str(path), "sides[0].troupe", "nobody")
    bad_input(["play", str(path), "--headless", "--bots"], capsys, str(path), "sides[0].troupe")


# ---------------------------------------------------------------- 6: validate re-simulates replays
def test_validate_accepts_a_real_replay(duel_replay: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["validate", str(duel_replay)], capsys)
    assert code == 0 and out.strip() == f"{duel_replay}: ok"


def test_validate_reports_a_wrong_final_hash(
    duel_replay: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(duel_replay.read_text())
    data["final_hash"] = "0" * 64
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    bad_input(["validate", str(bad)], capsys, str(bad), "final_hash")


def test_validate_reports_a_missing_final_hash_plainly(
    duel_replay: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(duel_replay.read_text())
    del data["final_hash"]
    bad = tmp_path / "nohash.json"
    bad.write_text(json.dumps(data))
    line = bad_input(["validate", str(bad)], capsys, "final_hash", "missing")
    assert "(none recorded)" not in line


def test_validate_reports_an_illegal_action_by_index(
    duel_replay: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(duel_replay.read_text())
    i = next(k for k, a in enumerate(data["actions"]) if a["type"] == "Move")
    data["actions"][i]["model"] = "p9.nobody"
    bad = tmp_path / "illegal.json"
    bad.write_text(json.dumps(data))
    bad_input(["validate", str(bad)], capsys, str(bad), f"actions[{i}]")


# ---------------------------------------------------------------- 7: kind by content
def test_validate_tells_kinds_by_content_not_extension(
    duel_replay: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    troupe_json = tmp_path / "troupe_as.json"
    troupe_json.write_bytes((TROUPES / "team_avatar.toml").read_bytes())
    replay_toml = tmp_path / "replay_as.toml"
    replay_toml.write_bytes(duel_replay.read_bytes())
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + (SCENARIOS / "open_battle.toml").read_bytes())
    files = [troupe_json, replay_toml, bom, SCENARIOS / "campaign" / "aangs_destiny.toml"]
    code, out, err = run(["validate", *map(str, files)], capsys)
    assert code == 0, err
    assert out.count(": ok") == 4


def test_validate_names_a_broken_campaign_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (SCENARIOS / "campaign" / "aangs_destiny.toml").read_text(encoding="utf-8")
    bad = tmp_path / "camp.toml"
    bad.write_text(text.replace('scenario = "the_pursuit"', 'scenario = "open_battle"', 1), encoding="utf-8")
    code, _, err = run(["validate", str(bad)], capsys)
    assert code == 2 and str(bad) in err and "scenario" in err


# ---------------------------------------------------------------- 8: --bots with an optional value
@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["play", "--bots", "nonsense"], ["play", "--bots", "nonsense"]),
        (["play", "--bots", "random"], ["play", "--bots", "random"]),
        (["play", "--bots"], ["play", "--bots", "heuristic"]),
        (["play", "--bots", "--headless"], ["play", "--bots", "heuristic", "--headless"]),
        (["play", "--bots", "open_battle"], ["play", "--bots", "heuristic", "open_battle"]),
        (["play", "--bots", ""], ["play", "--bots", ""]),
        (
            ["test-troupes", "--bots", "team_avatar", "x"],
            ["test-troupes", "--bots", "heuristic", "team_avatar", "x"],
        ),
        (["campaign", "--bots", "play"], ["campaign", "--bots", "heuristic", "play"]),
        (["odds", "--bots"], ["odds", "--bots"]),
    ],
)
def test_bots_flag_takes_the_next_argument_unless_it_is_a_positional(
    argv: list[str], expected: list[str]
) -> None:
    assert _bots_flag(argv) == expected


def test_bots_flag_before_an_existing_scenario_file(tmp_path: Path) -> None:
    f = tmp_path / "mine.toml"
    f.write_text("")
    assert _bots_flag(["play", "--bots", str(f)]) == ["play", "--bots", "heuristic", str(f)]


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--headless", "--bots", "nonsense"],
        ["test-troupes", "avatar_roku", "avatar_kyoshi", "--bots", "nonsense"],
        ["campaign", "play", "--bots", "nonsense"],
        ["play", "--headless", "--bots", ""],
    ],
)
def test_unknown_bot_policy_is_named_as_such(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    bad_input(argv, capsys, "--bots", "unknown policy")


# ---------------------------------------------------------------- 9, 10: PNG names, PNG files
@pytest.mark.parametrize("name", ["p.jpg", "p.gif", "noext"])
def test_screenshot_must_be_named_png(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad_input([*GAME, "--screenshot", str(tmp_path / name)], capsys, "--screenshot", ".png")
    assert not (tmp_path / name).exists()


def test_replay_screenshot_must_be_named_png(
    duel_replay: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad_input(
        ["replay", str(duel_replay), "--headless", "--screenshot", str(tmp_path / "x.gif")], capsys, ".png"
    )


def test_plot_must_be_named_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "test-troupes",
        "avatar_roku",
        "avatar_kyoshi",
        "--games",
        "2",
        "--plot",
        str(tmp_path / "myplot"),
    ]
    bad_input(argv, capsys, "--plot", ".png")


def test_screenshot_is_a_real_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shot = tmp_path / "final.PNG"
    code, out, err = run([*GAME, "--screenshot", str(shot)], capsys)
    assert code == 0, err
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"Screenshot written to {shot}" in out


# ---------------------------------------------------------------- 11: broken pipe
@pytest.mark.parametrize(
    "argv", [["list", "troupes"], ["odds", "table", "team_avatar", "zuko_hunting_party"]]
)
def test_a_closed_stdout_pipe_exits_0_quietly(argv: list[str]) -> None:
    """The reader is gone before the command writes (like `| head -1` after one line): exit 0, no message."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "skirmish", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy"},
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(60) == 0, err
    assert "skirmish:" not in err and "Traceback" not in err and "BrokenPipe" not in err


# ---------------------------------------------------------------- 12: line length
def test_clip_caps_an_error_line_with_an_ellipsis() -> None:
    assert clip("short") == "short"
    long = clip("x" * 5000)
    assert len(long) == MAX_LINE and long.endswith("…")
    assert "\n" not in clip("a\nb")


def test_a_huge_illegal_action_prints_a_short_line(
    duel_replay: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(duel_replay.read_text())
    i = next(k for k, a in enumerate(data["actions"]) if a["type"] == "Move")
    data["actions"][i]["path"] = [[1.0 + k * 1e-4, 1.0] for k in range(20_000)]
    bad = tmp_path / "huge.json"
    bad.write_text(json.dumps(data))
    code, _, err = run(["replay", str(bad), "--verify"], capsys)
    assert code == 2 and f"actions[{i}]" in err
    assert all(len(line) <= MAX_LINE for line in err.splitlines())


# ---------------------------------------------------------------- 13: empty paths
@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        ([*GAME, "--replay", ""], "--replay"),
        ([*GAME, "--screenshot", ""], "--screenshot"),
        (["play", "--headless", "--bots", "--troupe", ""], "--troupe"),
        (["play", "", "--headless", "--bots"], "SCENARIO"),
        (["board", "open_battle", "--png", ""], "--png"),
        (["test-troupes", "avatar_roku", "avatar_kyoshi", "--csv", ""], "--csv"),
        (["campaign", "play", "--headless", "--file", ""], "--file"),
        (["validate", ""], "empty"),
        (["troupe", "cost", ""], "FILE"),
        (["odds", "table", "", "team_avatar"], "A"),
        (["test-troupes", "avatar_roku", "avatar_kyoshi", "--scenario", ""], "--scenario"),
    ],
)
def test_empty_paths_exit_2_naming_the_flag(
    argv: list[str], flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    bad_input(argv, capsys, flag)


# ---------------------------------------------------------------- 14: campaign, wrong kind of file
def test_campaign_save_that_is_a_replay_is_one_line(
    duel_replay: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad_input(
        ["campaign", "status", "--file", str(duel_replay)], capsys, str(duel_replay), "not a campaign save"
    )


def test_campaign_file_that_is_a_scenario_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "campaign",
        "status",
        "--file",
        str(tmp_path / "s.json"),
        "--campaign",
        str(SCENARIOS / "open_battle.toml"),
    ]
    bad_input(argv, capsys, "open_battle.toml", "not a campaign file")


# ---------------------------------------------------------------- 16: FIFOs and pipes
def test_read_text_refuses_a_fifo_at_once(tmp_path: Path) -> None:
    # Issue 11: only regular files are read; a FIFO with no writer would block open() forever.
    fifo = tmp_path / "in.toml"
    os.mkfifo(fifo)
    with pytest.raises(DataError, match="FIFO"):
        read_text(fifo)


def test_read_text_caps_a_file(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_bytes(b"x" * 64)
    with pytest.raises(DataError) as exc:
        read_text(big, limit=16)
    assert "at most 16" in str(exc.value)


def test_read_text_refuses_a_directory_and_drops_a_bom(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="directory"):
        read_text(tmp_path)
    f = tmp_path / "bom.toml"
    f.write_bytes(b"\xef\xbb\xbfa = 1\n")
    assert read_text(f) == "a = 1\n"


def test_validate_refuses_a_fifo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "troupe"
    os.mkfifo(fifo)
    code, out, err = run(["validate", str(fifo)], capsys)
    assert code == 2 and "FIFO" in err and "Traceback" not in err, err


# ---------------------------------------------------------------- 17: cosmetics
def test_nan_board_size_says_it_is_not_a_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _mutated_scenario(tmp_path, "width = 48", "width = nan")
    bad_input(["validate", str(path)], capsys, "board.width", "finite")


@pytest.mark.parametrize("kind", ["troupe", "scenario"])
def test_schema_declares_its_dialect(kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["schema", kind], capsys)
    assert code == 0 and json.loads(out)["$schema"] == "https://json-schema.org/draft/2020-12/schema"
