"""Skirmish: a rules engine for *Avatar: Battles in the Four Kingdoms*."""

__version__ = "0.1.0"
