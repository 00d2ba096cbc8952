"""Bot programs in any language: the stdin/stdout protocol and the child-process seat.

A bot program reads one JSON message per line and answers each prompt with one JSON
move per line. It runs in its own process under time, memory and CPU limits, and
receives only the messages its own seat may see, so there is nothing to introspect.
"""

DEFAULT_MOVE_TIME = 5.0
"""Seconds a bot program has for one move unless the user says otherwise."""
