"""A loopback HTTP/1.1 proxy that serves a test web from memory (asyncio, one thread).

Behaviour (``shared/testweb/README.md``, "Serving a web"):

- listens on a loopback address only; accepts absolute-form requests (``GET http://h/p``, as
  sent to a proxy) and origin-form requests (URL rebuilt from ``Host``);
- ``GET``/``HEAD`` of a recorded URL: the recorded status line and headers, ``Content-Length``
  recomputed, hop-by-hop headers (``Transfer-Encoding``, ``Connection``, ...) dropped, and the
  recorded body; redirects are never followed;
- another URL on a known host: ``404``; an unknown host: ``502``; other methods: ``405``;
  ``CONNECT`` (https tunnels): ``502``; a malformed request: ``400`` and the connection closes.
  Nothing is ever forwarded to the network.

Connections are persistent (HTTP/1.1 default, ``Connection: keep-alive`` for HTTP/1.0) and
pipelining works.  :attr:`ProxyServer.stats` counts what was served and
:attr:`ProxyServer.log` lists ``(method, url, status, at)`` per request (:class:`Served`;
``at``: ``time.monotonic()`` when the response was written).
"""
from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.utils import formatdate
from pathlib import Path
from typing import NamedTuple

from .archive import Record, WebArchive, load_web

log = logging.getLogger(__name__)

# Headers that describe one connection, not the resource: never replayed from the archive.
HOP_BY_HOP = frozenset({"connection", "keep-alive", "proxy-connection", "transfer-encoding",
                        "te", "trailer", "upgrade", "content-length"})
MAX_HEAD = 64 * 1024          # request line + headers
MAX_REQUEST_BODY = 1 << 20    # a GET body is skipped; larger ones are refused
_REASONS = {400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed",
            413: "Content Too Large", 429: "Too Many Requests",
            431: "Request Header Fields Too Large", 500: "Internal Server Error",
            501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
            505: "HTTP Version Not Supported"}
_MESSAGES = {
    400: "The request could not be parsed.",
    404: "The requested URL was not found on this server.",
    405: "Only GET and HEAD are supported.",
    502: "This proxy serves only an offline test web; the host is not part of it.",
}
_PCT_RE = re.compile(r"%[0-9A-Fa-f]{2}")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


class Served(NamedTuple):
    """One request answered by the server."""

    method: str
    url: str
    status: int
    at: float       # time.monotonic() when the response was written


@dataclass
class ServerStats:
    """Counters of one server (updated in the server thread)."""

    requests: int = 0
    connections: int = 0
    bytes_sent: int = 0
    by_status: Counter = field(default_factory=Counter)
    by_method: Counter = field(default_factory=Counter)

    def as_dict(self) -> dict:
        return {"requests": self.requests, "connections": self.connections,
                "bytes_sent": self.bytes_sent, "by_status": dict(self.by_status),
                "by_method": dict(self.by_method)}


def _pct_normalize(url: str) -> str:
    """RFC 3986 equivalence: upper-case ``%xx`` and decode escaped unreserved characters."""
    def fix(m: re.Match) -> str:
        char = chr(int(m.group(0)[1:], 16))
        return char if char in _UNRESERVED else m.group(0).upper()
    return _PCT_RE.sub(fix, url)


def split_url(url: str) -> tuple[str, str, str] | None:
    """``(scheme, authority, path_and_query)`` of an absolute URL, normalised: lower-case scheme
    and host, no userinfo, no default port, no fragment, ``/`` for an empty path; ``None`` when
    it is not an absolute http(s) URL."""
    sep = url.find("://")
    if sep <= 0:
        return None
    scheme = url[:sep].lower()
    if scheme not in ("http", "https"):
        return None
    rest = url[sep + 3:].split("#", 1)[0]
    cut = len(rest)
    for ch in "/?":
        pos = rest.find(ch)
        if 0 <= pos < cut:
            cut = pos
    authority, path = rest[:cut].rpartition("@")[2].lower(), rest[cut:]
    if not authority or any(c in authority for c in " \t\\"):
        return None
    default = ":80" if scheme == "http" else ":443"
    if authority.endswith(default):
        authority = authority[: -len(default)]
    if not path.startswith("/"):
        path = "/" + path
    return scheme, authority, path


def normalize_url(url: str) -> str | None:
    """The lookup key of an absolute URL (see :func:`split_url`), percent-escapes normalised."""
    parts = split_url(url)
    return None if parts is None else _pct_normalize(f"{parts[0]}://{parts[1]}{parts[2]}")


