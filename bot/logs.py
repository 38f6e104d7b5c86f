"""The bot's logging: one stream handler on the root logger, and a scrub of every record
so that no log line holds a private card or a token, at any level.

At DEBUG, discord.py writes each REST request and response body (a DM's "your hidden
card" included), each gateway event (interaction tokens, the messages the components
sit on) and webhook URLs carrying interaction tokens; a database library logging a call
with its parameters would write a table's saved state (hands, seeds). The scrub runs in the log
record factory, so it reaches every record whichever logger made it and whichever
handler writes it (a library's own handler, a child logger's), before any is formatted:

- a payload argument (dict, list, tuple, bytes, a JSON text, a form, a call with its
  arguments) becomes ``[hidden]``; a gateway frame keeps its op, event name and
  sequence number, a database call its statement; methods, URLs, statuses, ids and
  timings stay readable;
- an interaction or webhook token in a URL, the bot token, and any long token-like run
  of characters become ``[token]``, in the message, its string arguments and the text
  of an attached exception.

``LOG_HTTP_BODIES=1`` (``http_bodies``) turns both off for discord.py's loggers: raw
HTTP and gateway logs, private cards and interaction tokens in them. The bot token is
scrubbed whatever the switch. Below DEBUG discord.py makes no record per
request, so at INFO the scrub runs for the few records that are written at all.
"""

from __future__ import annotations

import functools
import logging
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TextIO

import aiohttp

HIDDEN = "[hidden]"
TOKEN = "[token]"
RAW_LOGGERS = ("discord",)  # what LOG_HTTP_BODIES=1 leaves raw: discord.py's lines

# /interactions/<id>/<token>/callback, /webhooks/<app id>/<token>/...
_URL_TOKEN = re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/?#\s'\"]+")
# a bot token (three dotted parts), or 60+ token characters in a row (an interaction
# token, a hex seed): nothing else in a log line is that long without a break
_TOKEN_LIKE = re.compile(r"[\w-]{23,28}\.[\w-]{6,7}\.[\w-]{27,}|[A-Za-z0-9_-]{60,}")
_PAYLOADS = (Mapping, list, tuple, set, frozenset, bytes, bytearray, memoryview)


def log_format(shard: int | None = None) -> str:
    """The line format of ``python -m bot`` (a shard's lines say which shard)."""
    where = "" if shard is None else f" shard-{shard}"
    return f"%(asctime)s{where} %(levelname)s %(name)s: %(message)s"


class Scrub:
    """Rewrites a log record in place: payloads hidden, tokens replaced."""

    def __init__(self, secrets: Iterable[str] = (), *, http_bodies: bool = False) -> None:
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)
        self.http_bodies = http_bodies

    def __call__(self, record: logging.LogRecord) -> None:
        """Scrub ``record``: its message, arguments and exception text."""
        raw = self.http_bodies and record.name.startswith(RAW_LOGGERS)
        text = self.secret_free if raw else self.text
        value = self.secret_free if raw else self.value
        record.msg = text(record.msg) if isinstance(record.msg, str) else value(record.msg)
        args = record.args
        if isinstance(args, Mapping):  # one mapping argument: named fields or a payload
            named = isinstance(record.msg, str) and "%(" in record.msg
            record.args = {k: value(v) for k, v in args.items()} if named else (value(args),)
        elif args:
            record.args = tuple(value(a) for a in args)
        if record.exc_info and not record.exc_text:
            # formatters reuse exc_text as it is: the traceback is written scrubbed
            record.exc_text = text(_FORMATTER.formatException(record.exc_info))

    def value(self, arg: Any) -> Any:
        """An argument as it may be logged: payloads hidden, text scrubbed."""
        if isinstance(arg, str):
            return HIDDEN if arg[:1] in ("{", "[") else self.text(arg)
        if isinstance(arg, Mapping) and "op" in arg and "t" in arg:  # a gateway frame
            return {key: arg.get(key) for key in ("op", "t", "s")}
        if isinstance(arg, functools.partial):  # a database call: the statement, no parameters
            return _call_name(arg)
        if isinstance(arg, (*_PAYLOADS, aiohttp.FormData)):
            return HIDDEN
        if isinstance(arg, BaseException):  # its text may quote a URL
            return self.text(str(arg))
        return arg

    def text(self, text: str) -> str:
        """``text`` with every token-like part replaced."""
        text = self.secret_free(text)
        if "/interactions/" in text or "/webhooks/" in text:
            text = _URL_TOKEN.sub(rf"\g<1>{TOKEN}", text)
        return _TOKEN_LIKE.sub(TOKEN, text)

    def secret_free(self, text: Any) -> Any:
        """``text`` with the known secrets (the bot token) replaced."""
        if not isinstance(text, str):
            return text
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, TOKEN)
        return text


_FORMATTER = logging.Formatter()


def _call_name(call: functools.partial[Any]) -> str:
    """``execute('SELECT ...', …)``: a deferred call's name and SQL, never its values."""
    name = getattr(call.func, "__name__", type(call.func).__name__)
    sql = next((a for a in call.args if isinstance(a, str)), None)
    return f"{name}({sql!r}, …)" if sql is not None else f"{name}(…)"


def install_scrub(scrub: Scrub) -> Callable[[], None]:
    """Make every log record of the process go through ``scrub``; returns the undo."""
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        scrub(record)
        return record

    logging.setLogRecordFactory(factory)
    return lambda: logging.setLogRecordFactory(previous)


def setup_logging(
    level: str,
    *,
    shard: int | None = None,
    http_bodies: bool = False,
    secrets: Iterable[str] = (),
    stream: TextIO | None = None,
) -> Callable[[], None]:
    """Log at ``level`` to ``stream`` (stderr) through the root logger, every record
    scrubbed (module docstring); returns the undo (tests)."""
    root = logging.getLogger()
    handler = logging.StreamHandler(sys.stderr if stream is None else stream)
    handler.setFormatter(logging.Formatter(log_format(shard)))
    old_level = root.level
    root.setLevel(level)
    root.addHandler(handler)
    uninstall = install_scrub(Scrub(secrets, http_bodies=http_bodies))
    if http_bodies:
        logging.getLogger("croupier").warning(
            "LOG_HTTP_BODIES=1: discord.py's DEBUG lines are written raw, with private cards "
            "(DMs, hidden hands) and interaction tokens"
        )

    def undo() -> None:
        uninstall()
        root.removeHandler(handler)
        root.setLevel(old_level)

    return undo
