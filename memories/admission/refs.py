"""Ids and references a client sends beside a memory (run ids, run kinds, sources, an import's
``source_ref``, metadata keys): short tokens of a fixed alphabet, never free text.

They are stored as sent — in the run ledger, the audit trail, a memory's metadata, an export —
and shown on staff pages, so the shape is refused outright rather than cleaned: a field that can
only hold ``run-42`` or a UUID cannot carry ``password=…``. A token that fits the alphabet but
is itself a credential or an identifier (``ghp_…``, a phone number) is refused as well. Every
door that takes one (``edges.contract.fields.RefField``, the MCP headers) asks ``ref_problem``.
"""

from __future__ import annotations

import re
from typing import Final

from memories.admission.gate import find_secret
from memories.admission.identifiers import find_sensitive_identifier

__all__ = ["MAX_REF", "REF_ALPHABET", "REF_PATTERN", "ref_problem"]

MAX_REF: Final = 128
REF_ALPHABET: Final = "A-Z a-z 0-9 . _ : -"
# Published as is in the OpenAPI document; blank is allowed (the field is optional).
REF_PATTERN: Final = r"^(?:[A-Za-z0-9][A-Za-z0-9._:\-]*)?$"
_REF_RE: Final = re.compile(r"(?:[A-Za-z0-9][A-Za-z0-9._:\-]*)?\Z")


def ref_problem(value: str, *, max_length: int = MAX_REF) -> str | None:
    """Why ``value`` cannot be an id or a reference, or None when it can. Never echoes it."""
    if len(value) > max_length or not _REF_RE.match(value):
        return (
            f"an id of at most {max_length} characters of {REF_ALPHABET}, starting with a "
            "letter or digit"
        )
    # Read whole, then with its separators as spaces: "run-13912345678" carries a phone number
    # that the whole token, read as one code, would hide.
    spaced = re.sub(r"[._:\-]+", " ", value)
    kind = find_sensitive_identifier(spaced)
    found = ("sensitive_identifier", kind) if kind is not None else None
    for reading in (value, spaced):
        found = found or find_secret(reading)
        if found == ("credential", "secret_by_meaning"):
            # The model judges what a text means; an opaque id means nothing and looks random
            # by design (``35ggpNxvfv3D0L``). A ref is refused for its structure (a key, a
            # seed, a phone number) or a secret's word before a value
            # (``wifi-key-Kiwi21Moss``), never for that.
            found = None
    if found is not None:
        return f"holds a {found[0].replace('_', ' ')} ({found[1]}); send an opaque id"
    return None
