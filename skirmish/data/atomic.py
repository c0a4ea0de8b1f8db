"""Writing files so that a crash, a kill or a full disk leaves the old file or the new one, never half.

Every output of the command (replays, saves, CSV, PNG) goes through here: the bytes are written to
a temporary file in the target's folder, flushed and fsynced, renamed over the target, and the
folder is fsynced so the rename itself survives a power cut. The temporary file is named
`.<target>.<pid>.<random>.tmp`; one left behind by a killed process (its pid no longer runs) is
removed by the next write to the same target.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

STALE_SECONDS = 24 * 3600
"""A temporary file older than this is stale even if its pid runs again (pids are reused)."""


def _umask() -> int:
    """The process umask, read without changing it where Linux allows (`os.umask` sets it to read it)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # it exists under another user (or the number is odd): leave its file alone
    return True


def _prefix(target: Path) -> str:
    return f".{target.name}."


_TEMPORARY = re.compile(r"^\.(?P<target>.+)\.(?P<pid>\d+)\.[^.]+\.tmp$")


def clean_stale_temporaries(target: Path | None = None, folder: Path | None = None) -> list[Path]:
    """Remove temporaries left by processes that no longer run; the paths removed.

    Either those of one `target` file, or (with `folder`) those of every file in the folder (for
    a folder written file after file, such as `--save-replays`: one listing, not one per file).
    Only files named like this module's temporaries are touched, and only when their writer is
    gone (or they are more than a day old), so a concurrent writer's file is left alone.
    """
    if target is not None:
        folder = target.parent if str(target.parent) else Path(".")
    assert folder is not None
    removed: list[Path] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    now = time.time()
    me = os.getpid()
    for n in names:
        m = _TEMPORARY.match(n)
        if m is None or (target is not None and m.group("target") != target.name):
            continue
        pid = int(m.group("pid"))
        path = folder / n
        try:
            st = path.lstat()
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode) or pid == me:
            continue  # this process's own file may be a stream still being written
        if _pid_alive(pid) and now - st.st_mtime < STALE_SECONDS:
            continue
        with contextlib.suppress(OSError):
            path.unlink()
            removed.append(path)
    return removed


def fsync_folder(folder: Path) -> None:
    """Make a rename in `folder` durable; file systems that cannot fsync a folder are let be."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def _resolve_target(path: str | Path) -> tuple[Path, os.stat_result | None]:
    p = Path(path)
    if p.is_symlink():
        try:
            p = p.resolve()
        except RuntimeError:  # a symlink loop (Python 3.11 reports it this way)
            raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path)) from None
    try:
        st: os.stat_result | None = p.stat()
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    return p, st


@contextlib.contextmanager
def atomic_output(path: str | Path, *, clean: bool = True) -> Iterator[IO[bytes]]:
    """A binary file to write `path` through: renamed over `path` only when the block ends normally.

    Until then the old file (if any) is untouched; on an exception the temporary file is removed
    and the exception goes on. Only a regular file (or a new one) is replaced this way. A symlink
    is followed and its target replaced, so the link survives; a device or FIFO (`/dev/null`, a
    named pipe) is written in place, never swapped for a regular file, so its errors surface as
    `OSError`. A new file gets the usual mode 0o666 & ~umask; a replaced file keeps its mode.
    `clean=False` skips looking for stale temporaries (the caller cleaned the whole folder once).
    """
    p, st = _resolve_target(path)
    if st is not None and not stat.S_ISREG(st.st_mode):
        with open(p, "wb") as fh:
            yield fh
        return
    mode = stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask()
    folder = p.parent if str(p.parent) else Path(".")
    if clean:
        clean_stale_temporaries(p)
    fd, tmp = tempfile.mkstemp(prefix=f"{_prefix(p)}{os.getpid()}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), mode)
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_folder(folder)


def write_atomic(path: str | Path, data: str | bytes, *, clean: bool = True) -> None:
    """Write a whole file so a crash never leaves half of it (see `atomic_output`)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_output(path, clean=clean) as fh:
        fh.write(raw)
