"""A terminal whose encoding cannot write every character (`PYTHONIOENCODING=ascii`, a C locale):
the commands still finish, with such characters written as JSON's `\\uXXXX` escapes, so text stays
legible and `--json` output stays valid JSON that decodes to the same strings."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from skirmish.cli.main import ESCAPE


def _run(*args: str, encoding: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    cmd = [sys.executable, "-m", "skirmish", *args]
    return subprocess.run(cmd, capture_output=True, env=env, timeout=120)


@pytest.mark.parametrize("args", [("list", "troupes"), ("troupe", "cost", "team_avatar")])
def test_ascii_terminal_text_commands_finish(args: tuple[str, ...]) -> None:
    done = _run(*args, encoding="ascii")
    assert done.returncode == 0, done.stderr
    assert b"internal error" not in done.stderr
    assert b"\\u2014" in done.stdout  # the em dash of a title, escaped rather than fatal
    done.stdout.decode("ascii")  # nothing the terminal cannot write


def test_ascii_terminal_json_decodes_to_the_same_document() -> None:
    ascii_out = _run("list", "troupes", "--json", encoding="ascii")
    utf8_out = _run("list", "troupes", "--json", encoding="utf-8")
    assert ascii_out.returncode == utf8_out.returncode == 0
    assert json.loads(ascii_out.stdout.decode("ascii")) == json.loads(utf8_out.stdout.decode("utf-8"))


@pytest.mark.parametrize("text", ["\u2014", "Ba Sing Se \u2014 \u9a6c", "\U0001f525 fire"])
def test_escape_handler_writes_json_escapes(text: str) -> None:
    written = text.encode("ascii", errors=ESCAPE).decode("ascii")
    assert json.loads(f'"{written}"') == text
