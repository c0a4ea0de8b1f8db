"""The `skirmish` commands' signatures: arguments, options and help texts, one module per family.

Each function is registered on the app by `cli.main` (the one place that lists the commands, in
the order `skirmish --help` shows them) and imports its implementation only when run, so
`skirmish odds` stays light (no pygame, shapely or matplotlib loaded).
"""
