"""The gate: what may become a memory (前置准入层).

* snapshot sources (``pre_compact``, ``session_end``) and ``session_state`` are refused;
* a batch holding a credential or a personal identifier is refused whole, judged on the raw
  text (so a key hidden inside a code block still refuses the batch) and again on the cleaned
  text that would be stored (cleaning must not join a secret's halves), message by message and
  across the joined messages (an ID number split over two messages);
* technical noise is dropped and paths/URLs are cut out (``noise``);
* ``task_completed`` must keep a meaningful user *and* assistant message;
* Chinese curly quotes become ASCII double quotes; bidi controls and zero-width characters
  are stripped (``normalize.strip_invisible``), so what is stored reads as it is shown.

This layer judges safety only. Whether something is worth remembering ("这次", "长期",
"偏好"…) is Mem0's call, never a keyword rule here. Everything is pure and deterministic: no
Django, no database, no network, no logging. A refusal is a value
(``AdmissionResult.reason``), never an exception, and no refusal ever carries the secret or
identifier it found.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from memories.admission.credentials import find_credential
from memories.admission.identifiers import find_sensitive_identifier
from memories.admission.meaning import asked_for, find_meant_secret
from memories.admission.noise import clean_text
from memories.admission.normalize import strip_invisible
from memories.text import keep_typed_quotes, normalize_quotes

__all__ = [
    "REJECTION_REASONS",
    "AdmissionResult",
    "Message",
    "admit",
    "admit_extracted",
    "admit_text",
    "find_field_secret",
    "find_key_secret",
    "find_secret",
]


@dataclass(frozen=True)
class Message:
    role: str  # "user" | "assistant" | "system" | …
    content: str


@dataclass(frozen=True)
class AdmissionResult:
    admitted: bool
    messages: tuple[Message, ...]  # cleaned messages; empty when refused
    reason: str | None  # None when admitted; else one of REJECTION_REASONS
    detail: str = ""  # short explanation; never contains the secret or identifier itself

    @property
    def text(self) -> str:
        """The admitted text of a single fact (``admit_text``); empty when refused."""
        return self.messages[0].content if self.messages else ""


REJECTION_REASONS: Final = (
    "snapshot_source",
    "session_state",
    "credential",
    "sensitive_identifier",
    "missing_role",
    "empty_after_cleaning",
    "technical_noise",
)

# 会话临时快照 and session_state never reach long-term memory.
_SNAPSHOT_SOURCES: Final = frozenset({"pre_compact", "session_end"})
_SESSION_STATE_SOURCE: Final = "session_state"
_TASK_COMPLETED_SOURCE: Final = "task_completed"


def find_secret(text: str) -> tuple[str, str] | None:
    """``(reason, kind)`` when ``text`` holds a credential or a personal identifier, else None.

    The kind names what was found (``"openai_api_key"``, ``"cn_mobile"``…), never the value.
    """
    kind = find_credential(text)
    if kind is not None:
        return "credential", kind
    kind = find_sensitive_identifier(text)
    if kind is not None:
        return "sensitive_identifier", kind
    # The second line: structure, then meaning and value (``meaning``).
    return find_meant_secret(text)


# A key's word long enough to be a token and mixing letters and digits is one: real attribute
# names are words ("answer_language"), a hex API key is not.
_RANDOM_WORD: Final = re.compile(r"(?=[a-z0-9]*[0-9])(?=[a-z0-9]*[a-z])[a-z0-9]{16,}")


def find_key_secret(memory_key: str) -> tuple[str, str] | None:
    """``(reason, kind)`` when a memory key (``namespace.attribute``) holds a credential or a
    personal identifier: it is stored, listed and exported beside the text. Read with its dots
    and underscores as spaces ("password.hunter2xyz" says "password hunter2xyz")."""
    words = re.sub(r"[._]+", " ", memory_key)
    found = find_secret(words)
    if found is not None:
        return found
    if any(_RANDOM_WORD.fullmatch(word) for word in words.split()):
        return "credential", "random_token"
    return None


def find_field_secret(fields: Mapping[str, str]) -> tuple[str, str, str] | None:
    """``(name, reason, kind)`` of the first free-text field holding a credential or an
    identifier, each read as ``name: value`` (the name may be the label: "password")."""
    for name, value in fields.items():
        found = find_secret(f"{name}: {value}")
        if found is not None:
            return name, *found
    return None


def admit(
    *, source: str, messages: Sequence[Message], fields: Mapping[str, str] | None = None
) -> AdmissionResult:
    """Run the gate over one candidate batch.

    ``fields`` is free text kept beside the batch (an ingest's metadata, by name): it is never
    a memory, but it is stored and shown, so a secret in it refuses the batch like one in a
    message. Each is read as ``name: value``: the name may be the label ("password").
    """
    source_key = _normalize_source(source)
    if source_key in _SNAPSHOT_SOURCES:
        return _refuse("snapshot_source", f"source {source_key!r} is a transient session snapshot")
    if source_key == _SESSION_STATE_SOURCE:
        return _refuse("session_state", "session state is never stored as long-term memory")
    field_secret = find_field_secret(fields or {})
    if field_secret is not None:
        name, reason, found = field_secret
        what = "a credential" if reason == "credential" else "a personal identifier"
        return _refuse(reason, f"field {_field_label(name)} contains {what} ({found})")

    # Judge the raw text, before cleaning can hide anything…
    refused = _secret_in(messages)
    if refused is not None:
        return refused
    cleaned = tuple(
        Message(role=message.role, content=content)
        for message in messages
        if _is_meaningful(content := _stored_text(message.content))
    )
    if not cleaned:
        return _refuse("empty_after_cleaning", "nothing meaningful is left after removing noise")
    # …and the text as it will be stored, where cleaning changed it: what it takes out (a path,
    # a NUL, which is also its own gap mark) may join the halves of a secret the raw text kept
    # apart.
    if tuple(m.content for m in cleaned) != tuple(m.content for m in messages):
        refused = _secret_in(cleaned)
        if refused is not None:
            return refused

    if source_key == _TASK_COMPLETED_SOURCE:
        roles = {_normalize_role(message.role) for message in cleaned}
        missing = [role for role in ("user", "assistant") if role not in roles]
        if missing:
            return _refuse(
                "missing_role",
                "task_completed needs a meaningful user and assistant message; missing: "
                + ", ".join(missing),
            )

    return AdmissionResult(admitted=True, messages=cleaned, reason=None)


def _stored_text(text: str) -> str:
    """The text as it is stored: cleaned of noise (read with ASCII quotes, as the rules are
    written), yet with the quotation marks the user typed — “”「」 are kept."""
    typed = strip_invisible(text)
    return keep_typed_quotes(typed, clean_text(normalize_quotes(typed)))


def admit_text(*, source: str, text: str) -> AdmissionResult:
    """Gate one explicit fact (add/update): same checks and cleaning, role ``user``."""
    return admit(source=source, messages=(Message(role="user", content=text),))


def admit_extracted(*, text: str) -> AdmissionResult:
    """Gate a fact an LLM extracted (and Mem0 already stored) before it is adopted.

    The LLM may have reassembled what admission refused in the messages (a number split over
    two turns), so the fact passes the gate again. It cannot be cleaned in place: a fact that
    cleaning would change (a path, a URL, a log line in it) is refused as technical noise.
    """
    admission = admit_text(source="ingest", text=text)
    if not admission.admitted:
        return admission
    normalized = normalize_quotes(text)
    if " ".join(normalize_quotes(admission.text).split()) != " ".join(normalized.split()):
        return _refuse("technical_noise", "the fact holds a path, URL, trace, log or command")
    return admission


def _secret_in(messages: Sequence[Message]) -> AdmissionResult | None:
    """The refusal for the first credential or personal identifier in ``messages``, if any."""
    for index, message in enumerate(messages):
        kind = find_credential(message.content)
        if kind is not None:
            return _refuse(
                "credential",
                f"message {index} ({_role_label(message.role)}) contains a credential ({kind})",
            )
    for index, message in enumerate(messages):
        kind = find_sensitive_identifier(message.content)
        if kind is not None:
            return _refuse(
                "sensitive_identifier",
                f"message {index} ({_role_label(message.role)}) contains a personal "
                f"identifier ({kind})",
            )
    # What an assistant turn asked the user for (a secret, a personal number), open until the
    # assistant asks anew.
    asked: str | None = None
    for index, message in enumerate(messages):
        # Meaning and value; a user's turn is read as the answer to the request.
        role = _normalize_role(message.role)
        found = find_meant_secret(message.content, answers=asked if role == "user" else None)
        if found is not None:
            what = "a credential" if found[0] == "credential" else "a personal identifier"
            return _refuse(
                found[0],
                f"message {index} ({_role_label(message.role)}) contains {what} ({found[1]})",
            )
        if role == "assistant":
            # "ok" while the user looks it up keeps the request open; a question of its own
            # ("Which city do you live in?", "في أي مدينة تعيش؟") ends it.
            requested = asked_for(message.content)
            if requested is not None:
                asked = requested
            elif _QUESTION_MARK_RE.search(message.content):
                asked = None
    if len(messages) > 1:
        # One line per message: a number split over two messages is read as one number.
        kind = find_sensitive_identifier("\n".join(message.content for message in messages))
        if kind is not None:
            return _refuse(
                "sensitive_identifier",
                f"the messages together contain a personal identifier ({kind})",
            )
    return None


# Latin, full-width and Arabic question marks.
_QUESTION_MARK_RE: Final = re.compile("[?？؟]")


def _refuse(reason: str, detail: str) -> AdmissionResult:
    return AdmissionResult(admitted=False, messages=(), reason=reason, detail=detail)


def _normalize_source(source: str) -> str:
    return source.strip().lower().replace("-", "_")


def _normalize_role(role: str) -> str:
    return role.strip().lower()


def _role_label(role: str) -> str:
    # The role is caller-supplied text; keep the detail short and free of message content.
    label = _normalize_role(role)
    return label if re.fullmatch(r"[a-z_]{1,20}", label) else "unknown role"


def _field_label(name: str) -> str:
    # Field names are ids by the time they get here; still, never echo anything else.
    return name if re.fullmatch(r"[A-Za-z0-9._:\-]{1,64}", name) else "of unknown name"


def _is_meaningful(text: str) -> bool:
    """Meaningful = at least two letters or Han characters (``task_completed``)."""
    count = 0
    for char in text:
        if char.isalpha():
            count += 1
            if count >= 2:
                return True
    return False
