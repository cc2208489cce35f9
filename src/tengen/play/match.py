"""A match between two GTP engines: alternating colours, handicap and komi, an SGF per game, resumable.

    python -m tengen.play.match --a "CMD" --b "CMD" --games N --size 19 --komi 7.5 --handicap 0 --out DIR
        [--a-color alternate|black|white] [--max-moves M] [--parallel P] [--referee gnugo|none|"CMD"]
        [--first N]

Each game: `boardsize`, `clear_board`, `komi` (and `set_random_seed <game number>` to engines that know it,
so a deterministic engine still varies from game to game) to both engines; with a handicap, `fixed_handicap
N` to Black's engine and its answer as `set_free_handicap` to White's (White then moves first); then
`genmove` / `play` in turn. A game ends on two passes in a row or the move cap (both scored by the referee:
GNU Go's `final_score` after the moves are replayed into it, as gogui-twogtp does, or tengen's own area
count with Benson's dead stones), a resignation, or a forfeit: an illegal or unreadable move, a `?` answer
to `genmove`, or a legal move the other engine refuses. Every move is replayed on a local `Board` (Chinese
rules) that decides legality independently of both engines. An engine that dies or times out is not
clearly at fault (the machine may be busy): the game is played again once with fresh engines, and only a
second failure loses it.

The folder (`match_record`): `match.json` (the settings; other settings into the same folder are refused),
`results.jsonl` (a line per finished game; a restart skips them: that is the resume), `games/game-0001.sgf`.
A match can be split across machines: each plays its own range of game numbers (`--first`), and
`merge_match` copies one folder's finished games into another with the same settings.
"""
from __future__ import annotations

import argparse
import fcntl
import hashlib
import math
import os
import shlex
import shutil
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Optional, Sequence

from tengen.eval.gtp_client import GtpClient, GtpCommandError, GtpEngineError, find_gnugo
from tengen.files import OutputError, check_output_dir, write_atomic
from tengen.go.board import MAX_SIDE, MIN_SIDE, Board
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import CoordinateError, Move, Point, from_gtp, to_gtp
from tengen.go.handicap import max_fixed_handicap
from tengen.go.rules import Rules
from tengen.go.scoring import area_score, benson_dead_stones
from tengen.play.match_record import (SETTINGS_FILE, GameResult, MatchError, MatchSettings, Summary,
                                      append_result, changed_settings, game_file, prepare_folder, read_results,
                                      read_settings,
                                      sort_results, sgf_text, summarize, write_sgf)

__all__ = ["MatchError", "MatchSettings", "run_match", "merge_match", "summarize", "check_settings", "main"]

DEFAULT_TIMEOUT = 600.0  # seconds per GTP answer: long searches on a busy machine stay within it
_COLOR_NAME = {BLACK: "black", WHITE: "white"}


class _Crash(Exception):
    """An engine died or went silent mid-game (not clearly its fault: the game is retried once)."""

    def __init__(self, label: str, message: str):
        self.label, self.message = label, message
        self.reason = "timeout" if "within" in message else "died"
        super().__init__(f"engine {label}: {message}")