class ProxyServer:
    """Serves one :class:`WebArchive` over HTTP/1.1 (create, then :meth:`serve` or
    :meth:`start_in_thread`)."""

    def __init__(self, web: WebArchive | str | Path, *, keep_log: bool = True,
                 idle_timeout: float | None = 300.0) -> None:
        self.web = web if isinstance(web, WebArchive) else load_web(web)
        self.keep_log = keep_log
        self.idle_timeout = idle_timeout
        self.stats = ServerStats()
        self.log: list[Served] = []
        # url -> (head without the final CRLF, body, status)
        self._responses: dict[str, tuple[bytes, bytes, int]] = {}
        self._by_norm: dict[str, str] = {}
        for url, rec in self.web.records.items():
            self._responses[url] = (_serialize_head(rec), rec.body, rec.status)
            key = normalize_url(url)
            if key is not None:
                self._by_norm.setdefault(key, url)
        self._hosts = frozenset(filter(None, (_host_key(h) for h in self.web.hosts)))
        self._connections: set[_Connection] = set()
        self._date = ("", 0)

    # -- request handling (called by _Connection) -----------------------------------------

    def resolve(self, url: str) -> tuple[bytes, bytes, int, str]:
        """The response to ``GET url``: ``(head, body, status, canonical url)``."""
        hit = self._responses.get(url)
        if hit is not None:
            return hit[0], hit[1], hit[2], url
        key = normalize_url(url)
        if key is None:
            return *self.error(400), url
        recorded = self._by_norm.get(key)
        if recorded is not None:
            hit = self._responses[recorded]
            return hit[0], hit[1], hit[2], recorded
        host = key.split("/", 3)[2]
        return *self.error(404 if host in self._hosts else 502), key

    def error(self, status: int, extra: str = "") -> tuple[bytes, bytes, int]:
        """A small ``text/html; charset=utf-8`` error response."""
        reason = _REASONS.get(status, "Error")
        message = _MESSAGES.get(status, reason)
        body = (f"<!DOCTYPE html>\n<html><head><title>{status} {reason}</title></head>"
                f"<body><h1>{reason}</h1><p>{message}</p></body></html>\n").encode()
        head = (f"HTTP/1.1 {status} {reason}\r\nDate: {self.http_date()}\r\n"
                f"Server: crawler-testweb\r\n{extra}Content-Type: text/html; charset=utf-8\r\n"
                f"Content-Length: {len(body)}\r\n").encode("latin-1")
        return head, body, status

    def http_date(self) -> str:
        now = int(time.time())
        if self._date[1] != now:
            self._date = (formatdate(now, usegmt=True), now)
        return self._date[0]

    def is_known_host(self, authority: str) -> bool:
        return _host_key(authority) in self._hosts

    # -- running ----------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> asyncio.Server:
        """Bind and start serving on the running loop; returns the :class:`asyncio.Server`."""
        _check_loopback(host)
        loop = asyncio.get_running_loop()
        server = await loop.create_server(lambda: _Connection(self), host, port,
                                          reuse_address=True, backlog=1024)
        if self.idle_timeout:
            loop.create_task(self._sweep_idle())
        return server

    async def _sweep_idle(self) -> None:
        loop = asyncio.get_running_loop()
        period = max(1.0, min(30.0, self.idle_timeout / 4))
        while True:
            await asyncio.sleep(period)
            limit = loop.time() - self.idle_timeout
            for conn in [c for c in self._connections if c.last_active < limit]:
                conn.close()

    def close_connections(self) -> None:
        for conn in list(self._connections):
            conn.close(abort=True)

    def serve(self, host: str = "127.0.0.1", port: int = 8080,
              on_ready: Callable[[str, int], None] | None = None) -> None:
        """Serve until interrupted (Ctrl-C raises ``KeyboardInterrupt`` to the caller)."""
        async def main() -> None:
            server = await self.start(host, port)
            bound = server.sockets[0].getsockname()
            if on_ready:
                on_ready(bound[0], bound[1])
            try:
                async with server:
                    await server.serve_forever()
            finally:
                self.close_connections()
        asyncio.run(main())

    def start_in_thread(self, host: str = "127.0.0.1", port: int = 0) -> ServerHandle:
        """Serve from a daemon thread; returns once listening."""
        _check_loopback(host)
        ready = threading.Event()
        state: dict = {}

        def run() -> None:
            loop = asyncio.new_event_loop()
            state["loop"] = loop
            try:
                server = loop.run_until_complete(self.start(host, port))
                state["server"] = server
                state["address"] = server.sockets[0].getsockname()[:2]
            except BaseException as exc:  # reported to the caller
                state["error"] = exc
                ready.set()
                loop.close()
                return
            ready.set()
            try:
                loop.run_forever()
            finally:
                server.close()
                self.close_connections()
                for task in asyncio.all_tasks(loop):
                    task.cancel()
                loop.run_until_complete(asyncio.sleep(0))
                loop.close()

        thread = threading.Thread(target=run, name="testweb-proxy", daemon=True)
        thread.start()
        ready.wait()
        if "error" in state:
            raise state["error"]

        def stop() -> None:
            loop = state["loop"]
            if thread.is_alive() and not loop.is_closed():
                loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=10)

        address = state["address"]
        return ServerHandle(address[0], address[1], stop, self, thread)


