"""A troupe-testing run's report: the JSON object (docs/json.md), the tables on the terminal and the
plot, for a match (with its `--compare` or `--compare-bots` variant) or a round robin.
"""

from __future__ import annotations

from typing import Any

from skirmish.cli.errors import write_rendered


def fmt_ci(ci: tuple[float, float] | list[float]) -> str:
    return f"[{ci[0]:.1%}, {ci[1]:.1%}]"


def compares_side_b(scenario: Any, loaded: list[Any]) -> bool:
    """In a fixed-roles scenario (the Pursuit) `--compare C` is a variant of whichever side it belongs
    to: of B when it shares B's allegiance and not A's. Its figures are then A's against it."""
    a, b, c = loaded[0], loaded[1], loaded[2]
    return bool(scenario.fixed_roles) and c.allegiance == b.allegiance != a.allegiance


def match_report(
    result: Any,
    args: list[str],
    compare: str | None,
    meta: dict[str, Any],
    bots: str = "heuristic",
    compare_bots: str | None = None,
) -> dict[str, Any]:
    from skirmish.sim.stats import paired_difference

    base = result.tallies[0].summary()
    report: dict[str, Any] = {"troupe_a": args[0], "troupe_b": args[1]}
    report.update({k: base[k] for k in ("games", "wins_a", "wins_b", "draws", "win_rate_a", "ci95_a")})
    report["games_per_second"] = meta["games_per_second"]
    report.update({k: v for k, v in base.items() if k not in report})
    report.update({k: v for k, v in meta.items() if k not in report})
    report["bots"] = bots
    if (compare is not None or compare_bots is not None) and result.paired is not None:
        other = result.tallies[1].summary()
        diff, (low, high) = paired_difference(result.paired)
        p = result.paired
        report["compare"] = {
            "troupe": compare if compare is not None else args[0],
            "bots": compare_bots or bots,
            "games": other["games"],
            "wins": other["wins_a"],
            "losses": other["wins_b"],
            "draws": other["draws"],
            "win_rate": other["win_rate_a"],
            "ci95": other["ci95_a"],
            "difference": diff,
            "ci95_difference": [low, high],
            "paired": {
                "both_won": p.both,
                "only_original_won": p.only_first,
                "only_variant_won": p.only_second,
                "neither_won": p.neither,
            },
            "detail": other,
        }
    return report


def round_robin_report(
    result: Any, args: list[str], loaded: list[Any], pairs: list[tuple[int, int]], meta: dict[str, Any]
) -> dict[str, Any]:
    n = len(args)
    matrix: list[list[float | None]] = [[None] * n for _ in range(n)]
    rows = []
    for (i, j), t in zip(pairs, result.tallies, strict=True):
        s = t.summary()
        matrix[i][j] = s["win_rate_a"]
        matrix[j][i] = s["win_rate_b"]
        rows.append(
            {
                "troupe_a": args[i],
                "troupe_b": args[j],
                **{
                    k: s[k]
                    for k in (
                        "games",
                        "wins_a",
                        "wins_b",
                        "draws",
                        "win_rate_a",
                        "ci95_a",
                        "win_rate_b",
                        "ci95_b",
                        "mean_turns",
                    )
                },
            }
        )
    overall = []
    for i in range(n):
        rates = [v for v in matrix[i] if v is not None]
        overall.append(sum(rates) / len(rates) if rates else 0.0)
    return {
        "troupes": args,
        "titles": [t.title for t in loaded],
        "games": result.games_played,
        "matrix": matrix,
        "mean_win_rate": overall,
        "pairs": rows,
        **meta,
    }