# ---------------------------------------------------------------------- settings
def engine_argv(flag: str, command: str) -> list[str]:
    """An engine command line split with shlex, its binary checked (MatchError naming the flag)."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise MatchError(f"{flag}: cannot split the command ({exc})") from None
    if not argv:
        raise MatchError(f"{flag}: an empty engine command")
    exe = argv[0]
    found = (os.access(exe, os.X_OK) and os.path.isfile(exe)) if os.sep in exe else shutil.which(exe)
    if not found and exe == "gnugo" and find_gnugo() is not None:  # Debian installs it in /usr/games, often off PATH
        argv[0] = found = find_gnugo()
    if not found:
        raise MatchError(f"{flag}: engine binary {exe!r} not found or not executable")
    return argv


def referee_argv(referee: str) -> Optional[list[str]]:
    """The referee's command line (`gnugo`: GNU Go with Chinese rules), or None for tengen's own count."""
    if referee == "none":
        return None
    if referee == "gnugo":
        binary = find_gnugo()
        if binary is None:
            raise MatchError("--referee gnugo: GNU Go is not installed (use --referee none or a command)")
        return [binary, "--mode", "gtp", "--chinese-rules"]
    return engine_argv("--referee", referee)


def check_settings(settings: MatchSettings) -> None:
    """Refuse settings no game can be played with (one-line MatchError)."""
    if not MIN_SIDE <= settings.size <= MAX_SIDE:
        raise MatchError(f"--size {settings.size}: out of range ({MIN_SIDE}..{MAX_SIDE})")
    if not math.isfinite(settings.komi):
        raise MatchError(f"--komi {settings.komi}: not a finite number")
    top = max_fixed_handicap(settings.size)
    if settings.handicap and not 2 <= settings.handicap <= top:
        allowed = f"0 or 2..{top}" if top else "0 only"
        raise MatchError(f"--handicap {settings.handicap}: on {settings.size}x{settings.size} {allowed}")
    if settings.a_color not in ("alternate", "black", "white"):
        raise MatchError(f"--a-color {settings.a_color}: alternate, black or white")
    if settings.max_moves < 0:
        raise MatchError(f"--max-moves {settings.max_moves}: must be 0 (3 x points) or more")
    engine_argv("--a", settings.a)
    engine_argv("--b", settings.b)
    referee_argv(settings.referee)


# ---------------------------------------------------------------------- engines
class _Seat:
    """One engine of a worker: started on demand, restarted after a failure."""

    def __init__(self, label: str, argv: list[str], timeout: float):
        self.label, self.argv, self.timeout = label, argv, timeout
        self.client: Optional[GtpClient] = None
        self.name = label
        self.seeded = False

    def get(self) -> GtpClient:
        """The running engine (started, and its name and commands asked, when needed)."""
        if self.client is None or not self.client.alive:
            self.close()
            try:
                self.client = GtpClient(self.argv, timeout=self.timeout)
                name, version, commands = self.client.query_many(["name", "version", "list_commands"])
            except GtpEngineError as exc:
                self.client = None
                raise _Crash(self.label, str(exc)) from None
            self.name = " ".join(t.text for t in (name, version) if t.ok and t.text).strip() or self.label
            self.seeded = commands.ok and "set_random_seed" in commands.text.split()
        return self.client

    def close(self) -> None:
        """Stop the engine (idempotent)."""
        if self.client is not None:
            self.client.close(quit_timeout=1.0)
            self.client = None


def _ask(seat: _Seat, command: str) -> str:
    """Send one command; a dead or silent engine becomes `_Crash` (GtpCommandError passes through)."""
    try:
        return seat.get().send(command)
    except GtpEngineError as exc:
        seat.close()
        raise _Crash(seat.label, str(exc)) from None


def _setup(seat: _Seat, commands: Sequence[str]) -> None:
    """Setup commands an engine must accept; a refusal stops the match (it would refuse every game)."""
    for command in commands:
        try:
            _ask(seat, command)
        except GtpCommandError as exc:
            raise MatchError(f"engine {seat.label} ({' '.join(seat.argv)}) refuses {command!r}: {exc.message}") \
                from None


# ---------------------------------------------------------------------- one game
class _Game:
    """The state of one game being played: board, moves, and how it ended."""

    def __init__(self, settings: MatchSettings, index: int):
        self.settings, self.index = settings, index
        self.a_black = settings.a_is_black(index)
        self.board = Board(settings.size, rules=Rules.chinese(settings.komi))
        self.setup: list[Point] = []
        self.moves: list[tuple[int, Move]] = []
        self.winner_color: Optional[int] = None  # None with a result: a draw
        self.result = ""
        self.reason = ""
        self.detail = ""
        self.scorer = ""
        self.started = False  # set once both engines accepted the setup

    def label(self, color: int) -> str:
        """Which engine ("A" or "B") plays `color` in this game."""
        return "A" if (color == BLACK) == self.a_black else "B"

    def forfeit(self, loser: int, reason: str, detail: str) -> None:
        """End the game: `loser`'s side loses by forfeit."""
        self.winner_color, self.reason, self.detail = -loser, reason, detail
        self.result = f"{'B' if loser == WHITE else 'W'}+F"


