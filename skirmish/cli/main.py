"""Entry point of the `skirmish` command: registers the sub-commands and maps errors to exit codes.

Each sub-command lives in its own module and is imported only when run, so `skirmish odds` stays
light (no pygame, shapely or matplotlib loaded).
"""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated

import typer

from skirmish.bots.registry import DEFAULT, NAMED
from skirmish.cli.errors import UsageProblem, fail

_POLICY_HELP = ", ".join(NAMED) + f" (default {DEFAULT}), an installed plugin's name, or module:Class"
POLICY_METAVAR = "[" + "|".join(NAMED) + "|MODULE:CLASS]"
"""`--bots` takes a name of `skirmish.bots.registry` or an import path, so it is a string checked by the
registry (exit 2 naming the flag), not a click Choice; its metavar still lists the named choices."""


class Executor(StrEnum):
    """Where troupe-testing games run: local processes or a Dask cluster."""

    local = "local"
    dask = "dask"


class ListKind(StrEnum):
    troupes = "troupes"
    scenarios = "scenarios"
    folders = "folders"


class SchemaKind(StrEnum):
    troupe = "troupe"
    scenario = "scenario"
    replay = "replay"
    campaign = "campaign"


CHOICE_WORDS = {"--bots": "policy", "--executor": "executor", "KIND": "kind"}
"""How a refused choice is named in its one-line message (`--bots nonsense: unknown policy ...`)."""

