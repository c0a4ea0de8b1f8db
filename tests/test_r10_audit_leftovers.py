"""Round-10: the two audit findings round 9 left outside its files.

- Troupe, scenario and armoury `title` / `description` took control characters, which `play`,
  `list` and `troupe show` print as they are: an escape sequence in a downloaded troupe file
  could clear or repaint the player's terminal, and a line break split a one-line listing. Titles
  now refuse every character `printable` would escape (C0/C1 controls, line and paragraph
  separators, bidirectional overrides: one definition, `skirmish.data.text`); rules text keeps
  its line breaks and tabs only.
- `bots.registry` caught only `ImportError` from a `module:Class` policy: a module that raised
  anything else, or called `sys.exit()`, at import escaped `registry.check` (the CLI caught it,
  a scenario file or a library caller did not). The registry now reports it as an unknown policy.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers_cli import run

from skirmish.bots.registry import UnknownPolicy, check, resolve
from skirmish.data.catalogue import content_root


def _shipped(kind: str, name: str) -> str:
    return (content_root() / kind / f"{name}.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("kind", "name", "field", "escaped", "code"),
    [
        ("troupes", "team_avatar", "title", "Team \\u001b[2JAvatar", "U+001B at character 6"),
        ("troupes", "team_avatar", "title", "Team\\nAvatar", "U+000A at character 5"),
        ("troupes", "team_avatar", "description", "Aang\\u0007", "U+0007 at character 5"),
        ("troupes", "team_avatar", "description", "Aang\\u009b2J", "U+009B at character 5"),
        ("scenarios", "open_battle", "title", "Open\\tBattle", "U+0009 at character 5"),
        ("scenarios", "open_battle", "title", "Open\\u202eBattle", "U+202E at character 5"),
        ("troupes", "team_avatar", "description", "Aang\\u2028Katara", "U+2028 at character 5"),
        ("scenarios", "open_battle", "description", "\\u001b]0;owned\\u0007", "U+001B at character 1"),
    ],
)
def test_r10_a_file_with_control_characters_in_its_text_is_refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    kind: str,
    name: str,
    field: str,
    escaped: str,
    code: str,
) -> None:
    text = _shipped(kind, name)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"{field} = "))
    lines[at] = f'{field} = "{escaped}"'
    bad = tmp_path / f"{name}.toml"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    exit_code, out, err = run(["validate", str(bad)], capsys)
    assert exit_code == 2
    assert err.strip().splitlines() == [
        f"skirmish: {bad}: {field}: must not contain control characters ({code})"
    ]
    assert "\x1b" not in out + err


def test_r10_rules_text_keeps_its_line_breaks_and_tabs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _shipped("troupes", "team_avatar").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("description = "))
    lines[at] = 'description = "First line.\\r\\nSecond\\tline."'
    good = tmp_path / "team_avatar.toml"
    good.write_text("\n".join(lines) + "\n", encoding="utf-8")
    exit_code, _, err = run(["validate", str(good)], capsys)
    assert exit_code == 0, err


@pytest.fixture
def failing_modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    (tmp_path / "exits_r10.py").write_text("raise SystemExit(3)\n", encoding="utf-8")
    (tmp_path / "raises_r10.py").write_text("raise RuntimeError('at import')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in ("exits_r10", "raises_r10"):
        sys.modules.pop(name, None)


@pytest.mark.parametrize(
    ("policy", "why"),
    [("exits_r10:Bot", "SystemExit(3)"), ("raises_r10:Bot", "RuntimeError: at import")],
)
def test_r10_registry_reports_a_module_that_fails_at_import(
    failing_modules: Path, policy: str, why: str
) -> None:
    assert check(policy) == f"bot policy {policy!r}: importing it failed ({why})"
    with pytest.raises(UnknownPolicy, match="importing it failed"):
        resolve(policy)
