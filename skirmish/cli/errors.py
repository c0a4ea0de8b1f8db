"""How the command reports failure: exit 2 for bad input, 1 for an internal error, never a traceback.

Also the one place output paths are checked (`output_path`) and written (`write_output`): a path
that cannot be written is bad input naming the flag, found before a game or run starts wherever
the file system lets us tell, and mapped to the same one-line exit 2 if the write still fails.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from skirmish.data.text import UNPRINTABLE

MAX_LINE = 300
"""An error line longer than this is cut (a 200,000-point path must not print megabytes)."""


class UsageProblem(Exception):
    """Bad input named by the command (a flag, a file, a field): exit 2 with these lines."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        super().__init__("\n".join(lines))

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), tuple(self.lines), self.__dict__)


KEEP = 60
"""Characters kept at each end of an over-long word (a path, a value) shortened in the middle."""


ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
"""How `printable` shows the commonest control characters (the rest as `\\xNN` or `\\uNNNN`)."""


def _escape(found: re.Match[str]) -> str:
    ch = found.group()
    if ch in ESCAPES:
        return ESCAPES[ch]
    cp = ord(ch)
    return f"\\x{cp:02x}" if cp < 0x100 else f"\\u{cp:04x}"


def printable(text: str) -> str:
    """`text` with every control character shown as an escape (`a\\nb.toml`), so a path or value
    holding a newline, a carriage return or a terminal escape stays on its one line and shows what
    it holds (folding a newline to a space named a file that does not exist, `a b.toml`)."""
    return UNPRINTABLE.sub(_escape, text)


def clip(line: str, limit: int = MAX_LINE) -> str:
    """One line (control characters escaped, `printable`) of at most `limit` characters, an
    ellipsis marking a cut.

    Over-long words with text after them are shortened in the middle first, longest first, so the
    reason after them survives (`--replay aaa…aaa.json: cannot use this path (File name too
    long)`), where cutting the end alone left a line of `a`s that did not say what was wrong.
    """
    line = printable(line)
    if len(line) <= limit:
        return line
    words = line.split(" ")
    for i in sorted(range(len(words) - 1), key=lambda k: (-len(words[k]), k)):
        if len(line) <= limit or len(words[i]) <= 2 * KEEP + 1:
            break
        words[i] = words[i][:KEEP] + "…" + words[i][-KEEP:]
        line = " ".join(words)
    return line if len(line) <= limit else line[: limit - 1] + "…"


def fail(*lines: str, code: int = 2) -> None:
    """Print each line on stderr and exit with `code`; a stderr that cannot be written (`2>/dev/full`)
    does not change the exit code (it made a refused input exit 1, an internal error)."""
    for line in lines:
        try:
            print(clip(f"skirmish: {line}"), file=sys.stderr)
        except (OSError, ValueError):
            break
    raise SystemExit(code)


