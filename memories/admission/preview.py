"""What admission would remove from a fact, shown to the person before it is saved.

A correction with a URL or a path used to be stored with them silently cut out ("…参考和，
表格…"). The console shows the removed parts and the text that would be stored, and saves only
once the person accepts that text. Pure, like the rest of admission.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

from memories.admission.gate import admit_text

__all__ = ["AdmissionPreview", "preview_text"]


@dataclass(frozen=True)
class AdmissionPreview:
    admitted: bool
    text: str  # what would be stored; empty when refused
    removed: tuple[str, ...]  # the parts cleaning cuts out, in order; never a refused secret
    reason: str | None = None

    @property
    def changes_text(self) -> bool:
        return self.admitted and bool(self.removed)


def preview_text(*, source: str, text: str) -> AdmissionPreview:
    """Run the gate on ``text`` and name what its cleaning removes (quotes are kept as typed)."""
    admission = admit_text(source=source, text=text.strip())
    if not admission.admitted:
        return AdmissionPreview(admitted=False, text="", removed=(), reason=admission.reason)
    return AdmissionPreview(
        admitted=True,
        text=admission.text,
        removed=removed_parts(text.strip(), admission.text),
    )


def removed_parts(original: str, cleaned: str) -> tuple[str, ...]:
    """The runs of ``original`` that are missing from ``cleaned`` (whitespace alone ignored)."""
    matcher = SequenceMatcher(a=original, b=cleaned, autojunk=False)
    parts: list[str] = []
    for tag, a_start, a_end, _b_start, _b_end in matcher.get_opcodes():
        if tag in ("delete", "replace"):
            part = original[a_start:a_end].strip()
            if part:
                parts.append(part)
    return tuple(parts)
