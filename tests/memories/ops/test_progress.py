"""The progress line of the long operator commands: the rate and the time left are this run's,
and "done" means the work is done."""

from __future__ import annotations

from memories.ops.progress import Progress


class Clock:
    """Seconds as the test sets them: the line's numbers, not how long the test took."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_resumed_run_counts_its_rate_over_what_it_did_itself():
    lines: list[str] = []
    clock = Clock()
    progress = Progress(total=1000, label="second vectors", write=lines.append, clock=clock)

    progress.resume(990)  # filled by an earlier run
    clock.now += 2
    progress.advance(4)

    assert lines == [
        "second vectors: 990/1000 (resuming)",
        "second vectors: 994/1000 (2.0/s, ~3s left)",
    ]


def test_no_progress_is_not_done():
    lines: list[str] = []
    progress = Progress(total=270, label="re-embedding", write=lines.append, clock=Clock())

    progress.resume(0)
    progress.advance(0)

    assert lines == ["re-embedding: 0/270 (0.0/s)"]


def test_done_when_everything_is():
    lines: list[str] = []
    clock = Clock()
    progress = Progress(total=4, label="imported", write=lines.append, clock=clock)
    progress.resume(4)
    progress.advance(0)
    assert lines == ["imported: 4/4 (done)", "imported: 4/4 (done)"]
