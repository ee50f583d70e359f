"""Progress of a long operator command: counts, rate and time left, one line per batch."""

from __future__ import annotations

import time
from collections.abc import Callable


class Progress:
    def __init__(self, *, total: int, label: str, write: Callable[[str], None]) -> None:
        self.total = total
        self.label = label
        self.done = 0
        self._write = write
        self._started = time.monotonic()

    def advance(self, count: int) -> None:
        self.done += count
        elapsed = max(time.monotonic() - self._started, 1e-6)
        rate = self.done / elapsed
        left = max(self.total - self.done, 0)
        eta = f"~{left / rate:.0f}s left" if rate > 0 and left else "done"
        self._write(f"{self.label}: {self.done}/{self.total} ({rate:.1f}/s, {eta})")
