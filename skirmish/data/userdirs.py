"""The per-user folder: where files the program writes on its own go, and where a user's own troupes
and scenarios are looked for.

An installed program must not litter the folder it happens to be started from, and a wheel's
package folder is not writable: so saves, end-of-game replays, board pictures and the campaign
save default to the user's data folder (`platformdirs`: `~/.local/share/skirmish` on Linux,
`~/Library/Application Support/skirmish` on macOS, `%LOCALAPPDATA%\\skirmish` on Windows) unless
the command is given a path. `$SKIRMISH_DATA` overrides the folder (tests, portable installs).

Layout under it: `troupes/` and `scenarios/` (a user's own content, listed after the shipped files),
`saves/`, `replays/`, `screenshots/`, and `campaign.json`.
"""

from __future__ import annotations

import os
from pathlib import Path

from skirmish.data.errors import DataError, Problem

APP = "skirmish"
OUTPUT_KINDS = ("saves", "replays", "screenshots")


def data_dir() -> Path:
    """The user's data folder (`$SKIRMISH_DATA`, else the platform's), not created here; always an
    absolute path (a relative `$SKIRMISH_DATA` is taken from the current folder), as `list --json`
    promises its `file` and `path` are."""
    env = os.environ.get("SKIRMISH_DATA")
    if env:
        return Path(env).expanduser().absolute()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def user_content(kind: str) -> Path:
    """The folder of the user's own `troupes` or `scenarios` (it need not exist)."""
    return data_dir() / kind


def default_output(kind: str, name: str) -> Path:
    """Where a file of `kind` (`saves`, `replays`, `screenshots`) named `name` goes by default; the
    folder is created so the write that follows can succeed."""
    if kind not in OUTPUT_KINDS:
        raise ValueError(f"unknown output kind {kind!r} (known: {', '.join(OUTPUT_KINDS)})")
    return _made(data_dir() / kind) / name


def default_campaign_save() -> Path:
    """The campaign save's default place; its folder is created."""
    return _made(data_dir()) / "campaign.json"


def _made(folder: Path) -> Path:
    """`folder`, created if need be; one that cannot be made is bad input naming it (exit 2), since
    `$SKIRMISH_DATA` or an explicit path is the way out."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise DataError(
            [
                Problem(
                    str(folder), "", f"cannot make the data folder ({why}); set SKIRMISH_DATA or give a path"
                )
            ]
        ) from None
    return folder
