"""The `skirmish` command (contract: shared/spec/cli.md)."""