@dataclass
class ServerHandle:
    """A server running in a thread: unpacks as ``(host, port, stop)``; a context manager."""

    host: str
    port: int
    stop: Callable[[], None]
    server: ProxyServer
    thread: threading.Thread | None = None

    def __iter__(self) -> Iterator:
        return iter((self.host, self.port, self.stop))

    def __enter__(self) -> ServerHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def proxy_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def stats(self) -> ServerStats:
        return self.server.stats


def serve_in_thread(web: WebArchive | ProxyServer | str | Path, port: int = 0,
                    host: str = "127.0.0.1", **options) -> ServerHandle:
    """Start a proxy for ``web`` in a background thread: ``host, port, stop = serve_in_thread(w)``."""
    server = web if isinstance(web, ProxyServer) else ProxyServer(web, **options)
    return server.start_in_thread(host, port)


def serve(web: WebArchive | str | Path, host: str = "127.0.0.1", port: int = 8080,
          on_ready: Callable[[str, int], None] | None = None, **options) -> None:
    """Serve ``web`` until interrupted (blocking)."""
    ProxyServer(web, **options).serve(host, port, on_ready)


# -- internals ---------------------------------------------------------------------------------


def _check_loopback(host: str) -> None:
    if host == "localhost":
        return
    try:
        ok = ipaddress.ip_address(host).is_loopback
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f"the test-web proxy listens on loopback only, not {host!r}")


def _host_key(authority: str) -> str | None:
    parts = split_url(f"http://{authority}/")
    return parts[1] if parts else None


def _serialize_head(rec: Record) -> bytes:
    lines = [f"HTTP/1.1 {rec.status} {rec.reason}".rstrip()]
    length_done = False
    for name, value in rec.headers:
        low = name.lower()
        if low == "content-length":
            if not length_done:
                lines.append(f"{name}: {len(rec.body)}")
                length_done = True
        elif low not in HOP_BY_HOP:
            lines.append(f"{name}: {value}")
    if not length_done:
        lines.append(f"Content-Length: {len(rec.body)}")
    return ("\r\n".join(lines) + "\r\n").encode("latin-1", errors="replace")


