"""The data layer (see docs/design.md)."""
