"""`bluffdice odds`: not built yet (see the project's issues)."""
