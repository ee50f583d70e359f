"""The launcher's restart schedule: 1 s doubling to 30 s while a child keeps dying at once,
back to 1 s after it has run for a while."""

from __future__ import annotations

import os
import sys

import pytest

from poco_memory.launcher import MAX_BACKOFF, STABLE_AFTER, Child


def crash_and_supervise(child: Child, ran_for: float) -> float:
    """Let the child exit, supervise ``ran_for`` seconds after its start; the restart delay."""
    child.start()
    assert child.process is not None
    child.process.wait(timeout=30)
    now = child.started_at + ran_for
    child.supervise(now)
    assert child.restart_at is not None, "an exited child is scheduled for a restart"
    return child.restart_at - now


def test_restart_delay_doubles_while_failing_and_resets_after_a_stable_run():
    child = Child("crasher", [sys.executable, "-c", "raise SystemExit(3)"], dict(os.environ))
    delays = [crash_and_supervise(child, ran_for=0.1) for _ in range(7)]
    # The clock is a large float: a restart due at now + 16 reads back as 15.9999…
    assert delays == pytest.approx([1, 2, 4, 8, 16, MAX_BACKOFF, MAX_BACKOFF])
    assert crash_and_supervise(child, ran_for=STABLE_AFTER + 1) == pytest.approx(1)


def test_a_scheduled_restart_starts_a_new_process_when_due():
    child = Child("crasher", [sys.executable, "-c", "raise SystemExit(3)"], dict(os.environ))
    delay = crash_and_supervise(child, ran_for=0.1)
    first = child.process
    assert child.restart_at is not None
    child.supervise(child.restart_at - delay / 2)  # not yet
    assert child.process is first
    child.supervise(child.restart_at)
    assert child.process is not first and child.restart_at is None
    child.process.wait(timeout=30)
