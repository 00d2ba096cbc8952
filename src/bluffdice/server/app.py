"""The web application: lobby API, the table websocket, replays and the static page.

Routes: `/`, `/t/{id}` and `/replay/{id}` serve the one page (it reads its path);
`/api/...` is JSON for the lobby, replays and fair records (`/api/tables/{id}/fair`,
what `bluffdice verify URL` reads); `/ws/{id}` is a table's websocket (`TableSocket`).
Each group of routes is made by a function of its own (`page_routes`, `lobby_routes`,
`seat_routes`, `result_routes`). The first websocket message is `{"type": "hello",
"token": ...}` (the token is sent as a message, not in the URL, so it never lands in an
access log); without a token (or with a wrong one) the connection watches as a
spectator.

Every response carries the security headers of `SECURITY_HEADERS`; request bodies over
`Limits.body_bytes` are refused with 413 (`BodyLimit`); websockets are capped per address
and per table (`Limits`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import msgspec
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from bluffdice.bots import available_bots
from bluffdice.games.base import BluffdiceError, RuleError
from bluffdice.games.registry import games, parse_rules
from bluffdice.server.connections import MAX_MESSAGE, Connection
from bluffdice.server.hall import Hall
from bluffdice.server.pages import page_response
from bluffdice.server.refusals import HallError
from bluffdice.server.reviewer import ReviewQueue
from bluffdice.server.tables import LiveTable
from bluffdice.store.tables import TableStore

if TYPE_CHECKING:  # loads with `serve --maexchen` only
    from bluffdice.server.scoreboard import Scoreboard

STATIC = Path(__file__).parent / "static"
HELLO_SECONDS = 10.0
SWEEP_SECONDS = 30.0
"""How often expired tables are looked for."""

SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; "
        b"form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # a table's link is its invitation
    (b"x-frame-options", b"DENY"),
]
"""Sent with every HTTP response: the page runs only its own scripts, cannot be framed,
and never tells another site which table it came from."""


class BodyTooLarge(Exception):
    """A request body grew past the limit while it was read."""


class BodyLimit:
    """ASGI middleware: the security headers on every response, and request bodies
    capped at `limit` bytes: refused with 413 by their Content-Length before anything is
    read, and, sent without one (chunked), counted as they stream in and cut off at the
    limit with 413 too."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit
        started = False

        async def send_with_headers(event: Message) -> None:
            nonlocal started
            if event["type"] == "http.response.start":
                started = True
                event = {**event, "headers": [*event.get("headers", ()), *SECURITY_HEADERS]}
            await send(event)

        for name, value in scope["headers"]:
            if name == b"content-length" and (not value.isdigit() or int(value) > limit):
                await too_large(limit)(scope, receive, send_with_headers)
                return
        seen = 0

        async def counted() -> Any:
            nonlocal seen
            event = await receive()
            if event["type"] == "http.request":
                seen += len(event.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge
            return event

        try:
            await self.app(scope, counted, send_with_headers)
        except BodyTooLarge:
            if started:
                raise
            await too_large(limit)(scope, receive, send_with_headers)


def too_large(limit: int) -> Response:
    return JSONResponse(
        {"error": f"the request body is over {limit} bytes, the most this server reads"},
        status_code=413,
        headers={"connection": "close"},
    )


class MsgspecResponse(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return msgspec.json.encode(content)


class TableSockets:
    """Starlette middleware that takes `/ws/{id}` websockets straight to the table's
    endpoint, past the router and the exception middleware: on every frame of every
    connection those would add a wrapper around `send` that checks the message for an
    HTTP response that a websocket never sends."""

    def __init__(
        self, app: ASGIApp, endpoint: Callable[[Scope, Receive, Send], Awaitable[None]]
    ) -> None:
        self.app = app
        self.endpoint = endpoint

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            table_id = scope["path"].removeprefix("/ws/")
            if table_id != scope["path"] and table_id and "/" not in table_id:
                scope["path_params"] = {"id": table_id}
                await self.endpoint(scope, receive, send)
                return
        await self.app(scope, receive, send)


def error(problem: BluffdiceError, status: int = 400) -> JSONResponse:
    """The refusal as JSON: its English text, and for the hall's own refusals and a bad
    rule string the catalogue key and parameters the page shows it with in its own
    language (a parameter may itself be {"key", "params"})."""
    answer: dict[str, Any] = {"error": str(problem)}
    if isinstance(problem, HallError | RuleError) and problem.key is not None:
        answer.update(key=problem.key, params=problem.params)
    return JSONResponse(answer, status_code=status)


def create_app(
    store: TableStore | None,
    hall: Hall | None = None,
    origins: Sequence[str] = (),
    scoreboard: Scoreboard | None = None,
) -> Starlette:
    """The server for one hall. `origins` are extra allowed websocket origins (besides the
    page's own host), e.g. a reverse proxy's public address. With `scoreboard`, its
    Mäxchen contest runs in the server's loop and `/scoreboard` shows it."""
    hall = hall if hall is not None else Hall(store)
    reviews = ReviewQueue(hall)
    routes = [
        *page_routes(),
        *lobby_routes(hall),
        *seat_routes(hall),
        *result_routes(hall, reviews),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    lifespan = hall_lifespan(hall, store, reviews)
    if scoreboard is not None:
        from bluffdice.server import scoreboard as board

        routes[:0] = board.routes(scoreboard)
        lifespan = board.with_contest(lifespan, scoreboard)
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[
            Middleware(BodyLimit, limit=hall.limits.body_bytes),
            Middleware(TableSockets, endpoint=TableSocket(hall, origins)),
        ],
    )
    app.state.hall = hall
    return app


Lifespan = Callable[[Starlette], contextlib.AbstractAsyncContextManager[None]]


def hall_lifespan(hall: Hall, store: TableStore | None, reviews: ReviewQueue) -> Lifespan:
    """Start: resume the stored tables lazily, sweep expired tables every SWEEP_SECONDS,
    checkpoint the store in the background, tune the collector; stop: close the hall and
    stop the review workers."""

    async def sweep() -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            hall.sweep()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hall.resume_lazily()  # serve at once; stored tables load a few at a time
        sweeper = asyncio.create_task(sweep())
        if store is not None:
            store.checkpoint_in_background()
        gc.freeze()  # what startup made lives on: later collections need not scan it
        # A move makes and drops many small objects (views, messages), nearly all freed
        # by their reference counts; collecting cycles every 20,000 allocations instead
        # of every 700 saves about a tenth of the server's CPU per move.
        thresholds = gc.get_threshold()
        gc.set_threshold(20_000, 10, 10)
        try:
            yield
        finally:
            sweeper.cancel()
            gc.set_threshold(*thresholds)
            hall.close()
            reviews.close()
            if store is not None:
                store.stop_checkpoints()

    return lifespan


def page_routes() -> list[Route]:
    """The one page (it reads its path), the games with their bots, a rule string read."""

    async def page(request: Request) -> Response:
        return page_response(request, "index.html")

    async def api_games(request: Request) -> Response:
        from bluffdice.games.catalogue import game_entry, ruleset_entry

        listing = []
        for spec in games():
            entry = game_entry(spec)
            entry["options"] = ruleset_entry(spec.default_rules())["options"]
            entry["bots"] = [
                {"name": name, "description": cls.description}
                for name, cls in available_bots(spec.name).items()
            ]
            listing.append(entry)
        return MsgspecResponse({"games": listing})

    async def api_rules(request: Request) -> Response:
        from bluffdice.games.catalogue import ruleset_entry

        try:
            return MsgspecResponse(
                ruleset_entry(parse_rules(request.query_params.get("rules", "")))
            )
        except BluffdiceError as exc:
            return error(exc)

    return [
        Route("/", page),
        Route("/t/{id}", page),
        Route("/replay/{id}", page),
        Route("/api/games", api_games),
        Route("/api/rules", api_rules),
    ]


def lobby_routes(hall: Hall) -> list[Route]:
    """The lobby: the listing, a new table, one table's info, taking a seat."""

    async def api_tables(request: Request) -> Response:
        if request.method == "GET":
            query = request.query_params
            offset, count = _number(query.get("offset"), 0), _number(query.get("limit"), 20)
            return MsgspecResponse(hall.listing(offset, count))
        body = await _json(request)
        try:
            return MsgspecResponse(hall.create(body, address=_address(request)))
        except HallError as exc:
            return error(exc, 429 if exc.key in BUSY else 400)

    async def api_table(request: Request) -> Response:
        try:
            return MsgspecResponse(hall.get(request.path_params["id"]).info())
        except HallError as exc:
            return error(exc, 404)

    async def api_join(request: Request) -> Response:
        body = await _json(request)
        try:
            live = hall.get(request.path_params["id"])
            seat = body.get("seat") if isinstance(body, dict) else None
            if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
                raise HallError.said("err.seatNumber")
            name = body.get("name") if isinstance(body, dict) else None
            number, token = live.claim(name, seat)
        except HallError as exc:
            return error(exc)
        return MsgspecResponse({"id": live.id, "seat": number, "token": token})

    return [
        Route("/api/tables", api_tables, methods=["GET", "POST"]),
        Route("/api/tables/{id}", api_table),
        Route("/api/tables/{id}/join", api_join, methods=["POST"]),
    ]


def seat_routes(hall: Hall) -> list[Route]:
    """A seated player's requests besides moves: leave, give a seed; the creator's
    hand-over of a seat."""

    async def api_leave(request: Request) -> Response:
        body = await _json(request)
        try:
            live = hall.get(request.path_params["id"])
            seat = live.leave(body.get("token") if isinstance(body, dict) else None)
        except HallError as exc:
            return error(exc)
        return MsgspecResponse({"ok": True, "seat": seat})

    async def api_hand_over(request: Request) -> Response:
        """The creator hands a seat over: {"host", "seat", "to": "bot"|"player", "bot"}."""
        body = await _json(request)
        try:
            if not isinstance(body, dict):
                raise HallError.said("err.tableObject")
            live = hall.get(request.path_params["id"])
            live.hand_over(body.get("host"), body.get("seat"), body.get("to"), body.get("bot"))
        except HallError as exc:
            return error(exc, 403 if exc.key == "err.notHost" else 400)
        return MsgspecResponse({"ok": True, "table": live.info()})

    async def api_seed(request: Request) -> Response:
        body = await _json(request)
        try:
            if not isinstance(body, dict):
                raise HallError.said("err.seedObject")
            live = hall.get(request.path_params["id"])
            live.give_seed(body.get("token"), body.get("seed"))
        except HallError as exc:
            return error(exc)
        return MsgspecResponse({"ok": True})

    return [
        Route("/api/tables/{id}/seed", api_seed, methods=["POST"]),
        Route("/api/tables/{id}/leave", api_leave, methods=["POST"]),
        Route("/api/tables/{id}/hand", api_hand_over, methods=["POST"]),
    ]


def result_routes(hall: Hall, reviews: ReviewQueue) -> list[Route]:
    """Finished games: the fair record, the replay, the review (rated by `reviews`)."""

    async def api_fair(request: Request) -> Response:
        """The fair record of a finished game: what `bluffdice verify URL` reads."""
        try:
            fair = hall.get(request.path_params["id"]).fair_record()
        except HallError as exc:
            return error(exc, 404)
        return MsgspecResponse(
            fair,
            headers={"Content-Disposition": f'inline; filename="{request.path_params["id"]}.json"'},
        )

    async def api_review(request: Request) -> Response:
        try:
            review = await reviews.review(request.path_params["id"])
        except HallError as exc:
            status = {"err.reviewBusy": 503, "err.reviewLong": 413}.get(exc.key or "", 404)
            return error(exc, status)
        return MsgspecResponse(review)

    async def api_replay(request: Request) -> Response:
        try:
            return MsgspecResponse(hall.replay(request.path_params["id"]))
        except HallError as exc:
            return error(exc, 404)

    return [
        Route("/api/tables/{id}/fair", api_fair),
        Route("/api/replays/{id}", api_replay),
        Route("/api/replays/{id}/review", api_review),
    ]


class TableSocket:
    """The `/ws/{id}` endpoint: a plain ASGI app, so frames go to `send` directly, not
    through the state checks and wrappers Starlette puts around each message of a
    function endpoint. Websockets are capped per address and per table."""

    def __init__(self, hall: Hall, origins: Sequence[str]) -> None:
        self.hall = hall
        self.allowed = {o.rstrip("/").lower() for o in origins}
        self.sockets_from: Counter[str] = Counter()
        """Open table websockets per client address."""

    def origin_ok(self, websocket: WebSocket) -> bool:
        """Browsers send Origin; it must be this server (or a configured origin). Programs
        that send none are let in: they hold no one's cookies, only their own token."""
        origin = websocket.headers.get("origin")
        if origin is None:
            return True
        origin = origin.rstrip("/").lower()
        if origin in self.allowed:
            return True
        host = websocket.headers.get("host", "").lower()
        return urlsplit(origin).netloc == host

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        websocket = WebSocket(scope, receive, send)
        if not self.origin_ok(websocket):
            await websocket.close(code=1008)
            return
        address = websocket.client.host if websocket.client is not None else ""
        await websocket.accept()
        limits = self.hall.limits
        live = self.hall.find(websocket.path_params["id"])
        if live is None:
            await refuse(websocket, "no_table", "no such table", 4404)
            return
        if self.sockets_from[address] >= limits.connections_per_address:
            await refuse(
                websocket, "too_many_connections", "too many connections from your address", 4429
            )
            return
        if len(live.connections) >= limits.connections_per_table:
            await refuse(
                websocket, "table_crowded", "this table has as many viewers as it takes", 4429
            )
            return
        self.sockets_from[address] += 1
        try:
            await self.serve(websocket, receive, send, live, address)
        finally:
            self.sockets_from[address] -= 1
            if not self.sockets_from[address]:
                del self.sockets_from[address]

    async def serve(
        self, websocket: WebSocket, receive: Receive, send: Send, live: LiveTable, address: str
    ) -> None:
        """After the hello: read the client's messages into the table and write its
        frames out, until either side ends."""
        try:
            token = await asyncio.wait_for(_hello(websocket), HELLO_SECONDS)
        except (TimeoutError, WebSocketDisconnect):
            await websocket.close(code=1008)
            return
        connection = Connection(live.seat_of(token), hall=self.hall, address=address)
        live.connect(connection)
        reader = asyncio.create_task(self.read(receive, live, connection))
        writer = asyncio.create_task(_write(websocket, send, connection))
        try:
            await asyncio.wait([reader, writer], return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (reader, writer):
                task.cancel()
                if task.done() and not task.cancelled():
                    task.exception()  # a closed socket: nothing to report
            live.disconnect(connection)
            connection.drop("closed")
            with contextlib.suppress(Exception):
                await websocket.close(code=1000)

    async def read(self, receive: Receive, live: LiveTable, connection: Connection) -> None:
        # uvicorn's `receive` itself: Starlette's `WebSocket.receive` would check the
        # connection's state on every frame
        guard = self.hall.guard
        while not connection.dropped:
            received = await receive()
            if received["type"] == "websocket.disconnect":
                return
            data: str | bytes = received.get("text") or received.get("bytes") or b""
            guard(live, functools.partial(live.receive, connection, data))


async def _write(websocket: WebSocket, send: Send, connection: Connection) -> None:
    while (data := await connection.get()) is not None:
        await send({"type": "websocket.send", "text": data.decode()})
    with contextlib.suppress(Exception):
        await websocket.close(code=1008, reason=connection.reason[:100])


BUSY = {"err.tooManyTables", "err.tooManyYours", "err.tooManyBotTables"}
"""Refusals that say: not now (429 Too Many Requests)."""


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else ""


def _number(text: str | None, default: int) -> int:
    return int(text) if text is not None and text.isdigit() else default


async def refuse(websocket: WebSocket, code: str, reason: str, close: int) -> None:
    """Tell a websocket why it is not served, then close it."""
    await websocket.send_text(
        msgspec.json.encode([{"type": "error", "code": code, "reason": reason, "v": 1}]).decode()
    )
    await websocket.close(code=close, reason=reason)


async def _json(request: Request) -> Any:
    body = await request.body()  # capped by BodyLimit
    try:
        return msgspec.json.decode(body)
    except msgspec.DecodeError:
        return None


async def _hello(websocket: WebSocket) -> str | None:
    """The token of the first message, if it is a hello with one."""
    text = await websocket.receive_text()
    if len(text) > MAX_MESSAGE:
        return None
    try:
        hello = msgspec.json.decode(text)
    except msgspec.DecodeError:
        return None
    if isinstance(hello, dict) and hello.get("type") == "hello":
        token = hello.get("token")
        return token if isinstance(token, str) else None
    return None
