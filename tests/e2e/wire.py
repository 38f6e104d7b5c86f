"""discord.py's own transport code, run over SimCord: what the bot would log on Discord.

SimCord replaces the bottom of discord.py (``HTTPClient.request``, the webhook adapter's
``request``, the gateway socket), so the lines discord.py writes there at DEBUG (request
and response bodies, webhook URLs with their tokens, every gateway event) never run in an
ordinary SimCord test. ``install(monkeypatch)`` puts that code back:

- REST: ``discord.http.HTTPClient.request`` and ``AsyncWebhookAdapter.request`` run for
  real (headers, JSON encoding, rate-limit buckets, retries, their log lines) against a
  fake aiohttp session whose one request is SimCord's route table (the same dispatch
  SimCord's own transport does, so ``env.http_requests``, error injection and every
  check keep working). A route's answer travels back as a response (status, JSON body)
  that discord.py decodes and raises on as it does with Discord's.
- Gateway: each event SimCord hands a parser goes first through
  ``DiscordWebSocket.received_message`` as the JSON text Discord would send (op 0, event
  name, sequence number), which logs it and calls the parser.

It must be installed before the simulated Discord starts (a ``simcord_bot`` fixture that
depends on it does that). Only the transport changes: the bot, its state and SimCord's
world are the same.
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import weakref
from collections.abc import Callable
from typing import Any

import pytest
from discord import utils
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient
from discord.webhook.async_ import AsyncWebhookAdapter
from multidict import CIMultiDict
from simcord import gateway as sim_gateway
from simcord.backend.errors import BackendError
from simcord.http import client as sim_client
from simcord.http import router

# the SimCord call discord.py is making: (backend, route, json, params, files, reason, access)
_CALL: contextvars.ContextVar[tuple[Any, ...]] = contextvars.ContextVar("wire_call")


class _Response:
    """Enough of an aiohttp response for discord.py's request loops."""

    def __init__(self, status: int, body: Any) -> None:
        self.status = status
        self.reason = {200: "OK", 204: "No Content", 403: "Forbidden", 404: "Not Found"}.get(
            status, "Error"
        )
        self.headers: CIMultiDict[str] = CIMultiDict()
        self._text = ""
        if body is not None:
            self.headers["content-type"] = "application/json"
            self._text = utils._to_json(body)

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text

    async def __aenter__(self) -> _Response:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class _Session:
    """The aiohttp session discord.py sends through: each request is SimCord's dispatch
    of the call discord.py is making (the body discord.py encoded is the same payload)."""

    def request(self, method: str, url: str, **kwargs: Any) -> _Response:
        backend, route, json, params, files, reason, access = _CALL.get()
        path = sim_client._path_of(url)
        assert method == route.method, (method, route.method)
        try:
            data = router.dispatch(
                backend,
                method,
                path,
                json=json,
                params=params,
                files=files,
                reason=reason,
                message_content_access=access,
            )
        except BackendError as error:
            return _Response(error.status, error.to_json())
        return _Response(200 if data is not None else 204, data)


SESSION = _Session()


def _payload(json: Any, form: Any, files: Any) -> tuple[Any, list[Any]]:
    """SimCord's reading of a body: the JSON, or the JSON part of a multipart form."""
    file_list = list(files or [])
    if form:
        parsed, file_list = router.parse_form(list(form), file_list)
        if parsed is not None:
            json = parsed
    return json, file_list


async def _http_request(
    self: Any, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any
) -> Any:
    """``FakeHTTPClient.request``: discord.py's real one, over the SimCord session."""
    json, file_list = _payload(kwargs.get("json"), form, files)
    self._HTTPClient__session = SESSION
    if self._global_over is utils.MISSING:  # set by the real static_login only
        self._global_over = asyncio.Event()
        self._global_over.set()
    call = (self.backend, route, json, kwargs.get("params"), file_list, kwargs.get("reason"))
    token = _CALL.set((*call, self.message_content_access))
    try:
        return await HTTPClient.request(self, route, files=files, form=form, **kwargs)
    finally:
        _CALL.reset(token)


async def _webhook_request(
    self: Any,
    route: Any,
    session: Any = None,
    *,
    payload: Any = None,
    multipart: Any = None,
    files: Any = None,
    params: Any = None,
    **kwargs: Any,
) -> Any:
    """``FakeWebhookAdapter.request``: discord.py's real adapter, over the SimCord session."""
    json, file_list = _payload(payload, multipart, files)
    if "_locks" not in vars(self):
        self._locks = weakref.WeakValueDictionary()
    call = (self.backend, route, json, params, file_list, kwargs.get("reason"))
    token = _CALL.set((*call, self.message_content_access))
    try:
        return await AsyncWebhookAdapter.request(
            self,
            route,
            SESSION,
            payload=payload,
            multipart=multipart,
            files=files,
            params=params,
            **kwargs,
        )
    finally:
        _CALL.reset(token)


def _receiver(parsers: dict[str, Callable[[Any], Any]]) -> DiscordWebSocket:
    """A gateway socket with just what ``received_message`` reads for a DISPATCH."""
    ws = DiscordWebSocket.__new__(DiscordWebSocket)
    ws.shard_id = 0
    ws.sequence = None
    ws.session_id = None
    ws._keep_alive = None
    ws._dispatch = lambda *args: None
    ws._dispatch_listeners = []
    ws._discord_parsers = parsers
    return ws


def _wire_parsers(state: Any) -> None:
    """Make every parser of ``state`` receive its event as gateway JSON first."""
    if getattr(state, "_wired_for_logs", False):
        return
    original = dict(state.parsers)
    ws = _receiver(original)
    sequence = itertools.count(1)

    def wired(event: str) -> Callable[[Any], None]:
        def parse(data: Any) -> None:
            text = utils._to_json({"op": 0, "t": event, "s": next(sequence), "d": data})
            step = DiscordWebSocket.received_message(ws, text)
            try:  # a DISPATCH never awaits: run the coroutine to its end here
                step.send(None)
            except StopIteration:
                return
            step.close()
            raise AssertionError(f"received_message awaited while dispatching {event}")

        return parse

    for event in original:
        state.parsers[event] = wired(event)
    state._wired_for_logs = True


def install(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run discord.py's REST and gateway code (and its log lines) over SimCord."""
    monkeypatch.setattr(sim_client.FakeHTTPClient, "request", _http_request)
    monkeypatch.setattr(sim_client.FakeWebhookAdapter, "request", _webhook_request)
    init = sim_gateway.FakeGateway.__init__

    def gateway_init(self: Any, backend: Any, connection_state: Any) -> None:
        init(self, backend, connection_state)
        _wire_parsers(connection_state)

    monkeypatch.setattr(sim_gateway.FakeGateway, "__init__", gateway_init)
