"""The HTTP side of the server (every endpoint, its body, answers and errors:
``docs/server.md``):

- ``GET /`` the lobby, ``GET /t/{id}`` a table page (static files, no build step);
- ``GET /api/server``: this server's limits and whether creating a table needs a token;
- ``GET /api/games``: each game with its seats, bots and rules schema;
- ``GET /api/words``: every game word the table page shows (codes, event sentences, the Mậu
  Binh rows, Tứ Sắc card names), from :mod:`vncards.words` and the engine;
- ``GET /api/tables``, ``POST /api/tables`` ``{"game", "players", "rules", "seats",
  "turn_seconds", "auto_forced"}`` -> the table and its ``creator_token``;
- ``GET /api/tables/{id}``; ``POST /api/tables/{id}/join`` ``{"seat", "name"}`` ->
  ``{"token", "seat", "name"}``; ``POST /api/tables/{id}/leave`` (the seat's token);
  ``POST /api/tables/{id}/seats/{seat}`` ``{"bot"}`` and ``POST /api/tables/{id}/close``
  (the creator token);
- ``/ws/{id}``: the WebSocket protocol of :mod:`.protocol`.

A refusal is a JSON answer ``{"error", "message"}`` with its status (:data:`STATUS`); a failure
is logged and answered 500, never with a traceback. Table creation and the other writes are
rate-limited per client, and a client may hold only so many open tables.
"""

from __future__ import annotations

import functools
import hmac
import logging
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from .. import __version__, games
from ..bots import bot_names
from ..errors import VncardsError
from . import protocol
from .game_server import GameServer
from .limits import client_key
from .wire import ActionRefused, Refused, dumps, loads

__all__ = ["routes", "page_words", "STATUS", "STATIC"]

_log = logging.getLogger("vncards.server")

STATIC = Path(str(resources.files("vncards.server") / "static"))


@functools.lru_cache(maxsize=1)
def page_words() -> dict[str, Any]:
    """Every game word the browser table shows, from :mod:`vncards.words` and the engine, so
    the page keeps no word table of its own: ``terms`` (codes in words), ``events`` (event
    sentences), ``rows`` (the Mậu Binh hands, back to front: code, English, Vietnamese),
    ``cards`` (each Tứ Sắc card code by its name) and ``page`` (the page's own phrases:
    Vietnamese, English)."""
    from .._core import TuSacCard
    from ..words import EVENT_WORDS, PAGE_WORDS, ROWS, TERMS

    pieces = {r + c: TuSacCard(r + c).name for r in "KAERCHP" for c in "YRGW"}
    page = {k: list(v) for k, v in PAGE_WORDS.items()}
    return {
        "terms": TERMS,
        "events": EVENT_WORDS,
        "rows": [list(r) for r in ROWS],
        "cards": pieces,
        "page": page,
    }


#: HTTP status of each refusal code (400 for the others).
STATUS = {
    "unauthorized": 401,
    "not_creator": 403,
    "bad_token": 403,
    "no_table": 404,
    "table_broken": 410,
    "seat_taken": 409,
    "hand_in_play": 409,
    "not_seated": 409,
    "rate_limited": 429,
    "client_table_limit": 429,
    "too_large": 413,
    "too_many_tables": 503,
    "table_moved": 503,
}


def _refusal(e: ActionRefused | Refused | VncardsError) -> JSONResponse:
    if isinstance(e, (ActionRefused, Refused)):
        code, message = e.code, e.message
    else:
        code, message = getattr(e, "reason", None) or "rules_error", str(e)
    headers = {"retry-after": "10"} if STATUS.get(code) == 429 else None
    if code == "table_moved":
        headers = {"retry-after": "1"}
    return JSONResponse(
        {"error": code, "message": message}, status_code=STATUS.get(code, 400), headers=headers
    )


async def _json_body(request: Request, limit: int = 16384, *, optional: bool = False) -> dict[str, Any]:
    size = request.headers.get("content-length")
    if optional and size in (None, "0"):
        return {}
    if size is None or not size.isdigit() or int(size) > limit:
        raise ActionRefused("too_large", f"request bodies are JSON of at most {limit} bytes")
    body = await request.body()
    if len(body) > limit:
        raise ActionRefused("too_large", f"request bodies are JSON of at most {limit} bytes")
    try:
        data = loads(body, "body")
    except Refused as e:
        raise ActionRefused(e.code, e.message) from None
    if not isinstance(data, dict):
        raise ActionRefused("malformed", "the body is a JSON object")
    return data


