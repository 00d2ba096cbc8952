"""`python -m bluffdice`: the same command as `bluffdice`."""

from bluffdice.cli import main

if __name__ == "__main__":
    main()
