"""`skirmish campaign [status|play|reset|test]`: the Pursuit's Boxes in order, with a save file.

`status` shows the next Box, the rewards carried over and the record;
`play` plays the next Box (bots drive the heroes with `--bots` or `--headless`, else the window
opens) and records the result under the save's lock — a win opens the next Box, a loss resets
this one; `reset` starts again; `test` plays `--games N` bot games of every Box (the heroes
carrying the rewards of the Boxes before it) and reports each Box's hero win rate. With `--json`
every action prints one JSON object on stdout and nothing else (cli.md lists `--json` for all four).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from skirmish.bots.registry import DEFAULT
from skirmish.cli.errors import UsageProblem, clip, distinct_outputs, output_path, printable

T = TypeVar("T")

if TYPE_CHECKING:
    from skirmish.data.scenario import Scenario
    from skirmish.data.troupe import Troupe
    from skirmish.engine.campaign import Campaign, CampaignSave

ACTIONS = ("status", "play", "reset", "test")
MAX_WORKERS = 512
"""As `test-troupes --workers`: a process pool that forks starts every worker at once."""
DEFAULT_SAVE = "skirmish-campaign.json"
MAX_BOX_GAMES = 100_000
"""`campaign test --games`: games a Box at most (seven Boxes a run)."""


def default_save_path(create: bool = True) -> str:
    """`$SKIRMISH_CAMPAIGN_SAVE`, else `campaign.json` in the per-user data folder (never the folder
    the command happens to be started from), whose folder is made unless `create` is false (`status`
    only reads: it made `~/.local/share/skirmish` on a machine that never played)."""
    from skirmish.data.userdirs import data_dir, default_campaign_save

    env = os.environ.get("SKIRMISH_CAMPAIGN_SAVE")
    if env:
        return env
    folder = data_dir()
    try:
        existing = next((p for p in [folder, *folder.parents] if p.exists()), None)
        makeable = existing is None or existing.is_dir()
    except OSError:  # a name the file system refuses (too long): said by trying to make it
        makeable = False
    if create or not makeable:
        return str(default_campaign_save())  # made, or one line saying why it cannot be
    return str(folder / "campaign.json")


def campaign(
    action: str,
    file: str | None,
    campaign_name: str,
    bots: str | None,
    seed: int | None,
    headless: bool,
    replay_out: str | None,
    *,
    json_out: bool = False,
    games: int | None = None,
    workers: int | None = None,
) -> None:
    from skirmish.cli.play_cmds import policy_problem
    from skirmish.engine import campaign as cp

    if action not in ACTIONS:
        raise UsageProblem(f"campaign {action}: choose one of {', '.join(ACTIONS)}")
    problem = policy_problem("--bots", bots) if bots is not None else None
    if problem is not None:
        raise UsageProblem(problem)
    if seed is not None and seed < 0:
        raise UsageProblem(f"--seed {seed}: the seed is a whole number >= 0")
    if not campaign_name.strip():
        raise UsageProblem("--campaign: the name is empty; give a campaign name or file")
    if games is not None and action != "test":
        raise UsageProblem(f"--games: only with `campaign test`, not `campaign {action}`")
    if workers is not None and action != "test":
        raise UsageProblem(f"--workers: only with `campaign test`, not `campaign {action}`")
    if seed is not None and action not in ("play", "test"):  # no game is played: it was ignored
        raise UsageProblem(f"--seed: only with `campaign play` or `campaign test`, not `campaign {action}`")
    # Else a replay asked for is never written, and `test --bots random` reports heuristic games.
    for flag, value in (("--replay", replay_out), ("--bots", bots)):
        if value is not None and action != "play":
            raise UsageProblem(f"{flag}: only with `campaign play`, not `campaign {action}`")
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        # Unbounded, `--workers 100000` forked that many processes at once (a fork pool starts all).
        raise UsageProblem(f"--workers {workers}: choose 1 to {MAX_WORKERS} worker processes")
    if action == "test":
        if games is not None and not 1 <= games <= MAX_BOX_GAMES:
            raise UsageProblem(f"--games {games}: play at least 1 game a Box (at most {MAX_BOX_GAMES:,})")
        _check_campaign_kind(campaign_name)
        camp = cp.load_campaign(campaign_name)
        test_boxes(camp, games or 100, seed if seed is not None else 0, workers, json_out)
        return
    path_arg = file if file is not None else default_save_path(create=action != "status")
    if action == "status":
        if not path_arg.strip():
            raise UsageProblem("--file: the path is empty; give a file name")
        path = Path(path_arg)
        is_dir, parent = _probed("--file", path_arg, lambda: (path.is_dir(), path.resolve().parent))
        parent_missing = not _probed("--file", path_arg, parent.is_dir)
        if is_dir:
            raise UsageProblem(f"--file {path}: is a directory; give a file name")
        if parent_missing and file is not None:  # the data folder not made yet: nothing played
            raise UsageProblem(f"--file {path}: folder {parent} does not exist")
    else:  # play and reset write the save
        path = output_path(path_arg, "--file")
    if replay_out is not None:
        output_path(replay_out, "--replay")
    distinct_outputs(
        {"--file": str(path) if action != "status" else None, "--replay": replay_out},
        inputs={"--campaign": str(cp.campaign_path(campaign_name))},
    )
    _check_campaign_kind(campaign_name)
    camp, heroes = cp.load_campaign_heroes(campaign_name)
    if action == "reset":
        _refuse_other_kinds(path)
        fresh = cp.new_save(camp)
        _write_save(path, fresh)
        if json_out:
            print(json.dumps(status_report(camp, fresh, path), sort_keys=False))
        else:
            print(f"{camp.title}: reset to chapter 1 of {len(camp.chapters)} ({printable(str(path))})")
        return
    save = _read_save(path, camp, heroes)
    if action == "status":
        if json_out:
            print(json.dumps(status_report(camp, save, path), sort_keys=False))
        else:
            print_status(camp, save, path)
        return
    play(
        camp,
        save,
        path,
        bots=bots,
        seed=seed,
        headless=headless,
        replay_out=replay_out,
        json_out=json_out,
        heroes=heroes,
    )


def _probed(flag: str, value: str, probe: Callable[[], T]) -> T:
    """A file-system question about a flag's path; an OSError (a name longer than the file system
    takes, and the like) is one exit-2 line naming the flag, not an internal error."""
    try:
        return probe()
    except OSError as exc:
        why = exc.strerror or exc
        raise UsageProblem(f"{flag} {clip(value, 80)}: cannot use this path ({why})") from None


def _check_campaign_kind(name_or_path: str) -> None:
    """A file given as `--campaign` that is not a campaign (a scenario, a troupe) is one line, not a
    list of every key the campaign format lacks."""
    from skirmish.data.errors import DataError, Problem
    from skirmish.data.loader import parse_toml, read_text
    from skirmish.engine import campaign as cp

    p = cp.campaign_path(name_or_path)
    missing = not _probed("--campaign", name_or_path, p.exists)
    if missing:
        return  # load_campaign names the missing file or the unknown name
    name = str(p)
    data = parse_toml(read_text(p), name)
    if "chapters" not in data:
        kind = "a troupe" if "models" in data else "a scenario" if "sides" in data or "board" in data else ""
        what = f" (it looks like {kind} file)" if kind else ""
        raise DataError([Problem(name, "", f"is not a campaign file: it has no `chapters`{what}")])


def _refuse_other_kinds(path: Path) -> None:
    """`reset` replaces a save, even a damaged one (that is how a campaign starts again), but never a
    file that holds something else: `reset --file r.json` overwrote a replay, `--file mine.toml` a
    troupe, without a word. Such a file (a JSON object of another format, a troupe, scenario or
    campaign TOML file) is bad input naming it."""
    from skirmish.data.errors import DataError
    from skirmish.data.loader import read_text, sniff_json, toml_kind
    from skirmish.engine import campaign as cp

    if not path.is_file():
        return
    try:
        text = read_text(path)
    except DataError:
        return  # unreadable as text (binary, huge): a damaged save, which reset may replace
    sniffed = sniff_json(text)
    found = sniffed.format
    if sniffed.obj is not None and found != cp.SAVE_FORMAT and "chapter" not in sniffed.obj:
        what = f"a {found!r} file" if isinstance(found, str) else "a JSON object that is no campaign save"
    elif not sniffed.is_json and (kind := toml_kind(text)) is not None:
        what = f"{kind} file"
    else:
        return
    raise UsageProblem(
        f"--file {clip(str(path), 120)}: is {what}, not a campaign save; reset would overwrite it "
        "(give a save or a new file)"
    )


def _read_save(path: Path, camp: Campaign, heroes: list[Troupe]) -> CampaignSave:
    """The `--file` save, read once (a fresh one if there is none): a file that holds something
    else (a replay, a troupe) is one line naming its format; a save, strictly read, is checked
    against `camp` and its heroes' troupes."""
    from skirmish.data.errors import DataError, Problem
    from skirmish.data.loader import read_text, sniff_json
    from skirmish.engine import campaign as cp

    if not path.exists():
        return cp.new_save(camp)
    name = str(path)
    text = read_text(path)
    sniffed = sniff_json(text)  # parse_save says what is wrong with JSON that is no object
    if sniffed.obj is not None and sniffed.format != cp.SAVE_FORMAT:
        found = sniffed.format
        extra = f", not {found!r}" if isinstance(found, str) else ""
        raise DataError(
            [Problem(name, "format", f"is not a campaign save (format should be {cp.SAVE_FORMAT!r}{extra})")]
        )
    return cp.check_save(cp.parse_save(text, name), camp, name, heroes)