class _Connection(asyncio.Protocol):
    """One client connection: parses pipelined requests and writes responses in order."""

    def __init__(self, server: ProxyServer) -> None:
        self.server = server
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.skip = 0             # request-body bytes still to discard
        self.closing = False
        self.paused = False
        self.last_active = 0.0

    # asyncio callbacks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.last_active = asyncio.get_running_loop().time()
        self.server.stats.connections += 1
        self.server._connections.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closing = True
        self.server._connections.discard(self)

    def data_received(self, data: bytes) -> None:
        if self.closing:
            return
        self.buffer += data
        self.last_active = asyncio.get_running_loop().time()
        self._process()

    def pause_writing(self) -> None:
        self.paused = True
        self.transport.pause_reading()

    def resume_writing(self) -> None:
        self.paused = False
        if not self.closing:
            self.transport.resume_reading()
            self._process()

    def close(self, abort: bool = False) -> None:
        self.closing = True
        if self.transport is not None:
            (self.transport.abort if abort else self.transport.close)()

    # parsing

    def _process(self) -> None:
        buf = self.buffer
        while buf and not self.closing and not self.paused:
            if self.skip:
                n = min(self.skip, len(buf))
                del buf[:n]
                self.skip -= n
                continue
            while buf[:2] == b"\r\n" or buf[:1] == b"\n":  # stray CRLF between requests
                del buf[: 2 if buf[:1] == b"\r" else 1]
            if not buf or buf == b"\r":    # (a CRLF split across reads: wait for the rest)
                return
            end = buf.find(b"\r\n\r\n")
            size = 4
            if end < 0:
                end, size = buf.find(b"\n\n"), 2
            if end < 0:
                if not buf[:1].isalpha():  # not a request line (e.g. a TLS handshake)
                    self._fail(400)
                elif len(buf) > MAX_HEAD:
                    self._fail(431)
                return
            if end > MAX_HEAD:
                self._fail(431)
                return
            head = bytes(buf[:end])
            del buf[:end + size]
            try:
                self._handle(head)
            except Exception:  # a bug must not kill the server: answer 500 and close
                log.exception("error handling %r", head[:200])
                self._fail(500)

    def _fail(self, status: int, method: str = "-", target: str = "-") -> None:
        head, body, _ = self.server.error(status)
        self._send(head, body, status, method, target, keep_alive=False)

    def _handle(self, head: bytes) -> None:
        lines = head.split(b"\n")
        request_line = lines[0].rstrip(b"\r").decode("latin-1")
        parts = request_line.split(" ")
        if len(parts) != 3 or not parts[0].isalpha() or not parts[1]:
            return self._fail(400, "-", request_line[:200])
        method, target, version = parts
        if not version.startswith("HTTP/") or len(version) != 8 or not version[5:].replace(
                ".", "", 1).isdigit():
            return self._fail(400, method, target)
        if not version.startswith("HTTP/1."):
            return self._fail(505, method, target)
        host = conn = None
        length = 0
        for raw in lines[1:]:
            name, colon, value = raw.rstrip(b"\r").partition(b":")
            if not colon or not name or name != name.strip() or b" " in name:
                return self._fail(400, method, target)
            lname = name.lower()
            if lname == b"host":
                host = value.strip().decode("latin-1")
            elif lname in (b"connection", b"proxy-connection"):
                conn = (conn or b"") + b"," + value.strip().lower()
            elif lname == b"content-length":
                text = value.strip()
                if not text.isdigit():
                    return self._fail(400, method, target)
                length = int(text)
            elif lname == b"transfer-encoding":
                return self._fail(501, method, target)  # request bodies are never chunked here
        if length > MAX_REQUEST_BODY:
            return self._fail(413, method, target)
        self.skip = length
        if version == "HTTP/1.1":
            keep_alive = conn is None or b"close" not in conn
        else:
            keep_alive = conn is not None and b"keep-alive" in conn and b"close" not in conn
        server = self.server

        if target.startswith("/"):
            if not host:
                return self._fail(400, method, target)
            url = f"http://{host}{target}"
        elif method == "CONNECT":
            head_b, body, status = server.error(502)
            return self._send(head_b, body, status, method, target, keep_alive=False)
        elif target[:7].lower() == "http://" or target[:8].lower() == "https://":
            url = target.split("#", 1)[0]
        else:
            return self._fail(400, method, target)

        head_b, body, status, url = server.resolve(url)
        if status == 400:
            return self._fail(400, method, target)
        if method not in ("GET", "HEAD") and status != 502:
            head_b, body, status = server.error(405, "Allow: GET, HEAD\r\n")
        self._send(head_b, body, status, method, url, keep_alive, head_only=method == "HEAD")

    def _send(self, head: bytes, body: bytes, status: int, method: str, url: str,
              keep_alive: bool, head_only: bool = False) -> None:
        if self.closing:
            return
        if keep_alive:
            head += b"Connection: keep-alive\r\n\r\n"
        else:
            head += b"Connection: close\r\n\r\n"
        transport = self.transport
        if head_only or not body:
            transport.write(head)
            sent = len(head)
        elif len(body) < 65536:
            transport.write(head + body)
            sent = len(head) + len(body)
        else:
            transport.write(head)
            transport.write(body)
            sent = len(head) + len(body)
        server = self.server
        stats = server.stats
        stats.requests += 1
        stats.bytes_sent += sent
        stats.by_status[status] += 1
        stats.by_method[method] += 1
        if server.keep_log:
            server.log.append(Served(method, url, status, time.monotonic()))
        if log.isEnabledFor(logging.DEBUG):
            log.debug("%s %s %d %d", method, url, status, 0 if head_only else len(body))
        if not keep_alive:
            self.closing = True
            transport.close()
