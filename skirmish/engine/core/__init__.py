"""The engine's core: what every rule reads and writes, and nothing that decides a rule.

Actions (the small frozen values players send), errors, the game state with its hash, the event
log, model names, the step declarations (`flow`) and the context a rule sees (`context`). Steps,
effects and scenarios import from here; nothing here imports them.
"""