def _write_save(path: Path, save: CampaignSave) -> None:
    from skirmish.engine import campaign as cp

    try:
        with cp.save_lock(path):
            cp.write_save(path, save)
    except OSError as exc:
        raise UsageProblem(f"--file {path}: cannot write the save ({exc.strerror or exc})") from None


def status_report(camp: Campaign, save: CampaignSave, path: Path) -> dict[str, object]:
    """`campaign status --json`: where the campaign stands, every attempt included."""
    from skirmish.engine import campaign as cp
    from skirmish.engine.scenarios import parse_config

    report: dict[str, object] = {
        "campaign": camp.name,
        "file": str(path),
        "started": path.exists(),
        "boxes": len(camp.chapters),
        "complete": cp.is_complete(camp, save),
        "next_box": None,
        "attempts": save.attempts,
        "rewards": [r.describe() for r in save.rewards],
        "games": len(save.history),
        "won": sum(1 for p in save.history if p.won),
        "history": [p.model_dump(mode="json") for p in save.history],
    }
    if not cp.is_complete(camp, save):
        ch = camp.chapters[save.chapter]
        cfg = parse_config(cp.chapter_scenario(camp, save.chapter))
        report["next_box"] = {
            "box": save.chapter + 1,
            "name": ch.name,
            "title": ch.title,
            "tracking_start": cfg.tracking_start,
            "tracking_length": cfg.tracking_length,
            "objectives": [o.title for o in cfg.objectives],
            "adversaries": list(cfg.stack),
        }
    return report


