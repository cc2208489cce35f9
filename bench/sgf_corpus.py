"""Load real-world SGF through tengen: every file of ../shared/data/sgf_corpora and a sample of the game
archives in ../shared/data/games. Each must load and replay (`board_at(None, strict=False)`) or fail with a
one-line `SgfError` naming its source; anything else is a crash.

    python bench/sgf_corpus.py                 # all corpora files + 20,000 archive games
    python bench/sgf_corpus.py --games 2000    # a smaller sample

Prints counts (loaded, clean errors by kind, crashes) and ends with `crashes: N`.
The test suite (tests/go/test_sgf_corpora.py) imports the helpers below.
"""
from __future__ import annotations

import argparse
import math
import os
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

from tengen.files import shared_data_path
from tengen.go.sgf import SgfError, load_game, load_game_bytes
from tengen.train.archives import iter_archive  # the one archive streamer (bench/gnugo_differential.py uses it too)

CORPORA_DIR = shared_data_path("sgf_corpora", must_exist=False)
GAMES_DIR = shared_data_path("games", must_exist=False)
ARCHIVES = (
    "pro_aeb_gosei-kifu_71934.tar.xz",
    "tom_9d_yenw_50956_sgf.tar.xz",
    "kgs_6d_godmoves_36692.tar.xz",
    "fox_pro_featurecat_10348.tar.xz",
    "yenw_ai_7259_sgf.tar.xz",
)
ARCHIVE_GAMES = {"pro_aeb_gosei-kifu_71934.tar.xz": 71934, "tom_9d_yenw_50956_sgf.tar.xz": 50956,
                 "kgs_6d_godmoves_36692.tar.xz": 36692, "fox_pro_featurecat_10348.tar.xz": 10348,
                 "yenw_ai_7259_sgf.tar.xz": 7259}


@dataclass
class Outcome:
    """What happened to one input: status 'loaded', 'error' (a clean SgfError) or 'crash'."""

    source: str
    status: str
    kind: str = ""
    message: str = ""
    moves: int = 0
    notes: tuple[str, ...] = ()  # what loading read leniently (Game.notes, as categories)


@dataclass
class Tally:
    """Counts over many inputs; `crashes` keeps the first few crash messages for the report."""

    loaded: int = 0
    moves: int = 0
    forced: Counter = field(default_factory=Counter)  # loaded games whose record holds an illegal move
    noted: Counter = field(default_factory=Counter)  # loaded games with a property read leniently, by kind
    errors: Counter = field(default_factory=Counter)
    crashes: list[str] = field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        if outcome.status == "loaded":
            self.loaded += 1
            self.moves += outcome.moves
            if outcome.kind:
                self.forced[outcome.kind] += 1
            self.noted.update(outcome.notes)
        elif outcome.status == "error":
            self.errors[outcome.kind] += 1
        else:
            self.crashes.append(f"{outcome.source}: {outcome.message}")

    @property
    def total(self) -> int:
        return self.loaded + sum(self.errors.values()) + len(self.crashes)


def error_kind(problem: str) -> str:
    """A short category for an SgfError problem text: numbers become N, details in brackets dropped."""
    illegal = re.search(r"is illegal: (.*)", problem)
    if illegal:
        return f"illegal move ({illegal.group(1)})"
    text = re.sub(r"[(\[].*", "", problem).strip()
    text = re.sub(r"\d+", "N", text)
    return text[:60] or "unknown"


def _check(load, source: str) -> Outcome:
    """Run `load()` -> Game, replay it; classify the result. Never raises (except KeyboardInterrupt)."""
    try:
        game = load()
        try:
            game.board_at(None)  # replays the record (raises on an illegal move)
            forced = ""
        except SgfError as exc:  # an illegal move in the record: replay it the lenient way, as editors do
            game.board_at(None, strict=False)
            forced = error_kind(exc.problem)
        notes = tuple(sorted({re.sub(r"\[[^]]*\]", "[..]", re.sub(r"\d+", "N", n)) for n in game.notes}))
        return Outcome(source, "loaded", kind=forced, moves=len(game.moves), notes=notes)
    except SgfError as exc:
        message = str(exc)
        if "\n" in message or source not in message:
            return Outcome(source, "crash", message=f"SgfError message not one line naming the source: {message!r}")
        return Outcome(source, "error", error_kind(exc.problem), message)
    except RecursionError as exc:  # deeply nested variations: a crash by our definition, report it
        return Outcome(source, "crash", message=f"RecursionError: {exc}")
    except Exception as exc:  # noqa: BLE001 - the point is to count every other exception as a crash
        return Outcome(source, "crash", message=f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}")


