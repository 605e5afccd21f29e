"""GameWorld's save-state files: a PyBoy state wrapped with the sha256 of the ROM it was saved from.

PyBoy loads a state into whatever ROM is running, silently, so every state this platform stores says
which ROM it belongs to, and nothing loads it into another. The file:

    b"GWGBSTATE\\x01" | header length (4 bytes, big-endian) | header (JSON) | zlib(PyBoy state)

The header holds `rom_sha256`, `pyboy` (the emulator version that saved it: states are not portable
between versions), `frames` (emulated frames since power-on), `actions` (how it was reached, when known)
and `note`. State bytes are not comparable between runs (they include the frame buffer, which depends on
rendering): compare RAM and state traces instead.
"""
import json
import struct
import zlib

from ...errors import StateError

MAGIC = b"GWGBSTATE\x01"
PYBOY_VERSION = "2.8.1"


def pack_state(raw, *, rom_sha256, **meta):
    header = json.dumps({"format": 1, "rom_sha256": rom_sha256, "pyboy": PYBOY_VERSION, **meta},
                        sort_keys=True, separators=(",", ":")).encode()
    return MAGIC + struct.pack(">I", len(header)) + header + zlib.compress(bytes(raw), 9)


def read_header(blob, name="the state"):
    blob = bytes(blob)
    if not blob.startswith(MAGIC):
        raise StateError(f"{name} is not a GameWorld Game Boy state (no GWGBSTATE header): raw emulator states "
                         "do not say which ROM they belong to, so they are not loaded")
    try:
        (length,) = struct.unpack(">I", blob[len(MAGIC):len(MAGIC) + 4])
        start = len(MAGIC) + 4
        header = json.loads(blob[start:start + length].decode())
    except (struct.error, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise StateError(f"{name}: its header is damaged ({exc})") from None
    if not isinstance(header, dict) or not isinstance(header.get("rom_sha256"), str):
        raise StateError(f"{name}: its header does not name the ROM it was saved from")
    return header, start + length


def unpack_state(blob, *, rom_sha256, name="the state"):
    """Return (header, raw PyBoy state) if the state belongs to the ROM with this sha256; else StateError."""
    header, offset = read_header(blob, name)
    if header["rom_sha256"] != rom_sha256:
        raise StateError(f"{name} was saved from the ROM with sha256 {header['rom_sha256']}, not from this ROM "
                         f"({rom_sha256}); a state loads silently into the wrong ROM, so it is refused")
    if header.get("pyboy") != PYBOY_VERSION:
        raise StateError(f"{name} was saved by PyBoy {header.get('pyboy')}; this sandbox runs PyBoy "
                         f"{PYBOY_VERSION} (states are not portable between versions): capture it again")
    try:
        raw = zlib.decompress(bytes(blob)[offset:])
    except zlib.error as exc:
        raise StateError(f"{name}: the emulator state is damaged ({exc})") from None
    return header, raw
