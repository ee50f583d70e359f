"""Reading the environment: every setting that an operator may change comes through these two
(``poco_memory.settings``); a value is stripped, and an empty one is unset."""

from __future__ import annotations

import os


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def env_bool(name: str, default: bool) -> bool:
    raw = env(name)
    if not raw:
        return default
    return raw.lower() in {"1", "true", "yes", "on"}
