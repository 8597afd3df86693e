"""The one way a request body is read: JSON, size-limited, depth-limited, then parsed.

Every API view parses through `JSONParser` (DRF's DEFAULT_PARSER_CLASSES). A body over
REQUEST_BODY_MAX_BYTES is refused with 413 `body_too_large` before it is read (by its
Content-Length) or as soon as more than the limit has arrived; one nested deeper than
REQUEST_JSON_MAX_DEPTH (arrays and objects) with 400 `json_too_deep`, counted in one pass with
no recursion before the parser (which recurses, and would end in a RecursionError: a 500) sees
it. A string holding a NUL character (`\\u0000`, which no field takes and PostgreSQL cannot
store) is 400 `malformed_json`, like anything else that is not JSON the API can take.
"""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from rest_framework import exceptions, parsers
from rest_framework.utils import json

BODY_TOO_LARGE = "body_too_large"
JSON_TOO_DEEP = "json_too_deep"


class BodyTooLarge(exceptions.APIException):
    status_code = 413
    default_code = BODY_TOO_LARGE

    def __init__(self) -> None:
        limit = settings.REQUEST_BODY_MAX_BYTES
        super().__init__(f"The body is over {limit} bytes.", BODY_TOO_LARGE)


class JsonTooDeep(exceptions.ParseError):
    default_code = JSON_TOO_DEEP

    def __init__(self) -> None:
        depth = settings.REQUEST_JSON_MAX_DEPTH
        super().__init__(f"The body nests arrays and objects over {depth} deep.", JSON_TOO_DEEP)


# A string (its closing quote optional, so a match never fails half-way and the scan stays
# linear), or one bracket. Escapes are skipped whole, so `"\\"["` is one string.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[{\]}]', re.DOTALL)


def too_deep(text: str, limit: int) -> bool:
    """Whether ``text`` nests arrays/objects deeper than ``limit`` (brackets in strings do not
    count). Linear in ``len(text)``, no recursion; malformed JSON is left to the parser."""
    if text.count("[") + text.count("{") <= limit:
        return False  # the common case: too few brackets to be that deep, no scan
    depth = 0
    for token in _TOKEN.finditer(text):
        char = text[token.start()]
        if char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _content_length(parser_context: dict[str, Any] | None) -> int:
    request = (parser_context or {}).get("request")
    raw = request.META.get("CONTENT_LENGTH", "") if request is not None else ""
    try:
        return int(raw)
    except (TypeError, ValueError):
        return 0


class JSONParser(parsers.JSONParser):
    """DRF's JSONParser (strict: no NaN or Infinity) behind the size and depth limits."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = settings.REQUEST_BODY_MAX_BYTES
        if _content_length(parser_context) > limit:
            raise BodyTooLarge()
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise BodyTooLarge()
        encoding = parsers.get_encoding(parser_context or {})  # type: ignore[attr-defined]
        try:
            text = raw.decode(encoding)
            if too_deep(text, settings.REQUEST_JSON_MAX_DEPTH):
                raise JsonTooDeep()
            constant = json.strict_constant if self.strict else None
            data = json.loads(text, parse_constant=constant)
        except ValueError as exc:  # UnicodeDecodeError too
            raise exceptions.ParseError(f"JSON parse error - {exc}") from None
        if "\\u0000" in text and holds_nul(data):
            raise exceptions.ParseError("JSON parse error - a string holds a NUL (\\u0000).")
        return data


def holds_nul(data: Any) -> bool:
    """Whether a string (a value or a key) anywhere in ``data`` holds a NUL character, which no
    field takes and PostgreSQL cannot store (a DataError: a 500). Walked without recursion."""
    todo = [data]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return False
