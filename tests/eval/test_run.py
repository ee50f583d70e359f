"""`python -m eval.run`'s options (the evaluation itself runs in `make eval`, not here)."""

from __future__ import annotations

import pytest

from eval import run


def test_answer_all_rows_are_never_written_to_the_docs(capsys):
    """``--answer-all`` adds rows that answer every question, negatives too: what the order
    reaches without the decision to answer, never the product's tables in docs/retrieval.md."""
    with pytest.raises(SystemExit) as exited:
        run.main(["--answer-all", "--write"])
    assert exited.value.code == 2
    assert "--answer-all" in capsys.readouterr().err