def test_boxes(camp: Campaign, games: int, seed: int, workers: int | None, json_out: bool) -> None:
    """Bot games of every Box, the heroes carrying the rewards of the Boxes before it (as a player who
    won them would); the heroes' win rate of each with its Wilson 95 % interval."""
    from skirmish.engine import campaign as cp
    from skirmish.rules.dice import derive_seed
    from skirmish.sim.executors import default_workers, make_executor
    from skirmish.sim.games import Matchup, Plan, batches, default_batch_size
    from skirmish.sim.run import run

    n_workers = workers if workers is not None else default_workers()
    size = default_batch_size(games)
    n_workers = min(n_workers, len(batches(games, size)))  # never more than a Box's batches
    boxes = []
    with make_executor("local", n_workers) as ex:
        for i, ch in enumerate(camp.chapters):
            scenario, troupes = cp.box_setup(camp, i, cp.rewards_before(camp, i))
            if not scenario.fixed_roles or cp.hero_side(scenario) != 0:
                raise UsageProblem(f"campaign {camp.name}: the base scenario must fix the heroes on side 0")
            plan = Plan(
                scenario,
                (Matchup(troupes[0], troupes[1], troupes[0].name, troupes[1].name),),
                scenario.options,
                derive_seed(seed, i + 1),
                scenario_arg=camp.scenario,
            )
            result = run(plan, games, ex, batch_size=size, window=max(4, 3 * n_workers))
            t = result.tallies[0]
            lo, hi = t.ci95_a()
            boxes.append(
                {
                    "box": i + 1,
                    "name": ch.name,
                    "games": t.games,
                    "win_rate": t.win_rate_a,
                    "ci95": [lo, hi],
                    "draws": t.draws,
                    "mean_turns": t.turns / max(1, t.games),
                    "end_reasons": dict(sorted(t.reasons.items())),
                }
            )
            if not json_out:
                print(
                    f"Box {i + 1} {ch.title}: heroes won {t.wins_a} of {t.games} "
                    f"({t.win_rate_a:.0%}, 95% CI {lo:.0%}-{hi:.0%}), {t.draws} draw(s)"
                )
    if json_out:
        print(json.dumps({"campaign": camp.name, "seed": seed, "boxes": boxes}, sort_keys=False))