app = typer.Typer(
    name="skirmish",
    help="Avatar: Battles in the Four Kingdoms — play, replay, validate and test troupes.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _print_version(value: bool) -> None:
    if value:
        from skirmish import DISTRIBUTION, __version__

        print(f"skirmish {__version__} ({DISTRIBUTION})")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Avatar: Battles in the Four Kingdoms — play, replay, validate and test troupes.

    Files the program writes without being given a path (saves, end-of-game replays, board
    pictures, the campaign save) go to the per-user data folder: `skirmish list folders` shows it.
    """


odds_app = typer.Typer(
    help="Exact odds of a shot or a melee exchange (computed, never sampled).", no_args_is_help=True
)
app.add_typer(odds_app, name="odds")
troupe_app = typer.Typer(help="Troupe building: points breakdowns.", no_args_is_help=True)
app.add_typer(troupe_app, name="troupe")


@app.command("validate")
def validate_cmd(
    files: Annotated[list[str], typer.Argument(help="Troupe, scenario (TOML) or replay (JSON) files.")],
    points_limit: Annotated[
        int, typer.Option("--points-limit", min=0, help="Points limit custom troupes must keep (0: none).")
    ] = 0,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object (docs/json.md).")] = False,
) -> None:
    """Check troupes, scenarios and replays; exit 0 when all are valid, 2 with one line per problem."""
    from skirmish.cli.data_cmds import validate

    validate(files, points_limit, json_out)


@troupe_app.command("cost")
def troupe_cost_cmd(
    file: Annotated[str, typer.Argument(help="A troupe name from `skirmish list troupes` or a file.")],
    points_limit: Annotated[int | None, typer.Option("--points-limit", help="Points limit to check.")] = None,
    scenario: Annotated[str | None, typer.Option("--scenario", help="Take the points limit from it.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Print a troupe's points breakdown per model, the total and any building-rule problems."""
    from skirmish.cli.troupe_cmd import cost

    cost(file, points_limit, scenario, json_out)


@app.command("list")
def list_cmd(
    kind: Annotated[ListKind, typer.Argument(help="What to list.")],
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object (docs/json.md).")] = False,
) -> None:
    """List shipped troupes or scenarios (then the user's own): the name other commands take, then a
    description. No content found at all is an error (exit 1), never an empty list."""
    from skirmish.cli.data_cmds import list_kind

    list_kind(kind.value, json_out)


@app.command("schema")
def schema_cmd(
    kind: Annotated[SchemaKind, typer.Argument(help="Which file's schema.")],
) -> None:
    """Print the JSON Schema of a troupe, scenario, replay or campaign save file (for editors)."""
    from skirmish.cli.data_cmds import schema

    schema(kind.value)


@odds_app.command("shoot")
def odds_shoot_cmd(
    attack: Annotated[int, typer.Option("--attack", help="Ranged + modifiers, before the die.")],
    dodge: Annotated[int, typer.Option("--dodge", help="Dodge + modifiers, before the die.")],
    armour: Annotated[int | None, typer.Option("--armour", help="Armour save, e.g. 5 for 5+.")] = None,
    shield: Annotated[int | None, typer.Option("--shield", help="Shield save, e.g. 5 for 5+.")] = None,
    taking_cover: Annotated[
        bool, typer.Option("--taking-cover", help="Target is Taking Cover (3+).")
    ] = False,
    shield_breaker: Annotated[
        bool, typer.Option("--shield-breaker", help="Negates armour and shield.")
    ] = False,
    damage: Annotated[int, typer.Option("--damage", help="HP lost per unsaved hit.")] = 1,
    hp: Annotated[int, typer.Option("--hp", help="Target's HP left.")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Exact odds of one shot (R-C1, R-S1, R-S2)."""
    from skirmish.cli.odds_cmds import shoot

    shoot(attack, dodge, armour, shield, taking_cover, shield_breaker, damage, hp, json_out)


@odds_app.command("melee")
def odds_melee_cmd(
    attack: Annotated[int, typer.Option("--attack", help="Attacker's Combat + modifiers.")],
    defend: Annotated[int, typer.Option("--defend", help="Defender's Combat + modifiers.")],
    attacker_armour: Annotated[int | None, typer.Option("--attacker-armour")] = None,
    attacker_shield: Annotated[int | None, typer.Option("--attacker-shield")] = None,
    defender_armour: Annotated[int | None, typer.Option("--defender-armour")] = None,
    defender_shield: Annotated[int | None, typer.Option("--defender-shield")] = None,
    attacker_shield_breaker: Annotated[bool, typer.Option("--attacker-shield-breaker")] = False,
    defender_shield_breaker: Annotated[bool, typer.Option("--defender-shield-breaker")] = False,
    attacker_damage: Annotated[int, typer.Option("--attacker-damage")] = 1,
    defender_damage: Annotated[int, typer.Option("--defender-damage")] = 1,
    attacker_hp: Annotated[int, typer.Option("--attacker-hp")] = 1,
    defender_hp: Annotated[int, typer.Option("--defender-hp")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Exact odds of one 1-v-1 melee exchange (R-C4, R-S1)."""
    from skirmish.cli.odds_cmds import melee

    melee(
        attack,
        defend,
        attacker_armour,
        attacker_shield,
        defender_armour,
        defender_shield,
        attacker_shield_breaker,
        defender_shield_breaker,
        attacker_damage,
        defender_damage,
        attacker_hp,
        defender_hp,
        json_out,
    )


@odds_app.command("table")
def odds_table_cmd(
    a: Annotated[str, typer.Argument(help="Troupe A: a name from `skirmish list troupes` or a file.")],
    b: Annotated[str, typer.Argument(help="Troupe B: a name or a file.")],
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Exact shooting and melee odds of every model of A against every model of B, in the open and cover."""
    from skirmish.cli.sim_cmds import odds_table

    odds_table(a, b, json_out)


@app.command("play")
def play_cmd(
    scenario: Annotated[
        str | None, typer.Argument(help="Scenario name (skirmish list scenarios) or file.")
    ] = None,
    troupe: Annotated[
        list[str] | None, typer.Option("--troupe", help="Troupe name or file, one per side in order.")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the game's dice stream.")] = 1,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            metavar=POLICY_METAVAR,
            help=f"Bots play every side: {_POLICY_HELP}; `--bots` alone means {DEFAULT}; a,b gives one "
            "per side.",
        ),
    ] = None,
    headless: Annotated[
        bool, typer.Option("--headless", help="No window: play and print the result.")
    ] = False,
    turns: Annotated[int | None, typer.Option("--turns", help="Override the scenario's turn limit.")] = None,
    replay_out: Annotated[
        str | None, typer.Option("--replay", help="Write the game's replay (JSON) here.")
    ] = None,
    screenshot: Annotated[
        str | None, typer.Option("--screenshot", help="Save the final board as a PNG.")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", help="Rule option KEY=VALUE, e.g. premeasure=true.")
    ] = None,
    seats: Annotated[
        int | None, typer.Option("--seats", help="The Pursuit: 1-4 people share the heroes (hotseat).")
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="With --headless: print the result as one JSON object.")
    ] = False,
) -> None:
    """Play a game: the window by default, or a headless bot game with --headless."""
    from skirmish.cli.play_cmds import play

    play(
        scenario,
        troupe or [],
        seed,
        bots,
        headless,
        turns,
        replay_out,
        screenshot,
        option or [],
        json_out,
        seats=seats,
    )


@app.command("replay")
def replay_cmd(
    file: Annotated[str, typer.Argument(help="A replay or save file (JSON).")],
    verify: Annotated[
        bool, typer.Option("--verify", help="Re-simulate; exit 0 only if it reaches the recorded hash.")
    ] = False,
    headless: Annotated[bool, typer.Option("--headless", help="No window: print the game's log.")] = False,
    screenshot: Annotated[
        str | None, typer.Option("--screenshot", help="Save the final board as a PNG.")
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="With --verify: print the verdict as one JSON object.")
    ] = False,
) -> None:
    """View a replay (step forward and back), or verify that it re-simulates exactly."""
    from skirmish.cli.play_cmds import replay

    replay(file, verify, headless, screenshot, json_out)


@app.command("board")
def board_cmd(
    scenario: Annotated[str, typer.Argument(help="Scenario name or file.")] = "open_battle",
    png: Annotated[str, typer.Option("--png", help="Where to save the picture (PNG).")] = "board.png",
    sight: Annotated[bool, typer.Option("--sight/--no-sight", help="Sample bases and sight lines.")] = True,
) -> None:
    """Draw a scenario's table to a PNG: terrain by cover, zones, sample bases and sight lines."""
    from skirmish.cli.board_cmd import board

    board(scenario, png, sight)


@app.command("test-troupes")
def test_troupes_cmd(
    troupes: Annotated[
        list[str], typer.Argument(help="Troupes A and B (names or files); with --round-robin, 2 or more.")
    ],
    scenario: Annotated[
        str | None, typer.Option("--scenario", help="Scenario name or file (default open_battle).")
    ] = None,
    games: Annotated[
        int, typer.Option("--games", help="Games per matchup (the most, with --stop-width).")
    ] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Run seed: game i uses derive_seed(seed, i).")] = 1,
    workers: Annotated[
        str | None, typer.Option("--workers", help="Worker processes (default: the cores).")
    ] = None,
    executor: Annotated[
        Executor, typer.Option("--executor", help="local (processes) or dask.")
    ] = Executor.local,
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="Dask scheduler address (default: a local cluster).")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    csv_out: Annotated[str | None, typer.Option("--csv", help="Write one row per game here.")] = None,
    plot_out: Annotated[
        str | None, typer.Option("--plot", help="Write a PNG of the run here (needs matplotlib).")
    ] = None,
    compare: Annotated[
        str | None, typer.Option("--compare", help="A variant of A, played against B on the same seeds.")
    ] = None,
    round_robin: Annotated[
        bool, typer.Option("--round-robin", help="Play every pair of the troupes given.")
    ] = False,
    stop_width: Annotated[
        float | None, typer.Option("--stop-width", help="Stop once the 95% interval is narrower than this.")
    ] = None,
    batch: Annotated[
        int | None, typer.Option("--batch", help="Games per task (default from --games).")
    ] = None,
    turns: Annotated[int | None, typer.Option("--turns", help="Override the scenario's turn limit.")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", help="Rule option KEY=VALUE.")] = None,
    bots: Annotated[
        str,
        typer.Option("--bots", metavar=POLICY_METAVAR, help=f"Bot policy for every seat: {_POLICY_HELP}."),
    ] = DEFAULT,
    bots_a: Annotated[
        str | None,
        typer.Option("--bots-a", metavar=POLICY_METAVAR, help="Bot of troupe A's side (default --bots)."),
    ] = None,
    bots_b: Annotated[
        str | None,
        typer.Option("--bots-b", metavar=POLICY_METAVAR, help="Bot of troupe B's side (default --bots)."),
    ] = None,
    compare_bots: Annotated[
        str | None,
        typer.Option(
            "--compare-bots",
            metavar=POLICY_METAVAR,
            help="Also play A v B with these bots on every seat, same seeds (paired).",
        ),
    ] = None,
    save_replays: Annotated[
        str | None, typer.Option("--save-replays", help="Write every game's replay into this folder.")
    ] = None,
    resume: Annotated[
        str | None,
        typer.Option(
            "--resume",
            help="Results file (JSONL) kept as the run goes; if it holds an interrupted run of the "
            "same command, only the games it lacks are played.",
        ),
    ] = None,
) -> None:
    """Troupe testing: N bot games of A v B, sides swapped every other game, with honest statistics."""
    from skirmish.cli.sim_cmds import run_test_troupes

    run_test_troupes(
        troupes,
        scenario,
        games,
        seed,
        workers,
        executor.value,
        scheduler,
        json_out,
        csv_out,
        plot_out,
        compare,
        round_robin,
        stop_width,
        batch,
        turns,
        option or [],
        bots,
        save_replays,
        resume,
        bots_a,
        bots_b,
        compare_bots,
    )


@app.command("campaign")
def campaign_cmd(
    action: Annotated[
        str | None, typer.Argument(help="status, play, reset or test; none: how to play, then the status.")
    ] = None,
    file: Annotated[
        str | None, typer.Option("--file", help="Save file (default: campaign.json in the data folder).")
    ] = None,
    campaign: Annotated[str, typer.Option("--campaign", help="Campaign name or file.")] = "aangs_destiny",
    bots: Annotated[
        str | None,
        typer.Option("--bots", metavar=POLICY_METAVAR, help=f"Heroes played by this bot: {_POLICY_HELP}."),
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the chapter's game.")] = None,
    headless: Annotated[bool, typer.Option("--headless", help="No window; bots play.")] = False,
    replay_out: Annotated[str | None, typer.Option("--replay", help="Write the replay here.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="status/test: one JSON object.")] = False,
    games: Annotated[int | None, typer.Option("--games", help="test: bot games per Box (100).")] = None,
    workers: Annotated[int | None, typer.Option("--workers", help="test: worker processes.")] = None,
) -> None:
    """The Pursuit as a campaign of seven Boxes, saved; a win opens the next, a loss resets it."""
    from skirmish.cli.campaign_cmd import campaign as run_campaign

    if action is None:  # `skirmish campaign` alone: say how to play before where the campaign stands
        if not json_out:
            print(CAMPAIGN_HOWTO)
        action = "status"
    run_campaign(
        action,
        file,
        campaign,
        bots,
        seed,
        headless,
        replay_out,
        json_out=json_out,
        games=games,
        workers=workers,
    )


CAMPAIGN_HOWTO = """How to play the campaign: the Pursuit, Box after Box (seven Boxes, as Aang's Destiny's).
  skirmish campaign play             play the next Box (the window; --headless lets bots play)
  skirmish campaign play --bots      bots play the heroes too (watch, or test a Box)
  skirmish campaign status           where the campaign stands (Box, what carried over, attempts)
  skirmish campaign reset            start again at Box 1
  skirmish campaign test --json      bot games of every Box: each Box's hero win rate
A win opens the next Box and carries the heroes' gains over; a loss resets the Box to play again.
The save is campaign.json in your data folder (`skirmish list folders`; --file elsewhere);
--campaign picks another campaign.
"""


@app.command("what-if")
def what_if_cmd(
    replay: Annotated[str, typer.Argument(help="A replay or save file (JSON).")],
    at: Annotated[str, typer.Option("--at", help="Re-play from the position after this many actions.")],
    games: Annotated[str, typer.Option("--games", help="How many endings to re-play.")] = "200",
    seed: Annotated[str, typer.Option("--seed", help="Run seed: ending i rolls derive_seed(seed, i).")] = "1",
    workers: Annotated[
        str | None, typer.Option("--workers", help="Worker processes (default: the cores).")
    ] = None,
    bots: Annotated[
        str,
        typer.Option("--bots", metavar=POLICY_METAVAR, help=f"Bot policy for every seat: {_POLICY_HELP}."),
    ] = DEFAULT,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Re-play the rest of a game N times with bots and fresh dice: the outcome distribution with
    its 95% interval, next to what really happened (was it the dice or the plan?)."""
    from skirmish.cli.whatif_cmd import what_if

    what_if(replay, at, games, seed, workers, bots, json_out)


def _bots_flag(argv: list[str]) -> list[str]:
    """`--bots` may stand alone (meaning heuristic): give it its default value before parsing.

    The next argument is the policy unless it starts with `-` or is clearly a positional argument:
    an existing file, a shipped scenario name, and for `test-troupes` a shipped troupe name, for
    `campaign` an action. So `--bots nonsense` is reported as an unknown policy, and
    `--bots open_battle` still means the heuristic bot on that scenario.
    """
    if not argv or argv[0] not in ("play", "test-troupes", "campaign"):
        return argv
    out: list[str] = []
    for i, arg in enumerate(argv):
        out.append(arg)
        if arg == "--bots" and (i + 1 >= len(argv) or _positional(argv[0], argv[i + 1])):
            out.append(DEFAULT)
    return out


def _positional(command: str, arg: str) -> bool:
    """Whether `arg`, just after a bare `--bots`, is not a policy but the command's next argument."""
    import os

    from skirmish.cli.play_cmds import POLICIES

    if arg in POLICIES:
        return False
    if arg.startswith("-"):
        return True
    if arg and os.path.exists(arg):
        return True
    if command == "campaign":
        from skirmish.cli.campaign_cmd import ACTIONS

        return arg in ACTIONS
    from skirmish.data.catalogue import shipped

    names = {p.stem for p in shipped("scenarios")}
    if command == "test-troupes":
        names |= {p.stem for p in shipped("troupes")}
    return arg in names


def _click_error(exc: Exception) -> None:
    """Typer's (vendored) click errors, recognised by class name: usage errors are one line, exit 2."""
    names = {c.__name__ for c in type(exc).__mro__}
    if "NoArgsIsHelpError" in names:
        ctx = getattr(exc, "ctx", None)
        print(ctx.get_help() if ctx is not None else str(exc))
        raise SystemExit(0) from None
    if "BadParameter" in names and _choice_problem(exc):
        return
    if "UsageError" in names or "BadParameter" in names:
        ctx = getattr(exc, "ctx", None)
        path = ctx.command_path.removeprefix("skirmish").strip() if ctx is not None else ""
        where = f"{path}: " if path else ""
        fail(where + exc.format_message().replace("\n", " "), code=2)  # type: ignore[attr-defined]
    if "ClickException" in names:
        fail(exc.format_message(), code=getattr(exc, "exit_code", 1))  # type: ignore[attr-defined]
    if "Abort" in names:
        fail("aborted", code=130)
    raise exc


def _choice_problem(exc: Exception) -> bool:
    """A value outside an Enum's choices, said the project's way: `--bots x: unknown policy (choose
    heuristic, random)`, exit 2. Read from click's message (`'x' is not one of 'a', 'b'`), which
    every supported typer/click version words alike."""
    import re

    m = re.search(r"'([^']*)' is not one of (.+?)\.?$", exc.format_message())  # type: ignore[attr-defined]
    param = getattr(exc, "param", None)
    if m is None or param is None:
        return False
    opts = getattr(param, "opts", None) or []
    if getattr(param, "param_type_name", "") == "option" and opts:
        flag = max(opts, key=len)
    else:
        flag = str(getattr(param, "metavar", None) or getattr(param, "name", "") or "").upper() or "KIND"
    names = ", ".join(re.findall(r"'(.*?)'", m.group(2)))
    fail(f"{flag} {m.group(1)}: unknown {CHOICE_WORDS.get(flag, 'value')} (choose {names})", code=2)
    return True


def _run(argv: list[str]) -> None:
    from skirmish.data.errors import DataError

    try:
        code = app(args=argv, prog_name="skirmish", standalone_mode=False)
        # Like click's standalone mode, always end with SystemExit carrying the exit code.
        raise SystemExit(code if isinstance(code, int) else 0)
    except (UsageProblem, DataError, SystemExit, KeyboardInterrupt):
        raise
    except Exception as exc:
        _click_error(exc)


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


def main(argv: list[str] | None = None) -> None:
    """Run the command; bad input exits 2 with one line per problem, a crash exits 1 in one line.

    A closed stdout (a pager or `head` that stopped reading) is a normal end: exit 0, no message.
    """
    before = _stdout_identity()
    try:
        _main(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
        raise SystemExit(0) from None
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
        fail("interrupted", code=130)
    except (SystemExit, BrokenPipeError):
        raise
    except Exception as exc:  # noqa: BLE001 - the contract: an internal error is one line, exit 1
        fail(f"internal error: {type(exc).__name__}: {exc}", code=1)


if __name__ == "__main__":
    main(sys.argv[1:])
