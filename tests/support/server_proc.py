"""Start ``vncards serve`` in a subprocess on a free 127.0.0.1 port, for the browser and
fault tests; every process is killed at the end of its ``with`` block."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """One ``vncards serve`` process on ``db`` (a SQLite file, or a PostgreSQL URL with a
    ``log`` file named), its output appended to ``log`` (default: the file's name + .log)."""

    def __init__(self, db: Path | str, port: int, *extra: str, log: Path | None = None) -> None:
        self.db, self.port, self.extra = db, port, extra
        self.log_path = log if log is not None else Path(db).with_suffix(".log")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the server and wait until it answers. The port was free when
        :func:`free_port` chose it, but another process (a parallel test run, a client's
        outgoing connection) may take it before the server binds it, or while a killed server
        is down: then the server starts on another free port (clients read :attr:`url`)."""
        for _ in range(3):
            if self._start():
                return
            self.port = free_port()
        raise RuntimeError(f"server found no free port: {self._log()}")

    def _log(self) -> str:
        return self.log_path.read_text(errors="replace")[-2000:]

    def _start(self) -> bool:
        """False if the server could not bind its port. Ready once its own log says it
        listens (not some other process on the port) and it answers."""
        cmd = [sys.executable, "-m", "vncards", "serve", "--host", "127.0.0.1"]
        cmd += ["--port", str(self.port), "--db", str(self.db), *self.extra]
        log_path = self.log_path
        offset = log_path.stat().st_size if log_path.exists() else 0
        with open(log_path, "ab") as log:
            self.proc = subprocess.Popen(
                cmd, stdout=log, stderr=log, env={**os.environ, "PYTHONUNBUFFERED": "1"}
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with open(log_path, "rb") as f:
                f.seek(offset)
                said = f.read()
            if self.proc.poll() is not None:
                if b"[Errno 98]" in said:  # EADDRINUSE: the port was taken meanwhile
                    return False
                raise RuntimeError(f"server exited: {self._log()}")
            if b"Uvicorn running on" in said:
                with contextlib.suppress(OSError):
                    urllib.request.urlopen(self.url + "/api/tables", timeout=1).read()
                    return True
            time.sleep(0.1)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        """SIGKILL, no goodbye."""
        self.signal(signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(10)

    def signal(self, sig: int) -> None:
        """Send the process a signal (SIGSTOP, SIGCONT, SIGKILL), if it is running."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, sig)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        """POST as a well-behaved client: a 429 (the browser and this helper share one
        address, so one client's write limits) is waited out and sent again, for up to 30 s."""
        deadline = time.monotonic() + 30
        while True:
            req = urllib.request.Request(
                self.url + path,
                json.dumps(body).encode(),
                {"content-type": "application/json"},
                method="POST",
            )
            try:
                with urllib.request.urlopen(req, timeout=10) as r:
                    return json.loads(r.read())
            except urllib.error.HTTPError as e:
                if e.code != 429 or time.monotonic() > deadline:
                    raise
                time.sleep(1.0)  # writes refill at one a second

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            return json.loads(r.read())


@contextlib.contextmanager
def running_server(db: Path, *extra: str) -> Iterator[Server]:
    server = Server(db, free_port(), *extra)
    server.start()
    try:
        yield server
    finally:
        server.kill()


def replayed(hand: dict[str, Any]) -> Any:
    """The game a stored snapshot's hand (``snapshot["hand"]``) gives when its actions are
    replayed from its deal: what a settlement the clients saw is checked against."""
    from vncards import games

    cls = games.spec(hand["game"]).game_class()
    return cls.replay(
        hand["actions"],
        players=hand["players"],
        rules=cls.Rules.from_dict(hand["rules"]),
        seed=bytes.fromhex(hand["rng"]["key"]),
    )
