"""Bot protocols: ways for programs outside this process to play at a table."""
