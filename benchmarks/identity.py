#!/usr/bin/env python3
"""Outcome identity check for speed work: same seeds must give the same replay bytes.

Plays bot games on every shipped scenario (heuristic and random policies, several seeds) with
the full log and prints one sha256 per game of its replay (`skirmish.engine.replay.dumps`), plus
one hash over all of them. A speed change that keeps every outcome identical keeps every line;
`--check FILE` compares against a file written earlier with `--write FILE` and lists the games
that differ (exit 1 if any).

    python benchmarks/identity.py --write /tmp/before.txt
    python benchmarks/identity.py --check /tmp/before.txt
"""

from __future__ import annotations

import argparse
import hashlib
import sys

from skirmish.bots.runner import play_out, seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.game import Game
from skirmish.engine.replay import dumps

SCENARIOS = (
    "open_battle",
    "hold_the_zones",
    "four_kingdoms_melee",
    "escort_the_avatar",
    "siege_of_ba_sing_se",
    "day_of_black_sun",
    "the_pursuit",
    "avatar_duel",
)


def games(seeds: int) -> list[tuple[str, str]]:
    out = []
    for name in SCENARIOS:
        sc = find_scenario(name)
        troupes = [find_troupe(side.troupe) for side in sc.sides]
        for policy in ("heuristic", "random"):
            for seed in range(1, seeds + 1):
                if policy == "random" and seed > max(1, seeds // 2):
                    continue
                pols = [side.bot or policy for side in sc.sides]
                if policy != "heuristic":
                    pols = [policy] * len(sc.sides)
                g = Game(sc, troupes, seed=seed, bots=pols)
                play_out(g, seat_bots(g, pols))
                out.append((f"{name}/{policy}/{seed}", hashlib.sha256(dumps(g).encode()).hexdigest()[:16]))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=6)
    ap.add_argument("--write")
    ap.add_argument("--check")
    args = ap.parse_args()
    rows = games(args.seeds)
    text = "".join(f"{k} {h}\n" for k, h in rows)
    total = hashlib.sha256(text.encode()).hexdigest()[:16]
    if args.write:
        with open(args.write, "w", encoding="utf-8") as f:
            f.write(text)
    if args.check:
        with open(args.check, encoding="utf-8") as f:
            want = dict(line.split() for line in f if line.strip())
        bad = [k for k, h in rows if want.get(k) != h]
        for k in bad:
            print("differs:", k)
        print(f"{len(rows) - len(bad)}/{len(rows)} identical; all {total}")
        return 1 if bad else 0
    print(text + "all " + total)
    return 0


if __name__ == "__main__":
    sys.exit(main())
