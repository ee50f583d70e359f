"""A labelled question and the helpers that write one."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Query:
    scope: str
    kind: str
    text: str
    relevant: tuple[str, ...]


def q(scope: str, kind: str, text: str, *relevant: str) -> Query:
    return Query(scope=scope, kind=kind, text=text, relevant=tuple(relevant))


def project_keys(key: str) -> tuple[str, str, str]:
    return (f"{key}_goal", f"{key}_owner", f"{key}_stack")
