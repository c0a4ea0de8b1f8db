"""Pictures of a troupe test (matplotlib, imported only when a plot is asked for).

One figure per run: the running rates of A's wins, the draws and B's wins, each with its Wilson
band (does the estimate settle?), the final shares with their 95% intervals (issue 16: a win-rate
panel alone, drawn against a 50 % line, hid that 28 % of the games were draws), per-model damage
dealt and taken (who carries the troupe, who soaks the hits), and the distribution of game length.
A round robin gets a heatmap of the win-rate matrix.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from skirmish import install_hint
from skirmish.sim.stats import wilson

MATPLOTLIB_MISSING = f"--plot: matplotlib is not installed ({install_hint('plot')})"
"""What `--plot` says without the plot extra (before any game is played, and if the import fails later)."""


class PlotUnavailable(Exception):
    """matplotlib is not installed."""


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise PlotUnavailable(MATPLOTLIB_MISSING) from None
    matplotlib.use("Agg")  # files only: never open a window, work without a display
    import matplotlib.pyplot as plt

    return plt


OUTCOMES = ((2, "A wins", "-"), (1, "draws", ":"), (0, "B wins", "--"))
"""Outcome byte (2 = A won, 1 = draw, 0 = B won), its words and its line style."""


def running_rate(outcomes: bytes, which: int = 2) -> tuple[list[int], list[float], list[float], list[float]]:
    """Games played, the rate of outcome `which` (2 = A won, 1 = draw, 0 = B won) and its Wilson
    interval after each game."""
    xs: list[int] = []
    rate: list[float] = []
    low: list[float] = []
    high: list[float] = []
    wins = 0
    for i, o in enumerate(outcomes, start=1):
        wins += o == which
        lo, hi = wilson(wins, i)
        xs.append(i)
        rate.append(wins / i)
        low.append(lo)
        high.append(hi)
    return xs, rate, low, high


def plot_run(
    path: str | Path,
    title: str,
    series: Sequence[tuple[str, bytes]],
    models: Sequence[tuple[str, float, float]],
    lengths: bytes,
) -> None:
    """Write the three-panel figure for one run.

    `series`: (label, outcome bytes) per matchup, drawn as running win rate with its band;
    `models`: (label, mean damage dealt, mean damage taken) per model; `lengths`: turns per game.
    """
    plt = _pyplot()
    fig, axes = plt.subplots(1, 4, figsize=(21, 5.8), gridspec_kw={"width_ratios": [1.25, 0.75, 1.2, 0.8]})
    ax = axes[0]
    colours = ["tab:blue", "tab:orange", "tab:green", "tab:red"]
    shades = {2: "tab:green", 1: "tab:grey", 0: "tab:red"}
    for k, (label, outcomes) in enumerate(series):
        for which, words, style in OUTCOMES:
            c = shades[which] if len(series) == 1 else colours[k % len(colours)]
            xs, rate, low, high = running_rate(outcomes, which)
            if not rate:
                continue
            tag = f"{words} {rate[-1]:.0%} [{low[-1]:.0%}, {high[-1]:.0%}]"
            ax.plot(xs, rate, color=c, linestyle=style, label=f"{label}: {tag}" if len(series) > 1 else tag)
            ax.fill_between(xs, low, high, color=c, alpha=0.12, linewidth=0)
    ax.set_ylim(0, 1)
    ax.set_xlabel("games played")
    ax.set_ylabel("share of games (band: 95% Wilson interval)")
    ax.set_title("Wins, draws and losses as games accumulate")
    ax.legend(loc="upper right", fontsize=7)

    ax = axes[1]
    width = 0.8 / max(1, len(series))
    for k, (_label, outcomes) in enumerate(series):
        n = len(outcomes)
        for j, (which, _words, _) in enumerate(OUTCOMES):
            got = sum(1 for o in outcomes if o == which)
            share = got / n if n else 0.0
            lo, hi = wilson(got, n)
            x = j + (k - (len(series) - 1) / 2) * width
            ax.bar(x, share, width=width * 0.9, color=shades[which], alpha=0.85 - 0.3 * k)
            ax.errorbar(x, share, yerr=[[share - lo], [hi - share]], color="black", capsize=4, linewidth=1)
            ax.text(x, hi + 0.02, f"{share:.0%}", ha="center", fontsize=8)
    ax.set_xticks(range(len(OUTCOMES)))
    ax.set_xticklabels([w for _, w, _ in OUTCOMES])
    ax.set_ylim(0, 1.08)
    ax.set_ylabel("share of games (95% interval)")
    ax.set_title("Final shares" + (" (left: A, right: variant)" if len(series) > 1 else ""))

    ax = axes[2]
    labels = [m[0] for m in models]
    ys = list(range(len(models)))
    h = 0.4
    ax.barh([y - h / 2 for y in ys], [m[1] for m in models], height=h, color="tab:red", label="dealt")
    ax.barh([y + h / 2 for y in ys], [m[2] for m in models], height=h, color="tab:grey", label="taken")
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("mean HP per game")
    ax.set_title("Damage dealt and taken per model")
    ax.legend(loc="lower right", fontsize=8)

    ax = axes[3]
    if lengths:
        top = max(lengths)
        bins = [x - 0.5 for x in range(1, top + 2)]
        ax.hist(list(lengths), bins=bins, color="tab:purple", rwidth=0.85)
        ax.set_xticks(range(1, top + 1))
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_matrix(
    path: str | Path, names: Sequence[str], matrix: Sequence[Sequence[float | None]], title: str
) -> None:
    """A heatmap of row-troupe's win rate against column-troupe (blank diagonal)."""
    plt = _pyplot()
    import numpy as np

    n = len(names)
    data = np.array([[np.nan if v is None else v for v in row] for row in matrix], dtype=float)
    fig, ax = plt.subplots(figsize=(2.2 + 1.1 * n, 1.6 + 0.9 * n))
    im = ax.imshow(np.ma.masked_invalid(data), cmap="RdYlGn", vmin=0, vmax=1)
    ax.set_xticks(range(n))
    ax.set_yticks(range(n))
    ax.set_xticklabels(names, rotation=35, ha="right", fontsize=8)
    ax.set_yticklabels(names, fontsize=8)
    for i in range(n):
        for j in range(n):
            if not np.isnan(data[i, j]):
                ax.text(j, i, f"{data[i, j]:.0%}", ha="center", va="center", fontsize=9)
    ax.set_xlabel("opponent")
    ax.set_ylabel("troupe")
    fig.colorbar(im, ax=ax, label="win rate of the row troupe")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
