"""The one keyed digest of the service: HMAC-SHA256 under ``SECRET_KEY``. It names a thing
where the thing itself must not be kept — a deleted fact in a deletion mark, a scope and its
run ids in the service log — so two records of the same thing match, and without the server's
secret the digest reveals nothing (a user id is short and guessable; an unkeyed hash of it is
not a secret)."""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings

# In the log: a prefix of the digest is enough to tell scopes apart and to find one's lines.
LOG_DIGITS = 16


def keyed_digest(text: str) -> str:
    return hmac.new(settings.SECRET_KEY.encode(), text.encode(), hashlib.sha256).hexdigest()


def log_name(value: str) -> str:
    """How the log names a scope key or a run id: ``~`` and a prefix of its keyed digest ("-"
    for none). A deleted scope's lines then keep nothing the client sent."""
    return f"~{keyed_digest(value)[:LOG_DIGITS]}" if value else "-"
