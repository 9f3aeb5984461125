"""The local web app (``letterchess serve``): the page, its static files and the JSON API of
:mod:`solver.web.api` over HTTP, on Starlette, served by uvicorn.

Every API call runs in a worker thread, so the event loop never waits for the move generator,
the referee or a bound. A solve runs in a thread of its own, at most one per core at a time
(more are refused with a 429), and reports its progress as server-sent events; the page can stop
it and gets the best game found so far. Bad input gets a 4xx with ``{"error": "..."}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import socket
import threading
import time
import webbrowser
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib.resources import files
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..dictionary import Dictionary
from ..search.base import SearchContext
from .api import INPUT_ERRORS, Api, ApiError, Limits, SolveRequest, solution_answer
from .replay import replay_html

STATIC = files(__package__).joinpath("static")
#: Finished solves kept for their pages to fetch, the oldest forgotten first.
KEPT_SOLVES = 32
#: Seconds between two progress events of a solve.
PROGRESS_INTERVAL = 0.25


class SolveJob:
    """One solve running in its own thread: its progress, its stop switch and its answer."""

    def __init__(self, request: SolveRequest, dictionary: Dictionary) -> None:
        self.id = secrets.token_urlsafe(8)
        self.request = request
        self.dictionary = dictionary
        self.context: SearchContext | None = None
        #: What the solve is doing (``on_phase`` of :func:`solver.solve`): "preparing kernels",
        #: "searching", "computing the bound", then "done".
        self.phase = "starting"
        self.answer: dict[str, Any] | None = None
        self.error: str | None = None
        self.done = threading.Event()
        self._stop_asked = False
        self._started = time.monotonic()

    def attach(self, context: SearchContext) -> None:
        """``on_context`` of :func:`solver.solve`: the search's context, read for progress."""
        self.context = context
        context.interrupted = self._stop_asked

    def set_phase(self, phase: str) -> None:
        self.phase = phase

    def stop(self) -> None:
        """Ask the search to stop; it then returns the best game found so far, as Ctrl-C
        does on the command line."""
        self._stop_asked = True
        if self.context is not None:
            self.context.interrupted = True

    def run(self, release: Callable[[], None]) -> None:
        """The thread's body; ``release`` frees its place among the solves at once."""
        from ..solution import solve

        request = self.request
        try:
            solution = solve(
                request.layout,
                request.strategy,
                time_limit=request.time_limit,
                max_moves=request.max_moves,
                seed=request.seed,
                dictionary=self.dictionary,
                rules=request.rules,
                max_states=request.max_states,
                on_context=self.attach,
                on_phase=self.set_phase,
            )
            self.answer = solution_answer(solution)
        except Exception as error:  # reported to the page, which asked for this solve
            self.error = f"the solve failed: {error}"
        finally:
            release()
            self.done.set()

    def progress(self) -> dict[str, Any]:
        """The state of the solve, as sent to the page."""
        context = self.context
        state = "done" if self.done.is_set() else "running"
        if self.error is not None:
            state = "failed"
        progress: dict[str, Any] = {
            "job": self.id,
            "state": state,
            "phase": self.phase,
            "best": None,
            "states": 0,
            "seconds": round(time.monotonic() - self._started, 2),
            "stopping": self._stop_asked,
        }
        if context is not None:
            progress.update(
                best=context.best_score, states=context.states, seconds=round(context.elapsed, 2)
            )
        if self.error is not None:
            progress["error"] = self.error
        if self.answer is not None:
            search = self.answer["record"].get("search") or {}
            progress.update(phase="done", seconds=search.get("seconds"), result=self.answer)
        return progress


