"""The engine layer (see docs/design.md)."""
