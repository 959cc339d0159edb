"""The HTTP and WebSocket layer of ``mason serve`` (Starlette): routes over ``hub.Hub``.

Pages: ``/`` (the lobby) and ``/play/TOKEN`` (the game page; one page and one script for every game,
``static/``). JSON API (docs/web.md): ``GET /api/games``, ``POST /api/games``, ``POST /api/import``,
``GET /api/play/TOKEN`` (the link's payload), ``POST /api/play/TOKEN/answer`` and ``/undo``,
``GET /api/play/TOKEN/why/N``, ``/log``, ``/links`` (the host's), ``/export?format=save|log``;
WebSocket ``/ws/TOKEN``: the payload on connect and after every change, answers and undo in.
Every refusal is ``{"error": message, "code": code}`` with a 4xx status and changes nothing. The
hub's calls run in a thread pool: a bot thinking never holds the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from mason.web.hub import Hub, WebError, catalogue
from mason.web.store import Store

STATIC = Path(__file__).parent / "static"
MAX_BODY = 64 * 1024  # an answer, a lobby request
MAX_IMPORT = 16 * 1024 * 1024  # an exported save or log
MAX_MESSAGE = 16 * 1024  # one WebSocket message


def _error(exc: WebError) -> JSONResponse:
    return JSONResponse({"error": exc.message, "code": exc.code}, status_code=exc.status)


async def _body(request: Request, limit: int):
    """The request's JSON body, refused when larger than ``limit`` bytes or not JSON."""
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > limit):
        raise WebError(413, f"the request is too large (at most {limit} bytes)", "web/too-large")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limit:
            raise WebError(413, f"the request is too large (at most {limit} bytes)", "web/too-large")
    return raw


def _json(raw: bytes):
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise WebError(400, f"the request is not JSON: {exc}", "web/json") from None