class Solves:
    """The solves of the app: at most ``workers`` at once, the last :data:`KEPT_SOLVES` kept."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._slots = threading.BoundedSemaphore(workers)
        self._jobs: OrderedDict[str, SolveJob] = OrderedDict()

    def start(self, request: SolveRequest, dictionary: Dictionary) -> SolveJob:
        if not self._slots.acquire(blocking=False):
            raise ApiError(
                f"{self.workers} solve{'s' * (self.workers != 1)} already running (one per "
                "core): wait for one to finish or stop it",
                status=429,
            )
        job = SolveJob(request, dictionary)
        self._jobs[job.id] = job
        while len(self._jobs) > KEPT_SOLVES:
            oldest = next(iter(self._jobs.values()))
            if not oldest.done.is_set():
                break
            self._jobs.popitem(last=False)
        # Not a daemon: the interpreter must not exit while the thread is in compiled code (the
        # bound's linear programme would abort the process); a stopped solve ends in moments.
        threading.Thread(
            target=job.run, args=(self._slots.release,), name=f"solve-{job.id}"
        ).start()
        return job

    def get(self, job_id: str) -> SolveJob:
        job = self._jobs.get(job_id)
        if job is None:
            raise ApiError(f"no solve {job_id!r} (finished solves are kept a while)", status=404)
        return job

    def stop_all(self) -> None:
        for job in list(self._jobs.values()):
            job.stop()


async def read_json(request: Request, limits: Limits) -> dict[str, Any]:
    """The request's JSON object body, at most ``limits.max_body`` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limits.max_body:
        raise ApiError(f"request body over {limits.max_body:,} bytes", status=413)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limits.max_body:
            raise ApiError(f"request body over {limits.max_body:,} bytes", status=413)
    try:
        data = json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ApiError(f"the request body is not JSON ({error})") from None
    except RecursionError:
        raise ApiError("the request body nests too deep to be a request") from None
    if not isinstance(data, dict):
        raise ApiError("the request body must be a JSON object")
    return data


Handler = Callable[[Request], Awaitable[Response]]


def _json_errors(handler: Handler) -> Handler:
    """Bad input becomes a 4xx with ``{"error": message}``, never a 500."""

    async def guarded(request: Request) -> Response:
        try:
            return await handler(request)
        except INPUT_ERRORS as error:
            status = error.status if isinstance(error, ApiError) else 400
            return JSONResponse({"error": str(error)}, status_code=status)

    return guarded


