"""`python -m tengen.train.localdata build`: the local-move dataset, shard by shard.

Games (the shared list of games played to a counted result) are read archive by archive in archive order
and cut into shards of `shard_games`; each shard is prepared in worker processes (parse, replay, KataGo
inputs of the late positions and the final one), labelled by KataGo in batches (on the GPU when there is
one), turned into examples in the workers, and written atomically. A shard already on disk is skipped, so
an interrupted build resumes where it stopped; `--time-budget` stops cleanly after the shard that passes it.
"""
from __future__ import annotations

import json
import multiprocessing
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable, Iterator, Optional, Sequence

import numpy as np

from tengen.eval.localnet.compact import EXAMPLE_FIELDS
from tengen.train.archives import games_dir as shared_games_dir
from tengen.train.archives import iter_archive
from tengen.train.labeller import labelling_evaluator
from tengen.train.localdata.extract import position_examples
from tengen.train.localdata.games import DEFAULT_PHASES, PreparedGame, finished_games, prepare_game, start_board
from tengen.files import atomic_savez
from tengen.files import datasets_cache_dir as default_cache_dir

DATASET = "localmoves-v1"


def dataset_dir(cache_dir: Path | str | None = None) -> Path:
    """Folder of this dataset version inside the cache (``$TENGEN_CACHE/datasets/localmoves-v1``)."""
    return (Path(cache_dir).expanduser() if cache_dir else default_cache_dir()) / DATASET


def shard_paths(root: Path) -> list[Path]:
    """The dataset's shard files, in order."""
    return sorted(root.glob("*-[0-9][0-9][0-9][0-9].npz"))


@dataclass
class BuildConfig:
    phases: tuple[float, ...] = DEFAULT_PHASES
    threshold: float = 0.9
    shard_games: int = 500
    limit: Optional[int] = None  # games in all (the first of the list, archive by archive)
    archives: Optional[tuple[str, ...]] = None  # archive names to read (default: every one present)
    workers: int = 2
    device: str = "auto"
    batch: int = 64
    model: Optional[str] = None
    time_budget: Optional[float] = None  # seconds: no new shard starts after this
    games_dir: Optional[Path] = None
    labels: Optional[Path] = None  # a labels file (KataGo ownership per game) to use instead of the network
    only_split: Optional[int] = None  # build only this split's games (0 train, 1 validation, 2 test)
    cutouts: tuple[int, ...] = ()  # wall widths: each local sequence also played on its cut-out diagram
    label_missing: bool = False  # with `labels`: the games they lack are labelled by KataGo (a run continuing them)


def game_examples(prepared: PreparedGame, ownership: np.ndarray, threshold: float,
                  cutouts: tuple[int, ...] = ()) -> dict[str, np.ndarray]:
    """Examples of every late position of a labelled game (ownership: one (19, 19) map per encoded position,
    the final one last) and the position-level statistics; with `cutouts`, also each sequence on its cut-out
    diagram (`extract.cut_out`, the width drawn per game, position and region)."""
    record = prepared.record
    final = ownership[-1]
    rows: list[dict] = []
    regions_size, regions_len, pos_move = [], [], []
    board, played = start_board(record), 0  # one replay through the late positions (examples copy the board)
    for (n, to_play), own in zip(prepared.snapshots, ownership[:-1]):
        for color, point in record.moves[played:n]:
            board.play(color, point)
        played = n
        board.to_play = to_play
        part, pos_rows = position_examples(board, to_play, own, final, record.moves, n, threshold, cutouts,
                                           seed=(prepared.key + n) % 1009)
        rows += pos_rows
        pos_move.append(n)
        regions_size += [len(r.points) for r in part.regions]
        regions_len += [len(r.moves) for r in part.regions]
    out = {k: np.stack([np.asarray(r[k]) for r in rows]) if rows else np.zeros((0,), dtype=np.int16)
           for k in EXAMPLE_FIELDS + ("cutout",)}
    if rows:
        out["region"] = np.packbits(out["region"].astype(bool), axis=1)
    out["game"] = np.full(len(rows), prepared.key, dtype=np.uint64)
    out["pos_move"] = np.asarray(pos_move, dtype=np.int16)
    out["regions_size"] = np.asarray(regions_size, dtype=np.int16)
    out["regions_len"] = np.asarray(regions_len, dtype=np.int16)
    return out


