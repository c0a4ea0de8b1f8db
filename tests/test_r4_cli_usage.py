"""cli.md: bad input is exit 2 with one line per problem; a usage error of click's is one line of
single spaces (click indents its list of choices with a newline and tabs)."""

from __future__ import annotations

import pytest

from skirmish.cli.main import main


@pytest.mark.parametrize(
    ("argv", "choices"), [(["schema"], "troupe, scenario"), (["list"], "troupes, scenarios")]
)
def test_cli_missing_choice_argument_is_one_plain_line(
    argv: list[str], choices: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2
    assert err.count("\n") == 1 and "\t" not in err and "  " not in err
    assert err.startswith(f"skirmish: {argv[0]}: Missing argument") and choices in err
