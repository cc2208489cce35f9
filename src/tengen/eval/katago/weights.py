"""The network cache: KataGo weights on disk, fetched on first use from the `katrain` wheel on PyPI.

The default network, `b10c384h6nbttflrs.bin.gz`, ships inside `katrain==1.20.0`. On first use the wheel
is fetched with `pip download --no-deps` (PyPI is the only host contacted), the model is extracted into
the cache directory and its SHA-256 checked. The cache is `~/.cache/tengen/models`, or `$TENGEN_MODEL_DIR`.
"""
from __future__ import annotations

import hashlib
import os
import shutil
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


class ModelDownloadError(RuntimeError):
    """The default network is not cached and could not be fetched."""


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
    if target.is_file():
        if sha256_of(target) == DEFAULT_SHA256:
            return target
        target.unlink()  # a broken or partial file: fetch again
    if not download:
        raise ModelDownloadError(f"the default network is not cached at {target}")
    return fetch_default_model(progress=progress)


def fetch_default_model(progress: bool = True) -> Path:
    """Download the katrain wheel from PyPI, extract the default network into the cache, verify it."""
    target_dir = cache_dir()
    target_dir.mkdir(parents=True, exist_ok=True)
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
            proc = subprocess.run(cmd, stdout=None if progress else subprocess.PIPE,
                                  stderr=None if progress else subprocess.PIPE, text=True)
        except OSError as e:
            raise ModelDownloadError(f"could not run pip to fetch the network: {e}") from None
        wheels = list(Path(tmp).glob("katrain-*.whl"))
        if proc.returncode != 0 or not wheels:
            raise ModelDownloadError(
                f"could not download {KATRAIN_REQUIREMENT} from PyPI (offline?). Put a KataGo network at "
                f"{target} yourself, point ${ENV_VAR} at a folder holding {DEFAULT_MODEL}, or pass a model "
                "file explicitly (--model FILE).")
        _extract(wheels[0], f"katrain/models/{DEFAULT_MODEL}", target, progress)
    digest = sha256_of(target)
    if digest != DEFAULT_SHA256:
        target.unlink()
        raise ModelDownloadError(f"{DEFAULT_MODEL} from {KATRAIN_REQUIREMENT} has sha256 {digest}, expected "
                                 f"{DEFAULT_SHA256}; refusing to use it")
    return target


def _extract(wheel: Path, member: str, target: Path, progress: bool) -> None:
    partial = target.with_name(target.name + ".part")
    with zipfile.ZipFile(wheel) as zf:
        try:
            info = zf.getinfo(member)
        except KeyError:
            raise ModelDownloadError(f"{wheel.name} has no {member}") from None
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=info.file_size, unit="B", unit_scale=True, desc=f"extracting {target.name}")
        with zf.open(info) as src, open(partial, "wb") as dst:
            for chunk in iter(lambda: src.read(1 << 20), b""):
                dst.write(chunk)
                if bar is not None:
                    bar.update(len(chunk))
        if bar is not None:
            bar.close()
    shutil.move(str(partial), str(target))


def extract_from_wheel(wheel: Path, member: str, target: Path) -> Path:
    """Copy one file out of a downloaded wheel (used by the golden-data tool for KataGo's binary)."""
    _extract(wheel, member, target, progress=False)
    return target
