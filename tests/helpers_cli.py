"""Running the `skirmish` command in-process for the command-line contract tests (cli.md)."""

from __future__ import annotations

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
