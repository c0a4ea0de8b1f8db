"""The table's headless half: the battle controller, what the banner offers, the numbered choices,
the learners' odds and the turn points (hand-over card, end-step guard).

Nothing here imports pygame (an import-linter contract keeps it so): the scenes under `skirmish.ui`
draw and read input, and ask this package what to do; tests drive it without a window.
"""
