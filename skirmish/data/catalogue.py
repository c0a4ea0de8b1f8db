"""Where shipped troupes and scenarios live, and resolving a name-or-path argument to a file."""

from __future__ import annotations

import functools
import os
from importlib import resources
from pathlib import Path

from skirmish.data.errors import DataError, Problem
from skirmish.data.loader import load_scenario, load_troupe
from skirmish.data.scenario import Scenario
from skirmish.data.troupe import Troupe

DEFAULT_SCENARIO = "open_battle"


def content_root() -> Path:
    """The folder holding `troupes/` and `scenarios/`: `$SKIRMISH_CONTENT`, else the package's own.

    The shipped content lives inside the package (`skirmish/content/`) so a wheel, an sdist and an
    editable install all see the same files; `importlib.resources` finds it wherever it is installed.
    """
    env = os.environ.get("SKIRMISH_CONTENT")
    if env:
        return Path(env).expanduser().absolute()  # absolute, as `list --json` gives every `file`
    root = resources.files("skirmish.content")
    if isinstance(root, Path) or Path(str(root)).is_dir():
        return Path(str(root))
    return _unpacked(str(root))


@functools.cache
def _unpacked(where: str) -> Path:
    """The shipped content copied out of a zipped install (a wheel or zip on `sys.path`), once per
    process: the loaders and `glob` need real files. Removed again when the process ends."""
    import atexit
    import shutil
    import tempfile
    from importlib.resources.abc import Traversable

    target = Path(tempfile.mkdtemp(prefix="skirmish-content-"))
    atexit.register(shutil.rmtree, target, ignore_errors=True)

    def copy(node: Traversable, dest: Path) -> None:
        for child in node.iterdir():
            if child.is_dir():
                (dest / child.name).mkdir()
                copy(child, dest / child.name)
            elif child.name.endswith(".toml"):
                (dest / child.name).write_bytes(child.read_bytes())

    copy(resources.files("skirmish.content"), target)
    return target


def _folder(kind: str) -> Path:
    return content_root() / kind


def shipped(kind: str) -> list[Path]:
    """Shipped files of `kind` (`troupes` or `scenarios`), sorted by file name."""
    folder = _folder(kind)
    return sorted(folder.glob("*.toml")) if folder.is_dir() else []


def user_files(kind: str) -> list[Path]:
    """The user's own files of `kind` in the per-user data folder (`skirmish list` shows them after
    the shipped ones), sorted by name; a name a shipped file already has is left out, so a user file
    can never change what a shipped name means (golden replays, scenario defaults)."""
    taken = {p.stem for p in shipped(kind)}
    return [p for p in _user_tomls(kind) if p.stem not in taken and not unnamed(p)]


def _user_tomls(kind: str) -> list[Path]:
    """Every TOML file of `kind` in the per-user data folder, sorted by name: what `user_files`,
    `unlisted` and `shadowed` each sort out."""
    from skirmish.data.userdirs import user_content

    folder = user_content(kind)
    if not folder.is_dir():
        return []
    return [p for p in sorted(folder.glob("*.toml")) if p.is_file()]


def unnamed(path: Path) -> bool:
    """Whether a user file's name has white space (or a control character, which a terminal would
    act on), so it is no name: `skirmish list` prints one name a line with no spaces (cli.md) and
    skips it, and `--troupe "my troupe"` is refused alike (it resolved, so a name the list never
    showed worked); the file is still taken by its path."""
    return any(c.isspace() or not c.isprintable() for c in path.stem)


def unlisted(kind: str) -> list[Path]:
    """The user's files of `kind` that `user_files` leaves out because their name has white space
    (`unnamed`), which `skirmish list` says it skipped."""
    return [p for p in _user_tomls(kind) if unnamed(p)]


def shadowed(kind: str) -> list[Path]:
    """The user's files of `kind` that `user_files` leaves out because a shipped file has their name
    (`skirmish list` says it skipped them: a copy of `team_avatar.toml` edited in the data folder
    is never what `team_avatar` means)."""
    taken = {p.stem for p in shipped(kind)}
    return [p for p in _user_tomls(kind) if p.stem in taken]


def searched(kind: str) -> list[Path]:
    """The folders a name of `kind` is looked up in, in order (for messages)."""
    from skirmish.data.userdirs import user_content

    return [_folder(kind), user_content(kind)]


def resolve(kind: str, name_or_path: str) -> Path:
    """A shipped name (`team_avatar`) or a path to a file; `DataError` if neither exists."""
    try:
        return _resolve(kind, name_or_path)
    except OSError as exc:  # a name longer than the file system takes (ENAMETOOLONG), and the like
        why = exc.strerror or type(exc).__name__
        raise DataError([Problem(name_or_path, "", f"cannot be looked up ({why})")]) from None


def _resolve(kind: str, name_or_path: str) -> Path:
    p = Path(name_or_path)
    if p.suffix == ".toml" or os.sep in name_or_path or "/" in name_or_path:
        if not p.exists():
            # A dangling or looping link exists as a name: "no such file" would deny what `ls` shows.
            why = "is a symbolic link to no file (missing or a loop)" if p.is_symlink() else "no such file"
            raise DataError([Problem(name_or_path, "", why)])
        return p
    candidate = _folder(kind) / f"{name_or_path}.toml"
    if candidate.is_file():
        return candidate
    for mine in user_files(kind):
        if mine.stem == name_or_path:
            return mine
    if p.exists():
        return p
    for mine in unlisted(kind):
        if mine.stem == name_or_path:
            raise DataError([Problem(name_or_path, "", f"is not a name: {unnamed_message(mine, kind)}")])
    names = ", ".join(f.stem for f in [*shipped(kind), *user_files(kind)])
    singular = kind.rstrip("s")
    raise DataError([Problem(name_or_path, "", f"no {singular} of that name (known: {names})")])


def unnamed_message(path: Path, kind: str) -> str:
    """Why a user file whose name has white space is no name, and what to do instead (`list`'s
    line naming the file it skipped)."""
    words = "".join(c if c.isprintable() and not c.isspace() else " " for c in path.stem).split()
    suggestion = "_".join(words) or kind.rstrip("s")
    return (
        f"{path}: its file name has white space or a control character, and a listed name has none "
        f"(rename it, e.g. {suggestion}.toml, or give the file's path)"
    )


def find_troupe(name_or_path: str) -> Troupe:
    return load_troupe(resolve("troupes", name_or_path))


def find_scenario(name_or_path: str) -> Scenario:
    return load_scenario(resolve("scenarios", name_or_path))
