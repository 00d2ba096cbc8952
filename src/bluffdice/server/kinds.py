"""The one field the hall reads of every inbound message before it knows its type.

Kept out of `tables.py`, which may be compiled with mypyc: mypyc builds a compiled
module's classes without msgspec's class keywords, so msgspec types live in modules
that stay pure Python.
"""

from __future__ import annotations

import msgspec


class MessageKind(msgspec.Struct):
    type: str
