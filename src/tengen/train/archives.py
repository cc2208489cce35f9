"""SGF records streamed out of the shared game archives (tar.xz, member by member, nothing unpacked to disk):
the one streamer the dataset build and the SGF benches share, and where the archives live.

The games folder is `tengen.files.shared_data_path("games")` (`$TENGEN_SHARED_DATA/games`, else
`shared/data/games` beside the checkout); its MANIFEST.md names the archives and their collections.
"""
from __future__ import annotations

import gzip
import io
import json
import os
import tarfile
from collections import Counter
from pathlib import Path
from typing import Iterator, Optional

from tengen.files import shared_data_path

# Archive name prefix -> collection (MANIFEST.md names the archives).
COLLECTIONS: dict[str, int] = {"pro_aeb": 0, "tom": 1, "kgs": 2, "yenw_ai": 3, "fox_pro": 4, "other": 5}  # ids in datasets
ARCHIVE_COLLECTIONS: dict[str, str] = {"pro_aeb": "pro_aeb", "tom_9d": "tom", "kgs_6d": "kgs",
                                       "yenw_ai": "yenw_ai", "fox_pro": "fox_pro"}


def games_dir() -> Path:
    """The shared games folder; `SharedDataMissing` (one line naming the path) when it is absent."""
    return shared_data_path("games")


def collection_of(archive: str | Path) -> str:
    """The collection an archive file holds ('other' for an archive MANIFEST.md does not name)."""
    name = Path(archive).name
    for prefix, collection in ARCHIVE_COLLECTIONS.items():
        if name.startswith(prefix):
            return collection
    return "other"


def iter_archive(archive: str | Path, every: int = 1, limit: Optional[int] = None,
                 wanted: Optional[set[str]] = None) -> Iterator[tuple[str, bytes]]:
    """(member name, bytes) of the `.sgf` members of a tar.xz, in archive order, streaming: every `every`-th
    one (or only the members named in `wanted`, whatever their suffix), at most `limit` of them."""
    count = taken = 0
    with tarfile.open(archive, mode="r|xz") as tar:
        for member in tar:
            if not member.isfile():
                continue
            if wanted is not None:
                if member.name not in wanted:
                    continue
            elif not member.name.lower().endswith(".sgf"):
                continue
            else:
                count += 1
                if (count - 1) % every:
                    continue
            handle = tar.extractfile(member)
            if handle is None:
                continue
            yield member.name, handle.read()
            taken += 1
            if limit is not None and taken >= limit:
                return
            if wanted is not None and taken >= len(wanted):
                return


def manifest_counts(data_dir: Path) -> dict[str, int]:
    """SGF files per archive from the folder's manifest.jsonl.gz (sizes progress bars only; never trusted for
    data); empty when there is no manifest."""
    manifest = data_dir / "manifest.jsonl.gz"
    counts: Counter[str] = Counter()
    if manifest.exists():
        with gzip.open(manifest, "rt") as fh:
            for line in fh:
                counts[json.loads(line)["archive"]] += 1
    return dict(counts)


def write_slim_archive(source: Path, target: Path, wanted: set[str]) -> int:
    """A tar.xz of only the members of `source` named in `wanted`, in archive order, written atomically; the
    same member names, so the dataset builders read it in place of the shared archive (the finished games'
    records are a small part of each archive: what a GPU call can carry). Returns the members written."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    written = 0
    with tarfile.open(partial, "w:xz") as out:
        for name, data in iter_archive(source, wanted=wanted):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            out.addfile(info, io.BytesIO(data))
            written += 1
    os.replace(partial, target)
    return written
