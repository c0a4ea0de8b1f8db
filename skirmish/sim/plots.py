"""Pictures of a troupe test (matplotlib, imported only when a plot is asked for).

One figure per run: the running win rate of A with its Wilson band (does the estimate settle?),
per-model damage dealt and taken (who carries the troupe, who soaks the hits), and the
distribution of game length. A round robin gets a heatmap of the win-rate matrix.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from skirmish.sim.stats import wilson


class PlotUnavailable(Exception):
    """matplotlib is not installed."""


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise PlotUnavailable("--plot: matplotlib is not installed (pip install 'skirmish[plot]')") from None
    matplotlib.use("Agg")  # files only: never open a window, work without a display
    import matplotlib.pyplot as plt

    return plt


def running_rate(outcomes: bytes) -> tuple[list[int], list[float], list[float], list[float]]:
    """Games played, A's win rate and its Wilson interval after each game (outcome byte 2 = A won)."""
    xs: list[int] = []
    rate: list[float] = []
    low: list[float] = []
    high: list[float] = []
    wins = 0
    for i, o in enumerate(outcomes, start=1):
        wins += o == 2
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
    fig, axes = plt.subplots(1, 3, figsize=(17, 5.6), gridspec_kw={"width_ratios": [1.2, 1.3, 0.9]})
    ax = axes[0]
    colours = ["tab:blue", "tab:orange", "tab:green", "tab:red"]
    for k, (label, outcomes) in enumerate(series):
        xs, rate, low, high = running_rate(outcomes)
        c = colours[k % len(colours)]
        ax.plot(xs, rate, color=c, label=f"{label}: {rate[-1]:.1%}" if rate else label)
        ax.fill_between(xs, low, high, color=c, alpha=0.2, linewidth=0)
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=0.8)
    ax.set_ylim(0, 1)
    ax.set_xlabel("games played")
    ax.set_ylabel("win rate of A (95% Wilson interval)")
    ax.set_title("Win rate as games accumulate")
    ax.legend(loc="upper right", fontsize=8)

    ax = axes[1]
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

    ax = axes[2]
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
