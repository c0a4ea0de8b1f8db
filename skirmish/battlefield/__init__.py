"""The battlefield layer (see docs/design.md)."""
