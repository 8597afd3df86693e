"""Structured logs: one JSON object a line, each carrying the id of the request (or the
Celery task) that wrote it.

- ``request_id_var`` holds the current id. ``base.middleware.RequestIdMiddleware`` sets
  it for each HTTP request (from a well-formed ``X-Request-ID`` header, else a fresh one) and
  echoes it in the response; a task published during a request carries the id in a message
  header, so the worker's lines about that task share it (a task published by beat gets its
  own task id).
- ``RequestIdFilter`` (on the console handler) puts ``request_id`` on every record.
- ``JsonFormatter``: ``{"ts", "level", "logger", "message", "request_id", ...extra fields,
  "exc"}``. ``LOG_FORMAT=plain`` keeps one human line instead.
- A failed Celery task is logged with its name, id, arguments and traceback.

This module is named after the stdlib's ``logging`` but imports it absolutely, as every module
here does, so the two never clash.
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from celery import signals

HEADER = "X-Request-ID"
# What we accept from a client or a proxy (nginx's $request_id, a UUID, ...); anything else
# is replaced by an id of our own, so a log line can never be forged through the header.
_VALID_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
NO_REQUEST = "-"

request_id_var: ContextVar[str] = ContextVar("request_id", default=NO_REQUEST)
task_var: ContextVar[str | None] = ContextVar("celery_task", default=None)

log = logging.getLogger("spider_api.tasks")  # as docs/operations.md names it


def new_request_id(incoming: str | None = None) -> str:
    """``incoming`` if it is a well-formed id, else a fresh one (32 hex digits)."""
    if incoming and _VALID_ID.match(incoming):
        return incoming
    return uuid.uuid4().hex


# Secrets no log line may carry: ours by their shape (base.tokens, base.oauth),
# anyone's by where they stand (a query parameter or form field that holds one, a Bearer
# header). A client that puts a token in a URL must not get it written down.
_SECRET_SHAPES = re.compile(r"spd_(?:dev|pat)_[0-9A-Za-z]{46}|\bsp[ar]_[A-Za-z0-9_-]{20,}")
_SECRET_FIELDS = re.compile(
    r"(?i)\b(access_token|refresh_token|token|code|code_verifier|client_secret|ticket|password"
    r"|registration_access_token)=([^&\s\"']+)"
)
_BEARER = re.compile(r"(?i)\b(Bearer\s+)(?!realm=)[^\s\"',]+")
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """``text`` with every secret it holds replaced by REDACTED."""
    text = _SECRET_FIELDS.sub(lambda m: f"{m.group(1)}={REDACTED}", text)
    text = _BEARER.sub(lambda m: m.group(1) + REDACTED, text)
    return _SECRET_SHAPES.sub(REDACTED, text)


class RedactSecretsFilter(logging.Filter):
    """On every handler: the message, and each string field a record carries, redacted
    (``redact``). Libraries log URLs and request bodies at DEBUG (oauthlib does), a proxy's
    access line has the query string: whatever the source, the line is cleaned here."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a bad format is the handler's to report, not ours
            return True
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, ()
        for key, value in list(vars(record).items()):
            if key in _STANDARD or key.startswith("_") or isinstance(value, int | float | None):
                continue
            # A field is written as text by the formatter anyway (django.request's `request`
            # shows its URL, query string and all): one that holds a secret is replaced by
            # its cleaned text; any other is left as it is, for the other handlers.
            text = value if isinstance(value, str) else str(value)
            clean = redact(text)
            if clean != text:
                setattr(record, key, clean)
        return True


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` (and ``task`` inside a Celery task) to every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id_var.get()
        if not hasattr(record, "task"):
            record.task = task_var.get()
        return True


# Attributes every LogRecord has; anything else on a record came from `extra=` and is logged.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "request_id",
    "task",
}


class JsonFormatter(logging.Formatter):
    """One JSON object a line; values that JSON cannot hold are written with ``str``."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", NO_REQUEST),
        }
        task = getattr(record, "task", None)
        if task:
            entry["task"] = task
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exc"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


# -- Celery: carry the request id into tasks, log failures with their arguments --------------
@signals.before_task_publish.connect(weak=False)
def _stamp_request_id(headers: dict[str, Any] | None = None, **_: Any) -> None:
    request_id = request_id_var.get()
    if headers is not None and request_id != NO_REQUEST:
        headers.setdefault("request_id", request_id)


@signals.task_prerun.connect(weak=False)
def _enter_task(task_id: str | None = None, task: Any = None, **_: Any) -> None:
    incoming = getattr(getattr(task, "request", None), "request_id", None)
    # Eager tasks run inside the request that called them: keep the request's id.
    request_id = request_id_var.get() if request_id_var.get() != NO_REQUEST else None
    request_id = request_id or new_request_id(incoming or task_id)
    name = getattr(task, "name", "?")
    _task_tokens[task_id] = (request_id_var.set(request_id), task_var.set(f"{name}[{task_id}]"))


@signals.task_postrun.connect(weak=False)
def _leave_task(task_id: str | None = None, **_: Any) -> None:
    tokens = _task_tokens.pop(task_id, None)
    if tokens is not None:
        try:
            request_id_var.reset(tokens[0])
            task_var.reset(tokens[1])
        except ValueError:  # set in another context (cannot happen with Celery's pools)
            pass


_task_tokens: dict[Any, tuple[Any, Any]] = {}


@signals.task_failure.connect(weak=False)
def _log_task_failure(
    sender: Any = None,
    task_id: str | None = None,
    exception: BaseException | None = None,
    args: Any = None,
    kwargs: Any = None,
    einfo: Any = None,
    **_: Any,
) -> None:
    name = getattr(sender, "name", "?")
    exc_info = None
    if exception is not None:
        exc_info = (type(exception), exception, getattr(einfo, "tb", None))
    log.error(
        "task %s[%s] failed: %s: %s; args=%r kwargs=%r",
        name,
        task_id,
        type(exception).__name__,
        exception,
        args,
        kwargs,
        exc_info=exc_info,
        extra={"task_name": name, "task_id": task_id, "task_args": args, "task_kwargs": kwargs},
    )
