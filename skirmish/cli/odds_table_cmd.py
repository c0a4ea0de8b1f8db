"""`skirmish odds table`: the exact odds of every model of one troupe against every model of another
(computed by `skirmish.sim.odds_table`, printed as tables or one JSON object).
"""

from __future__ import annotations

import json

from skirmish.cli.errors import nonempty
from skirmish.data.catalogue import find_troupe
from skirmish.data.errors import DataError, Problem


def odds_table(a_arg: str, b_arg: str, json_out: bool) -> None:
    """Print the exact odds of every model of A against every model of B."""
    from skirmish.sim.odds_table import COVERS, SITUATIONS, as_json
    from skirmish.sim.odds_table import odds_table as compute

    problems: list[Problem] = []
    loaded = []
    for flag, arg in (("A", a_arg), ("B", b_arg)):
        nonempty(arg, flag, "troupe name or file")
        try:
            loaded.append(find_troupe(arg))
        except DataError as exc:
            problems.extend(exc.problems)
    if problems:
        raise DataError(problems)
    a, b = loaded
    shots, melees = compute(a, b)
    if json_out:
        print(json.dumps(as_json(a, b, shots, melees)))
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal:
        console = Console(width=140)

    def pct(x: float) -> str:
        return f"{x:.0%}" if x in (0.0, 1.0) else f"{x:.1%}"

    st = Table(title=f"Shooting: {a.title} at {b.title} — hit / wound / KO ({SITUATIONS['shooting']})")
    st.add_column("shooter")
    st.add_column("weapon")
    st.add_column("target")
    for name, _ in COVERS:
        st.add_column(name, justify="right")
    for r in shots:
        st.add_row(
            r.shooter,
            r.weapon,
            r.target,
            *(
                "impossible" if o.impossible else f"{pct(o.hit)} / {pct(o.wound)} / {pct(o.ko)}"
                for o in r.odds
            ),
        )
    if shots:
        console.print(st)
    else:
        console.print(f"{a.title} has no ranged attacks.")
    mt = Table(
        title=f"Melee: {a.title} (A) v {b.title} (B) — A hits / B hits / A wounds B / B wounds A "
        f"({SITUATIONS['melee']})"
    )
    mt.add_column("A model")
    mt.add_column("B model")
    mt.add_column("open", justify="right")
    mt.add_column("B in cover", justify="right")
    for mr in melees:
        mt.add_row(
            mr.attacker,
            mr.defender,
            *(
                " / ".join(
                    pct(x) for x in (o.attacker_hits, o.defender_hits, o.defender_wounded, o.attacker_wounded)
                )
                for o in mr.odds
            ),
        )
    console.print(mt)