def _play_game(game: _Game, seats: dict[str, _Seat], scorer: Callable[[_Game], None]) -> None:
    """Play one game to its end (raises _Crash when an engine dies, MatchError on a refused setup)."""
    s = game.settings
    first = ["boardsize %d" % s.size, "clear_board", f"komi {s.komi:g}"]
    for seat in seats.values():
        seat.get()
        _setup(seat, first + ([f"set_random_seed {game.index + 1}"] if seat.seeded else []))
    black, white = seats[game.label(BLACK)], seats[game.label(WHITE)]
    to_move = BLACK
    if s.handicap:
        try:
            answer = _ask(black, f"fixed_handicap {s.handicap}")
            game.setup = [p for p in (from_gtp(v, s.size) for v in answer.split()) if p is not None]
        except (GtpCommandError, CoordinateError) as exc:
            raise MatchError(f"engine {black.label} cannot place fixed_handicap {s.handicap}: {exc}") from None
        if len(set(game.setup)) != s.handicap:
            raise MatchError(f"engine {black.label} answered fixed_handicap {s.handicap} with {answer!r}")
        _setup(white, ["set_free_handicap " + " ".join(to_gtp(p, s.size) for p in game.setup)])
        game.board.setup(black=game.setup)
        to_move = WHITE
    game.started = True
    while True:
        mover, other = (black, white) if to_move == BLACK else (white, black)
        letter = "b" if to_move == BLACK else "w"
        try:
            answer = _ask(mover, f"genmove {letter}").strip()
        except GtpCommandError as exc:
            return game.forfeit(to_move, "error", f"{mover.label} answered genmove with '? {exc.message}'")
        if answer.lower() == "resign":
            game.winner_color, game.reason = -to_move, "resign"
            game.result = f"{'B' if to_move == WHITE else 'W'}+R"
            return
        try:
            point = from_gtp(answer, s.size)
        except CoordinateError:
            return game.forfeit(to_move, "illegal", f"{mover.label} answered genmove with {answer[:40]!r}")
        why = game.board.legality(to_move, point)
        if why:
            return game.forfeit(to_move, "illegal", f"{mover.label} played {answer} ({why}) at move "
                                                    f"{len(game.moves) + 1}")
        game.board.play(to_move, point)
        game.moves.append((to_move, point))
        try:
            _ask(other, f"play {letter} {to_gtp(point, s.size)}")
        except GtpCommandError as exc:
            return game.forfeit(-to_move, "error", f"{other.label} refused the legal move {letter} "
                                                   f"{to_gtp(point, s.size)}: {exc.message}")
        if point is None and len(game.moves) >= 2 and game.moves[-2][1] is None:
            game.reason = "passes"
            return scorer(game)
        if len(game.moves) >= s.move_cap:
            game.reason = "move cap"
            return scorer(game)
        to_move = -to_move


