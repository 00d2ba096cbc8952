"""`bluffdice tournament`: not built yet (see the project's issues)."""
