"""Two rules of Discord's the OpenAPI spec does not carry, checked on every REST request of
the e2e suite (the autouse fixtures of tests/e2e/conftest.py):

- **Message limits** (Discord's "Create Message" and embed limits docs): a content of at
  most 2,000 characters (the spec says 4,000, which is a Nitro user's) and 6,000
  characters in all the embeds of one message (the spec has each part's own limit).
- **Answer first**: an interaction gets its response (or a deferral) before any other
  request made on its behalf, or the 3 s to answer may run out behind a rate limit. The
  requests made on an interaction's behalf are the ones made in the tasks discord.py
  starts for it (its command, its button's callback, its listeners): a context variable
  set while discord.py parses the INTERACTION_CREATE is inherited by those tasks.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from typing import Any

CONTENT = 2000
EMBED_TOTAL = 6000

current_interaction: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "current_interaction", default=None
)


def _messages(body: Any) -> Iterator[dict[str, Any]]:
    """The message payloads of a request body: itself, or an interaction response's data."""
    if not isinstance(body, dict):
        return
    yield body
    if isinstance(body.get("data"), dict):
        yield body["data"]


def limit_problems(body: Any) -> list[str]:
    """What in one request body breaks Discord's message limits the spec does not carry
    (each embed part's own limit, and its count, are in the spec)."""
    problems = []
    for message in _messages(body):
        content = message.get("content")
        if isinstance(content, str) and len(content) > CONTENT:
            problems.append(f"content of {len(content)} characters (at most {CONTENT})")
        total = sum(embed_size(embed) for embed in message.get("embeds") or [])
        if total > EMBED_TOTAL:
            problems.append(f"embeds of {total} characters in all (at most {EMBED_TOTAL})")
    return problems


def embed_size(embed: dict[str, Any]) -> int:
    """The characters Discord counts against the 6,000 of a message's embeds."""
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    size += sum(
        len(f.get("name") or "") + len(f.get("value") or "") for f in embed.get("fields") or []
    )
    size += len((embed.get("footer") or {}).get("text") or "")
    return size + len((embed.get("author") or {}).get("name") or "")


def is_response(path: str, interaction: int) -> bool:
    """Whether a request is the interaction's own response (an answer, a deferral, a modal,
    autocomplete choices)."""
    return path.startswith(f"/interactions/{interaction}/") and path.endswith("/callback")


class AnswerFirst:
    """Records the first request made on each interaction's behalf; it must be its
    response."""

    def __init__(self) -> None:
        self.interactions = 0  # seen while discord.py parsed them
        self.first: dict[int, str] = {}  # interaction id -> its first request
        self.violations: list[str] = []
        self.envs: list[Any] = []

    def record(self, method: str, path: str) -> None:
        """A REST request the bot made: the first one of its interaction is checked."""
        interaction = current_interaction.get()
        if interaction is None or interaction in self.first:
            return
        self.first[interaction] = f"{method} {path}"
        if not is_response(path, interaction):
            self.violations.append(
                f"interaction {interaction}: {method} {path} went out before its response"
            )

    def watch(self, env: Any) -> None:
        """Check the requests of a simulated Discord's bot from now on."""
        self.envs.append(env)
        env.backend.http_requests = RecordedRequests(env.backend.http_requests, self)

    def install(self, monkeypatch: Any) -> None:
        """Mark every interaction discord.py parses, in every bot the test starts (a
        restarted bot builds its gateway parsers anew from the class)."""
        from discord.state import ConnectionState

        parse = ConnectionState.parse_interaction_create

        def parse_marked(state: ConnectionState, data: Any) -> None:
            self.interactions += 1
            token = current_interaction.set(int(data["id"]))
            try:  # the tasks discord.py starts for the interaction inherit the mark
                parse(state, data)
            finally:
                current_interaction.reset(token)

        monkeypatch.setattr(ConnectionState, "parse_interaction_create", parse_marked)

    def finish(self) -> None:
        """Fail on an interaction answered after another request made for it, and on a
        check that saw interactions answered but none parsed (the hook was lost)."""
        answered = sum(r.path.endswith("/callback") for env in self.envs for r in env.http_requests)
        assert self.interactions or not answered, "the answer-first check saw no interaction"
        if self.violations:
            raise AssertionError(
                f"{len(self.violations)} interaction(s) not answered first:\n"
                + "\n".join(self.violations)
            )


class RecordedRequests(list[Any]):
    """SimCord's log of REST requests, telling the answer-first check of each one."""

    def __init__(self, items: list[Any], check: AnswerFirst) -> None:
        super().__init__(items)
        self.check = check

    def append(self, entry: Any) -> None:
        """Log one request (SimCord's router calls this in the task that made it)."""
        super().append(entry)
        self.check.record(entry.method, entry.path)
