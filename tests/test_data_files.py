"""Data files are strict (design principle 11): the loader and `skirmish validate` / `skirmish schema`.

Every bad file exits 2 with one line per problem naming the file and the field path, never a
traceback; every shipped troupe and scenario is valid. Bad files are made by editing copies of
the real shipped files, so the tests follow the format as it grows.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from skirmish.cli.main import main
from skirmish.data.catalogue import content_root
from skirmish.data.errors import DataError
from skirmish.data.loader import MAX_FILE_BYTES, load_scenario, load_toml_file, load_troupe

ROOT = Path(__file__).resolve().parents[1]
CONTENT = content_root()
TROUPE = CONTENT / "troupes" / "team_avatar.toml"
SCENARIO = CONTENT / "scenarios" / "open_battle.toml"


def _validate(paths: list[Path], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(["validate", *map(str, paths)])
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


def _edited(tmp_path: Path, src: Path, pattern: str, repl: str, name: str = "bad.toml") -> Path:
    """A copy of `src` with the first match of regex `pattern` replaced (it must match)."""
    text = src.read_text(encoding="utf-8")
    new, n = re.subn(pattern, repl, text, count=1, flags=re.M)
    assert n == 1, f"pattern {pattern!r} not found in {src.name}"
    out = tmp_path / name
    out.write_text(new, encoding="utf-8")
    return out


def _problem_lines(err: str) -> list[str]:
    lines = err.strip().splitlines()
    assert lines, "no problem reported"
    assert "Traceback" not in err
    assert all(line.startswith("skirmish: ") for line in lines), err
    return lines


def test_r_p1_every_shipped_troupe_and_scenario_validates(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted((CONTENT / "troupes").glob("*.toml")) + sorted((CONTENT / "scenarios").glob("*.toml"))
    assert TROUPE in files and SCENARIO in files
    code, out, err = _validate(files, capsys)
    assert code == 0, err
    assert out.count(": ok") == len(files)


@pytest.mark.parametrize(
    "pattern, repl, field, words",
    [
        (r"^move = .*$", 'move = "fast"', "models[0].profile.move", "number"),
        (r"^hp = .*$", 'hp = "3"', "models[0].profile.hp", "integer"),  # no string coercion
        (r"^hp = .*$", "hp = 2.5", "models[0].profile.hp", "integer"),
        (r"^hero = .*$", 'hero = "yes"', "models[0].profile.hero", "bool"),
        (r"^ap = .*$", "ap = -4", "models[0].profile.ap", "greater than or equal"),
        (r"^perception = .*$", "perception = 99999999", "models[0].profile.perception", "less than or equal"),
        (r"^move = .*$", "move = nan", "models[0].profile.move", ""),
        (r"^move = .*$", "move = inf", "models[0].profile.move", ""),
        (r"^move = .*$", "move = 1979-05-27", "models[0].profile.move", "number"),
        (r"^ap = .*$", "ap = 3\nlaser = true", "models[0].profile.laser", "unknown key"),
        (r"^hp = .*\n", "", "models[0].profile.hp", "required field is missing"),
        (r"^kingdom = .*$", 'kingdom = "atlantis"', "kingdom", ""),
    ],
)
def test_r_p1_bad_troupe_fields_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], pattern: str, repl: str, field: str, words: str
) -> None:
    bad = _edited(tmp_path, TROUPE, pattern, repl)
    code, _, err = _validate([bad], capsys)
    assert code == 2
    lines = _problem_lines(err)
    hits = [line for line in lines if f"{bad}: {field}:" in line]
    assert hits, err
    assert words.lower() in hits[0].lower()


def test_r_p3_unknown_weapon_name_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = _edited(tmp_path, TROUPE, r"^weapons = \[\"", 'weapons = ["lightsaber", "')
    code, _, err = _validate([bad], capsys)
    assert code == 2
    (line,) = _problem_lines(err)
    assert f"{bad}: models[0].profile.weapons[0]:" in line and "lightsaber" in line


def test_r_p2_unknown_armour_name_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = _edited(tmp_path, TROUPE, r'^armour = ".*"$', 'armour = "mithril"')
    code, _, err = _validate([bad], capsys)
    assert code == 2
    assert "models[0].profile.armour" in _problem_lines(err)[0]


def test_r_b1_self_crossing_polygon_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A bow-tie: the second and third corners swapped.
    bad = _edited(
        tmp_path,
        SCENARIO,
        r"^polygon = \[\[32, 14\], \[42, 14\], \[42, 22\], \[32, 22\]\]$",
        "polygon = [[32, 14], [42, 22], [42, 14], [32, 22]]",
    )
    code, _, err = _validate([bad], capsys)
    assert code == 2
    (line,) = _problem_lines(err)
    assert re.search(rf"{re.escape(str(bad))}: terrain\[\d+\]\.polygon: is not a simple polygon", line), line


def test_r_b1_polygon_off_the_table_and_wrong_shape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    off = _edited(tmp_path, SCENARIO, r"^polygon = \[\[32, 14\]", "polygon = [[320, 14]", "off.toml")
    short = _edited(
        tmp_path,
        SCENARIO,
        r"^polygon = \[\[32, 14\], \[42, 14\], \[42, 22\], \[32, 22\]\]$",
        "polygon = [[1, 2]]",
        "short.toml",
    )
    code, _, err = _validate([off, short], capsys)
    assert code == 2
    lines = _problem_lines(err)
    assert any(str(off) in line and "off the" in line for line in lines)
    assert any(f"{short}: terrain[" in line and ".polygon" in line for line in lines)


def test_one_line_per_problem_across_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = _edited(tmp_path, TROUPE, r"^ap = .*$", "ap = -1\nlaser = 1", "a.toml")
    b = tmp_path / "b.toml"
    b.write_text("name = \n", encoding="utf-8")
    code, out, err = _validate([a, TROUPE, b], capsys)
    assert code == 2
    lines = _problem_lines(err)
    assert len(lines) == 3
    assert sum(str(a) in line for line in lines) == 2 and sum(str(b) in line for line in lines) == 1
    assert f"{TROUPE}: ok" in out


def test_unreadable_toml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "broken.toml"
    bad.write_text('name = "x"\n[models\n', encoding="utf-8")
    code, _, err = _validate([bad], capsys)
    assert code == 2
    (line,) = _problem_lines(err)
    assert str(bad) in line and "not valid TOML" in line


def test_missing_file_and_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _validate([tmp_path / "nope.toml", tmp_path], capsys)
    assert code == 2
    lines = _problem_lines(err)
    assert len(lines) == 2 and "nope.toml" in lines[0]


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root can read any file")
def test_unreadable_permissions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    locked = tmp_path / "locked.toml"
    locked.write_text(TROUPE.read_text(encoding="utf-8"), encoding="utf-8")
    locked.chmod(0)
    code, _, err = _validate([locked], capsys)
    assert code == 2 and "cannot read" in _problem_lines(err)[0]


def test_a_20_mb_file_is_refused_before_parsing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "big.toml"
    with big.open("w", encoding="utf-8") as fh:
        fh.write('name = "big"\n')
        line = "# " + "x" * 1000 + "\n"
        for _ in range(21 * 1024):
            fh.write(line)
    assert big.stat().st_size > 20 * 1024 * 1024 > MAX_FILE_BYTES
    code, _, err = _validate([big], capsys)
    assert code == 2
    (line_out,) = _problem_lines(err)
    assert str(big) in line_out and "bytes" in line_out


@pytest.mark.parametrize(
    "content",
    [
        bytes(range(256)) * 16,  # binary with NUL bytes
        bytes(range(128, 256)) * 32,  # no NUL, not UTF-8
        b"\xff\xfe" + "name = 'x'".encode("utf-16-le"),
        b"models = " + b"[" * 100_000 + b"]" * 100_000,  # nested beyond any recursion limit
        b"models = " + b"[" * 400 + b"]" * 400,  # nested, parses, then fails validation
        b"\x1b[31mred\x1b[0m\n",
    ],
)
def test_binary_junk_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    junk = tmp_path / "junk.toml"
    junk.write_bytes(content)
    code, _, err = _validate([junk], capsys)
    assert code == 2, err
    lines = _problem_lines(err)
    assert all(str(junk) in line for line in lines)


def test_neither_troupe_nor_scenario(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    odd = tmp_path / "odd.toml"
    odd.write_text('title = "hello"\n', encoding="utf-8")
    code, _, err = _validate([odd], capsys)
    assert code == 2 and "neither" in _problem_lines(err)[0]


def test_loader_raises_data_error_with_all_problems(tmp_path: Path) -> None:
    bad = _edited(tmp_path, TROUPE, r"^ap = .*$", "ap = -1\nlaser = 1")
    with pytest.raises(DataError) as exc:
        load_troupe(bad)
    fields = {p.field for p in exc.value.problems}
    assert {"models[0].profile.ap", "models[0].profile.laser"} <= fields
    assert all(p.file == str(bad) for p in exc.value.problems)
    with pytest.raises(DataError, match="not a scenario"):
        load_scenario(TROUPE)
    assert load_toml_file(SCENARIO).name == "open_battle"


@pytest.mark.parametrize("kind, top", [("troupe", "models"), ("scenario", "deployment")])
def test_schema_prints_json_schema(kind: str, top: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["schema", kind])
    out, _ = capsys.readouterr()
    assert (exc.value.code or 0) == 0
    schema = json.loads(out)
    assert schema["type"] == "object" and top in schema["properties"]
    assert schema.get("additionalProperties") is False


def test_schema_unknown_kind_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["schema", "armoury-of-doom"])
    _, err = capsys.readouterr()
    assert exc.value.code == 2 and len(_problem_lines(err)) == 1


def test_validate_subprocess_exit_codes(tmp_path: Path) -> None:
    bad = _edited(tmp_path, TROUPE, r"^hp = .*$", "hp = 0")
    run = subprocess.run(
        [sys.executable, "-m", "skirmish", "validate", str(bad)], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 2
    assert run.stderr.strip().count("\n") == 0 and "models[0].profile.hp" in run.stderr
    assert "Traceback" not in run.stderr
    ok = subprocess.run(
        [sys.executable, "-m", "skirmish", "validate", str(TROUPE), str(SCENARIO)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ok.returncode == 0, ok.stderr
