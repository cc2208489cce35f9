"""Build the winner dataset: stream every archive in chunks, parse and replay each game in worker processes,
write one checkpoint per chunk (atomically, so a killed build resumes where it stopped), then ``assemble``
the checkpoints into one ``{train,val,test}.npz`` per split, duplicates across collections dropped."""
from __future__ import annotations

import json
import logging
import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np

from tengen.train.archives import collection_of, games_dir, iter_archive, manifest_counts
from tengen.train.records.game import SkipGame, move_key, parse_game
from tengen.train.records.replay import extract_positions
from tengen.files import atomic_savez
from tengen.train.archives import COLLECTIONS
from tengen.train.records.store import BOARD_SIZE, CHUNK_SIZE, DATASET, PHASES, dataset_dir
from tengen.train.splits import SPLITS, split_of

log = logging.getLogger("tengen.train.records")


def chunked(items: Iterator[tuple[str, bytes]], size: int) -> Iterator[list[tuple[str, bytes]]]:
    """Consecutive lists of ``size`` items (the last may be shorter)."""
    batch: list[tuple[str, bytes]] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def process_chunk(archive: str, items: list[tuple[str, bytes]], out_path: str,
                  phases: tuple[int, ...] = PHASES) -> dict:
    """Parse, filter and replay one chunk of games; write its checkpoint file; return counters."""
    collection = collection_of(archive)
    counts: Counter[str] = Counter()
    skipped: list[str] = []
    g_key, g_len, g_winner, g_komi, g_hand, g_kind, g_path = [], [], [], [], [], [], []
    boards, caps, phase, pos_game, to_play = [], [], [], [], []
    for name, data in items:
        counts["files"] += 1
        try:
            record = parse_game(data, name, collection)
            positions = extract_positions(record, phases)
        except SkipGame as skip:
            counts[f"skip_{skip.reason}"] += 1
            skipped.append(f"{name}\t{skip.reason}\t{skip.detail}")
            continue
        except Exception as exc:  # a quirk nobody listed: count it, never crash a long build
            counts["skip_unexpected"] += 1
            skipped.append(f"{name}\tunexpected\t{type(exc).__name__}: {exc}"[:300])
            continue
        for note in record.notes:
            counts[note] += 1
        counts["kept"] += 1
        counts[f"result_{record.result_kind}"] += 1
        gi = len(g_key)
        g_key.append(move_key(record))
        g_len.append(len(record.moves))
        g_winner.append(record.winner)
        g_komi.append(record.komi)
        g_hand.append(max(record.handicap, 0))
        g_kind.append(record.result_kind)
        g_path.append(name)
        for n, stones, cap_b, cap_w, next_color in positions:
            boards.append(stones)
            to_play.append(next_color)
            caps.append((cap_b, cap_w))
            phase.append(n)
            pos_game.append(gi)
        counts["positions"] += len(positions)
    atomic_savez(
        Path(out_path),
        game_key=np.array(g_key, dtype=np.uint64),
        game_length=np.array(g_len, dtype=np.int16),
        game_winner=np.array(g_winner, dtype=np.int8),
        game_komi=np.array(g_komi, dtype=np.float32),
        game_handicap=np.array(g_hand, dtype=np.int8),
        game_kind=np.array(g_kind, dtype="U12"),
        game_path=np.array(g_path, dtype="U200"),
        game_collection=np.full(len(g_key), COLLECTIONS[collection], dtype=np.int8),
        boards=np.array(boards, dtype=np.int8).reshape(-1, BOARD_SIZE, BOARD_SIZE),
        captures=np.array(caps, dtype=np.int16).reshape(-1, 2),
        phase=np.array(phase, dtype=np.int16),
        to_play=np.array(to_play, dtype=np.int8),
        game=np.array(pos_game, dtype=np.int32),
        skipped=np.array(skipped, dtype=str),
        counts=np.array(json.dumps(dict(counts))),
    )
    return dict(counts)


def chunk_path(root: Path, archive: Path | str, index: int) -> Path:
    """Checkpoint file of chunk ``index`` of ``archive``."""
    stem = Path(archive).name.split(".")[0]
    return root / "chunks" / f"{stem}.{index:04d}.npz"


