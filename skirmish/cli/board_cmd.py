"""`skirmish board SCENARIO --png OUT.png`: draw a scenario's table (with a sample of sight lines)."""

from __future__ import annotations

from skirmish.cli.errors import output_path, write_rendered


def board(scenario_name: str, png: str | None, sight: bool = True) -> None:
    """Render the table; with `sight`, one model per deployment zone and the lines between them.
    Without `png` the picture goes where the program's other pictures go (the data folder's
    `screenshots/`, named for the scenario), never silently over a file in the folder started from."""
    import numpy as np

    from skirmish.battlefield.sight import sight_evidence
    from skirmish.battlefield.table import Table
    from skirmish.cli.play_cmds import load_scenario_arg

    out = None if png is None else output_path(png, "--png", ".png")
    scenario, _ = load_scenario_arg(scenario_name)
    if out is None:
        from skirmish.data.userdirs import default_output

        # Scenario names are file-name safe (letters, digits, `_` and `-`: `data.base.Name`).
        out = output_path(str(default_output("screenshots", f"board-{scenario.name}.png")), "--png", ".png")
    xy = radii = labels = colours = lines = None
    if sight:
        import shapely

        pts = []
        for z in scenario.deployment:
            c = shapely.Polygon(z.polygon).representative_point()
            pts.append([c.x, c.y])
        # A few sample watchers on the shrine line, so the picture shows blocked and clear sight.
        w, h = scenario.board.width, scenario.board.height
        pts += [[w * 0.25, h * 0.5], [w * 0.75, h * 0.5]]
        xy = np.array(pts, dtype=float)
        radii = np.full(len(xy), 0.5)
        labels = [f"watcher in the {z.name.replace('_', ' ')} zone" for z in scenario.deployment]
        labels += ["west watcher", "east watcher"]
        table = Table.from_scenario(scenario)
        lines = []
        for a in range(len(xy)):
            for b in range(a + 1, len(xy)):
                ev = sight_evidence(table, xy, radii, a, b)
                seg = ev.line or ((xy[a, 0], xy[a, 1]), (xy[b, 0], xy[b, 1]))
                lines.append((seg[0], seg[1], ev.visible))
    from skirmish.ui.board_png import render_board

    write_rendered(
        out, "--png", lambda tmp: render_board(scenario, xy, radii, colours, labels, lines, path=tmp)
    )
    print(f"{out}: {scenario.name} drawn")