def create_app(
    dictionary: Dictionary,
    *,
    limits: Limits | None = None,
    workers: int | None = None,
    allowed_hosts: list[str] | None = None,
) -> Starlette:
    """The web app for ``dictionary``.

    :param workers: solves at once (default: one per core).
    :param allowed_hosts: the ``Host`` names served (default: any); a server on the loopback
        interface serves only its own names, so that no other site's page can reach it through
        a DNS name pointed at 127.0.0.1.
    """
    api = Api(dictionary, limits)
    solves = Solves(workers or os.cpu_count() or 1)

    def endpoint(method: Callable[[dict[str, Any]], Any]) -> Handler:
        """A POST endpoint that runs ``method`` on the JSON body in a worker thread."""

        @_json_errors
        async def handler(request: Request) -> Response:
            data = await read_json(request, api.limits)
            return JSONResponse(await run_in_threadpool(method, data))

        return handler

    async def index(request: Request) -> Response:
        return FileResponse(str(STATIC.joinpath("index.html")))

    async def info(request: Request) -> Response:
        return JSONResponse(api.info())

    @_json_errors
    async def replay_page(request: Request) -> Response:
        """The self-contained HTML replay of a record, as ``show --html`` writes it."""
        data = await read_json(request, api.limits)
        replay = await run_in_threadpool(api.replay, data)
        html = await run_in_threadpool(replay_html, replay)
        headers = {"Content-Disposition": 'attachment; filename="letterchess-replay.html"'}
        return Response(html, media_type="text/html", headers=headers)

    @_json_errors
    async def solve_start(request: Request) -> Response:
        data = await read_json(request, api.limits)
        job = solves.start(await run_in_threadpool(api.solve_request, data), dictionary)
        return JSONResponse(
            {"job": job.id, "events": f"/api/solve/{job.id}/events"}, status_code=202
        )

    @_json_errors
    async def solve_status(request: Request) -> Response:
        return JSONResponse(solves.get(request.path_params["job"]).progress())

    @_json_errors
    async def solve_stop(request: Request) -> Response:
        job = solves.get(request.path_params["job"])
        job.stop()
        return JSONResponse(job.progress())

    @_json_errors
    async def solve_events(request: Request) -> Response:
        job = solves.get(request.path_params["job"])

        async def events() -> AsyncIterator[str]:
            while True:
                progress = job.progress()
                finished = progress["state"] != "running"
                yield f"event: {'done' if finished else 'progress'}\n"
                yield f"data: {json.dumps(progress)}\n\n"
                if finished:
                    return
                await asyncio.sleep(PROGRESS_INTERVAL)

        return StreamingResponse(
            events(), media_type="text/event-stream", headers={"Cache-Control": "no-store"}
        )

    async def not_found(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": f"{request.url.path}: {exc.detail}"}, exc.status_code)

    routes = [
        Route("/", index),
        Route("/api/info", info),
        Route("/api/board", endpoint(api.board), methods=["POST"]),
        Route("/api/game", endpoint(api.game), methods=["POST"]),
        Route("/api/position", endpoint(api.position), methods=["POST"]),
        Route("/api/play", endpoint(api.play), methods=["POST"]),
        Route("/api/plays", endpoint(api.plays), methods=["POST"]),
        Route("/api/bound", endpoint(api.bound), methods=["POST"]),
        Route("/api/check", endpoint(api.check), methods=["POST"]),
        Route("/api/replay", endpoint(api.replay), methods=["POST"]),
        Route("/api/replay.html", replay_page, methods=["POST"]),
        Route("/api/solve", solve_start, methods=["POST"]),
        Route("/api/solve/{job}", solve_status),
        Route("/api/solve/{job}/events", solve_events),
        Route("/api/solve/{job}/stop", solve_stop, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    middleware = []
    if allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        solves.stop_all()  # a running solve then ends within moments, with its best game

    app = Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={HTTPException: not_found},
        lifespan=lifespan,
    )
    app.state.solves = solves
    return app


#: The names a server on the loopback interface answers to (IPv6 ``[::1]`` is not checked:
#: Starlette's host check does not parse it).
LOOPBACK_HOSTS = ("127.0.0.1", "localhost")


def warm_up(dictionary: Dictionary) -> None:
    """Generate plays and bound a deal once, so that the compiled kernels are loaded (or, on a
    fresh install, compiled: some seconds) before the page first needs them."""
    from ..board import deal
    from ..movegen import generate_plays
    from ..rules import Rules
    from ..search.bound import board_bound

    layout = deal(0)
    generate_plays(layout, layout.tile_mask, dictionary, Rules(), 2)
    board_bound(layout, dictionary, Rules(), 2)


def serve(
    dictionary: Dictionary,
    host: str = "127.0.0.1",
    port: int = 8000,
    open_browser: bool = True,
    announce: Callable[[str], None] = print,
) -> None:
    """Run the app until Ctrl-C.

    :param port: 0 picks a free port; the address is announced either way.
    :raises OSError: when the address cannot be bound (in use, not this machine's).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    bound_port = sock.getsockname()[1]
    shown_host = f"[{host}]" if family == socket.AF_INET6 else host
    url = f"http://{shown_host}:{bound_port}/"
    allowed = list(LOOPBACK_HOSTS) if host in LOOPBACK_HOSTS else None
    app = create_app(dictionary, allowed_hosts=allowed)
    solves: Solves = app.state.solves
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=5)
    server = _StoppingServer(config, solves)

    def open_when_ready() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if server.started:
            webbrowser.open(url)

    announce(f"Letter Chess at {url} (Ctrl-C stops it)")
    # Not a daemon either, for the same reason; it takes a second or two.
    threading.Thread(target=warm_up, args=(dictionary,), name="warm-up").start()
    if open_browser:
        threading.Thread(target=open_when_ready, daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        solves.stop_all()


class _StoppingServer(uvicorn.Server):
    """A uvicorn server that stops the running solves as soon as it is asked to exit, so that
    their event streams end (with the best game so far) within the graceful shutdown."""

    def __init__(self, config: uvicorn.Config, solves: Solves) -> None:
        super().__init__(config)
        self._solves = solves

    def handle_exit(self, sig: int, frame: Any) -> None:
        self._solves.stop_all()
        super().handle_exit(sig, frame)
