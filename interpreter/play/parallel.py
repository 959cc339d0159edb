"""Run many independent jobs (bot games, analyses) locally, on a process pool or on a Ray cluster.

``map_games(func, items)`` returns ``[func(item) for item in items]``, in the order of ``items``,
however the work is spread. The items are cut into contiguous chunks, several per worker (so the
last chunk to finish does not leave the other workers idle for long); each chunk is one task, so
the per-task cost (pickling, scheduling) is paid per chunk, not per item. ``initializer(*initargs)`` runs once in each
worker process before its first chunk (compile the game there, once), and ``on_done(n_done)`` is called
in the calling process as results come in (a progress bar), with the number of items finished so far.

Results are the same whichever way the work runs, as long as ``func`` is deterministic in its item
(a bot game is: its seed is in its settings). ``func`` and ``initializer`` must be module-level
functions (they are sent to the workers by name).
"""

from __future__ import annotations

import contextlib
import os

from mason.errors import MasonError

RAY_MISSING = "--ray needs Ray: pip install 'mason[ray]'"
CHUNKS_PER_WORKER = 16  # small chunks: the last ones to finish leave the other workers idle briefly


class RayUnavailable(MasonError):
    """Ray is not installed, or the cluster cannot be reached; the message is one line for the user."""

    code = "cli/ray"


def map_games(
    func,
    items: list,
    workers: int = 1,
    ray: str | bool | None = None,
    initializer=None,
    on_done=None,
    initargs: tuple = (),
    chunks_per_worker: int = CHUNKS_PER_WORKER,
    runtime_env: dict | None = None,
) -> list:
    """``[func(item) for item in items]``, in order: locally when ``workers <= 1`` and ``ray`` is None,
    on a pool of ``workers`` processes otherwise, or as Ray tasks when ``ray`` is True (start or join a
    local Ray instance) or an address (``"auto"``, ``"ray://head:10001"``).

    With Ray, ``workers`` (when above 1) caps how many tasks run at once; otherwise all the cluster's
    CPUs are used. ``runtime_env`` is passed to ``ray.init`` (packages the cluster's workers need).
    """
    items = list(items)
    if not items:
        return []
    if ray is not None and ray is not False:
        return _map_ray(func, items, workers, ray, initializer, initargs, on_done, chunks_per_worker, runtime_env)
    workers = max(1, min(int(workers or 1), len(items)))
    if workers == 1:
        if initializer is not None:
            initializer(*initargs)
        out = []
        for item in items:
            out.append(func(item))
            if on_done is not None:
                on_done(len(out))
        return out
    return _map_pool(func, items, workers, initializer, initargs, on_done, chunks_per_worker)


def chunk_bounds(n: int, parts: int) -> list[tuple[int, int]]:
    """``parts`` contiguous ``(start, stop)`` ranges covering ``range(n)``, sizes differing by one at most."""
    parts = max(1, min(parts, n))
    size, extra = divmod(n, parts)
    out, start = [], 0
    for i in range(parts):
        stop = start + size + (1 if i < extra else 0)
        out.append((start, stop))
        start = stop
    return out


def _run_chunk(job):
    """In a worker: one chunk. ``job`` = (func, start, items); returns (start, results)."""
    func, start, items = job
    return start, [func(item) for item in items]


def _assemble(n: int, parts, on_done) -> list:
    out: list = [None] * n
    done = 0
    for start, results in parts:
        out[start : start + len(results)] = results
        done += len(results)
        if on_done is not None:
            on_done(done)
    return out


