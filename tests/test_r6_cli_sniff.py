"""One lenient JSON sniffer (`data.loader.sniff_json`) tells a file's kind for `validate` and
`campaign --file`; the strict readers then read it (round 6)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import skirmish.cli
from skirmish.data.loader import Sniffed, sniff_json


@pytest.mark.parametrize(
    ("text", "sniffed"),
    [
        ('{"format": "skirmish-replay"}', Sniffed(True, {"format": "skirmish-replay"})),
        ('{"a": 1, "a": 2}', Sniffed(True, {"a": 2})),  # leniently: the strict reader refuses it
        ('{"a": NaN}', Sniffed(True, {"a": float("nan")})),
        ("[]", Sniffed(True, None)),
        ("3", Sniffed(True, None)),
        ("null", Sniffed(True, None)),
        ('{"format": ', Sniffed(False, None)),
        ('name = "x"\n', Sniffed(False, None)),
        ("[models]\n", Sniffed(False, None)),
        ("", Sniffed(False, None)),
        ("[" * 100_000, Sniffed(False, None)),
    ],
)
def test_sniff_json_tells_json_and_its_object(text: str, sniffed: Sniffed) -> None:
    got = sniff_json(text)
    assert got.is_json == sniffed.is_json
    assert (got.obj is None) == (sniffed.obj is None)
    assert got.format == (None if sniffed.obj is None else sniffed.obj.get("format"))


def test_no_cli_module_parses_json_itself() -> None:
    """The command reads JSON through the loader (sniff_json to tell the kind, then the strict
    readers), never with its own json.loads."""
    folder = Path(skirmish.cli.__file__).parent
    offenders = [
        str(p.relative_to(folder))
        for p in sorted(folder.rglob("*.py"))
        if re.search(r"\bjson\.loads?\(", p.read_text(encoding="utf-8"))
    ]
    assert offenders == []
