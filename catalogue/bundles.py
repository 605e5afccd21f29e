"""The bundle store: every imported version of every game, kept as it was imported, so that a task made for
version 1.0.0 replays on 1.0.0 after 1.1.0 arrives. DATA_DIR/bundles/<version>/<slug>/ (the folder name is
the slug, as a bundle's manifest requires).

Bundles come from games/ or from an uploaded archive (.zip, .tar.gz). An archive member that is
absolute, climbs out with `..`, or is a link or a device is refused: a bundle holds only its own files.
"""
import filecmp
import io
import json
import re
import shutil
import tarfile
import tempfile
import zipfile
from pathlib import Path, PurePosixPath

from django.conf import settings

from sandbox import ManifestError, load_manifest

MAX_ARCHIVE_BYTES = 50 * 1024 * 1024
MAX_UNPACKED_BYTES = 200 * 1024 * 1024  # what the members may inflate to, all together (a zip bomb stops here)
MAX_MEMBERS = 2000
CHUNK = 1024 * 1024
SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")


class BundleRejected(Exception):
    """The bundle cannot be imported; the message says what is wrong and where."""


def store_root():
    return settings.DATA_DIR / "bundles"


def stored_dir(slug, version):
    return store_root() / version / slug


def stored_spec(slug, version):
    """The GameSpec of an imported version, or None when that version was never imported."""
    folder = stored_dir(slug, version)
    return load_manifest(folder) if (folder / "manifest.json").is_file() else None


def store(source_dir):
    """Validate a bundle folder and keep a copy of its game under its version; return the folder's GameSpec.

    Storing the same version twice is fine when the game is the same, and refused when it differs: a game
    version, once imported, never changes. Tasks are not part of that (they have versions of their own, in
    the database), so a manifest whose tasks changed is the same game.
    """
    source_dir = Path(source_dir)
    _refuse_links(source_dir)
    spec = load_manifest(source_dir)
    target = stored_dir(spec.slug, spec.version)
    if target.exists():
        if not _same_game(source_dir, target):
            raise BundleRejected(f"{spec.slug} {spec.version} was imported before with other files; "
                                 "give the bundle a new version")
        return spec
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{spec.slug}-"))
    try:
        shutil.copytree(source_dir, staging / spec.slug, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        try:
            (staging / spec.slug).rename(target)
        except OSError:  # another process stored it first
            if not _same_game(source_dir, target):
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return spec


def unpack_archive(data, name):
    """Unpack an uploaded bundle archive into a temporary folder and return (tmpdir, bundle folder)."""
    if len(data) > MAX_ARCHIVE_BYTES:
        raise BundleRejected(f"{name}: {len(data):,} bytes; the limit is {MAX_ARCHIVE_BYTES:,}")
    tmp = Path(tempfile.mkdtemp(prefix="gameworld-bundle-"))
    try:
        if zipfile.is_zipfile(io.BytesIO(data)):
            _unzip(data, name, tmp / "x")
        else:
            _untar(data, name, tmp / "x")
        manifests = sorted((tmp / "x").rglob("manifest.json"), key=lambda p: len(p.parts))
        if not manifests:
            raise BundleRejected(f"{name}: no manifest.json in the archive")
        folder = manifests[0].parent
        if folder == tmp / "x":  # the archive holds the folder's contents (`tar czf b.tgz -C folder .`)
            folder = folder.rename(tmp / _declared_slug(manifests[0]))
        return tmp, folder
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _declared_slug(manifest_path):
    """The slug a root-level manifest declares, as the bundle folder's name (the manifest check then holds);
    anything that is not a plain slug leaves the folder as it is, for the manifest check to name."""
    try:
        slug = json.loads(manifest_path.read_text(encoding="utf-8")).get("slug")
    except (ValueError, AttributeError, UnicodeDecodeError):
        return "bundle"
    return slug if isinstance(slug, str) and SLUG.fullmatch(slug) else "bundle"


def _check_member(name, member):
    """The member's path inside the bundle; empty for the archive's own root (`./` in `tar -C dir .`)."""
    path = PurePosixPath(member)
    if path.is_absolute() or ".." in path.parts or member.startswith(("/", "\\")) \
            or (path.parts and ":" in path.parts[0]):
        raise BundleRejected(f"{name}: {member!r} points outside the bundle")
    return path


class _Budget:
    """Bytes written so far over all members, refused past MAX_UNPACKED_BYTES whatever the headers claim."""

    def __init__(self, name):
        self.name, self.used = name, 0

    def copy(self, source, out_path):
        out_path.parent.mkdir(parents=True, exist_ok=True)
        with out_path.open("wb") as out:
            while chunk := source.read(CHUNK):
                self.used += len(chunk)
                if self.used > MAX_UNPACKED_BYTES:
                    raise BundleRejected(f"{self.name}: the files inflate to more than {MAX_UNPACKED_BYTES:,} "
                                         "bytes; a game bundle is far smaller")
                out.write(chunk)


def _unzip(data, name, target):
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = archive.infolist()
        if len(members) > MAX_MEMBERS:
            raise BundleRejected(f"{name}: more than {MAX_MEMBERS} files")
        budget = _Budget(name)
        for info in members:
            path = _check_member(name, info.filename)
            if (info.external_attr >> 16) & 0o170000 == 0o120000:
                raise BundleRejected(f"{name}: {info.filename!r} is a symbolic link")
            if info.is_dir() or not path.parts:
                continue
            with archive.open(info) as source:
                budget.copy(source, target / Path(*path.parts))


def _untar(data, name, target):
    try:
        archive = tarfile.open(fileobj=io.BytesIO(data))
    except tarfile.TarError:
        raise BundleRejected(f"{name}: not a .zip or .tar(.gz) archive") from None
    with archive:
        budget = _Budget(name)
        for count, member in enumerate(archive, start=1):  # streamed: a member list is not built in memory
            if count > MAX_MEMBERS:
                raise BundleRejected(f"{name}: more than {MAX_MEMBERS} files")
            path = _check_member(name, member.name)
            if member.isdir() or not path.parts:
                continue
            if not member.isfile():
                raise BundleRejected(f"{name}: {member.name!r} is a link or a device, not a file")
            with archive.extractfile(member) as source:
                budget.copy(source, target / Path(*path.parts))


def _refuse_links(folder):
    for path in folder.rglob("*"):
        if path.is_symlink():
            raise BundleRejected(f"{path}: a symbolic link; a bundle holds only its own files")


# Files of a bundle that describe the game and do not change it: its tasks' calibration and the scripted player.
NOT_THE_GAME = ["__pycache__", "manifest.json", "calibration.json", "solver.py"]


def _same_game(a, b):
    """Same files, and the same manifest apart from its tasks and its `hud` (calibration and solver aside): `hud`
    says where the frames show a figure, which changes nothing the game does."""
    def game_part(folder):
        data = json.loads((Path(folder) / "manifest.json").read_text())
        data.pop("tasks", None)
        data.pop("hud", None)
        return data
    return game_part(a) == game_part(b) and _same_tree(a, b, ignore=NOT_THE_GAME)


def _same_tree(a, b, ignore=("__pycache__",)):
    compared = filecmp.dircmp(a, b, ignore=list(ignore))
    if compared.left_only or compared.right_only or compared.diff_files or compared.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, compared.common_files, shallow=False)
    return not mismatch and not errors and all(_same_tree(Path(a) / d, Path(b) / d) for d in compared.common_dirs)


__all__ = ["BundleRejected", "ManifestError", "store", "stored_spec", "unpack_archive"]
