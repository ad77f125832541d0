"""Worker processes fed straight from the event loop: jobs in order of asking, none lost if a worker dies.

``concurrent.futures.ProcessPoolExecutor`` hands every job and every result through two
threads of the bot's process (a manager and a queue feeder), and each needs the GIL from a
busy event loop: in a burst of decisions (50 races at once) its workers sat idle waiting
for those threads, and a board took 800 ms to come back for 10 ms of drawing. Here the
event loop writes a job down a worker's pipe itself and reads the answer when the pipe is
readable (``loop.add_reader``): no thread in between. Jobs wait in one queue, first asked
first served, and go to the first worker free. A worker that dies (killed, out of memory)
closes its pipe: it is replaced and its job goes back to the front of the queue; a job that
has killed ``RETRIES + 1`` workers fails with ``WorkerDied``.

A job is ``fn(*args, **kwargs)`` for a picklable module-level ``fn``; its result is pickled
back. Workers start from a clean forkserver process (not a fork of the running bot).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import multiprocessing
import os
import pickle
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

log = logging.getLogger("domestique")
RETRIES = 2  # a job is tried again on a fresh worker this many times before it fails
HEADER = struct.Struct("!i")  # multiprocessing.Connection's frame: a 4-byte length, then the bytes


class WorkerDied(RuntimeError):
    """A job's worker died ``RETRIES + 1`` times running it."""


def _serve(jobs: Connection, results: Connection, warm: Callable[[], object] | None) -> None:
    """A worker: run each job read from ``jobs`` and send its result (or its exception) back."""
    if warm is not None:
        warm()
    while True:
        try:
            message = jobs.recv_bytes()
        except EOFError:  # the bot closed the pool
            return
        fn, args, kwargs = pickle.loads(message)
        try:
            answer: tuple[bool, Any] = (True, fn(*args, **kwargs))
        except Exception as exc:  # the job's own failure goes back to its caller
            answer = (False, exc)
        try:
            reply = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an answer that cannot travel fails its job, not the worker
            reply = pickle.dumps((False, RuntimeError(f"a board worker's answer could not be sent: {exc!r}")))
        results.send_bytes(reply)


@dataclass
class _Job:
    message: bytes
    future: asyncio.Future[Any]
    tries: int = 0


def _waited(job: _Job) -> bool:
    """Someone still waits for the job's answer (not cancelled, its loop not closed)."""
    return not job.future.done() and not job.future.get_loop().is_closed()


@dataclass
class _Worker:
    process: Any  # multiprocessing's Process of the chosen context
    jobs: Connection  # the bot writes jobs here
    results: Connection  # and reads results here
    job: _Job | None = None
    buffer: bytearray = field(default_factory=bytearray)


