"""What rules do to models, shared by the steps: damage, moving, senses, shots and reactions.

A step (`engine.steps`) decides *when* something happens; the helpers here decide *what* it does,
so a shot fired in the shooting step, a Push aimed like a shot and a reflected attack all resolve
through `shots.resolve`, and every move, charge and advance is checked by `moving.validate_path`.
Effects never import a step. The abilities' own effects are in `effects.abilities`, one per file.
"""
