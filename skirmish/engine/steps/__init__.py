"""The steps of a turn, one module each: deployment, the Move Phase, shooting, charges, melee and
the End Phase. Each exports its `StepSpec`s (`STEPS`); `engine.rulebook` puts them in turn order.
A step decides when things happen and uses `engine.effects` for what they do; steps never import
each other (an import-linter contract keeps them independent).
"""
