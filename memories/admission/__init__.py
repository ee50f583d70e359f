"""Admission: what may be stored, checked inside every write (``memories.services``).

Split by subject: ``normalize`` (undo disguises), ``credentials``, ``identifiers``, ``noise``
and the ``gate`` that combines them. Pure: no Django, no database, no network.
"""

from __future__ import annotations

from memories.admission.credentials import find_credential
from memories.admission.gate import (
    REJECTION_REASONS,
    AdmissionResult,
    Message,
    admit,
    admit_extracted,
    admit_text,
    find_field_secret,
    find_key_secret,
    find_secret,
)
from memories.admission.identifiers import find_sensitive_identifier
from memories.admission.noise import clean_text

__all__ = [
    "REJECTION_REASONS",
    "AdmissionResult",
    "Message",
    "admit",
    "admit_extracted",
    "admit_text",
    "clean_text",
    "find_key_secret",
    "find_credential",
    "find_field_secret",
    "find_secret",
    "find_sensitive_identifier",
]
