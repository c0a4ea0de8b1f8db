"""Pure rules arithmetic: dice, modifiers, opposed rolls, saves, exact odds. No geometry, no screen."""