class _Referee:
    """Scores finished games: GNU Go's final_score after a replay, or tengen's area count as the fallback."""

    def __init__(self, argv: Optional[list[str]], timeout: float):
        self.argv, self.timeout = argv, timeout
        self.client: Optional[GtpClient] = None

    def __call__(self, game: _Game) -> None:
        """Set the game's result and winner from the count."""
        s = game.settings
        answer, note = None, ""
        if self.argv is not None:
            commands = [f"boardsize {s.size}", "clear_board", f"komi {s.komi:g}"]
            if game.setup:
                commands.append("set_free_handicap " + " ".join(to_gtp(p, s.size) for p in game.setup))
            commands += [f"play {'b' if c == BLACK else 'w'} {to_gtp(p, s.size)}" for c, p in game.moves]
            commands.append("final_score")
            try:
                if self.client is None or not self.client.alive:
                    self.client = GtpClient(self.argv, timeout=self.timeout)
                replies = self.client.query_many(commands)
                bad = next((c for c, r in zip(commands, replies) if not r.ok), None)
                if bad is None and _parse_score(replies[-1].text) is not None:
                    answer = replies[-1].text.split()[0]
                else:
                    note = f" (referee refused {bad!r}; tengen's count used)" if bad else " (unreadable score)"
            except GtpEngineError as exc:
                self.client = None
                note = f" (referee failed: {exc}; tengen's count used)"
        if answer is not None:
            game.scorer = "referee: " + " ".join(self.argv)
        else:
            answer = area_score(game.board, benson_dead_stones(game.board)).result_string()
            game.scorer = "tengen area count, Benson dead stones" + note
        game.result = answer
        game.winner_color = _parse_score(answer)

    def close(self) -> None:
        """Stop the referee engine."""
        if self.client is not None:
            self.client.close(quit_timeout=1.0)
            self.client = None


def _parse_score(text: str) -> Optional[int]:
    """BLACK/WHITE from 'B+3.5' / 'W+12', 0 for a draw ('0'), None when unreadable."""
    token = (text.split() or [""])[0].upper()
    if token in ("0", "DRAW", "JIGO", "B+0", "W+0"):
        return 0
    if len(token) > 2 and token[0] in "BW" and token[1] == "+":
        return BLACK if token[0] == "B" else WHITE
    return None


# ---------------------------------------------------------------------- the runner
def _game_result(game: _Game, seconds: float, retried: bool) -> GameResult:
    """The results.jsonl line of a finished game."""
    winner = None if not game.winner_color else game.label(game.winner_color)
    command = {"A": game.settings.a, "B": game.settings.b}.get(winner or "", "")
    moves = " ".join(to_gtp(p, game.settings.size) for _, p in game.moves)
    key = hashlib.sha1(moves.encode()).hexdigest()[:16]
    return GameResult(game=game.index + 1, a_color="black" if game.a_black else "white", winner_engine=winner,
                      winner_name=os.path.basename((shlex.split(command) or [""])[0]) if command else "",
                      winner_color=_COLOR_NAME.get(game.winner_color, ""),
                      result=game.result, reason=game.reason, moves=len(game.moves), detail=game.detail,
                      scorer=game.scorer, retried=retried, seconds=round(seconds, 2), moves_key=key)


class _Worker:
    """One thread's engines and referee, reused from game to game."""

    def __init__(self, settings: MatchSettings, timeout: float):
        self.settings = settings
        self.seats = {"A": _Seat("A", engine_argv("--a", settings.a), timeout),
                      "B": _Seat("B", engine_argv("--b", settings.b), timeout)}
        self.referee = _Referee(referee_argv(settings.referee), timeout)

    def play(self, index: int, stop: threading.Event) -> Optional[tuple[_Game, GameResult]]:
        """Play game `index`, retrying once after a crash; None when the match was stopped meanwhile."""
        for attempt in (0, 1):
            game = _Game(self.settings, index)
            start = time.monotonic()
            try:
                _play_game(game, self.seats, self.referee)
            except _Crash as crash:
                self.close()
                if stop.is_set():
                    return None
                if attempt == 0:
                    continue
                if not game.started:
                    raise MatchError(f"engine {crash.label} fails before the first move, twice: {crash.message}")
                loser = BLACK if game.label(BLACK) == crash.label else WHITE
                game.forfeit(loser, crash.reason, f"engine {crash.label}: {crash.message} (twice; retried once)")
            if stop.is_set():
                return None
            return game, _game_result(game, time.monotonic() - start, attempt == 1)
        return None

    def close(self) -> None:
        """Stop every engine of this worker."""
        for seat in self.seats.values():
            seat.close()
        self.referee.close()


