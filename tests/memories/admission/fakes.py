"""Helpers for the admission tests.

Fake credentials are assembled from pieces at run time so that secret scanners and push
protection never see a credential-shaped literal in the test files.
"""

from __future__ import annotations

from memories.admission import Message


def j(*parts: str) -> str:
    return "".join(parts)


def resident_id_of(first_17: str) -> str:
    """Append the ISO 7064 MOD 11-2 check character."""
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    total = sum(int(digit) * weight for digit, weight in zip(first_17, weights, strict=True))
    return first_17 + "10X98765432"[total % 11]


def with_luhn_digit(payload: str) -> str:
    """Append the Luhn check digit."""
    for check in "0123456789":
        candidate = payload + check
        total = 0
        for position, char in enumerate(reversed(candidate)):
            value = int(char) * (2 if position % 2 else 1)
            total += value - 9 if value > 9 else value
        if total % 10 == 0:
            return candidate
    raise AssertionError("unreachable")


def user(content: str) -> Message:
    return Message(role="user", content=content)


def assistant(content: str) -> Message:
    return Message(role="assistant", content=content)


OPENAI_PROJECT_KEY = j("sk-", "proj-", "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z")