def _concat(parts: Sequence[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    keys = [k for k in parts[0]] if parts else []
    out = {}
    for k in keys:
        arrays = [p[k] for p in parts if len(p[k])]
        out[k] = np.concatenate(arrays) if arrays else parts[0][k]
    return out


def _shards(cfg: BuildConfig, root: Path) -> Iterator[tuple[Path, str, list[tuple[str, str, bytes]]]]:
    """(shard path, archive, members) in archive order; a shard already written comes with no members (its
    games are still read past, the archive being a stream)."""
    gdir = cfg.games_dir or shared_games_dir()
    listed = finished_games(gdir)
    budget = cfg.limit
    for archive in sorted(listed):
        if cfg.archives is not None and archive not in cfg.archives:
            continue
        if not (gdir / archive).exists():
            continue
        wanted = listed[archive] if budget is None else listed[archive][:budget]
        if not wanted:
            continue
        if budget is not None:
            budget -= len(wanted)
        stem = archive.split(".")[0]
        batch: list[tuple[str, str, bytes]] = []
        index = 0
        total = len(wanted)
        taken = 0
        for name, data in iter_archive(gdir / archive, wanted=set(wanted)):
            batch.append((archive, name, data))
            taken += 1
            if len(batch) == cfg.shard_games or taken == total:
                yield root / f"{stem}-{index:04d}.npz", archive, batch
                index, batch = index + 1, []
        if batch:
            yield root / f"{stem}-{index:04d}.npz", archive, batch
        if budget is not None and budget <= 0:
            return


class DatasetConfigMismatch(ValueError):
    """The dataset folder holds shards built with other settings: resuming would mix them."""


def check_config(root: Path, config: dict) -> None:
    """Write the build settings beside the shards, or refuse settings that differ from the shards already
    there (a folder without shards takes the new settings)."""
    path = root / "config.json"
    if path.exists() and shard_paths(root):
        old = json.loads(path.read_text())
        old.setdefault("cutouts", [])
        if old != config:
            changed = ", ".join(f"{k} {old.get(k)} -> {v}" for k, v in config.items() if old.get(k) != v)
            raise DatasetConfigMismatch(f"{root} holds shards built with other settings ({changed}): build into "
                                        "another --cache-dir, or remove the old shards")
    path.write_text(json.dumps(config, indent=1))


def build(cfg: BuildConfig, cache_dir: Path | str | None = None,
          progress: Optional[Callable[[int], None]] = None) -> Path:
    """Build (or resume) the dataset; returns its folder. Skipped games are counted by reason per shard."""
    root = dataset_dir(cache_dir)
    root.mkdir(parents=True, exist_ok=True)
    check_config(root, {"phases": list(cfg.phases), "threshold": cfg.threshold, "dataset": DATASET,
                        "cutouts": list(cfg.cutouts)})
    evaluator = None
    started = time.monotonic()
    executor: Optional[Executor] = None
    if cfg.workers > 1:
        executor = ProcessPoolExecutor(cfg.workers, mp_context=multiprocessing.get_context("fork"))
        executor.submit(int).result()  # start every worker now, before the evaluator initialises CUDA
    try:
        for path, archive, members in _shards(cfg, root):
            if path.exists():
                if progress:
                    progress(len(members))
                continue
            if cfg.time_budget is not None and time.monotonic() - started > cfg.time_budget:
                print(f"time budget of {cfg.time_budget:.0f} s spent: stopping before {path.name}", file=sys.stderr)
                break
            if evaluator is None:
                evaluator = (StoredLabels(cfg.labels) if cfg.labels else None,
                             _evaluator(cfg) if cfg.labels is None or cfg.label_missing else None)
            _build_shard(path, members, cfg, evaluator, executor)
            if progress:
                progress(len(members))
    finally:
        if executor is not None:
            executor.shutdown()
    return root


def labels_files(path: Path) -> list[Path]:
    """The labels files `path` names: itself, or every `.npz` in it when it is a folder (such as
    `labels/localnet/`, where each labelling run adds a file)."""
    path = Path(path)
    files = sorted(path.glob("*.npz")) if path.is_dir() else [path]
    if not files:
        raise FileNotFoundError(f"{path}: no labels files (.npz) in this folder")
    return files


class StoredLabels:
    """KataGo labels read back from labels files (what a GPU build or a CPU labelling run brought home): per
    game path, the ownership of its late positions and final position, stored x100 as int8. `path`: one
    file, or a folder of them (a game in two files takes the later file's labels)."""

    def __init__(self, path: Path):
        self._rows: dict[str, tuple[int, int, int]] = {}
        self._ownership: list[np.ndarray] = []
        for f, file in enumerate(labels_files(path)):
            with np.load(file) as z:
                paths, counts, own = z["paths"], z["counts"], z["ownership"]
            starts = np.concatenate([[0], np.cumsum(counts)])
            self._rows.update({str(p): (f, int(starts[i]), int(counts[i])) for i, p in enumerate(paths)})
            self._ownership.append(own)

    def __len__(self) -> int:
        return len(self._rows)

    def games(self) -> list[str]:
        """The archive paths of the games these labels hold."""
        return list(self._rows)

    def ownership_of(self, prepared: PreparedGame) -> Optional[np.ndarray]:
        """The game's labels, or None when the files have none (or a different number of positions)."""
        where = self._rows.get(prepared.path)
        if where is None or where[2] != len(prepared.encoded):
            return None
        f, start, count = where
        return self._ownership[f][start:start + count].astype(np.float32) / 100.0


SATURATED = 95  # stored |ownership| x100 at or above this is stored as 100: thresholds up to 0.95 are unchanged


def labels_file(root: Path, out: Path, exclude: Optional[Path] = None) -> tuple[Path, int]:
    """Gather every shard's KataGo labels into one file (`--labels` rebuilds the examples from it), leaving out
    the games that the labels at `exclude` (a file or a folder of them) already hold; returns the file and
    its games. Ownership at or beyond +-0.95 is stored as +-1: the builder only asks which side of the
    threshold (0.9 by default) a point lies and who owns it, and the file shrinks by a quarter."""
    known = set(StoredLabels(exclude).games()) if exclude is not None else set()
    paths, counts, own = [], [], []
    for shard in shard_paths(root):
        with np.load(shard) as z:  # each key read once: an npz decompresses its array on every access
            games, shard_counts, shard_own = z["label_paths"], z["label_counts"], z["label_ownership"]
        starts = np.concatenate([[0], np.cumsum(shard_counts)])
        for i, path in enumerate(games):
            if str(path) in known:
                continue
            paths.append(str(path))
            counts.append(int(shard_counts[i]))
            own.append(shard_own[starts[i]:starts[i + 1]])
    if not paths:
        raise FileNotFoundError(f"no labelled games in {root}" + (f" beyond those in {exclude}" if known else ""))
    ownership = np.concatenate(own)
    ownership[ownership >= SATURATED] = 100
    ownership[ownership <= -SATURATED] = -100
    atomic_savez(out, paths=np.asarray(paths), counts=np.asarray(counts, np.int16), ownership=ownership)
    return out, len(paths)


def _evaluator(cfg: BuildConfig):
    return labelling_evaluator(cfg.model, cfg.device, cfg.batch)


def _build_shard(path: Path, members: list, cfg: BuildConfig, labellers: tuple, executor: Optional[Executor]) -> None:
    """One shard: `labellers` is (stored labels or None, KataGo or None); a game takes its stored labels when
    they hold it, else KataGo's (when there is a network), else it is skipped as unlabelled."""
    stored, network = labellers
    prep = partial(prepare_game, phases=cfg.phases, encode_positions=network is not None, only_split=cfg.only_split)
    chunk = max(1, len(members) // (4 * max(1, cfg.workers)))
    prepared = list(executor.map(prep, members, chunksize=chunk) if executor else map(prep, members))
    labelled: dict[int, np.ndarray] = {}
    missing: list[int] = []
    for i, p in enumerate(prepared):
        if p.skipped:
            continue
        own = stored.ownership_of(p) if stored is not None else None
        if own is not None:
            labelled[i] = own
        elif network is not None:
            missing.append(i)
        else:
            p.skipped = "unlabelled"
    if missing:
        ownership = network.ownership_of_encoded([e for i in missing for e in prepared[i].encoded])
        at = 0
        for i in missing:
            labelled[i] = ownership[at:at + len(prepared[i].encoded)]
            at += len(prepared[i].encoded)
    usable = [prepared[i] for i in sorted(labelled)]
    per_game = [labelled[i] for i in sorted(labelled)]
    for p in usable:
        p.encoded = []  # the inputs are not needed any more (and are large to send back to workers)
    job = partial(_examples_job, threshold=cfg.threshold, cutouts=cfg.cutouts)
    pairs = list(zip(usable, per_game))
    parts = list(executor.map(job, pairs, chunksize=chunk) if executor else map(job, pairs))
    data = _concat(parts) if parts else {}
    skipped: dict[str, int] = {}
    for p in prepared:
        if p.skipped:
            skipped[p.skipped] = skipped.get(p.skipped, 0) + 1
    # the KataGo labels themselves (late positions then the final one, per game, x100 as int8), so the
    # examples can be re-extracted later without the network
    data["label_paths"] = np.asarray([p.path for p in usable])
    data["label_counts"] = np.asarray([len(o) for o in per_game], dtype=np.int16)
    data["label_ownership"] = np.rint(np.concatenate(per_game) * 100).astype(np.int8) \
        if per_game else np.zeros((0, 19, 19), np.int8)
    data["games_used"] = np.asarray(len(usable))
    data["games_read"] = np.asarray(len(prepared))
    data["skipped"] = np.asarray(json.dumps(skipped))
    atomic_savez(path, **data)


def _examples_job(pair: tuple[PreparedGame, np.ndarray], threshold: float,
                  cutouts: tuple[int, ...] = ()) -> dict[str, np.ndarray]:
    prepared, ownership = pair
    return game_examples(prepared, ownership, threshold, cutouts)
