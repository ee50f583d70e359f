"""The one rule for ids and references: a short token of a fixed alphabet, never a secret."""

from __future__ import annotations

import pytest

from memories.admission.refs import ref_problem
from tests.memories.admission.fakes import j

GITHUB_TOKEN = j("ghp_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8")


@pytest.mark.parametrize(
    "value",
    ["", "run-42", "r1", "3f2b8c1e-7d4a-4e9b-b5c6-0a1d2e3f4a5b", "console", "load-1234",
     "task_completed", "nightly", "agent:run.7", "x" * 128,
     # Opaque ids look random by design: the meaning model judges texts, not ids (the
     # schema fuzzer's run kind was refused as a secret by meaning).
     "35ggpNxvfv3D0L", "k9Xw2QpL7vRz4T"],
)  # fmt: skip
def test_ordinary_ids_are_accepted(value):
    assert ref_problem(value) is None


@pytest.mark.parametrize(
    "value",
    ["password=hunter2024", "api_key: ghp_x", "run 42", "run/42", "-run", "x" * 129,
     "run\u202e24", "ｒｕｎ", "运行-1", "run-42\n"],
)  # fmt: skip
def test_free_text_in_an_id_is_refused_by_its_shape(value):
    problem = ref_problem(value)

    assert problem is not None and problem.startswith("an id of at most 128 characters")


@pytest.mark.parametrize("value", [GITHUB_TOKEN, "13912345678", j("AKIA", "Z7Q4R2T8W3Y6U1P5")])
def test_a_secret_that_fits_the_alphabet_is_refused_without_being_echoed(value):
    problem = ref_problem(value)

    assert problem is not None and "opaque id" in problem
    assert value not in problem


@pytest.mark.parametrize("value", ["wifi-key-Kiwi21Moss", "password.Kiwi83Moss", "run-13912345678"])
def test_a_secret_word_before_a_value_or_an_identifier_in_an_id_is_still_refused(value):
    assert ref_problem(value) is not None
