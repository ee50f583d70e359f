"""The JSON parser of both APIs under the name settings give it (``DEFAULT_PARSER_CLASSES``);
it is defined with the rest of the edge contract, in ``memories.contract.parsers``."""

from __future__ import annotations

from memories.contract.parsers import BoundedJSONParser

__all__ = ["BoundedJSONParser"]