def _sgf_for(game: _Game, seats: dict[str, _Seat], settings: MatchSettings, result: GameResult) -> str:
    """The game's SGF text, engines named by their GTP name and label."""
    names = {label: f"{seat.name} ({label})" for label, seat in seats.items()}
    why = result.reason + (f": {result.detail}" if result.detail else "")
    comment = (f"game {result.game}; {result.result} by {why}; A: {settings.a}; B: {settings.b}"
               + (f"; scored by {result.scorer}" if result.scorer else ""))
    return sgf_text(settings, names[game.label(BLACK)], names[game.label(WHITE)], game.setup, game.moves,
                    result.result, comment)


def _lock(folder: Path):
    """Hold an exclusive lock on the folder (a second runner into it is refused)."""
    handle = open(folder / ".lock", "w")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise MatchError(f"--out {folder}: another match runner is writing there") from None
    return handle


def run_match(settings: MatchSettings, out: str | os.PathLike, games: int, parallel: int = 1,
              timeout: float = DEFAULT_TIMEOUT,
              progress: Optional[Callable[[GameResult], None]] = None, first: int = 1) -> Summary:
    """Play games `first`..`games` not yet in `out`'s results (P at a time) and return the match's summary.

    A `first` above 1 lets one match be split across machines (each plays its own range into its own folder,
    then `merge_match` gathers them): game N is the same game wherever it is played (colours and seeds follow N).
    """
    check_settings(settings)
    if parallel < 1:
        raise MatchError(f"--parallel {parallel}: must be 1 or more")
    if first < 1:
        raise MatchError(f"--first {first}: game numbers start at 1")
    try:
        check_output_dir("--out", os.fspath(out))
    except OutputError as exc:
        raise MatchError(str(exc)) from None
    folder = prepare_folder(out, settings)
    lock = _lock(folder)
    try:
        done = {r.game for r in read_results(folder)}
        todo = [i for i in range(first - 1, games) if i + 1 not in done]
        if todo:
            _run(settings, folder, todo, min(parallel, len(todo)), timeout, progress)
        sort_results(folder)
    finally:
        lock.close()
    return summarize(folder)


def merge_match(out: str | os.PathLike, source: str | os.PathLike,
                expected: Optional[MatchSettings] = None) -> list[int]:
    """Copy the finished games of match folder `source` that `out` lacks into `out` (same settings only).

    Returns the game numbers copied; a game already in `out` is kept as it is. `out` is locked meanwhile.
    With `expected`, `source` must hold exactly those settings.
    """
    src = Path(source)
    if not (src / SETTINGS_FILE).is_file():
        raise MatchError(f"--merge {source}: not a match folder (no {SETTINGS_FILE})")
    try:
        settings = read_settings(src)
    except (OSError, ValueError, TypeError) as exc:
        raise MatchError(f"--merge {source}: {SETTINGS_FILE} is unreadable ({exc})") from None
    if expected is not None and settings != expected:
        changed = changed_settings(settings.to_json(), expected.to_json())
        raise MatchError(f"--merge {source} holds a match with other settings ({', '.join(changed)} differ)")
    folder = prepare_folder(out, settings)
    lock = _lock(folder)
    try:
        done = {r.game for r in read_results(folder)}
        copied = []
        for result in read_results(src):
            if result.game in done:
                continue
            relative = game_file(result.game - 1)
            if not (src / relative).is_file():
                raise MatchError(f"--merge {source}: game {result.game} has a result but no {relative}")
            write_atomic(folder / relative, (src / relative).read_bytes())
            append_result(folder, result)
            copied.append(result.game)
        sort_results(folder)
    finally:
        lock.close()
    return copied


