"""`bluffdice solve`: not built yet (see the project's issues)."""
