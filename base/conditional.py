"""Conditional GET, the one way every cached read answers: a strong ``ETag`` and a public
``Cache-Control`` on the 200, and 304 with no body when the client already holds that version.

``If-None-Match`` is read as RFC 9110 section 13.1.2 says: ``*`` or a list of entity tags
(parsed by Django's ``parse_etags``), compared weakly (``W/"x"`` matches ``"x"``). These reads
send no ``Last-Modified`` and change nothing, so ``If-None-Match`` is the one precondition
they evaluate. (Django's ``get_conditional_response`` evaluates every precondition, and
answers 412 with no body to an ``If-Unmodified-Since`` sent to a resource with no date, where
RFC 9110 section 13.1.4 says to ignore it.)

    return conditional_answer(request, body, etag=strong_etag(key, text), max_age=5)
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.utils.http import parse_etags
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response


def strong_etag(*parts: str) -> str:
    """A strong entity tag for the representation ``parts`` make (a hash: equal parts, equal
    tags; quoted, as RFC 9110 spells one)."""
    digest = hashlib.sha256("\n".join(parts).encode()).hexdigest()[:32]
    return f'"{digest}"'


def none_match(if_none_match: str, etag: str) -> bool:
    """Whether an ``If-None-Match`` value matches ``etag``: ``*``, or a tag of its list equal
    to it by the weak comparison (``W/`` ignored on both sides)."""
    tags = parse_etags(if_none_match)
    if tags == ["*"]:
        return True
    return etag.removeprefix("W/") in {tag.removeprefix("W/") for tag in tags}


def conditional_answer(request: Request, body: Any, *, etag: str, max_age: int) -> Response:
    """``body`` with its ``etag``, cacheable by anyone for ``max_age`` seconds; 304 with the
    same headers and no body when the request's ``If-None-Match`` matches."""
    headers = {"ETag": etag, "Cache-Control": f"public, max-age={max_age}"}
    if none_match(request.headers.get("If-None-Match", ""), etag):
        return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)
    return Response(body, headers=headers)
