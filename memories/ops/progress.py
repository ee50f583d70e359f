"""Progress of a long operator command: counts, rate and time left, one line per batch.

The rate and the time left are this run's own: what an earlier, interrupted run did
(``resume``) counts towards done/total but not towards the rate. "done" means nothing is left,
never merely that nothing moved."""

from __future__ import annotations

import time
from collections.abc import Callable


class Progress:
    def __init__(
        self,
        *,
        total: int,
        label: str,
        write: Callable[[str], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self.label = label
        self.done = 0
        self._before = 0  # done by an earlier run: no part of this run's rate
        self._write = write
        self._clock = clock
        self._started = clock()

    def resume(self, count: int) -> None:
        """Count what an earlier run did; says so when there is any."""
        self.done += count
        self._before += count
        if count:
            state = "resuming" if self.done < self.total else "done"
            self._write(f"{self.label}: {self.done}/{self.total} ({state})")

    def advance(self, count: int) -> None:
        self.done += count
        elapsed = max(self._clock() - self._started, 1e-6)
        rate = (self.done - self._before) / elapsed
        left = max(self.total - self.done, 0)
        if not left:
            pace = f"{rate:.1f}/s, " if rate > 0 else ""
            self._write(f"{self.label}: {self.done}/{self.total} ({pace}done)")
            return
        eta = f", ~{left / rate:.0f}s left" if rate > 0 else ""
        self._write(f"{self.label}: {self.done}/{self.total} ({rate:.1f}/s{eta})")
