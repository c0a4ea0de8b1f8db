"""Play N bot games of one scenario in this process and print CPU games/s: the driver the speed
notes (`docs/speed.md`) profile and count instructions with.

    python benchmarks/play.py POLICY N [SCENARIO]
    py-spy record -r 500 -f raw -o prof.txt -- python benchmarks/play.py random 100
    valgrind --tool=callgrind python benchmarks/play.py random 2   # minus the same with 0 games

POLICY is `heuristic` (scenario-fixed bots keep their own) or `random`. The compiled path finder
and sight kernel are loaded first and two warm-up games played (seeds 100-101), so the N games
(seeds 1..N) are the steady state a long troupe test reaches; with N = 0 only that set-up runs,
which is what callgrind's figures subtract. Each game is discarded as troupe testing discards it
(`Game.discard`: freed by reference counting, not left to the collector).
"""

from __future__ import annotations

import sys
import time

from skirmish.battlefield.paths import jit
from skirmish.bots.runner import play_out, seat_bots
from skirmish.data.catalogue import DEFAULT_SCENARIO, find_scenario, find_troupe
from skirmish.engine.game import Game


def main(argv: list[str]) -> None:
    policy, games = argv[0], int(argv[1])
    name = argv[2] if len(argv) > 2 else DEFAULT_SCENARIO
    sc = find_scenario(name)
    troupes = [find_troupe(side.troupe) for side in sc.sides]
    fixed = policy == "heuristic"  # scenario-fixed bots (the Pursuit's pursuers) keep their own
    policies = [(side.bot or policy) if fixed else policy for side in sc.sides]

    def play(seed: int) -> None:
        g = Game(sc, troupes, seed=seed, bots=policies, record_log=False, transactional=False)
        play_out(g, seat_bots(g, policies))
        if hasattr(g, "discard"):  # as `sim.games.play_game` ends each game (round 9); older trees lack it
            g.discard()

    jit.compiled()
    try:  # a tree from before the compiled sight kernel (round 6) has none
        from skirmish.battlefield import sight_plain

        sight_plain.compiled(now=True)
    except (ImportError, AttributeError, TypeError):
        pass
    for seed in (100, 101):
        play(seed)
    cpu = time.process_time()
    for seed in range(1, games + 1):
        play(seed)
    spent = time.process_time() - cpu
    if games:
        print(f"{name} {policy}: {games / spent:.2f} CPU games/s, {1000 * spent / games:.1f} ms a game")


if __name__ == "__main__":
    main(sys.argv[1:])
