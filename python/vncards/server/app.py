"""The start-up of the server: :func:`create_app` makes the ASGI app of one server process, a
:class:`~.game_server.GameServer` with its routes, which resumes every stored open table
when the app starts and stops each table's task (their rows hold everything) when it stops.

The server's parts, each in its own module:

- :mod:`.config`: the limits and defaults (:class:`~.config.ServerConfig`);
- :mod:`.routes`: the pages and the JSON API; :mod:`.protocol`: the WebSocket protocol;
- :mod:`.game_server`: every table served, each change stored before anyone is told;
- :mod:`.driver`: each table's clock and bots; :mod:`.live`: a table being served;
- :mod:`.table`: one table, transport-free; :mod:`.seats`: a seat's stored state and token;
- :mod:`.store`: the signed rows and the tables' leases; :mod:`.relay`: requests for a table
  another process serves, relayed to it (PostgreSQL's LISTEN/NOTIFY);
- :mod:`.wire`: what crosses the wire, checked;
  :mod:`.limits`: rate limits and what one client is.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator

from starlette.applications import Starlette

from . import protocol
from .config import ServerConfig
from .game_server import GameServer
from .relay import Relay
from .routes import routes
from .store import is_postgres

__all__ = ["create_app", "ServerConfig", "GameServer"]


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The server as an ASGI app (``uvicorn.run(create_app(...))``); ``app.state.server`` is
    its :class:`GameServer`."""
    server = GameServer(config or ServerConfig())

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        assert server.store is not None
        if is_postgres(server.config.db):  # other processes may share the database
            server.relay = Relay(
                server.store,
                server.config.db,
                serves=lambda table_id: table_id in server.tables,
                lobby_lines=server.lobby_lines,
                serve_websocket=functools.partial(protocol.serve, server),
                app=app,
            )
            await server.relay.start()
        try:
            yield
        finally:
            await server.stop()

    app = Starlette(routes=routes(server), lifespan=lifespan)
    app.state.server = server
    return app