def create_app(db: str = "mason-games.sqlite", workers: int = 4) -> Starlette:
    """The app over the games in SQLite file ``db``; bots and rule runs use ``workers`` threads."""
    store = Store(db)
    hub = Hub(store)
    # requests and payloads in one pool, bots in another: a bot thinking never queues a page's reply
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="mason-serve")
    bots = ThreadPoolExecutor(max_workers=max(1, workers // 2), thread_name_prefix="mason-bots")
    tasks: set = set()
    running: set = set()  # the games whose bots are playing now (one task a game)

    async def call(fn, *args):
        return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)

    async def play_bots(live):
        try:
            await asyncio.get_running_loop().run_in_executor(bots, hub.advance, live)
        finally:
            running.discard(live.gid)

    def spawn_bots(live) -> None:
        """Let the bots of ``live`` play on in their pool, in the background (the reply does not wait)."""
        if live.bot_seat() is None or live.gid in running:
            return
        running.add(live.gid)
        task = asyncio.ensure_future(play_bots(live))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    def api(fn):
        async def route(request: Request):
            try:
                return await fn(request)
            except WebError as exc:
                return _error(exc)

        return route

    async def lobby(request):
        return FileResponse(STATIC / "index.html")

    async def page(request):
        return FileResponse(STATIC / "game.html")

    @api
    async def games(request):
        return JSONResponse(await call(catalogue))

    @api
    async def create(request):
        spec = _json(await _body(request, MAX_BODY))
        made = await call(hub.create, spec)
        spawn_bots(hub.games[made["id"]])
        return JSONResponse(made)

    @api
    async def import_game(request):
        raw = await _body(request, MAX_IMPORT)
        seats = request.query_params.get("seats")
        kinds = seats.split(",") if seats else None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise WebError(400, "cannot import: not UTF-8 text", "web/json") from None
        made = await call(hub.import_game, text, kinds)
        spawn_bots(hub.games[made["id"]])
        return JSONResponse(made)

    @api
    async def state(request):
        live, seat, role = await call(hub.resolve, request.path_params["token"])
        spawn_bots(live)  # a game rebuilt after a restart, a bot to play
        return JSONResponse(await call(hub.payload, live, seat, role))

    @api
    async def answer(request):
        live, seat, role = await call(hub.resolve, request.path_params["token"])
        body = _json(await _body(request, MAX_BODY))
        if not isinstance(body, dict) or "answer" not in body:
            raise WebError(400, 'expected {"decision": N, "answer": ...}', "web/answer")
        await call(hub.answer, live, seat, body.get("decision"), body["answer"])
        spawn_bots(live)
        return JSONResponse(await call(hub.payload, live, seat, role))

    @api
    async def undo(request):
        live, seat, role = await call(hub.resolve, request.path_params["token"])
        message = await call(hub.undo, live, seat)
        out = dict(await call(hub.payload, live, seat, role))  # (the cached payload is shared: a copy)
        out["message"] = message
        return JSONResponse(out)

    @api
    async def why(request):
        live, seat, role = await call(hub.resolve, request.path_params["token"])
        n = request.path_params["n"]
        return JSONResponse({"lines": await call(hub.why, live, seat, int(n) if n.isdigit() else n)})

    @api
    async def log(request):
        live, seat, role = await call(hub.resolve, request.path_params["token"])
        return JSONResponse({"log": await call(hub.log_lines, live, seat)})

    @api
    async def links(request):
        live, seat, role = await call(hub.resolve, request.path_params["token"])
        if role != "host":
            raise WebError(403, "only the host's link lists the game's links", "web/links")
        return JSONResponse({"game": live.gid, "links": hub.links(live.gid), "kinds": live.kinds})

    @api
    async def export(request):
        live, seat, role = await call(hub.resolve, request.path_params["token"])
        fmt = request.query_params.get("format", "save")
        text, media = await call(hub.export, live, role, fmt)
        ext = "json" if fmt == "save" else "jsonl"
        return Response(
            text, media_type=media, headers={"content-disposition": f'attachment; filename="mason-{live.gid}.{ext}"'}
        )

    async def socket(ws: WebSocket):
        await ws.accept()
        try:
            live, seat, role = await call(hub.resolve, ws.path_params["token"])
        except WebError as exc:
            await ws.send_json({"error": exc.message, "code": exc.code})
            await ws.close(code=4404)
            return
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()

        def tell(version):
            loop.call_soon_threadsafe(queue.put_nowait, version)

        key = live.listen(seat, role, tell)

        async def push():
            sent = -1
            while True:
                version = await queue.get()
                while not queue.empty():
                    version = queue.get_nowait()
                if version != sent:
                    sent = version
                    # built when the change was published: no wait for the game's lock (a bot may hold it)
                    state = live.cache.get((seat, role))
                    if state is None or state["version"] != version:
                        state = await call(hub.payload, live, seat, role)
                    await ws.send_json({"type": "state", "state": state})

        pusher = asyncio.ensure_future(push())
        try:
            await ws.send_json({"type": "state", "state": await call(hub.payload, live, seat, role)})
            spawn_bots(live)
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text, data = message.get("text"), message.get("bytes")
                raw: str | bytes = text if text is not None else (data or b"")
                try:
                    if len(raw) > MAX_MESSAGE:
                        raise WebError(413, f"the message is too large (at most {MAX_MESSAGE} bytes)", "web/too-large")
                    body = _json(raw.encode() if isinstance(raw, str) else raw)
                    if not isinstance(body, dict) or body.get("type") not in ("answer", "undo", "state"):
                        raise WebError(400, 'a message is {"type": "answer" | "undo" | "state", ...}', "web/message")
                    if body["type"] == "answer":
                        await call(hub.answer, live, seat, body.get("decision"), body.get("answer"))
                        spawn_bots(live)
                    elif body["type"] == "undo":
                        await ws.send_json({"type": "message", "text": await call(hub.undo, live, seat)})
                    else:
                        await ws.send_json({"type": "state", "state": await call(hub.payload, live, seat, role)})
                except WebError as exc:
                    await ws.send_json({"type": "error", "error": exc.message, "code": exc.code})
        except WebSocketDisconnect:
            pass
        finally:
            pusher.cancel()
            live.unlisten(key)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        # the unfinished games whose next decision is a bot's play on at once (the others when opened)
        for gid in store.unfinished():
            try:
                live = await call(hub.live, gid)
            except Exception:  # a game whose rules no longer load stays stored, untouched
                continue
            spawn_bots(live)
        yield
        pool.shutdown(wait=False, cancel_futures=True)
        bots.shutdown(wait=False, cancel_futures=True)
        store.close()

    routes = [
        Route("/", lobby),
        Route("/play/{token}", page),
        Route("/api/games", games, methods=["GET"]),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/import", import_game, methods=["POST"]),
        Route("/api/play/{token}", state, methods=["GET"]),
        Route("/api/play/{token}/answer", answer, methods=["POST"]),
        Route("/api/play/{token}/undo", undo, methods=["POST"]),
        Route("/api/play/{token}/why/{n}", why, methods=["GET"]),
        Route("/api/play/{token}/log", log, methods=["GET"]),
        Route("/api/play/{token}/links", links, methods=["GET"]),
        Route("/api/play/{token}/export", export, methods=["GET"]),
        WebSocketRoute("/ws/{token}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    app.state.tasks = tasks
    return app