class BoardPool:
    """``workers`` processes; ``run(fn, ...)`` awaits ``fn``'s result computed in one of them."""

    def __init__(
        self,
        workers: int,
        *,
        context: str = "forkserver",
        preload: list[str] | None = None,
        warm: Callable[[], object] | None = None,
    ) -> None:
        self.size = workers
        self._context = multiprocessing.get_context(context)
        if context == "forkserver" and preload:
            self._context.set_forkserver_preload(preload)
        self._warm = warm
        self._workers: list[_Worker] = []
        self._queue: collections.deque[_Job] = collections.deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.replaced = 0  # workers replaced after one died
        self._closed = False

    # ---- workers

    def _spawn(self) -> _Worker:
        job_reader, job_writer = self._context.Pipe(duplex=False)
        result_reader, result_writer = self._context.Pipe(duplex=False)
        process = self._context.Process(  # type: ignore[attr-defined]  # every concrete context has it
            target=_serve, args=(job_reader, result_writer, self._warm), daemon=True, name="domestique-board"
        )
        process.start()
        job_reader.close()  # the worker's ends: a dead worker then reads as end-of-file here
        result_writer.close()
        os.set_blocking(result_reader.fileno(), False)
        worker = _Worker(process, job_writer, result_reader)
        if self._loop is not None:
            self._loop.add_reader(result_reader.fileno(), self._readable, worker)
        return worker

    def start(self) -> None:
        """Start the workers now (a running bot has them ready before the first board)."""
        while len(self._workers) < self.size:
            self._workers.append(self._spawn())

    def pids(self) -> list[int]:
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Read the workers' answers on ``loop`` (a new loop, as ``asyncio.run`` twice makes, takes over)."""
        if self._loop is loop:
            return
        old, self._loop = self._loop, loop
        for worker in self._workers:
            if old is not None and not old.is_closed():
                old.remove_reader(worker.results.fileno())
            # a job still running for the old loop keeps its worker until its answer comes (and is dropped)
            loop.add_reader(worker.results.fileno(), self._readable, worker)
        self._queue = collections.deque(j for j in self._queue if j.future.get_loop() is loop)

    # ---- jobs

    async def run(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if self._closed:
            raise RuntimeError("the board pool is closed")
        loop = asyncio.get_running_loop()
        self._attach(loop)
        self.start()
        job = _Job(pickle.dumps((fn, args, kwargs), protocol=pickle.HIGHEST_PROTOCOL), loop.create_future())
        self._queue.append(job)
        self._dispatch()
        return await job.future

    def _dispatch(self) -> None:
        """Give waiting jobs, oldest first, to the free workers."""
        for worker in self._workers:
            while worker.job is None and self._queue:
                job = self._queue.popleft()
                if not _waited(job):  # its caller went away (cancelled)
                    continue
                try:
                    # one job at a time per worker and the worker waits for it: the write does not block
                    worker.jobs.send_bytes(job.message)
                except OSError:
                    self._queue.appendleft(job)
                    break  # the worker is dead; its pipe's end-of-file replaces it
                worker.job = job

    def _readable(self, worker: _Worker) -> None:
        """A worker's pipe has bytes (an answer, or its end if the worker died)."""
        try:
            chunk = os.read(worker.results.fileno(), 1 << 20)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._died(worker)
            return
        worker.buffer += chunk
        while len(worker.buffer) >= HEADER.size:
            (size,) = HEADER.unpack_from(worker.buffer)
            if len(worker.buffer) < HEADER.size + size:
                break
            message = bytes(worker.buffer[HEADER.size : HEADER.size + size])
            del worker.buffer[: HEADER.size + size]
            job, worker.job = worker.job, None
            if job is not None and _waited(job):
                ok, value = pickle.loads(message)
                if ok:
                    job.future.set_result(value)
                else:
                    job.future.set_exception(value)
        self._dispatch()

    def _died(self, worker: _Worker) -> None:
        """Replace a dead worker; its job goes back to the front of the queue (or fails, if it keeps killing)."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(worker.results.fileno())
        self._forget(worker)
        job = worker.job
        if self._closed:
            return
        log.warning("board worker %s died; starting another", worker.process.pid)
        self.replaced += 1
        self._workers[self._workers.index(worker)] = self._spawn()
        if job is not None and _waited(job):
            job.tries += 1
            if job.tries > RETRIES:
                job.future.set_exception(WorkerDied(f"a board worker died {job.tries} times on this job"))
            else:
                self._queue.appendleft(job)
        self._dispatch()

    @staticmethod
    def _forget(worker: _Worker) -> None:
        for end in (worker.jobs, worker.results):
            with contextlib.suppress(OSError):
                end.close()
        worker.process.join(timeout=1)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join(timeout=1)

    def close(self) -> None:
        """Stop every worker (each ends when its job pipe closes); waiting jobs are cancelled."""
        self._closed = True
        for worker in self._workers:
            if self._loop is not None and not self._loop.is_closed():
                self._loop.remove_reader(worker.results.fileno())
            self._forget(worker)
            if worker.job is not None and _waited(worker.job):
                worker.job.future.cancel()
        for job in self._queue:
            if _waited(job):
                job.future.cancel()
        self._workers, self._queue, self._loop = [], collections.deque(), None
