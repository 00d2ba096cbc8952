"""`bluffdice play`: not built yet (see the project's issues)."""
