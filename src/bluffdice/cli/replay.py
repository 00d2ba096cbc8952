"""`bluffdice replay`: not built yet (see the project's issues)."""