def _why(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def _probe_folder(folder: Path, flag: str, path: str) -> None:
    """Create and remove a scratch file: the only honest test that files can be made here.

    `os.access` says yes to root everywhere, and `/proc` accepts no new files whatever its mode says.
    """
    if not folder.is_dir():
        raise UsageProblem(f"{flag} {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageProblem(f"{flag} {path}: folder {folder} is not writable")
    try:
        fd, tmp = tempfile.mkstemp(prefix=".skirmish-probe-", dir=folder)
    except OSError as exc:
        raise UsageProblem(f"{flag} {path}: cannot create files in {folder} ({_why(exc)})") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(tmp)


def output_path(path: str, flag: str, suffix: str | None = None, *, folder: bool = False) -> Path:
    """Check an output path before any work is done; `UsageProblem` naming `flag` if it cannot be written.

    A file path must not be empty or a directory, must end in `suffix` when one is required, and its
    folder must exist and accept new files (an existing regular file must be writable). With
    `folder`, the path is a directory to fill: it may exist (then it must be writable) or be created
    in a writable parent, but an existing file there is refused rather than overwritten.
    Existing devices and FIFOs are accepted as they are (`/dev/null`, a pipe to another program);
    a failing write to them is reported by `write_output`.
    """
    if not path.strip():
        raise UsageProblem(f"{flag}: the path is empty; give a {'folder' if folder else 'file'} name")
    p = Path(path)
    if suffix is not None and p.suffix.lower() != suffix:
        raise UsageProblem(f"{flag} {path}: the name must end in {suffix}")
    try:
        st: os.stat_result | None = p.stat()
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise UsageProblem(f"{flag} {path}: cannot use this path ({_why(exc)})") from None
    if folder:
        if st is not None:
            if not stat.S_ISDIR(st.st_mode):
                raise UsageProblem(f"{flag} {path}: is an existing file; give a folder (new or existing)")
            _probe_folder(p.resolve(), flag, path)
        else:
            _probe_folder(p.resolve().parent, flag, path)
        return p
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise UsageProblem(f"{flag} {path}: is a directory; give a file name")
    if st is not None and not stat.S_ISREG(st.st_mode):
        return p
    if st is not None and not os.access(p, os.W_OK):
        raise UsageProblem(f"{flag} {path}: the file is not writable")
    if st is None and not p.parent.is_dir():
        # `missing/../r.json`: resolving drops `missing/..`, but opening the path needs `missing`.
        raise UsageProblem(f"{flag} {path}: folder {p.parent} does not exist")
    _probe_folder(p.resolve().parent, flag, path)
    return p


def distinct_outputs(outputs: dict[str, str | None], inputs: dict[str, str | None] | None = None) -> None:
    """Two output flags naming one file, or an output naming an input file, is bad input.

    Without this `--replay x.png --screenshot x.png` wrote the replay, said so, then overwrote it
    with the picture; `replay r.png --screenshot r.png` replaced the replay being read. Paths are
    compared resolved (symbolic links followed, relative names made absolute).
    """
    seen: dict[str, str] = {}
    for label, path in (inputs or {}).items():
        if path and path.strip():
            seen.setdefault(os.path.realpath(path), label)
    outputs = {flag: path for flag, path in outputs.items() if path is not None}
    for flag, path in outputs.items():
        if not path or not path.strip():
            continue
        real = os.path.realpath(path)
        other = seen.get(real)
        if other is not None:
            raise UsageProblem(f"{flag} {path}: is the same file as {other}; give each its own file")
        seen[real] = flag


def read_path(kind: str, name_or_path: str | None) -> str | None:
    """The file a troupe or scenario argument reads (a name resolved as the commands do), or None
    when it names nothing (the command says so itself)."""
    if name_or_path is None or not name_or_path.strip():
        return None
    from skirmish.data.catalogue import resolve
    from skirmish.data.errors import DataError

    try:
        return str(resolve(kind, name_or_path))
    except DataError:
        return None


def write_output(path: str | Path, flag: str, data: str | bytes) -> None:
    """Write a whole output file (atomically if it is a regular file); an OS error is exit 2 naming `flag`."""
    from skirmish.engine.replay import write_atomic

    try:
        write_atomic(path, data)
    except OSError as exc:
        raise UsageProblem(f"{flag} {path}: cannot write the file ({_why(exc)})") from None


def write_rendered(path: str | Path, flag: str, render: Callable[[str], None]) -> None:
    """Let `render` draw into a scratch `.png` file, then write those bytes to `path` like any output.

    Renderers (pygame, matplotlib) pick the format from the file name and fail with their own
    exception types on odd targets; drawing into a private file and copying the bytes means the
    output is always a PNG and every write failure is the same one-line exit 2 naming the flag.
    """
    with tempfile.TemporaryDirectory(prefix="skirmish-render-") as scratch:
        tmp = os.path.join(scratch, "out.png")
        render(tmp)
        data = Path(tmp).read_bytes()
    write_output(path, flag, data)


def nonempty(value: str, flag: str, what: str = "name or file") -> str:
    """An empty name-or-path argument would resolve to the current folder: refuse it, naming `flag`."""
    if not value.strip():
        raise UsageProblem(f"{flag}: the argument is empty; give a {what}")
    return value