def _bearer(request: Request) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header."""
    value = request.headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def _relayed(request: Request) -> bool:
    """Was the request relayed here by another process of the database (:mod:`.relay`)?"""
    return bool(request.scope.get("vncards.relayed"))


def _client(request: Request) -> str:
    return client_key(request.client.host if request.client else None)


Handler = Callable[[Request], Awaitable[Response]]


def _endpoint(fn: Handler) -> Handler:
    """An API handler whose refusals become JSON answers (400, 404, 409, 429, ...) and whose
    failures are logged and answered 500 with a JSON body; never a traceback."""

    async def handler(request: Request) -> Response:
        try:
            return await fn(request)
        except (ActionRefused, Refused, VncardsError) as e:
            return _refusal(e)
        except Exception:
            _log.exception("%s %s failed", request.method, request.url.path)
            return JSONResponse({"error": "internal", "message": "the server failed; it was logged"}, 500)

    return handler


def _operator(server: GameServer, request: Request) -> bool:
    """Does the request carry the operator's token (``Authorization: Bearer <create_token>``)?
    (A write that carries another token is held to the write limit, which bounds guesses.)"""
    token, given = server.config.create_token, _bearer(request)
    return token is not None and given is not None and hmac.compare_digest(given.encode(), token.encode())


def _creator(server: GameServer, request: Request) -> bool:
    """May the request create a table (``unauthorized`` if a token is needed and it has not
    the operator's)? True if it carries the operator's token. Each wrong token a client
    presents spends one of its guesses (:attr:`ServerConfig.guess_rate`); a client out of
    guesses is refused (``rate_limited``) before its token is compared."""
    if server.config.create_token is None:
        return False
    guesses = server.guess_buckets.get(_client(request))
    if _bearer(request) is not None and guesses.wait() > 0:
        raise ActionRefused("rate_limited", "too many wrong operator tokens from your address; wait a little")
    if _operator(server, request):
        return True
    if _bearer(request) is not None:
        guesses.take()
    raise ActionRefused("unauthorized", "creating a table needs the operator's token")


def _write_limited(server: GameServer, request: Request) -> None:
    if not _operator(server, request) and not server.write_buckets.take(_client(request)):
        raise ActionRefused("rate_limited", "too many requests; wait a little")


def routes(server: GameServer) -> list[BaseRoute]:
    """The server's routes: the pages, the JSON API, the WebSocket and the static files."""

    async def lobby(request: Request) -> Response:
        return FileResponse(STATIC / "lobby.html")

    async def table_page(request: Request) -> Response:
        return FileResponse(STATIC / "table.html")

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @_endpoint
    async def api_server(request: Request) -> Response:
        return JSONResponse(
            {
                "version": __version__,
                "process": server.store.owner if server.store is not None else None,
                "create_token_required": server.config.create_token is not None,
                "tables": len(server.tables),
                "limits": server.config.limits(),
            }
        )

    @_endpoint
    async def api_games(request: Request) -> Response:
        out = []
        for name, spec in games.GAMES.items():
            cls = spec.game_class()
            out.append(
                {
                    "name": name,
                    "title": spec.title,
                    "min_players": cls.MIN_PLAYERS,
                    "max_players": cls.MAX_PLAYERS,
                    "bots": bot_names(name),
                    "rules": games.rules_schema(name),
                }
            )
        return JSONResponse(out)

    @_endpoint
    async def api_words(request: Request) -> Response:
        return JSONResponse(page_words())

    @_endpoint
    async def api_tables(request: Request) -> Response:
        if request.method == "GET":
            lines = server.lobby_lines()
            if server.relay is not None and not _relayed(request):
                lines = await server.relay.lobby(lines)  # every process's tables
            return Response(dumps(lines).encode("utf-8"), media_type="application/json")
        operator = _creator(server, request)
        session, creator = server.create_table(await _json_body(request), _client(request), operator)
        return JSONResponse({**session.summary(), "creator_token": creator}, status_code=201)

    def relaying(fn: Handler) -> Handler:
        """A handler of one table's requests, which another process may serve: then the
        request is relayed to it and its answer is this one's."""

        async def handler(request: Request) -> Response:
            owner = server.route(request.path_params["table_id"], _relayed(request))
            if owner is not None:
                return await server.relay.relay_http(request, owner)  # type: ignore[no-any-return]
            return await fn(request)

        return handler

    @_endpoint
    @relaying
    async def api_table(request: Request) -> Response:
        live = server.live_table(request.path_params["table_id"])
        return JSONResponse({**live.session.summary(), "table": server.public_table(live)})

    @_endpoint
    @relaying
    async def api_join(request: Request) -> Response:
        _write_limited(server, request)
        body = await _json_body(request)
        if set(body) - {"seat", "name"}:
            raise ActionRefused("malformed", "a join body has seat and name")
        token, name = await server.join(request.path_params["table_id"], body.get("seat"), body.get("name"))
        return JSONResponse({"token": token, "seat": body.get("seat"), "name": name})

    @_endpoint
    @relaying
    async def api_leave(request: Request) -> Response:
        _write_limited(server, request)
        seat = await server.leave(request.path_params["table_id"], _bearer(request))
        return JSONResponse(seat)

    @_endpoint
    @relaying
    async def api_seat(request: Request) -> Response:
        _write_limited(server, request)
        body = await _json_body(request)
        if set(body) != {"bot"}:
            raise ActionRefused("malformed", "a seat body is {'bot': a bot name or null}")
        raw = request.path_params["seat"]
        seat = int(raw) if raw.isdigit() and len(raw) < 4 else raw
        out = await server.replace(request.path_params["table_id"], _bearer(request), seat, body["bot"])
        return JSONResponse(out)

    @_endpoint
    @relaying
    async def api_close(request: Request) -> Response:
        _write_limited(server, request)
        table_id = request.path_params["table_id"]
        await server.close_by_creator(table_id, _bearer(request))
        return JSONResponse({"id": table_id, "closed": True})

    async def websocket(ws: WebSocket) -> None:
        owner = server.route(ws.path_params["table_id"])
        if owner is not None:
            await server.relay.relay_websocket(ws, owner)
            return
        await protocol.serve(server, ws)

    return [
        Route("/", lobby),
        Route("/t/{table_id}", table_page),
        Route("/favicon.ico", favicon),
        Route("/api/server", api_server),
        Route("/api/games", api_games),
        Route("/api/words", api_words),
        Route("/api/tables", api_tables, methods=["GET", "POST"]),
        Route("/api/tables/{table_id}", api_table),
        Route("/api/tables/{table_id}/join", api_join, methods=["POST"]),
        Route("/api/tables/{table_id}/leave", api_leave, methods=["POST"]),
        Route("/api/tables/{table_id}/seats/{seat}", api_seat, methods=["POST"]),
        Route("/api/tables/{table_id}/close", api_close, methods=["POST"]),
        WebSocketRoute("/ws/{table_id}", websocket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