def print_report(report: dict[str, Any], result: Any, round_robin: bool, loaded: list[Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal:
        console = Console(width=130)
    if round_robin:
        names = report["troupes"]
        table = Table(
            title=f"Round robin: win rate of the row troupe ({report['games']} games per pair, "
            f"scenario {report['scenario']}, seed {report['seed']})"
        )
        table.add_column("troupe")
        for name in names:
            table.add_column(name, justify="right")
        table.add_column("mean", justify="right")
        for i, name in enumerate(names):
            cells = ["—" if v is None else f"{v:.1%}" for v in report["matrix"][i]]
            table.add_row(name, *cells, f"{report['mean_win_rate'][i]:.1%}")
        console.print(table)
        for p in report["pairs"]:
            console.print(
                f"  {p['troupe_a']} v {p['troupe_b']}: {p['wins_a']}-{p['wins_b']}-{p['draws']} "
                f"(A {p['win_rate_a']:.1%} {fmt_ci(p['ci95_a'])})"
            )
    else:
        a = report["troupe_a"]
        comp = report.get("compare")
        first, second = a, comp["troupe"] if comp else ""
        if comp and comp["bots"] != report["bots"]:  # --compare-bots: the rows differ by their bots
            first, second = f"{a} ({report['bots']} bots)", f"{a} ({comp['bots']} bots)"
        table = Table(
            title=f"{loaded[0].title} (A) v {loaded[1].title} (B) — {report['games']} games, scenario "
            f"{report['scenario']}, seed {report['seed']}"
        )
        for col in (
            "troupe",
            "games",
            "A wins",
            "B wins",
            "draws",
            "A win rate",
            "95% interval",
            "mean BP A",
            "mean BP B",
            "mean turns",
        ):
            table.add_column(col, justify="left" if col == "troupe" else "right")
        table.add_row(
            first,
            str(report["games"]),
            str(report["wins_a"]),
            str(report["wins_b"]),
            str(report["draws"]),
            f"{report['win_rate_a']:.1%}",
            fmt_ci(report["ci95_a"]),
            f"{report['mean_battle_points_a']:.2f}",
            f"{report['mean_battle_points_b']:.2f}",
            f"{report['mean_turns']:.2f}",
        )
        if comp:
            d = comp["detail"]
            table.add_row(
                second,
                str(comp["games"]),
                str(comp["wins"]),
                str(comp["losses"]),
                str(comp["draws"]),
                f"{comp['win_rate']:.1%}",
                fmt_ci(comp["ci95"]),
                f"{d['mean_battle_points_a']:.2f}",
                f"{d['mean_battle_points_b']:.2f}",
                f"{d['mean_turns']:.2f}",
            )
        console.print(table)
        if comp:
            console.print(
                f"Paired difference ({second} minus {first}, same seeds): "
                f"{comp['difference']:+.1%} {fmt_ci(comp['ci95_difference'])}"
            )
        for side, title, key in (("A", loaded[0].title, "models_a"), ("B", loaded[1].title, "models_b")):
            mt = Table(title=f"{side}: {title}, per model and game")
            for col in ("model", "KOs", "damage dealt", "damage taken", "survival", "AP spent", "abilities"):
                mt.add_column(col, justify="left" if col == "model" else "right")
            for name, v in report[key].items():
                mt.add_row(
                    name,
                    f"{v['kos']:.2f}",
                    f"{v['damage_dealt']:.2f}",
                    f"{v['damage_taken']:.2f}",
                    f"{v['survival']:.0%}",
                    f"{v['ap_spent']:.2f}",
                    f"{v['abilities_used']:.2f}",
                )
            console.print(mt)
        per_a = " ".join(f"{x:.2f}" for x in report["battle_points_per_turn_a"])
        per_b = " ".join(f"{x:.2f}" for x in report["battle_points_per_turn_b"])
        console.print(f"Battle Points per turn — A: {per_a}; B: {per_b}")
        ends = ", ".join(f"{k}: {v}" for k, v in report["end_reasons"].items())
        console.print(f"Game ends — {ends}")
    stop = " (stopped early: interval narrow enough)" if report["stopped_early"] else ""
    console.print(
        f"{result.games_played} of {report['games_requested']} games{stop}; "
        f"{report['games_per_second']:.1f} games/s on {report['workers']} {report['executor']} worker(s)"
    )


def plot(
    result: Any, report: dict[str, Any], path: str, round_robin: bool, loaded: list[Any], args: list[str]
) -> None:
    """The run's figure as a PNG at `path` (drawn to a scratch file, so the output is always PNG)."""
    write_rendered(path, "--plot", lambda tmp: _draw(result, report, tmp, round_robin, loaded))


def _draw(result: Any, report: dict[str, Any], path: str, round_robin: bool, loaded: list[Any]) -> None:
    from skirmish.sim.plots import plot_matrix, plot_run

    if round_robin:
        plot_matrix(
            path,
            [t.title for t in loaded],
            report["matrix"],
            f"Round robin on {report['scenario']} ({report['games']} games per pair)",
        )
        return
    t0 = result.tallies[0]
    series = [(f"{loaded[0].title} v {loaded[1].title}", bytes(t0.outcomes))]
    if len(result.tallies) > 1:
        series.append((f"{loaded[2].title} (variant) v {loaded[1].title}", bytes(result.tallies[1].outcomes)))
    models = [
        (f"A {k}", v.means()["damage_dealt"], v.means()["damage_taken"]) for k, v in t0.models_a.items()
    ]
    models += [
        (f"B {k}", v.means()["damage_dealt"], v.means()["damage_taken"]) for k, v in t0.models_b.items()
    ]
    plot_run(
        path,
        f"{loaded[0].title} (A) v {loaded[1].title} (B) on {report['scenario']}, "
        f"{result.games_played} games, seed {report['seed']}",
        series,
        models,
        bytes(t0.lengths),
    )