def print_status(camp: Campaign, save: CampaignSave, path: Path) -> None:
    from skirmish.engine import campaign as cp
    from skirmish.engine.scenarios import parse_config

    n = len(camp.chapters)
    print(f"Campaign: {camp.title} ({printable(str(path))}{'' if path.exists() else ', not started'})")
    if cp.is_complete(camp, save):
        print(f"Complete: all {n} chapters won. `skirmish campaign reset` to play again.")
    else:
        ch = camp.chapters[save.chapter]
        scenario = cp.chapter_scenario(camp, save.chapter)
        cfg = parse_config(scenario)
        print(
            f"Next: chapter {save.chapter + 1} of {n}: {ch.title}"
            + (f" (lost {save.attempts} time{'s' if save.attempts != 1 else ''})" if save.attempts else "")
        )
        if ch.description:
            print(f"  {ch.description}")
        print(
            f"  Tracking {cfg.tracking_start} of {cfg.tracking_length}; {scenario.turns} turns; "
            f"{len(cfg.objectives)} objectives, revealed one at a time"
        )
    won = [p for p in save.history if p.won]
    print(f"Carried over: {', '.join(r.describe() for r in save.rewards) if save.rewards else 'nothing yet'}")
    print(f"Games: {len(save.history)} played, {len(won)} won")


