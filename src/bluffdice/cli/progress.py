"""The time left in a progress bar, estimated from the whole run so far.

Rich's own estimate divides what is left by the speed of the last few updates. Results
that arrive in batches (a pool's workers, a tournament's chunks) make those updates
come in bursts, so the speed it sees is the burst's, not the run's: it said "eta
0:00:09" with two minutes left. The whole run's average speed has no such bias.

Imported by the commands when they run (Rich's progress module is not cheap to load).
"""

from __future__ import annotations

from rich.progress import ProgressColumn, Task
from rich.text import Text


def eta_seconds(elapsed: float | None, done: float, total: float | None) -> float | None:
    """Seconds left at the run's average speed so far; None before anything is done."""
    if elapsed is None or total is None or done <= 0 or elapsed <= 0:
        return None
    return max(total - done, 0.0) * elapsed / done


def eta_text(seconds: float | None) -> str:
    """`eta 0:02:05`, or `eta -:--:--` while there is nothing to go by."""
    if seconds is None:
        return "eta -:--:--"
    whole = int(seconds + 0.5)
    hours, rest = divmod(whole, 3600)
    return f"eta {hours}:{rest // 60:02d}:{rest % 60:02d}"


class AverageRemaining(ProgressColumn):
    """A progress column: `eta_text` of the task's whole run so far."""

    def render(self, task: Task) -> Text:
        if task.finished:
            return Text("eta 0:00:00", style="progress.remaining")
        left = eta_seconds(task.elapsed, task.completed, task.total)
        return Text(eta_text(left), style="progress.remaining")


def remaining_column() -> AverageRemaining:
    return AverageRemaining()
