"""Entry point of the `skirmish` command: registers the sub-commands and maps errors to exit codes.

The commands' signatures live in `cli.commands` (one module per family) and are registered here,
in the order `skirmish --help` lists them; each imports its implementation only when run, so
`skirmish odds` stays light (no pygame, shapely or matplotlib loaded).
"""

from __future__ import annotations

import _thread
import codecs
import contextlib
import errno
import os
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

from skirmish.cli.app import app, odds_app, troupe_app
from skirmish.cli.bots_flag import bots_flag as _bots_flag
from skirmish.cli.click_errors import click_error
from skirmish.cli.commands import campaign, data, odds, play, tester
from skirmish.cli.errors import UsageProblem, fail

app.command("validate")(data.validate_cmd)
troupe_app.command("cost")(data.troupe_cost_cmd)
app.command("list")(data.list_cmd)
app.command("schema")(data.schema_cmd)
odds_app.command("shoot")(odds.odds_shoot_cmd)
odds_app.command("melee")(odds.odds_melee_cmd)
odds_app.command("table")(odds.odds_table_cmd)
app.command("play")(play.play_cmd)
app.command("replay")(play.replay_cmd)
app.command("board")(play.board_cmd)
app.command("test-troupes")(tester.test_troupes_cmd)
app.command("campaign")(campaign.campaign_cmd)
app.command("what-if")(tester.what_if_cmd)

__all__ = ["app", "main"]


INTERRUPTED = 130
"""The exit code of a command stopped by Ctrl+C (128 + SIGINT), as the shell reports it."""


def _run(argv: list[str]) -> None:
    from skirmish.data.errors import DataError

    try:
        _refuse_repeated(argv)
        code = app(args=argv, prog_name="skirmish", standalone_mode=False)
        if code == INTERRUPTED:
            # Typer turns Ctrl+C into a quiet `Exit(130)`; no command returns 130 itself.
            raise KeyboardInterrupt
        # Like click's standalone mode, always end with SystemExit carrying the exit code.
        raise SystemExit(code if isinstance(code, int) else 0)
    except (UsageProblem, DataError, SystemExit, KeyboardInterrupt):
        raise
    except Exception as exc:
        click_error(exc)


def _refuse_repeated(argv: list[str]) -> None:
    """`--replay a.json --replay b.json` and the like: exit 2 before the parser keeps the last."""
    import typer.main

    from skirmish.cli.repeats import refuse_repeated

    refuse_repeated(typer.main.get_command(app), argv)


def _quiet_stdout() -> None:
    """The reader of our stdout has gone (`skirmish list troupes | head -1`): send what is left nowhere,
    so Python's own flush at exit does not complain either."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def _stdout_identity() -> tuple[int, int] | None:
    """Which file stdout is (device, inode): rich re-points it at /dev/null when the pipe breaks."""
    import os

    try:
        st = os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return st.st_dev, st.st_ino


ESCAPE = "skirmish-escape"
"""The error handler stdout and stderr use for a character their encoding cannot write."""


def _escape(err: UnicodeError) -> tuple[str, int]:
    """A character the terminal's encoding cannot write (`PYTHONIOENCODING=ascii`, a C locale) as
    JSON's own escape, `\\u2014`, with a surrogate pair beyond the BMP: the text stays legible and a
    `--json` document stays valid JSON that decodes to the same strings, where the strict default
    would end the command with an internal error half-way through its output."""
    if not isinstance(err, UnicodeEncodeError):
        raise err
    out = []
    for ch in err.object[err.start : err.end]:
        cp = ord(ch)
        if cp > 0xFFFF:
            cp -= 0x10000
            out.append(f"\\u{0xD800 + (cp >> 10):04x}\\u{0xDC00 + (cp & 0x3FF):04x}")
        else:
            out.append(f"\\u{cp:04x}")
    return "".join(out), err.end


codecs.register_error(ESCAPE, _escape)


def _escape_unwritable() -> None:
    """Let stdout and stderr escape what their encoding cannot write (`_escape`)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError, TypeError):  # a detached stream: leave it be
                reconfigure(errors=ESCAPE)


class Terminated(BaseException):
    """SIGTERM reached the command (`kill`, `timeout`, a CI job or service manager stopping it).

    A `BaseException` like `KeyboardInterrupt`, so no `except Exception` swallows it on the way out.
    """


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    """Unwind like Ctrl+C: every `finally` runs, so a half-written output's temporary file is
    removed and a troupe test's worker processes are killed (left to the default action, the
    command died at once and its workers waited on their task queue for ever)."""
    if os.getpid() != _MAIN_PID:  # a forked child that kept the handler: die as the signal says
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    raise Terminated()


_MAIN_PID = os.getpid()


@contextlib.contextmanager
def _sigterm_unwinds() -> Iterator[None]:
    """Turn SIGTERM into `Terminated` while the command runs (only where SIGTERM has its default
    action and this is the main thread), putting the previous handler back after."""
    global _MAIN_PID
    previous = signal.getsignal(signal.SIGTERM)
    installed = previous is signal.SIG_DFL
    if installed:
        try:
            _MAIN_PID = os.getpid()
            signal.signal(signal.SIGTERM, _on_sigterm)
        except ValueError:  # not the main thread: signals cannot be handled here
            installed = False
    try:
        yield
    finally:
        if installed:
            with contextlib.suppress(ValueError):
                signal.signal(signal.SIGTERM, previous)


