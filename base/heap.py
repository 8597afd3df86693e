"""The process's start-up objects kept out of the cyclic collector's way.

A loaded Django process holds well over 100 000 tracked objects (modules, classes, URL
patterns, serializers) that live as long as it does. Every full collection walked all of
them: one took 197 ms of CPU in the middle of an ordinary request (a followed 4-suit game,
bench/hint.py). ``gc.freeze()`` moves what exists at the end of start-up into the permanent
generation, which collections skip; what requests allocate is collected as before.
"""

from __future__ import annotations

import gc

from django.urls import get_resolver


def freeze_startup_objects(*, import_urls: bool = True) -> None:
    """Import the whole URL configuration (every view and serializer, which Django would
    otherwise import at the first request; not needed by a worker), collect once, then
    freeze what is left."""
    if import_urls:
        get_resolver().url_patterns  # noqa: B018  (the import is the point)
    gc.collect()
    gc.freeze()
