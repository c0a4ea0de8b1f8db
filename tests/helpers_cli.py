"""Running the `skirmish` command in-process for the command-line contract tests (cli.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.cli.main import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The exit code, stdout and stderr of `skirmish ARGV` (main always ends with SystemExit)."""
    try:
        main(argv)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out = capsys.readouterr()
    return code, out.out, out.err


def user_folder(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    troupes: dict[str, str] | None = None,
    scenarios: dict[str, str] | None = None,
) -> Path:
    """`$SKIRMISH_DATA` at `tmp_path`, holding the user's own files: {file name: text} per kind."""
    monkeypatch.setenv("SKIRMISH_DATA", str(tmp_path))
    for kind, files in (("troupes", troupes), ("scenarios", scenarios)):
        (tmp_path / kind).mkdir()
        for name, text in (files or {}).items():
            (tmp_path / kind / name).write_text(text, encoding="utf-8")
    return tmp_path
