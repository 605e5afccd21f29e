"""Game Boy ROM files: read and check the cartridge header before anything runs them.

No PyBoy import here: the admin checks uploads with this module alone. A ROM is refused (RomError, with
the reason) when it is too small for a header, lacks the logo every cartridge carries at 0x104, has a
header or global checksum that does not add up (a corrupt dump), declares a size other than its own, or
uses a cartridge type the emulator does not support.
"""
import hashlib
from dataclasses import dataclass

from ...errors import RomError

# The 48 bytes at 0x104-0x133 of every Game Boy cartridge (the boot ROM refuses a cartridge without them).
LOGO = bytes.fromhex(
    "CEED6666CC0D000B03730083000C000D0008111F8889000EDCCC6EE6DDDDD999BBBB67636E0EECCCDDDC999FBBB9333E")
HEADER_END = 0x150
BANK = 16 * 1024
MAX_ROM_BYTES = 8 * 1024 * 1024

# Cartridge types PyBoy 2.8 emulates: code -> (name, has a real-time clock).
CARTRIDGE_TYPES = {
    0x00: ("ROM only", False), 0x01: ("MBC1", False), 0x02: ("MBC1+RAM", False),
    0x03: ("MBC1+RAM+BATTERY", False), 0x05: ("MBC2", False), 0x06: ("MBC2+BATTERY", False),
    0x08: ("ROM+RAM", False), 0x09: ("ROM+RAM+BATTERY", False), 0x0F: ("MBC3+TIMER+BATTERY", True),
    0x10: ("MBC3+TIMER+RAM+BATTERY", True), 0x11: ("MBC3", False), 0x12: ("MBC3+RAM", False),
    0x13: ("MBC3+RAM+BATTERY", False), 0x19: ("MBC5", False), 0x1A: ("MBC5+RAM", False),
    0x1B: ("MBC5+RAM+BATTERY", False), 0x1C: ("MBC5+RUMBLE", False), 0x1D: ("MBC5+RUMBLE+RAM", False),
    0x1E: ("MBC5+RUMBLE+RAM+BATTERY", False),
}


@dataclass(frozen=True)
class RomInfo:
    sha256: str
    size: int
    title: str
    cartridge_type: int
    cartridge_name: str
    has_rtc: bool
    cgb: str  # "no", "compatible" or "only"

    def to_dict(self):
        return {"sha256": self.sha256, "size": self.size, "title": self.title,
                "cartridge_type": self.cartridge_type, "cartridge_name": self.cartridge_name,
                "has_rtc": self.has_rtc, "cgb": self.cgb}


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def header_checksum(rom):
    x = 0
    for byte in rom[0x134:0x14D]:
        x = (x - byte - 1) & 0xFF
    return x


def global_checksum(rom):
    return (sum(rom) - rom[0x14E] - rom[0x14F]) & 0xFFFF


def inspect_rom(data, name="the ROM"):
    """Check a ROM image; return its RomInfo or raise RomError naming what is wrong."""
    data = bytes(data)
    size = len(data)
    if size < HEADER_END:
        raise RomError(f"{name} is not a Game Boy ROM: {size} bytes, too small to hold the cartridge header "
                       f"(0x100-0x14F)")
    if data[0x104:0x134] != LOGO:
        raise RomError(f"{name} is not a Game Boy ROM: the cartridge header at 0x104 lacks the logo every "
                       "Game Boy cartridge carries")
    if header_checksum(data) != data[0x14D]:
        raise RomError(f"{name} is corrupt: its header checksum (0x14D) is 0x{data[0x14D]:02X} but the header "
                       f"adds up to 0x{header_checksum(data):02X}")
    code = data[0x148]
    if code > 8:
        raise RomError(f"{name}: unknown ROM size code 0x{code:02X} at 0x148")
    declared = 2 * BANK << code
    if size != declared:
        raise RomError(f"{name} has the wrong size: its header declares {declared} bytes "
                       f"({declared // 1024} KiB), the file has {size}")
    if size > MAX_ROM_BYTES:
        raise RomError(f"{name}: {size} bytes is larger than any Game Boy cartridge (8 MiB)")
    stored = data[0x14E] << 8 | data[0x14F]
    if global_checksum(data) != stored:
        raise RomError(f"{name} is corrupt: its global checksum (0x14E) is 0x{stored:04X} but its bytes add "
                       f"up to 0x{global_checksum(data):04X} (a good dump matches)")
    kind = data[0x147]
    if kind not in CARTRIDGE_TYPES:
        raise RomError(f"{name}: cartridge type 0x{kind:02X} (at 0x147) is not one the emulator supports")
    cgb_flag = data[0x143]
    cgb = {0x80: "compatible", 0xC0: "only"}.get(cgb_flag, "no")
    title_bytes = data[0x134:0x143 if cgb != "no" else 0x144]
    title = title_bytes.split(b"\0", 1)[0].decode("ascii", "replace").strip()
    cart_name, has_rtc = CARTRIDGE_TYPES[kind]
    return RomInfo(sha256=sha256(data), size=size, title=title, cartridge_type=kind, cartridge_name=cart_name,
                   has_rtc=has_rtc, cgb=cgb)


def check_pinned(data, pinned_sha256, name="the ROM"):
    """The ROM must be the very one the manifest pins (a state loads silently into any ROM)."""
    digest = sha256(data)
    if digest != pinned_sha256:
        raise RomError(f"{name} has sha256 {digest}, but the manifest pins {pinned_sha256}: it is not the ROM "
                       "the game's states and tasks were made for (corrupt, or rebuilt from other source)")
    return inspect_rom(data, name)
