"""cli.md `skirmish validate FILE...`: bad input is exit 2 with one line per problem naming the file and
the field. Two sides of one name (a result keyed by side showed one side only) are refused; the
scenario-wide checks name the field they are about, not `(top level)`, and carry no `Value error,`."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from helpers_cli import run

from skirmish.data.catalogue import content_root


def toml_text(data: dict[str, Any]) -> str:
    """Just enough TOML writing for a scenario (tables, arrays of tables, scalars, lists)."""

    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return repr(v)

    def table(prefix: str, d: dict[str, Any], out: list[str]) -> None:
        subs = []
        for k, v in d.items():
            if isinstance(v, dict):
                subs.append((f"{prefix}{k}", v, False))
            elif isinstance(v, list) and v and isinstance(v[0], dict):
                subs.extend((f"{prefix}{k}", item, True) for item in v)
            else:
                out.append(f"{k} = {value(v)}")
        for name, sub, many in subs:
            out.append(f"[[{name}]]" if many else f"[{name}]")
            table(f"{name}.", sub, out)

    lines: list[str] = []
    table("", data, lines)
    return "\n".join(lines) + "\n"


def scenario(**edit: Any) -> dict[str, Any]:
    data = tomllib.loads((content_root() / "scenarios" / "open_battle.toml").read_text(encoding="utf-8"))
    for key, change in edit.items():
        change(data[key])
    return data


def one_problem(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    code, _, err = run(["validate", str(path)], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert lines[0].startswith(f"skirmish: {path}: ") and "Value error" not in lines[0]
    assert "(top level)" not in lines[0] and "Traceback" not in err
    return lines[0]


def test_toml_text_round_trips_the_shipped_scenario(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "same.toml"
    path.write_text(toml_text(scenario()), encoding="utf-8")
    assert tomllib.loads(path.read_text(encoding="utf-8")) == scenario()
    assert run(["validate", str(path)], capsys)[0] == 0


def test_cli_validate_refuses_two_sides_of_one_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "twins.toml"
    path.write_text(toml_text(scenario(sides=lambda s: s[1].update(name=s[0]["name"]))), encoding="utf-8")
    line = one_problem(path, capsys)
    assert "sides[1].name: side name `avatar` is used twice" in line
    code, _, err = run(["play", str(path), "--headless", "--bots", "--turns", "1"], capsys)
    assert code == 2 and "sides[1].name" in err


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        ({"deployment": lambda d: d[1].update(player=5)}, "deployment[1].player: deployment zone `north`"),
        ({"deployment": lambda d: d[1].update(player=0)}, "deployment: players [1] have no deployment zone"),
        (
            {"terrain": lambda t: t[2]["polygon"][1].__setitem__(0, 49.5)},
            "terrain[2].polygon[1]: `old_ruins`",
        ),
        (
            {"deployment": lambda d: d[0]["polygon"][0].__setitem__(1, -3.0)},
            "deployment[0].polygon[0]: `south`",
        ),
    ],
)
def test_cli_validate_scenario_wide_checks_name_their_field(
    edit: dict[str, Any], field: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "edited.toml"
    path.write_text(toml_text(scenario(**edit)), encoding="utf-8")
    assert field in one_problem(path, capsys)


def test_cli_validate_a_model_check_says_its_own_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (content_root() / "troupes" / "team_avatar.toml").read_text(encoding="utf-8")
    path = tmp_path / "no_range.toml"
    path.write_text(
        text.replace('kind = "melee"\ndamage = 2', 'kind = "ranged"\ndamage = 2'), encoding="utf-8"
    )
    assert one_problem(path, capsys).endswith("armoury.weapons[0]: a ranged weapon needs a `range`")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_cli_validate_says_a_utf16_file_is_utf16_not_binary(
    encoding: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (content_root() / "troupes" / "team_avatar.toml").read_text(encoding="utf-8")
    path = tmp_path / "unicode.toml"
    path.write_bytes(("\ufeff" if encoding == "utf-16-be" else "").encode(encoding) + text.encode(encoding))
    assert one_problem(path, capsys).endswith("is UTF-16 (or UTF-32) text, not UTF-8; save it as UTF-8")


@pytest.mark.parametrize(
    ("value", "detail"),
    [
        ("[1.0, 2]", "; as a list of whole numbers, [0]: Input should be a valid integer"),
        ("{ a = 1 }", ""),
    ],
)
def test_cli_validate_a_special_value_of_no_allowed_kind_is_one_line(
    value: str, detail: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (content_root() / "scenarios" / "the_pursuit.toml").read_text(encoding="utf-8")
    assert "\nevents_extra_at = [2, 6, 9]\n" in text
    path = tmp_path / "odd_special.toml"
    path.write_text(
        text.replace("\nevents_extra_at = [2, 6, 9]\n", f"\nevents_extra_at = {value}\n"), encoding="utf-8"
    )
    line = one_problem(path, capsys)  # was one line per member of the union, each with its tag
    assert line.endswith(
        "special.events_extra_at: must be a number, a whole number, true or false, a string, a list of "
        "strings or a list of whole numbers" + detail
    )
