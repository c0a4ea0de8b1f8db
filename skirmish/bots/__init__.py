"""The bots layer (see docs/design.md)."""
