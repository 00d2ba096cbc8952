"""Bot protocols: ways for programs outside this process to play at a table.

The native one: a bot program in any language reads one JSON message per line on
stdin and answers each prompt with one JSON move per line. It runs in its own process
under time, memory and CPU limits and receives only the messages its own seat may
see, so there is nothing to introspect (`bot`, `process`, `players`, `host`). The
Mäxchen UDP contest is a package of its own (`bluffdice.maexchen`).
"""

DEFAULT_MOVE_TIME = 5.0
"""Seconds a bot program has for one move unless the user says otherwise."""