def _map_pool(func, items, workers, initializer, initargs, on_done, chunks_per_worker) -> list:
    """On a process pool. Ctrl-C (SIGINT to the whole process group, as a terminal sends it) is the
    calling process's to handle: the workers ignore it, and the KeyboardInterrupt raised in the caller
    stops the pool (``Pool.__exit__`` terminates it), so no worker prints a traceback."""
    import multiprocessing as mp

    n = len(items)
    jobs = [(func, a, items[a:b]) for a, b in chunk_bounds(n, workers * max(1, chunks_per_worker))]
    with contextlib.ExitStack() as stack:
        # SIGINT is held back while the workers start (they inherit the mask, fork or spawn, and ignore
        # the signal before they let it through); one that came meanwhile is raised here, once the pool
        # is on the stack to be terminated
        with _sigint_held():
            pool = stack.enter_context(
                mp.get_context(_start_method()).Pool(
                    workers, initializer=_start_worker, initargs=(initializer, initargs)
                )
            )
        return _assemble(n, pool.imap_unordered(_run_chunk, jobs), on_done)


def _start_worker(initializer, initargs) -> None:
    """In a worker, first: ignore SIGINT (the caller stops the pool) and let signals through again,
    then the caller's initializer."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if initializer is not None:
        initializer(*initargs)


@contextlib.contextmanager
def _sigint_held():
    """SIGINT blocked in this thread meanwhile (a Ctrl-C waits, and is raised as the block ends), where
    the platform can block signals; elsewhere nothing changes."""
    import signal

    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _start_method() -> str:
    """``fork`` where it is safe (Linux, one thread): workers start at once, with the modules and the
    programs the parent already compiled; ``spawn`` elsewhere (a fresh interpreter per worker)."""
    import sys
    import threading

    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return "fork"
    return "spawn"


# ------------------------------------------------------------------------------------------------ Ray
_INITIALISED: set = set()  # in a Ray worker process: the initializers already run there


def _run_chunk_once_initialised(job, initializer, initargs):
    if initializer is not None:
        key = (initializer.__module__, initializer.__qualname__, repr(initargs))
        if key not in _INITIALISED:
            initializer(*initargs)
            _INITIALISED.add(key)
    return _run_chunk(job)


def import_ray():
    """The ``ray`` module, or :class:`RayUnavailable` with a one-line message."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable(RAY_MISSING) from None
    return ray


RAY_TIMEOUT = 30.0  # seconds a Ray address has to answer and come up before it is given up: --ray-timeout


def connect_ray(address: str | bool = True, runtime_env: dict | None = None, timeout: float = RAY_TIMEOUT):
    """Join Ray: ``True`` = the local instance (started if none runs), else an address. Returns ``ray``.

    Joining an address is bounded: one that does not answer (refused, no such host) is refused at
    once, and a connection that does not come up within ``timeout`` seconds is given up; either is one
    :class:`RayUnavailable` line naming the address (starting a local instance is Ray's own affair).
    What Ray writes to the standard error while it joins (its C++ core's retries and warnings) is not
    shown unless ``MASON_RAY_LOG=1`` asks for it."""
    ray = import_ray()
    if not ray.is_initialized():
        import logging

        kwargs: dict[str, object] = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
        if runtime_env:
            kwargs["runtime_env"] = runtime_env
        if address is not True:
            kwargs["address"] = str(address)
        elif _stale_local_cluster(ray):
            kwargs["address"] = "local"  # start a fresh local instance rather than wait for a dead one
        where = "a local Ray instance" if address is True else f"Ray at {address}"
        if address is True or address == "local":
            # starting (or joining) the local instance, in this thread: Ray stops the processes it starts
            # when the thread that started them ends (a helper thread would take the instance with it)
            _init(ray, kwargs, address, timeout, where)
        else:
            with contextlib.nullcontext() if os.environ.get("MASON_RAY_LOG") else _stderr_hidden():
                _within(timeout, where, lambda: _init(ray, kwargs, address, timeout, where))
    return ray


@contextlib.contextmanager
def _stderr_hidden():
    """The process's standard error (file descriptor 2, where Ray's C++ core writes its connection
    retries and warnings) pointed at /dev/null meanwhile; ``MASON_RAY_LOG=1`` leaves it alone."""
    import sys

    with contextlib.suppress(Exception):
        sys.stderr.flush()
    try:
        saved = os.dup(2)
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:  # no standard error to hide
        yield
        return
    try:
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


