"""The site's Daphne (gameworld_site.webserver): a request line or header line too long to read is answered (414,
431), not dropped without a word."""
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def server(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "GAMEWORLD_DATA_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "gameworld_site.settings"}
    process = subprocess.Popen([sys.executable, "-m", "gameworld_site.webserver", "-b", "127.0.0.1", "-p", str(port),
                                "gameworld_site.asgi:application"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.2)
    try:
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)


def answer(port, request):
    with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
        client.sendall(request)
        return client.recv(4096)


def test_a_huge_query_string_is_answered_414_and_a_huge_header_431(server):
    query = "q=" + "x" * 100_000
    assert answer(server, f"GET /?{query} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode()).startswith(
        b"HTTP/1.1 414 URI Too Long")
    assert answer(server, f"GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: {'y' * 20_000}\r\n\r\n".encode()).startswith(
        b"HTTP/1.1 431")
