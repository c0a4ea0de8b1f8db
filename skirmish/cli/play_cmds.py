"""`skirmish play` and `skirmish replay`: headless games, replays, verification, screenshots."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from skirmish.cli.errors import UsageProblem
from skirmish.data.catalogue import DEFAULT_SCENARIO, find_scenario, find_troupe
from skirmish.data.errors import DataError, Problem
from skirmish.data.options import RuleOptions

POLICIES = ("heuristic", "random")


def parse_options(pairs: list[str], base: RuleOptions) -> RuleOptions:
    """`--option KEY=VALUE` pairs applied to the scenario's options, each checked like a file field."""
    overrides: dict[str, object] = {}
    for pair in pairs:
        if "=" not in pair:
            raise UsageProblem(f"--option {pair}: write KEY=VALUE, e.g. premeasure=true")
        key, value = (x.strip() for x in pair.split("=", 1))
        if key not in RuleOptions.model_fields:
            known = ", ".join(RuleOptions.model_fields)
            raise UsageProblem(f"--option {pair}: unknown option `{key}` (known: {known})")
        low = value.lower()
        parsed: object
        if low in ("true", "yes", "on", "1") and RuleOptions.model_fields[key].annotation is bool:
            parsed = True
        elif low in ("false", "no", "off", "0") and RuleOptions.model_fields[key].annotation is bool:
            parsed = False
        else:
            try:
                parsed = int(value)
            except ValueError:
                parsed = value
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


def setup(scenario_arg: str | None, troupe_args: list[str], turns: int | None, option_args: list[str]):
    """Load the scenario, troupes and options named on the command line."""
    from skirmish.data.building import building_problems

    scenario = find_scenario(scenario_arg or DEFAULT_SCENARIO)
    if turns is not None:
        if not 1 <= turns <= 50:
            raise UsageProblem(f"--turns {turns}: choose 1 to 50 turns")
        scenario = scenario.model_copy(update={"turns": turns})
    if len(troupe_args) > len(scenario.sides):
        raise UsageProblem(
            f"--troupe: scenario `{scenario.name}` has {len(scenario.sides)} sides but "
            f"{len(troupe_args)} troupes were given"
        )
    troupes = []
    problems: list[Problem] = []
    for i, side in enumerate(scenario.sides):
        arg = troupe_args[i] if i < len(troupe_args) else side.troupe
        if arg is None:
            raise UsageProblem(
                f"--troupe: side `{side.name}` of `{scenario.name}` has no default troupe; give one"
            )
        try:
            troupe = find_troupe(arg)
        except DataError as exc:
            problems.extend(exc.problems)
            continue
        if i < len(troupe_args):
            problems.extend(building_problems(troupe, arg, scenario.points_limit))
        troupes.append(troupe)
    if problems:
        raise DataError(problems)
    options = parse_options(option_args, scenario.options)
    return scenario, troupes, options


def print_result(game) -> None:
    r = game.result()
    s = game.state
    winner = (
        "draw" if s.winning_team is None else ", ".join(p.name for p in s.players if p.team == s.winning_team)
    )
    print(f"Scenario: {game.scenario.title} (seed {game.seed})")
    print(f"Result: {winner} — {s.result_reason}")
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
) -> None:
    from skirmish.bots.runner import play_out, seat_bots
    from skirmish.engine.game import Game
    from skirmish.engine.replay import save_game

    if seed < 0:
        raise UsageProblem(f"--seed {seed}: the seed is a whole number >= 0")
    if bots is not None and bots not in POLICIES:
        raise UsageProblem(f"--bots {bots}: unknown policy (choose {', '.join(POLICIES)})")
    for out, flag in ((replay_out, "--replay"), (screenshot, "--screenshot")):
        if out is not None:
            parent = Path(out).resolve().parent
            if not parent.is_dir():
                raise UsageProblem(f"{flag} {out}: folder {parent} does not exist")
    scenario, troupes, options = setup(scenario_arg, troupe_args, turns, option_args)
    if not headless and not has_display():
        print(
            "skirmish: no display found — playing a headless bot game instead (use --headless to say so)",
            file=sys.stderr,
        )
        headless = True
    if not headless:
        from skirmish.ui.app import run_play

        run_play(
            scenario, troupes, options, seed=seed, bots=bots, replay_out=replay_out, screenshot=screenshot
        )
        return
    policies = [bots or side.bot or "heuristic" for side in scenario.sides]
    game = Game(scenario, troupes, seed=seed, options=options, bots=policies)
    play_out(game, seat_bots(game, policies))
    print_result(game)
    if replay_out:
        save_game(game, replay_out)
        print(f"Replay written to {replay_out}")
    if screenshot:
        save_screenshot(game, screenshot)
        print(f"Screenshot written to {screenshot}")


def save_screenshot(game, path: str) -> None:
    from skirmish.ui.snapshot import save_game_png

    save_game_png(game, path)


def replay(file: str, verify: bool, headless: bool, screenshot: str | None) -> None:
    from skirmish.engine.replay import load_replay
    from skirmish.engine.replay import verify as verify_replay

    rep = load_replay(file)
    if screenshot is not None and not Path(screenshot).resolve().parent.is_dir():
        raise UsageProblem(f"--screenshot {screenshot}: folder does not exist")
    if verify:
        ok, reached = verify_replay(rep)
        if not ok:
            recorded = rep.final_hash or "(none recorded)"
            raise DataError(
                [
                    Problem(
                        file,
                        "final_hash",
                        f"re-simulation reached {reached[:16]}…, not the recorded "
                        f"{recorded[:16]}… — the replay does not reproduce",
                    )
                ]
            )
        print(f"{file}: verified — {len(rep.actions)} actions reach the recorded state {reached[:16]}…")
        if screenshot:
            save_screenshot(rep.play(record_log=False), screenshot)
        return
    if headless or not has_display():
        game = rep.play()
        for e in game.log:
            print(f"[turn {e.turn} {e.step}] {e.text}")
        print_result(game)
        if screenshot:
            save_screenshot(game, screenshot)
        return
    from skirmish.ui.app import run_replay

    run_replay(rep, screenshot=screenshot)
