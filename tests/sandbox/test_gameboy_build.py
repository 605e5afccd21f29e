"""The homebrew Game Boy ROMs are built from source, reproducibly: two builds give the same bytes, which
are the committed ROM and the sha256 its manifest pins."""
import hashlib
import shutil

import pytest

from sandbox import registry
from sandbox.backends.gameboy.build import BuildError, build_rom, homebrew_bundles, parse_tiles

HOMEBREW = [folder.name for folder, _ in homebrew_bundles()]

needs_sdcc = pytest.mark.skipif(shutil.which("sdcc") is None, reason="Debian's sdcc is not installed (bin/setup)")


def test_there_are_two_homebrew_games():
    assert set(HOMEBREW) >= {"snake", "gemmaze"}


@needs_sdcc
@pytest.mark.parametrize("slug", HOMEBREW)
def test_the_build_is_reproducible_and_gives_the_pinned_rom(slug, tmp_path):
    game = registry.game(slug)
    section = game.manifest["gameboy"]
    first = build_rom(game.bundle_dir, section["build"], workdir=tmp_path / "one")
    second = build_rom(game.bundle_dir, section["build"], workdir=tmp_path / "two")
    assert first == second, "two builds of the same source differ"
    assert hashlib.sha256(first).hexdigest() == section["rom_sha256"], "the source does not build the pinned ROM"
    assert first == (game.bundle_dir / section["rom"]).read_bytes()


def test_tiles_are_checked():
    assert parse_tiles("@ DOT\n" + "........\n" * 7 + "...3....\n")[0][1][-2:] == bytes([0x10, 0x10])
    with pytest.raises(BuildError, match="has 2 rows"):
        parse_tiles("@ A\n........\n........\n")
    with pytest.raises(BuildError, match="8 of . 1 2 3"):
        parse_tiles("@ A\n" + "....x...\n" * 8)
