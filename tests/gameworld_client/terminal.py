"""Run a command with its stderr on a pseudo-terminal (where the progress bars are drawn) and its stdout on
a pipe, as a user's shell piping the results somewhere would."""
import fcntl
import os
import pty
import struct
import subprocess
import termios
import threading


def run_on_a_terminal(args, *, columns=200, **options):
    """(the CompletedProcess, with stdout; all that was written to the terminal, `columns` wide)."""
    main, side = pty.openpty()
    fcntl.ioctl(side, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    written = bytearray()

    def drain():
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # EIO: the command ended and the terminal closed
                return
            if not chunk:
                return
            written.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        result = subprocess.run(args, stdout=subprocess.PIPE, stderr=side, text=True, **options)
    finally:
        os.close(side)
        reader.join(timeout=10)
        os.close(main)
    return result, written.decode("utf-8", "replace")