def _run(settings: MatchSettings, folder: Path, todo: list[int], parallel: int, timeout: float,
         progress: Optional[Callable[[GameResult], None]]) -> None:
    """Play the `todo` games on `parallel` threads, each with its own engines; results written as they end."""
    stop = threading.Event()
    queue = iter(todo)
    take, write = threading.Lock(), threading.Lock()
    workers: list[_Worker] = []

    def work() -> None:
        worker = _Worker(settings, timeout)
        workers.append(worker)
        try:
            while not stop.is_set():
                with take:
                    index = next(queue, None)
                if index is None:
                    return
                played = worker.play(index, stop)
                if played is None:
                    return
                game, result = played
                with write:
                    result.sgf = write_sgf(folder, index, _sgf_for(game, worker.seats, settings, result))
                    append_result(folder, result)
                    if progress:
                        progress(result)
        except BaseException:
            stop.set()
            raise
        finally:
            worker.close()

    with ThreadPoolExecutor(max_workers=parallel) as pool:
        futures = [pool.submit(work) for _ in range(parallel)]
        try:
            for future in futures:
                future.result()
        except BaseException:
            stop.set()
            for worker in list(workers):
                worker.close()
            raise


# ---------------------------------------------------------------------- the command
class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit 2)."""

    def error(self, message: str):
        """Print one line and exit 2."""
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The command's flags."""
    p = _Parser(prog="python -m tengen.play.match", description="Play a match between two GTP engines.")
    p.add_argument("--a", required=True, help="engine A's command line (split with shlex)")
    p.add_argument("--b", required=True, help="engine B's command line")
    p.add_argument("--games", type=int, required=True, help="games wanted in the folder (finished ones count)")
    p.add_argument("--size", type=int, default=19)
    p.add_argument("--komi", type=float, default=7.5)
    p.add_argument("--handicap", type=int, default=0, help="fixed handicap stones (0, or 2..9)")
    p.add_argument("--out", required=True, help="match folder: match.json, results.jsonl, games/")
    p.add_argument("--a-color", default="alternate", choices=("alternate", "black", "white"),
                   help="A's colour: alternate (Black in games 1, 3, ...), or always black / white")
    p.add_argument("--max-moves", type=int, default=0, help="move cap, then the game is scored (0: 3 x points)")
    p.add_argument("--parallel", type=int, default=1, help="games at once (default 1)")
    p.add_argument("--first", type=int, default=1,
                   help="play games from this number on (split one match across machines; default 1)")
    p.add_argument("--referee", default="gnugo",
                   help="who scores: gnugo (GNU Go final_score, default), none (tengen's area count), or a command")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per GTP answer (default 600)")
    p.add_argument("--quiet", action="store_true", help="no line per game")
    return p


def print_result(result: GameResult) -> None:
    """One line per finished game."""
    winner = "draw" if result.winner_engine is None else f"{result.winner_engine} ({result.winner_name}) wins"
    print(f"game {result.game}: A {result.a_color}, {winner} {result.result} ({result.reason}, {result.moves} moves"
          + (f"; {result.detail}" if result.detail else "") + ")", flush=True)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line: play, then print the summary; bad input is one line on stderr and exit 2."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help, or a flag argparse refused (one line already printed)
        return exc.code if isinstance(exc.code, int) else 2
    settings = MatchSettings(a=args.a, b=args.b, size=args.size, komi=args.komi, handicap=args.handicap,
                             a_color=args.a_color, max_moves=args.max_moves, referee=args.referee)
    if args.games < 0:
        print(f"match: error: --games {args.games}: must be 0 or more", file=sys.stderr)
        return 2
    try:
        summary = run_match(settings, args.out, args.games, args.parallel, args.timeout,
                            None if args.quiet else print_result, first=args.first)
    except (MatchError, OSError) as exc:
        print(f"match: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("match: stopped; finished games are kept (run again to continue)", file=sys.stderr)
        return 130
    for line in summary.lines():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
