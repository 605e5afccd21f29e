"""Daphne as `runsite` starts it: `python -m gameworld_site.webserver <daphne's arguments>`.

One change to the server underneath (Twisted's HTTP channel): a request line or header line longer than it reads
(16 KiB) is answered 414 URI Too Long (the request line: a huge query string) or 431 Request Header Fields Too
Large, where Twisted drops the connection without a word.
"""
import sys

from daphne.cli import CommandLineInterface
from twisted.web import http

# A busy process may take a few seconds to accept a socket; Daphne's 5 s default drops it without an answer.
WEBSOCKET_CONNECT_TIMEOUT_S = 30


def answer_overlong_line(channel, line):
    first_line = getattr(channel, "_HTTPChannel__first_line", True)
    status = b"414 URI Too Long" if first_line else b"431 Request Header Fields Too Large"
    channel.transport.write(b"HTTP/1.1 " + status + b"\r\nContent-Type: text/plain\r\nContent-Length: 0\r\n"
                            b"Connection: close\r\n\r\n")
    channel.transport.loseConnection()


def main(argv):
    http.HTTPChannel.lineLengthExceeded = answer_overlong_line
    CommandLineInterface().run(["--websocket_connect_timeout", str(WEBSOCKET_CONNECT_TIMEOUT_S), *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