def _init(ray, kwargs, address, timeout, where) -> None:
    if address is not True:
        problem = _unreachable(str(address), timeout)
        if problem:
            raise RayUnavailable(f"cannot reach {where}: {problem}")
    try:
        ray.init(**kwargs)
    except Exception as exc:  # no cluster there, wrong address, version mismatch: one line
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise RayUnavailable(f"cannot start or join {where}: {first}") from None


def _within(timeout: float, where: str, work) -> None:
    """``work()`` in a helper thread, waited for ``timeout`` seconds at most: Ray's connection retries
    for minutes, and a name lookup has no timeout of its own. Past the time, RayUnavailable; the
    helper thread is left to end with the process."""
    import threading

    outcome: list = []

    def run():
        try:
            work()
            outcome.append(None)
        except BaseException as exc:  # carried to the caller
            outcome.append(exc)

    helper = threading.Thread(target=run, name="mason-ray-connect", daemon=True)
    helper.start()
    helper.join(timeout)
    if not outcome:
        raise RayUnavailable(f"cannot start or join {where}: no answer within {timeout:g} s (--ray-timeout)")
    if outcome[0] is not None:
        raise outcome[0]


def _unreachable(address: str, timeout: float) -> str | None:
    """Why nothing answers at a Ray address (``HOST:PORT`` or ``ray://HOST[:PORT]``), or None when a
    connection opens there (or the address names no host to try: ``auto``, ``local``)."""
    import socket

    client = address.startswith("ray://")
    rest = address[len("ray://") :] if client else address
    if rest in ("auto", "local", "") or "://" in rest:
        return None
    host, sep, port_text = rest.rpartition(":")
    if not sep:
        host, port_text = rest, "10001" if client else "6379"
    host = host.strip("[]")  # [::1]:6379
    try:
        port = int(port_text)
    except ValueError:
        return f"'{port_text}' is not a port number"
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return None
    except socket.gaierror:
        return f"no such host '{host}'"
    except TimeoutError:
        return f"no answer from {host}:{port}"
    except OSError as exc:  # refused, no route, network unreachable
        return (exc.strerror or str(exc)).lower()


def _stale_local_cluster(ray) -> bool:
    """Whether ``ray.init()`` would try to join a local cluster that no longer runs (one stopped
    without ``ray stop`` leaves its address behind, and joining it waits a long time)."""
    import socket

    if os.environ.get("RAY_ADDRESS"):
        return False
    try:
        found = ray._private.services.find_bootstrap_address(None)  # what ray.init() would join
        host, port_text = str(found).rsplit(":", 1)
        port = int(port_text)
    except Exception:  # no address left behind, or a Ray without this helper: nothing to check
        return False
    try:
        with socket.create_connection((host, port), timeout=1):
            return False
    except OSError:
        return True


def _map_ray(func, items, workers, address, initializer, initargs, on_done, chunks_per_worker, runtime_env) -> list:
    ray = connect_ray(address, runtime_env)
    cpus = int(ray.cluster_resources().get("CPU", 1)) or 1
    slots = min(cpus, int(workers)) if workers and int(workers) > 1 else cpus
    n = len(items)
    task = ray.remote(num_cpus=1)(_run_chunk_once_initialised)
    jobs = [(func, a, items[a:b]) for a, b in chunk_bounds(n, slots * max(1, chunks_per_worker))]

    def finished():
        pending: list = []
        queue = list(jobs)
        while queue or pending:
            while queue and len(pending) < 2 * slots:  # one running and one queued per slot
                job = queue.pop(0)
                pending.append(task.remote(job, initializer, initargs))
            ready, pending = ray.wait(pending, num_returns=1)
            yield ray.get(ready[0])

    return _assemble(n, finished(), on_done)


def default_workers() -> int:
    """The CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


__all__ = [
    "map_games",
    "chunk_bounds",
    "connect_ray",
    "import_ray",
    "RayUnavailable",
    "RAY_MISSING",
    "RAY_TIMEOUT",
    "default_workers",
]
