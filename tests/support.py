"""Waiting in tests: for something another thread, process or server does, by a deadline.

A fixed ``sleep`` before an assertion is either longer than needed (every run pays it) or, on a
busy machine, too short (the test fails for no reason). ``eventually`` asks again and again
and stops as soon as the answer comes. Sleeps that *are* the behaviour under test (a timeout
elapsing, load spread over time) stay sleeps, with a comment saying so.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def eventually(
    probe: Callable[[], T],
    *,
    what: str,
    until: Callable[[T], object] = bool,
    timeout: float = 60,
    interval: float = 0.05,
    ignoring: tuple[type[Exception], ...] = (),
) -> T:
    """Call ``probe`` until ``until`` holds for what it returns (by default: until it returns
    something truthy), and return that.

    Fails after ``timeout`` seconds, naming ``what`` was awaited and the last value seen (an
    exception listed in ``ignoring`` counts as a value: a server not yet listening)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = probe()
        except ignoring as error:
            seen: object = error
        else:
            if until(value):
                return value
            seen = value
        if time.monotonic() >= deadline:
            last = repr(seen)
            if len(last) > 3000:  # a log, say: its end is where the news is
                last = "..." + last[-3000:]
            raise AssertionError(f"{what}: not within {timeout:g} s; last seen: {last}")
        time.sleep(interval)
