"""Which games the local-move dataset reads, and one game prepared for labelling (replayed, its late positions
and its final position encoded for KataGo) in a worker process."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from tengen.eval.katago.features import Encoded, encode
from tengen.go import Board, IllegalMove, Rules
from tengen.train.archives import collection_of
from tengen.train.records.game import GameRecord, SkipGame, move_key, parse_game
from tengen.train.records.replay import record_board
from tengen.train.splits import split_of

FINISHED_LIST = "finished_19x19_scored_games.txt"
DEFAULT_PHASES: tuple[float, ...] = (0.7, 0.8, 0.9)
DEFAULT_KOMI = 7.5  # a record without a komi is labelled as a 7.5 game (ownership barely depends on it)


def finished_games(games_dir: Path) -> dict[str, list[str]]:
    """Archive name -> member paths of the games played to a counted result (the shared list's order)."""
    out: dict[str, list[str]] = {}
    with open(games_dir / FINISHED_LIST, encoding="utf-8") as fh:
        next(fh, None)
        for line in fh:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 2:
                out.setdefault(parts[0], []).append(parts[1])
    return out


def record_rules(record: GameRecord) -> Rules:
    komi = record.komi if math.isfinite(record.komi) else DEFAULT_KOMI
    return Rules("records", komi, "area", "simple", False)


def snapshot_moves(n_moves: int, phases: Sequence[float]) -> list[int]:
    """Moves played before each late position (distinct, at least one move left after each)."""
    wanted = sorted({min(n_moves - 1, max(1, int(round(f * n_moves)))) for f in phases})
    return [n for n in wanted if 0 < n < n_moves]


@dataclass
class PreparedGame:
    """A game ready for labelling: its record, the late positions (moves played, side to move) and the KataGo
    inputs of each late position followed by the final position's."""

    path: str
    key: int = 0
    record: Optional[GameRecord] = None
    snapshots: list[tuple[int, int]] = field(default_factory=list)
    encoded: list[Optional[Encoded]] = field(default_factory=list)  # None: counted only (stored labels)
    skipped: str = ""


def start_board(record: GameRecord) -> Board:
    """The record's empty board under its rules, with its setup stones."""
    return record_board(record_rules(record).komi, record.setup_black, record.setup_white)


def next_to_play(record, n: int) -> int:
    """Who moves after `n` moves of a record (anything with `moves`: a GameRecord, a packed game): the record's
    next mover, else the opponent of the last one."""
    if n < len(record.moves):
        return record.moves[n][0]
    return -record.moves[-1][0]


def prepare_game(item: tuple[str, str, bytes], phases: Sequence[float], encode_positions: bool = True,
                 only_split: Optional[int] = None) -> PreparedGame:
    """Parse, replay and encode one archive member (archive, path, bytes); `skipped` names why a game is out.
    Without `encode_positions` the positions are only counted (their labels come from a labels file);
    `only_split` (0 train, 1 validation, 2 test) skips the games of other splits."""
    archive, path, data = item
    prepared = PreparedGame(path)
    try:
        record = parse_game(data, path, collection_of(archive))
    except SkipGame as exc:
        prepared.skipped = exc.reason
        return prepared
    prepared.record, prepared.key = record, move_key(record)
    if only_split is not None and split_of(prepared.key) != only_split:
        prepared.skipped = "other_split"
        return prepared
    snaps = snapshot_moves(len(record.moves), phases)
    if not snaps:
        prepared.skipped = "too_short"
        return prepared
    board = start_board(record)
    wanted = set(snaps)
    try:
        for n, (color, point) in enumerate(record.moves, start=1):
            board.play(color, point)
            if n in wanted or n == len(record.moves):
                board.to_play = next_to_play(record, n)
                prepared.encoded.append(encode(board) if encode_positions else None)
                if n in wanted:
                    prepared.snapshots.append((n, board.to_play))
    except IllegalMove as exc:
        prepared.skipped = f"illegal_move_{exc.reason.replace(' ', '_')}"
        prepared.encoded, prepared.snapshots = [], []
    return prepared
