"""A minimal blocking WebSocket client (RFC 6455), standard library only: what the remote env needs.

Text and binary messages, fragmented messages, ping/pong and the closing handshake; `ws://` and `wss://`.
No extensions (no compression). Not thread-safe: one thread drives one connection.

    sock = WebSocket.connect("ws://127.0.0.1:8000/ws/agent/", headers={"Authorization": "Token gw_..."})
    sock.send_text('{"type": "begin", ...}')
    kind, data = sock.recv()      # ("text", str) or ("binary", bytes)
    sock.close()
"""
import base64
import hashlib
import os
import socket
import ssl
import struct
from urllib.parse import urlsplit

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA
MAX_MESSAGE_BYTES = 64 * 1024 * 1024


class WebSocketError(ConnectionError):
    """The handshake failed or the peer broke the protocol."""


class ConnectionClosed(WebSocketError):
    """The server closed the connection; `code` and `reason` are what it said (1006: no close frame)."""

    def __init__(self, code, reason=""):
        self.code, self.reason = code, reason
        super().__init__(f"the connection was closed (code {code}{': ' + reason if reason else ''})")


def websocket_url(site, path):
    """`http(s)://host[:port]` + `/ws/...` -> `ws(s)://host[:port]/ws/...`."""
    parts = urlsplit(site.rstrip("/"))
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    if scheme is None or not parts.netloc:
        raise ValueError(f"not a site URL: {site!r} (expected http://host:port or https://host)")
    return f"{scheme}://{parts.netloc}{parts.path}{path}"


class WebSocket:
    def __init__(self, sock, reader):
        self._sock = sock
        self._reader = reader
        self.closed = False

    @classmethod
    def connect(cls, url, *, headers=None, timeout=60):
        parts = urlsplit(url)
        if parts.scheme not in ("ws", "wss"):
            raise ValueError(f"a WebSocket URL starts with ws:// or wss://, got {url!r}")
        secure = parts.scheme == "wss"
        host, port = parts.hostname, parts.port or (443 if secure else 80)
        sock = socket.create_connection((host, port), timeout=timeout)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if secure:
                sock = ssl.create_default_context().wrap_socket(sock, server_hostname=host)
            key = base64.b64encode(os.urandom(16)).decode()
            target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            netloc = parts.netloc.rsplit("@", 1)[-1]
            origin = f"{'https' if secure else 'http'}://{netloc}"
            lines = [f"GET {target} HTTP/1.1", f"Host: {netloc}", "Upgrade: websocket", "Connection: Upgrade",
                     f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13", f"Origin: {origin}",
                     "User-Agent: gameworld-client/1"]
            for name, value in (headers or {}).items():
                if any(c in f"{name}{value}" for c in "\r\n"):
                    raise ValueError(f"header {name!r} contains a line break")
                lines.append(f"{name}: {value}")
            sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
            reader = sock.makefile("rb")
            status = reader.readline(65536).decode("latin-1").strip()
            response = {}
            while True:
                line = reader.readline(65536).decode("latin-1")
                if line in ("\r\n", "\n", ""):
                    break
                name, _, value = line.partition(":")
                response[name.strip().lower()] = value.strip()
            code = status.split(" ", 2)[1] if status.count(" ") >= 1 else "?"
            if code != "101":
                raise WebSocketError(f"the server refused the WebSocket handshake: {status or 'no answer'}")
            accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
            if response.get("sec-websocket-accept") != accept:
                raise WebSocketError("the server answered the handshake with a wrong Sec-WebSocket-Accept")
        except BaseException:
            sock.close()
            raise
        return cls(sock, reader)

    def settimeout(self, seconds):
        self._sock.settimeout(seconds)

    # Sending (client frames are always masked).
    def send_text(self, text):
        self._send(OP_TEXT, text.encode("utf-8"))

    def send_binary(self, data):
        self._send(OP_BINARY, bytes(data))

    def _send(self, opcode, payload):
        if self.closed:
            raise ConnectionClosed(1006, "the connection is closed")
        length = len(payload)
        header = bytearray([0x80 | opcode])
        if length < 126:
            header.append(0x80 | length)
        elif length < 1 << 16:
            header.append(0x80 | 126)
            header += struct.pack(">H", length)
        else:
            header.append(0x80 | 127)
            header += struct.pack(">Q", length)
        mask = os.urandom(4)
        header += mask
        self._sock.sendall(bytes(header) + _masked(payload, mask))

    # Receiving.
    def recv(self):
        """The next message: ("text", str) or ("binary", bytes). Raises ConnectionClosed at the end."""
        message, kind = bytearray(), None
        while True:
            fin, opcode, payload = self._frame()
            if opcode == OP_PING:
                self._send(OP_PONG, payload)
                continue
            if opcode == OP_PONG:
                continue
            if opcode == OP_CLOSE:
                code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 1005
                reason = payload[2:].decode("utf-8", "replace")
                if not self.closed:
                    try:
                        self._send(OP_CLOSE, payload[:2])
                    except OSError:
                        pass
                self._shutdown()
                raise ConnectionClosed(code, reason)
            if opcode in (OP_TEXT, OP_BINARY):
                if kind is not None:
                    raise WebSocketError("a new message began inside a fragmented one")
                kind = "text" if opcode == OP_TEXT else "binary"
            elif opcode != OP_CONT or kind is None:
                raise WebSocketError(f"unexpected frame opcode {opcode}")
            message += payload
            if len(message) > MAX_MESSAGE_BYTES:
                raise WebSocketError("a message larger than 64 MiB")
            if fin:
                return (kind, message.decode("utf-8")) if kind == "text" else (kind, bytes(message))

    def _frame(self):
        head = self._read(2)
        fin, opcode = bool(head[0] & 0x80), head[0] & 0x0F
        masked, length = bool(head[1] & 0x80), head[1] & 0x7F
        if length == 126:
            length = struct.unpack(">H", self._read(2))[0]
        elif length == 127:
            length = struct.unpack(">Q", self._read(8))[0]
        if length > MAX_MESSAGE_BYTES:
            raise WebSocketError("a frame larger than 64 MiB")
        mask = self._read(4) if masked else None
        payload = self._read(length) if length else b""
        return fin, opcode, _masked(payload, mask) if mask else payload

    def _read(self, n):
        try:
            data = self._reader.read(n)
        except (socket.timeout, TimeoutError):
            raise
        except OSError as exc:
            self._shutdown()
            raise ConnectionClosed(1006, str(exc)) from None
        if len(data) < n:
            self._shutdown()
            raise ConnectionClosed(1006, "the connection dropped")
        return data

    def close(self, code=1000, reason=""):
        if self.closed:
            return
        try:
            self._send(OP_CLOSE, struct.pack(">H", code) + reason.encode("utf-8")[:120])
            self._sock.settimeout(2)
            while True:  # wait for the server's close frame (or the end of the stream)
                self._frame_until_close()
        except (OSError, WebSocketError):
            pass
        finally:
            self._shutdown()

    def _frame_until_close(self):
        _, opcode, _ = self._frame()
        if opcode == OP_CLOSE:
            raise ConnectionClosed(1000)

    def _shutdown(self):
        self.closed = True
        try:
            self._reader.close()
        finally:
            try:
                self._sock.close()
            except OSError:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _masked(payload, mask):
    if not payload:
        return b""
    n = len(payload)
    key = (mask * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")
