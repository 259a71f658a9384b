"""A TCP proxy on 127.0.0.1 that a test controls: the network between a station and the server,
cut and restored at will. Loopback only; its threads stop by themselves when it is closed."""

from __future__ import annotations

import contextlib
import select
import socket
import threading


class Proxy:
    """``with Proxy(server_port) as p: ... p.cut() ... p.restore()``; ``p.port`` is its own."""

    def __init__(self, target_port: int) -> None:
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.listener.settimeout(0.2)
        self.port = int(self.listener.getsockname()[1])
        self._open = True
        self._cut = False
        self._lock = threading.Lock()
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._accepting = threading.Thread(target=self._accept, daemon=True)
        self._accepting.start()

    def url(self, dbname: str, *, user: str = "postgres") -> str:
        return f"postgresql+psycopg://{user}@127.0.0.1:{self.port}/{dbname}"

    def _accept(self) -> None:
        while self._open:
            try:
                client, _ = self.listener.accept()
            except (TimeoutError, OSError):
                continue
            if self._cut:
                client.close()
                continue
            try:
                server = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._pairs.append((client, server))
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while self._open and not self._cut:
                ready, _, _ = select.select([a, b], [], [], 0.2)
                for s in ready:
                    data = s.recv(65536)
                    if not data:
                        return
                    (b if s is a else a).sendall(data)
        except OSError:
            return
        finally:
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.close()

    def cut(self) -> None:
        """Drop every connection and refuse new ones (the cable pulled)."""
        self._cut = True
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for a, b in pairs:
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                with contextlib.suppress(OSError):
                    s.close()

    def restore(self) -> None:
        self._cut = False

    def close(self) -> None:
        self.cut()
        self._open = False
        self._accepting.join(timeout=2)
        self.listener.close()

    def __enter__(self) -> Proxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
