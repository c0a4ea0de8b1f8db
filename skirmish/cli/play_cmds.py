"""`skirmish play` and `skirmish replay`: headless games, replays, verification, screenshots."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import typing
from collections.abc import Iterator

from skirmish.bots.registry import DEFAULT, NAMED
from skirmish.cli.errors import (
    UsageProblem,
    clip,
    distinct_outputs,
    output_path,
    printable,
    read_path,
    write_output,
    write_rendered,
)
from skirmish.cli.numbers import WHOLE_WORDS, is_whole
from skirmish.data.catalogue import DEFAULT_SCENARIO, find_troupe, resolve
from skirmish.data.errors import DataError, Problem
from skirmish.data.options import RuleOptions

POLICIES = tuple(NAMED)
"""The shipped bot policies (`skirmish.bots.registry` lists them; plugins and module:Class work too)."""


def policy_problem(flag: str, value: str) -> str | None:
    """What is wrong with one bot policy given to `flag`, in one line, or None if it names a bot."""
    from skirmish.bots.registry import check, describe, is_import_path

    if value in POLICIES:
        return None
    problem = check(value)
    if problem is None:
        return None
    if is_import_path(value):
        return f"{flag} {value}: {problem.split(': ', 1)[-1]}"
    return f"{flag} {value}: unknown policy (choose {describe()})"


def policy_problems(flag: str, value: str) -> list[str]:
    """What is wrong with each policy of a comma-separated `flag` value, one line per distinct
    problem: `--bots x,x` (or `,`) is one unknown policy, not two lines alike."""
    found = (policy_problem(flag, part.strip()) for part in value.split(","))
    return [p for p in dict.fromkeys(found) if p is not None]


def seat_policies(flag: str, value: str, sides: int) -> list[str]:
    """One policy for every side (`heuristic`), or one per side in side order (`heuristic,random`)."""
    parts = [p.strip() for p in value.split(",")]
    if len(parts) not in (1, sides):
        raise UsageProblem(f"{flag} {value}: give one policy for every side, or one per side ({sides})")
    problems = policy_problems(flag, value)
    if problems:
        raise UsageProblem(*problems)
    return parts * sides if len(parts) == 1 else parts


def parse_options(pairs: list[str], base: RuleOptions) -> RuleOptions:
    """`--option KEY=VALUE` pairs applied to the scenario's options, each checked like a file field
    (and, like a file's key, one option may not be given twice with different values)."""
    overrides: dict[str, object] = {}
    for pair in pairs:
        if "=" not in pair:
            raise UsageProblem(f"--option {pair}: write KEY=VALUE, e.g. premeasure=true")
        key, value = (x.strip() for x in pair.split("=", 1))
        if not key:
            raise UsageProblem(
                f"--option {clip(pair, 60)}: the key is empty; write KEY=VALUE, e.g. premeasure=true"
            )
        if key not in RuleOptions.model_fields:
            known = ", ".join(RuleOptions.model_fields)
            raise UsageProblem(f"--option {pair}: unknown option `{key}` (known: {known})")
        low = value.lower()
        parsed: object
        if low in ("true", "yes", "on", "1") and RuleOptions.model_fields[key].annotation is bool:
            parsed = True
        elif low in ("false", "no", "off", "0") and RuleOptions.model_fields[key].annotation is bool:
            parsed = False
        elif is_whole(value):
            parsed = int(value)
        elif int in typing.get_args(RuleOptions.model_fields[key].annotation):
            # ASCII digits only (`cli.numbers`): `ko_points=５` or `=1_0`, which int() and the
            # lax model check read, is no number.
            raise UsageProblem(f"--option {clip(pair, 60)}: `{key}` is {WHOLE_WORDS}")
        else:
            parsed = value
        if key in overrides and overrides[key] != parsed:
            # As a key given twice in a file: which one was meant cannot be told.
            raise UsageProblem(f"--option {key}: given twice with different values; give it once")
        overrides[key] = parsed
    try:
        return base.with_overrides(overrides)
    except Exception as exc:  # pydantic ValidationError: name the option
        from pydantic import ValidationError

        if isinstance(exc, ValidationError):
            lines = [f"--option {e['loc'][0]}: {e['msg']}" for e in exc.errors(include_url=False)]
            raise UsageProblem(*lines) from None
        raise


def has_display() -> bool:
    if os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen"):
        return False
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def scenario_source(scenario_arg: str | None, flag: str = "SCENARIO") -> str:
    """The scenario file a name-or-path argument stands for (how problems in it are named)."""
    if scenario_arg is not None and not scenario_arg.strip():
        raise UsageProblem(f"{flag}: the scenario name is empty; give a name or a file")
    return str(resolve("scenarios", scenario_arg if scenario_arg is not None else DEFAULT_SCENARIO))


def load_scenario_arg(scenario_arg: str | None, flag: str = "SCENARIO"):
    """The scenario named on the command line, and the file it came from."""
    from skirmish.data.loader import load_scenario

    source = scenario_source(scenario_arg, flag)
    return load_scenario(source), source


def load_troupes(scenario, source: str, troupe_args: list[str], check_building: bool = True) -> list:
    """One troupe per side: the `--troupe` given for it, else the scenario's default.

    A default that cannot be found is a problem of the scenario file (`sides[i].troupe`), not of a flag.
    """
    from skirmish.data.building import building_problems

    troupes = []
    problems: list[Problem] = []
    for i, side in enumerate(scenario.sides):
        given = i < len(troupe_args)
        arg = troupe_args[i] if given else side.troupe
        if arg is None:
            raise UsageProblem(
                f"--troupe: side `{side.name}` of `{scenario.name}` has no default troupe; give one"
            )
        if given and not arg.strip():
            raise UsageProblem(f"--troupe: troupe {i + 1} is empty; give a name or a file")
        try:
            troupe = find_troupe(arg)
        except DataError as exc:
            if given:
                problems.extend(exc.problems)
            else:
                problems.extend(
                    Problem(source, f"sides[{i}].troupe", f"`{arg}`: {p.message}") for p in exc.problems
                )
            continue
        if given and check_building:
            problems.extend(building_problems(troupe, arg, scenario.points_limit))
        troupes.append(troupe)
    if problems:
        raise DataError(problems)
    return troupes


def setup(scenario_arg: str | None, troupe_args: list[str], turns: int | None, option_args: list[str]):
    """Load the scenario, troupes and options named on the command line."""
    scenario, source = load_scenario_arg(scenario_arg)
    if turns is not None:
        if not 1 <= turns <= 50:
            raise UsageProblem(f"--turns {turns}: choose 1 to 50 turns")
        scenario = scenario.model_copy(update={"turns": turns})
    if len(troupe_args) > len(scenario.sides):
        raise UsageProblem(
            f"--troupe: scenario `{scenario.name}` has {len(scenario.sides)} sides but "
            f"{len(troupe_args)} troupes were given"
        )
    troupes = load_troupes(scenario, source, troupe_args)
    options = parse_options(option_args, scenario.options)
    return scenario, troupes, options


def deployment_problem(scenario, source: str, exc: ValueError) -> DataError:
    """auto_deploy's complaint (a zone too small for its troupe) as a problem of the scenario file.

    The message names the side (`deployment zone of fire_nation ...`); its zones are named by index.
    """
    import re

    field = "deployment"
    m = re.search(r"deployment zone of (\S+)", str(exc))
    if m is not None:
        sides = [i for i, side in enumerate(scenario.sides) if side.name == m.group(1)]
        zones = [i for i, z in enumerate(scenario.deployment) if sides and z.player == sides[0]]
        if zones:
            field = ", ".join(f"deployment[{i}]" for i in zones)
    return DataError([Problem(source, field, f"{exc} (make the zone larger or the troupe smaller)")])


def new_game(scenario, troupes: list, source: str, *, given: list[str | None] | None = None, **kwargs):
    """A `Game`, with a deployment zone too small for its troupe reported as bad input (exit 2).

    `given` is, side by side, the argument that named each troupe (None: the scenario's default):
    a problem only the given troupes cause is said to be theirs (`troupe_blame`).
    """
    from skirmish.data.loader import game_size_problems
    from skirmish.engine.game import Game

    too_big = game_size_problems(troupes, source)
    if too_big:
        raise DataError(too_big)
    try:
        return Game(scenario, troupes, **kwargs)
    except DataError as exc:
        blamed = troupe_blame(scenario, troupes, given, exc.problems, kwargs)
        # The scenario rules name problems of `special.*` by the scenario's name: name its file.
        raise DataError(
            blamed
            or [
                Problem(source if p.file == scenario.name else p.file, p.field, p.message)
                for p in exc.problems
            ]
        ) from None
    except ValueError as exc:
        if "deployment zone" not in str(exc):
            raise
        raise deployment_problem(scenario, source, exc) from None


def troupe_blame(
    scenario, troupes: list, given: list[str | None] | None, problems: list[Problem], kwargs: dict
) -> list[Problem]:
    """The `problems` a game of `troupes` met, said as the given troupes' own when the scenario plays
    with its default troupes: `--troupe zuko_hunting_party` on the escorted side, or the heroes given
    as the Pursuit's adversaries, blamed `special.*` of a scenario file that is fine.

    One line per troupe at fault (those whose side, given its default troupe back, loses problems),
    naming the argument and the side, with the first of its problems and how many more. Empty (the
    scenario's own lines stand) when no troupe was given, a side given has no default to compare
    with, the scenario fails with its own troupes too, or no one troupe is at fault.
    """
    from skirmish.data.catalogue import find_troupe
    from skirmish.engine.game import Game

    if not given or all(arg is None for arg in given) or len(troupes) != len(scenario.sides):
        return []
    try:
        defaults = [find_troupe(side.troupe) if side.troupe else None for side in scenario.sides]
    except DataError:
        return []
    if any(d is None for i, d in enumerate(defaults) if i < len(given) and given[i] is not None):
        return []

    def met(trial: list) -> set[Problem] | None:
        try:
            Game(scenario, trial, **kwargs)
        except DataError as exc:
            return set(exc.problems)
        except ValueError:  # a deployment zone too small: not a comparison this can make
            return None
        return set()

    own = [d if d is not None else t for d, t in zip(defaults, troupes, strict=True)]
    if met(own) != set():
        return []
    out: list[Problem] = []
    for i, arg in enumerate(given):
        if arg is None or i >= len(troupes):
            continue
        trial = list(troupes)
        trial[i] = defaults[i]
        left = met(trial)
        theirs = [p for p in problems if left is not None and p not in left]
        if theirs:
            more = f" (and {len(theirs) - 1} more)" if len(theirs) > 1 else ""
            first = theirs[0]
            where = f"{first.field}: " if first.field else ""
            out.append(
                Problem(
                    arg,
                    "",
                    f"cannot play side `{scenario.sides[i].name}` of `{scenario.name}`: "
                    f"{where}{first.message}{more}",
                )
            )
    return out


def result_json(game, written: dict[str, str | None] | None = None) -> dict:
    """A finished (or stopped) game as one JSON object: `play --headless --json` (docs/json.md)."""
    r = game.result()
    s = game.state
    out = {
        "scenario": game.scenario.name,
        "title": game.scenario.title,
        "seed": game.seed,
        "over": r["over"],
        "draw": r["over"] and s.winning_team is None,
        "winners": r["winners"],
        "reason": r["reason"],
        "turns": r["turns"],
        "battle_points": r["battle_points"],
        "battle_points_per_turn": r["battle_points_per_turn"],
        "kos": r["kos"],
        "models_left": r["models_left"],
        "actions": len(game.history),
        "final_hash": game.hash(),
    }
    out.update(written or {})
    return out


def said_written(what: str, path: str | os.PathLike[str], json_out: bool = False) -> str:
    """Say where a file was written (absolute, so a relative name or a default folder is plain);
    on stderr when stdout carries JSON."""
    full = os.path.abspath(path)
    print(f"{what} written to {printable(full)}", file=sys.stderr if json_out else sys.stdout)
    return full


def print_result(game) -> None:
    r = game.result()
    s = game.state
    winner = (
        "draw" if s.winning_team is None else ", ".join(p.name for p in s.players if p.team == s.winning_team)
    )
    reason = s.result_reason
    if not game.over:  # a save of a game in progress (`replay SAVE --headless`): no result yet
        winner, reason = "unfinished", f"the game stops in turn {s.turn}, {s.phase} phase, step {s.step}"
    print(f"Scenario: {game.scenario.title} (seed {game.seed})")
    print(f"Result: {winner} — {reason}")
    print(f"Turns: {r['turns']}")
    print(
        "Battle Points: "
        + ", ".join(
            f"{k} {v} (per turn {r['battle_points_per_turn'][k]})" for k, v in r["battle_points"].items()
        )
    )
    print("KOs made: " + ", ".join(f"{k} {v}" for k, v in r["kos"].items()))
    print("Models left: " + ", ".join(f"{k} {v}" for k, v in r["models_left"].items()))


def play(
    scenario_arg: str | None,
    troupe_args: list[str],
    seed: int,
    bots: str | None,
    headless: bool,
    turns: int | None,
    replay_out: str | None,
    screenshot: str | None,
    option_args: list[str],
    json_out: bool = False,
    *,
    seats: int | None = None,
) -> None:
    from skirmish.bots.runner import play_out, seat_bots

    if seed < 0:
        raise UsageProblem(f"--seed {seed}: the seed is a whole number >= 0")
    if bots is not None:
        problems = policy_problems("--bots", bots)
        if problems:
            raise UsageProblem(*problems)
    if replay_out is not None:
        output_path(replay_out, "--replay")
    if screenshot is not None:
        output_path(screenshot, "--screenshot", ".png")
    read = {"SCENARIO": read_path("scenarios", scenario_arg or DEFAULT_SCENARIO)}
    read |= {f"--troupe {t}": read_path("troupes", t) for t in troupe_args}
    distinct_outputs({"--replay": replay_out, "--screenshot": screenshot}, inputs=read)
    scenario, troupes, options = setup(scenario_arg, troupe_args, turns, option_args)
    source = scenario_source(scenario_arg)
    if seats is not None:
        check_seats(scenario, troupes, seats)
    if not headless and not has_display():
        print(
            "skirmish: no display found — playing a headless bot game instead (use --headless to say so)",
            file=sys.stderr,
        )
        headless = True
    per_side = seat_policies("--bots", bots, len(scenario.sides)) if bots is not None else None
    if not headless and bots is not None and "," in bots:
        raise UsageProblem(f"--bots {bots}: one policy per side works with --headless (the window seats one)")
    if json_out and not headless:
        raise UsageProblem("--json: only with --headless (a window game prints nothing)")
    if not headless:
        from skirmish.ui.app import run_play

        run_play(
            scenario,
            troupes,
            options,
            seed=seed,
            bots=bots,
            replay_out=replay_out,
            screenshot=screenshot,
            seats=seats or 1,
        )
        return
    policies = per_side or [side.bot or DEFAULT for side in scenario.sides]
    given: list[str | None] = [*troupe_args, *[None] * (len(scenario.sides) - len(troupe_args))]
    game = new_game(scenario, troupes, source, given=given, seed=seed, options=options, bots=policies)
    with plugin_moves_checked({"--bots": bots}):
        play_out(game, seat_bots(game, policies))
    # Every file first, then the words: a reader that stops reading (`| head -1`) ends the command
    # quietly at the first print, and must not cost the files it asked for.
    written: dict[str, str | None] = {"replay": None, "screenshot": None}
    if replay_out:
        save_replay(game, replay_out, "--replay")
        written["replay"] = os.path.abspath(replay_out)
    if screenshot:
        save_screenshot(game, screenshot)
        written["screenshot"] = os.path.abspath(screenshot)
    if not json_out:
        print_result(game)
    for what, key in (("Replay", "replay"), ("Screenshot", "screenshot")):
        if written[key]:
            said_written(what, written[key] or "", json_out)
    if json_out:
        print(json.dumps(result_json(game, written), indent=2, ensure_ascii=False))


@contextlib.contextmanager
def plugin_moves_checked(policies: dict[str, str | None]) -> Iterator[None]:
    """A move the engine refuses from a bot of the user's own (`--bots mypkg:MyBot`) is bad input
    naming the flag and the bot (exit 2), not an internal error: the shipped bots only choose what
    the engine offers, so a refusal from one of them is still a bug (exit 1). `policies` maps each
    flag to the policies it gave (comma-separated for one per side)."""
    from skirmish.engine.core.errors import IllegalAction

    try:
        yield
    except IllegalAction as exc:
        own = [
            (flag, value)
            for flag, value in policies.items()
            if value is not None and any(p.strip() not in POLICIES for p in value.split(","))
        ]
        if not own:
            raise
        named = "; ".join(f"{flag} {value}" for flag, value in own)
        raise UsageProblem(f"{named}: the bot chose a move the rules refuse ({exc})") from None


def check_seats(scenario, troupes, seats: int) -> None:
    """`--seats N`: only for a co-operative scenario (the Pursuit), 1-4 and no more than its heroes."""
    from skirmish.data.scenario import Victory

    if scenario.victory is not Victory.pursuit:
        raise UsageProblem(f"--seats {seats}: only the Pursuit is co-operative (`{scenario.name}` is not)")
    side = next(i for i, s in enumerate(scenario.sides) if s.name == scenario.special.get("hero_side"))
    heroes = sum(e.count for e in troupes[side].models)
    if not 1 <= seats <= min(4, heroes):
        raise UsageProblem(f"--seats {seats}: give 1 to {min(4, heroes)} (one or more heroes each)")


def save_replay(game, path: str, flag: str) -> None:
    """Write the game's replay; a path that cannot be written is exit 2 naming `flag`."""
    from skirmish.engine.replay import dumps

    write_output(path, flag, dumps(game))


def save_screenshot(game, path: str, flag: str = "--screenshot") -> None:
    """The final board as a PNG (always PNG, whatever the renderer would guess from the name)."""
    from skirmish.ui.snapshot import save_game_png

    write_rendered(path, flag, lambda tmp: save_game_png(game, tmp))


def replay(file: str, verify: bool, headless: bool, screenshot: str | None, json_out: bool = False) -> None:
    from skirmish.engine.replay import load_replay, verify_problems

    if not file.strip():
        raise UsageProblem("FILE: the replay path is empty; give a replay file")
    if json_out and not verify:
        raise UsageProblem("--json: only with --verify")
    if screenshot is not None:
        output_path(screenshot, "--screenshot", ".png")
        distinct_outputs({"--screenshot": screenshot}, inputs={"FILE": file})
    if verify and json_out:
        _verify_json(file, screenshot)
        return
    rep = load_replay(file)
    if verify:
        problems = verify_problems(rep)
        if problems:
            raise DataError(problems)
        recorded = (rep.final_hash or "")[:16]
        checked = "digest and " if rep.digest is not None else ""
        if screenshot:  # written before anything is printed, as `play` does
            save_screenshot(play_replay(rep, record_log=False), screenshot)
        print(
            f"{printable(file)}: verified — {checked}{len(rep.actions)} actions reach the recorded "
            f"state {recorded}…"
        )
        if screenshot:
            said_written("Screenshot", screenshot)
        return
    if headless or not has_display():
        game = play_replay(rep)
        if screenshot:
            save_screenshot(game, screenshot)
        for e in game.log:
            print(f"[turn {e.turn} {e.step}] {e.text}")
        print_result(game)
        if screenshot:
            said_written("Screenshot", screenshot)
        return
    from skirmish.ui.app import run_replay

    run_replay(rep, screenshot=screenshot)


def _verify_json(file: str, screenshot: str | None) -> None:
    """`replay --verify --json`: the verdict as one object on stdout, whatever it is; exit 2 when the
    replay does not verify (its problems also on stderr, one a line)."""
    from skirmish.engine.replay import load_replay, verify_problems

    out: dict = {"file": file, "ok": False, "version": None, "digest": False, "actions": None}
    out |= {"final_hash": None, "problems": []}
    try:
        rep = load_replay(file)
        out |= {"version": rep.version, "digest": rep.digest is not None, "actions": len(rep.actions)}
        out["final_hash"] = rep.final_hash
        problems = verify_problems(rep)
    except DataError as exc:
        problems = list(exc.problems)
    out["ok"] = not problems
    out["problems"] = [p.to_json() for p in problems]
    if not problems and screenshot:
        save_screenshot(play_replay(rep, record_log=False), screenshot)
        out["screenshot"] = said_written("Screenshot", screenshot, json_out=True)
    print(json.dumps(out, indent=2, ensure_ascii=False))
    if problems:
        raise DataError(problems)


def play_replay(rep, record_log: bool = True):
    """Re-apply a replay's actions; a table too small for its troupes names the replay's scenario."""
    try:
        return rep.play(record_log=record_log)
    except DataError:
        raise
    except ValueError as exc:
        if "deployment zone" not in str(exc):
            raise
        raise DataError([Problem(rep.name, "scenario.deployment", str(exc))]) from None