def play(
    camp: Campaign,
    save: CampaignSave,
    path: Path,
    *,
    bots: str | None,
    seed: int | None,
    headless: bool,
    replay_out: str | None,
    json_out: bool = False,
    heroes: list[Troupe] | None = None,
) -> None:
    """Play the next Box and record it; with `json_out` the text lines give way to one object
    printed at the end, so stdout is that object alone. `heroes` are the campaign's
    heroes' troupes the recorded save is checked against (`load_campaign_heroes`)."""
    from skirmish.cli.play_cmds import has_display
    from skirmish.engine import campaign as cp

    def say(line: str) -> None:
        if not json_out:
            print(line)

    if cp.is_complete(camp, save):
        raise UsageProblem(
            f"campaign {camp.name}: every chapter is won; `skirmish campaign reset` to start again"
        )
    scenario, troupes = cp.chapter_setup(camp, save)
    game_seed = seed if seed is not None else cp.chapter_seed(save)
    number = save.chapter + 1
    say(
        f"{camp.title}: chapter {number} of {len(camp.chapters)}, {camp.chapters[save.chapter].title} "
        f"(attempt {save.attempts + 1}, seed {game_seed})"
    )
    report: dict[str, object] = {
        "campaign": camp.name,
        "file": str(path),
        "box": number,
        "title": camp.chapters[save.chapter].title,
        "attempt": save.attempts + 1,
        "seed": game_seed,
        "replay": replay_out,
    }
    if not headless and bots is None and not has_display():
        print(
            "skirmish: no display found — the heuristic bot plays the heroes (use --headless to say so)",
            file=sys.stderr,
        )
        headless = True
    result: tuple[bool, str, int] | None
    if headless or bots is not None:
        result = _play_headless(scenario, troupes, game_seed, bots or DEFAULT, replay_out, json_out)
    else:
        result = _play_window(scenario, troupes, game_seed, replay_out)
        if result is None:
            say("The chapter was not played to its end: nothing recorded.")
            if json_out:
                print(json.dumps({**report, "played": False}, sort_keys=False))
            return
    won, reason, turns = result
    played = save.chapter

    def change(fresh: CampaignSave) -> CampaignSave:
        return cp.record(camp, fresh, won=won, seed=game_seed, reason=reason, turns=turns, chapter=played)

    try:
        new = cp.update_save(path, camp, change, heroes)
    except OSError as exc:
        raise UsageProblem(f"--file {path}: cannot write the save ({exc.strerror or exc})") from None
    if json_out:
        complete = cp.is_complete(camp, new)
        report |= {"played": True, "won": won, "reason": reason, "turns": turns, "complete": complete}
        report["next_box"] = None if complete else new.chapter + 1
        print(json.dumps(report, sort_keys=False))
        return
    if new.chapter != save.chapter + (1 if won else 0):
        print(f"(another run recorded a game meanwhile: both are in {printable(str(path))})")
    if won and cp.is_complete(camp, new):
        print(f"Chapter {number} won. The campaign is complete!")
    elif won:
        print(
            f"Chapter {number} won. Chapter {number + 1} opens: {camp.chapters[new.chapter].title}. "
            f"New rewards: {', '.join(r.describe() for r in camp.chapters[save.chapter].rewards) or 'none'}"
        )
    else:
        print(
            f"Chapter {number} lost: it resets to its starting configuration. Try again with "
            "`skirmish campaign play`."
        )
    print(f"Saved to {printable(str(path))}")


def _play_headless(
    scenario: Scenario,
    troupes: list[Troupe],
    seed: int,
    policy: str,
    replay_out: str | None,
    quiet: bool = False,
) -> tuple[bool, str, int]:
    from skirmish.bots.runner import play_out, seat_bots
    from skirmish.cli.play_cmds import new_game, print_result, save_replay
    from skirmish.engine import campaign as cp

    hero = cp.hero_side(scenario)
    policies = [policy if i == hero else (side.bot or DEFAULT) for i, side in enumerate(scenario.sides)]
    game = new_game(scenario, troupes, f"campaign scenario `{scenario.name}`", seed=seed, bots=policies)
    play_out(game, seat_bots(game, policies))
    if not quiet:
        print_result(game)
    if replay_out:
        save_replay(game, replay_out, "--replay")
        if not quiet:
            print(f"Replay written to {printable(replay_out)}")
    return cp.heroes_won(scenario, game.state.winning_team), game.state.result_reason, game.turn


def _play_window(
    scenario: Scenario, troupes: list[Troupe], seed: int, replay_out: str | None
) -> tuple[bool, str, int] | None:
    """The window: the result is read back from the replay the window writes when it closes."""
    from skirmish.data.errors import DataError
    from skirmish.engine import campaign as cp
    from skirmish.engine.replay import load_replay
    from skirmish.ui.app import run_play

    fd, tmp = tempfile.mkstemp(prefix="skirmish-campaign-", suffix=".json")
    os.close(fd)
    os.unlink(tmp)
    try:
        run_play(
            scenario,
            troupes,
            scenario.options,
            seed=seed,
            bots=None,
            replay_out=replay_out or tmp,
            screenshot=None,
        )
        out = Path(replay_out or tmp)
        if not out.exists():
            return None
        try:
            replay = load_replay(out)
        except DataError:
            return None
        if replay.scenario.model_dump() != scenario.model_dump():
            print("The game played in the window was not this chapter.", file=sys.stderr)
            return None
        game = replay.play(record_log=False)
        if not game.over:
            return None
        return cp.heroes_won(scenario, game.state.winning_team), game.state.result_reason, game.turn
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
