"""Ctrl-C that a library cannot swallow.

Python raises KeyboardInterrupt wherever the main thread happens to be when the signal
arrives. If that is a weakref callback or a finaliser (SQLAlchemy's identity map runs
them during every commit), the interpreter prints "Exception ignored" and carries on, and
a long run goes on as if no key had been pressed. So the long commands also remember the
press and check it between two batches of work.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class CtrlC:
    """Whether Ctrl-C was pressed since the block began."""

    def __init__(self) -> None:
        self.pressed = False

    def check(self) -> None:
        """Raise KeyboardInterrupt again if a press was lost on the way."""
        if self.pressed:
            raise KeyboardInterrupt


@contextmanager
def remembered_ctrl_c() -> Iterator[CtrlC]:
    """Within the block, Ctrl-C raises KeyboardInterrupt as usual and is also remembered
    (outside the main thread no handler can be set, and nothing changes)."""
    state = CtrlC()
    if threading.current_thread() is not threading.main_thread():
        yield state
        return

    def pressed(_number: int, _frame: FrameType | None) -> None:
        state.pressed = True
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, pressed)
    try:
        yield state
    finally:
        signal.signal(signal.SIGINT, previous)