def check_file(path: str | os.PathLike) -> Outcome:
    """Load and replay one SGF file."""
    return _check(lambda: load_game(path), os.fspath(path))


def check_bytes(data: bytes, source: str) -> Outcome:
    """Load and replay SGF bytes (an archive member)."""
    return _check(lambda: load_game_bytes(data, source), source)


def corpora_files(root: Path = CORPORA_DIR) -> list[Path]:
    """Every regular file under the corpora folder (licences and images included: they must fail cleanly)."""
    return sorted(p for p in root.rglob("*") if p.is_file())


def archive_sample(total: int, archives: Iterable[str] = ARCHIVES,
                   games_dir: Path = GAMES_DIR) -> Iterator[tuple[str, bytes]]:
    """About `total` games spread over the archives in proportion to their size, taken at an even stride
    (so the sample covers every year/folder); small totals take the first games of each archive."""
    archives = list(archives)
    all_games = sum(ARCHIVE_GAMES[a] for a in archives)
    for name in archives:
        quota = max(1, math.ceil(total * ARCHIVE_GAMES[name] / all_games))  # ceil: at least `total` in all
        every = max(1, ARCHIVE_GAMES[name] // quota) if total >= 2000 else 1
        for member, data in iter_archive(games_dir / name, every=every, limit=quota):
            yield f"{name}:{member}", data


def run_corpora(tally: Tally, verbose: bool = False) -> None:
    for path in corpora_files():
        outcome = check_file(path)
        tally.add(outcome)
        if verbose and outcome.status != "loaded":
            print(f"  {outcome.status}: {outcome.message}")


def run_archives(tally: Tally, total: int, verbose: bool = False) -> None:
    for source, data in archive_sample(total):
        outcome = check_bytes(data, source)
        tally.add(outcome)
        if verbose and outcome.status != "loaded":
            print(f"  {outcome.status}: {outcome.message}")


def report(title: str, tally: Tally, seconds: float) -> None:
    print(f"{title}: {tally.total} inputs, {tally.loaded} loaded and replayed ({tally.moves} moves), "
          f"{sum(tally.errors.values())} clean errors, {len(tally.crashes)} crashes, {seconds:.1f}s")
    for kind, n in tally.forced.most_common():
        print(f"    {n:6d}  loaded; the record holds an illegal move, replayed leniently: {kind}")
    for kind, n in tally.noted.most_common():
        print(f"    {n:6d}  loaded; noted: {kind}")
    for kind, n in tally.errors.most_common():
        print(f"    {n:6d}  {kind}")
    for crash in tally.crashes[:20]:
        print(f"    CRASH {crash}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20000, help="archive games to sample (default 20000)")
    parser.add_argument("--no-corpora", action="store_true", help="skip ../shared/data/sgf_corpora")
    parser.add_argument("--verbose", action="store_true", help="print every error")
    args = parser.parse_args(argv)
    crashes = 0
    if not args.no_corpora:
        if not CORPORA_DIR.is_dir():
            print(f"corpora: skipped ({CORPORA_DIR} not found)")
        else:
            tally, start = Tally(), time.perf_counter()
            run_corpora(tally, args.verbose)
            report("corpora", tally, time.perf_counter() - start)
            crashes += len(tally.crashes)
    if args.games > 0:
        if not GAMES_DIR.is_dir():
            print(f"archives: skipped ({GAMES_DIR} not found)")
        else:
            tally, start = Tally(), time.perf_counter()
            run_archives(tally, args.games, args.verbose)
            report("archives", tally, time.perf_counter() - start)
            crashes += len(tally.crashes)
    print(f"crashes: {crashes}")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
