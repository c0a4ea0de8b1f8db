"""The Pursuit (R-X3)."""
