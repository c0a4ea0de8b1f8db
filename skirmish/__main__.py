"""`python -m skirmish` runs the same command as the `skirmish` script."""

from skirmish.cli.main import main

if __name__ == "__main__":
    main()
