"""The export's renderers: they let `Accept: application/x-ndjson` (and a plain download's
`application/octet-stream`) through content negotiation; the body is streamed by the view."""

import json
from typing import Any

from rest_framework.renderers import BaseRenderer


class NdjsonRenderer(BaseRenderer):
    """Lets `Accept: application/x-ndjson` through content negotiation; an error answer is
    then one JSON line."""

    media_type = "application/x-ndjson"
    format = "ndjson"
    charset = None

    def render(self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None):
        return json.dumps(data).encode() + b"\n"


class OctetStreamRenderer(NdjsonRenderer):
    """`Accept: application/octet-stream`: the same bytes, as a plain download (what a
    generated client reads as bytes; it knows no NDJSON)."""

    media_type = "application/octet-stream"
    format = "bytes"
