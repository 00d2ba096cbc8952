"""`bluffdice rules`: not built yet (see the project's issues)."""