REDELIVERED = {KeyboardInterrupt: signal.SIGINT, Terminated: signal.SIGTERM}
"""The stops a finaliser may swallow, and the signal that delivers each again."""

REDELIVERY_DELAY = 0.02
"""Seconds before a swallowed stop is sent again: long enough for the finaliser to have returned."""


@contextlib.contextmanager
def _swallowed_stops_redelivered() -> Iterator[None]:
    """A signal handler runs wherever the main thread is, and that can be a finaliser (pymunk
    frees its spaces in an `ffi.gc` callback): there CPython reports the `KeyboardInterrupt` or
    `Terminated` as unraisable and drops it, so Ctrl+C was lost and the command ran on to exit 0.
    While the command runs, such a dropped stop is sent again to the main thread
    (`_thread.interrupt_main`, from a helper thread), where ordinary code raises it; anything else
    goes to the hook that was there before."""
    previous = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        signum = REDELIVERED.get(unraisable.exc_type)
        if signum is None:
            previous(unraisable)
            return
        # From another thread, a moment after this hook has returned: a signal made pending
        # before then is handled inside the hook, still in the finaliser's report, and dropped.
        timer = threading.Timer(REDELIVERY_DELAY, _thread.interrupt_main, args=(signum,))
        timer.daemon = True
        timer.start()

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = previous


def main(argv: list[str] | None = None) -> None:
    """Run the command; bad input exits 2 with one line per problem, a crash exits 1 in one line.

    A closed stdout (a pager or `head` that stopped reading) is a normal end: exit 0, no message.
    SIGTERM ends it like Ctrl+C (cleaning up), exit 143 with `skirmish: terminated`; either stop
    holds even when it lands in a finaliser (`_swallowed_stops_redelivered`).
    """
    with _sigterm_unwinds(), _swallowed_stops_redelivered():
        _main_guarded(argv)


def _stand_in_for_closed_streams() -> None:
    """A stream closed by the shell (`skirmish list troupes >&-`, `2>&-`) is None in Python; its
    output goes nowhere instead (flushing None ended the command with a traceback)."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 - for the process


WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EIO, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)})
"""What writing to a full disk or a failing device gives: no fault of the program."""


def _from_stdout(exc: OSError) -> bool:
    """Whether an error that reached the top came from writing stdout: a write error with no file
    name (every named output is written through `write_output`, which names its flag), or stdout
    still failing to flush."""
    if exc.errno in WRITE_ERRORS and exc.filename is None:
        return True
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        return True
    return False


def _cannot_write_stdout(exc: BaseException) -> None:
    """stdout could not take the output (`> /dev/full`): exit 2 naming it, like any output path
    that cannot be written (`--replay` on a full disk), not an internal error."""
    _quiet_stdout()  # so Python's own flush at exit does not fail and print a second message
    why = getattr(exc, "strerror", None) or type(exc).__name__
    fail(f"stdout: cannot write the output ({why})", code=2)


def _main_guarded(argv: list[str] | None) -> None:
    _stand_in_for_closed_streams()
    _escape_unwritable()
    before = _stdout_identity()
    try:
        _main(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
        raise SystemExit(0) from None
    except OSError as exc:  # the final flush of the output
        _cannot_write_stdout(exc)
    except SystemExit as exc:
        if exc.code == 1 and (
            type(sys.stdout).__name__.lstrip("_") == "PacifyFlushWrapper" or _stdout_identity() != before
        ):
            # EPIPE met by typer (it swaps in click's pacifying wrapper, `_PacifyFlushWrapper` in click
            # before typer vendored it) or by rich (it points stdout
            # at /dev/null); both then exit 1, but a reader that stopped reading is no error here.
            _quiet_stdout()
            raise SystemExit(0) from None
        if exc.code in (0, None):
            try:
                sys.stdout.flush()
            except BrokenPipeError:
                _quiet_stdout()
            except OSError as err:
                _cannot_write_stdout(err)
        raise


def _main(argv: list[str] | None) -> None:
    from skirmish.data.errors import DataError

    try:
        _run(_bots_flag(list(sys.argv[1:] if argv is None else argv)))
    except UsageProblem as exc:
        fail(*exc.lines, code=2)
    except DataError as exc:
        fail(*(str(p) for p in exc.problems), code=2)
    except KeyboardInterrupt:
        fail("interrupted", code=INTERRUPTED)
    except Terminated:
        fail("terminated", code=128 + signal.SIGTERM)
    except (SystemExit, BrokenPipeError):
        raise
    except Exception as exc:  # noqa: BLE001 - the contract: an internal error is one line, exit 1
        if isinstance(exc, OSError) and _from_stdout(exc):  # print() met a full disk, a dead device
            _cannot_write_stdout(exc)
        fail(f"internal error: {type(exc).__name__}: {exc}", code=1)


if __name__ == "__main__":
    main(sys.argv[1:])