def build(data_dir: Path | str | None = None, cache_dir: Path | str | None = None, workers: int = 2,
          chunk_size: int = CHUNK_SIZE, limit: int | None = None, archives: list[str] | None = None,
          progress: bool = True) -> Path:
    """Stream every archive into chunk checkpoints (skipping chunks already written), then assemble.

    ``limit`` keeps only the first ``limit`` members of each archive (for smoke tests);
    ``archives`` restricts the build to archive names containing one of the given strings.
    """
    from tqdm import tqdm

    data_dir = Path(data_dir) if data_dir else games_dir()
    root = dataset_dir(cache_dir)
    root.mkdir(parents=True, exist_ok=True)
    params = {"dataset": DATASET, "chunk_size": chunk_size, "limit": limit, "phases": list(PHASES)}
    params_path = root / "build.json"
    if params_path.exists():
        old = json.loads(params_path.read_text())
        if old != params:
            raise SystemExit(f"{root} was built with {old}, not {params}: pass another --cache-dir or delete it")
    else:
        params_path.write_text(json.dumps(params, indent=1))
    paths = sorted(data_dir.glob("*.tar.xz"))
    if archives:
        paths = [p for p in paths if any(a in p.name for a in archives)]
    if not paths:
        raise SystemExit(f"no *.tar.xz archives in {data_dir}")
    expected = manifest_counts(data_dir)
    total = sum(min(expected.get(p.name, 0), limit or 10**9) for p in paths) or None
    totals: Counter[str] = Counter()
    t0 = time.time()
    bar = tqdm(total=total, unit="game", desc="records", disable=not progress, smoothing=0.05)
    pending: dict[Future, tuple[str, int, int]] = {}

    def collect(done: Iterable[Future]) -> None:
        for fut in done:
            archive, index, n = pending.pop(fut)
            counts = fut.result()
            totals.update(counts)
            bar.update(n)
            log.info("chunk %s #%d: %s", archive, index, json.dumps(counts, sort_keys=True))

    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        for archive in paths:
            members: Iterator[tuple[str, bytes]] = iter_archive(archive, limit=limit)
            for index, items in enumerate(chunked(members, chunk_size)):
                out = chunk_path(root, archive, index)
                if out.exists():
                    bar.update(len(items))
                    continue
                fut = pool.submit(process_chunk, archive.name, items, str(out))
                pending[fut] = (archive.name, index, len(items))
                while len(pending) >= 2 * max(1, workers):
                    done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
                    collect(done)
        while pending:
            done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            collect(done)
    bar.close()
    if totals:
        log.info("this run processed %s in %.0f s", json.dumps(dict(totals), sort_keys=True), time.time() - t0)
    return assemble(root)


def assemble(root: Path | str) -> Path:
    """Merge all chunk checkpoints, drop duplicate move sequences (first one wins), write one npz per split."""
    root = Path(root)
    files = sorted((root / "chunks").glob("*.npz"))
    if not files:
        raise SystemExit(f"no chunk files under {root / 'chunks'}: run build first")
    counts: Counter[str] = Counter()
    seen: set[int] = set()
    games: dict[str, list[np.ndarray]] = {}
    positions: dict[str, list[np.ndarray]] = {}
    game_offset = 0
    game_fields = ("game_key", "game_length", "game_winner", "game_komi", "game_handicap", "game_kind",
                   "game_collection", "game_path")
    pos_fields = ("boards", "captures", "phase", "to_play", "game")
    for f in files:
        with np.load(f) as z:
            counts.update(json.loads(str(z["counts"])))
            keys = z["game_key"]
            keep = np.zeros(len(keys), dtype=bool)
            for i, k in enumerate(keys.tolist()):
                if k not in seen:
                    seen.add(k)
                    keep[i] = True
            counts["duplicate"] += int((~keep).sum())
            new_index = np.cumsum(keep) - 1 + game_offset
            for name in game_fields:
                games.setdefault(name, []).append(z[name][keep])
            pkeep = keep[z["game"]]
            for name in pos_fields:
                arr = z[name][pkeep]
                if name == "game":
                    arr = new_index[arr].astype(np.int32)
                positions.setdefault(name, []).append(arr)
            game_offset += int(keep.sum())
    g = {k: np.concatenate(v) for k, v in games.items()}
    p = {k: np.concatenate(v) for k, v in positions.items()}
    g_split = np.array([split_of(int(k)) for k in g["game_key"].tolist()], dtype=np.int8)
    summary: dict = {"counts": dict(sorted(counts.items())), "splits": {}}
    for s, name in enumerate(SPLITS):
        gmask = g_split == s
        remap = np.full(len(gmask), -1, dtype=np.int64)
        remap[gmask] = np.arange(int(gmask.sum()))
        pmask = gmask[p["game"]]
        arrays = {k: v[gmask] for k, v in g.items()}
        arrays.update({k: v[pmask] for k, v in p.items()})
        arrays["game"] = remap[arrays["game"]].astype(np.int32)
        atomic_savez(root / f"{name}.npz", **arrays)
        summary["splits"][name] = {
            "games": int(gmask.sum()),
            "positions": {int(ph): int((arrays["phase"] == ph).sum()) for ph in PHASES},
            "black_wins": float((arrays["game_winner"] == 1).mean()) if gmask.any() else None,
        }
    (root / "summary.json").write_text(json.dumps(summary, indent=1))
    for k, v in sorted(counts.items()):
        if k.startswith("skip_") or k.startswith(("komi", "fixed", "duplicate")):
            log.info("count %-28s %d", k, v)
    log.info("splits %s", json.dumps(summary["splits"]))
    return root
