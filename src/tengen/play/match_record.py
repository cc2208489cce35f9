"""What a match leaves on disk: its settings (`match.json`), one JSON line per finished game
(`results.jsonl`, appended with fsync), one SGF per game (`games/game-0001.sgf`), and the summary read back
from them (win rate with a 95 % interval, split by colour, game lengths, why games ended).

Game numbers start at 1; engine A plays Black in odd-numbered games (index 0, 2, ... counted from 0) when
colours alternate. Results are from A's side: a win counts 1, a draw (jigo) 1/2.
"""
from __future__ import annotations

import datetime
import json
import math
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from tengen.files import append_line, write_atomic
from tengen.go.colors import BLACK
from tengen.go.coords import Move, Point, to_sgf

SETTINGS_FILE = "match.json"
RESULTS_FILE = "results.jsonl"
GAMES_DIR = "games"
Z95 = 1.96


class MatchError(ValueError):
    """A match that cannot start or go on (bad settings, an engine refusing its setup): one line."""


@dataclass(frozen=True)
class MatchSettings:
    """Everything that decides a match's games; a folder holds the games of one settings only."""

    a: str
    b: str
    size: int = 19
    komi: float = 7.5
    handicap: int = 0
    a_color: str = "alternate"  # alternate | black | white
    max_moves: int = 0  # 0: 3 x the board's points
    referee: str = "gnugo"  # a GTP command line that answers final_score, or "none" (tengen's area count)

    @property
    def move_cap(self) -> int:
        """The most moves (passes included) a game gets before it is scored as it stands."""
        return self.max_moves or 3 * self.size * self.size

    def a_is_black(self, index: int) -> bool:
        """Whether engine A plays Black in game `index` (0-based)."""
        if self.a_color == "alternate":
            return index % 2 == 0
        return self.a_color == "black"

    def to_json(self) -> dict:
        """The settings as match.json stores them."""
        return asdict(self)


@dataclass
class GameResult:
    """One finished game as a results.jsonl line (winner and colour from the game, reason why it ended)."""

    game: int  # 1-based
    a_color: str  # "black" | "white"
    winner_engine: Optional[str]  # "A" (the --a engine), "B" (--b), or None for a draw: never a colour
    result: str  # SGF RE: B+3.5, W+R, B+F (forfeit), 0
    reason: str  # passes | resign | illegal | error | died | timeout | move cap
    moves: int
    detail: str = ""  # what happened, in words (the illegal move, the engine's message)
    scorer: str = ""  # who counted a scored game (the referee's command, or tengen-area)
    retried: bool = False
    seconds: float = 0.0
    sgf: str = ""
    moves_key: str = ""  # a hash of the move sequence: distinct games are counted from it
    winner_name: str = ""  # the winning engine's program (its command's first word), for a reader of the file
    winner_color: str = ""  # "black" | "white" | "" (a draw)

    @property
    def a_score(self) -> float:
        """1 for an A win, 1/2 for a draw, 0 for a loss."""
        return 0.5 if self.winner_engine is None else float(self.winner_engine == "A")


def game_file(index: int) -> str:
    """The SGF path of game `index` (0-based), relative to the match folder."""
    return f"{GAMES_DIR}/game-{index + 1:04d}.sgf"


# ---------------------------------------------------------------------- the folder
def prepare_folder(out: str | os.PathLike, settings: MatchSettings) -> Path:
    """Create the match folder or check that it holds this match's settings (MatchError otherwise)."""
    folder = Path(out)
    try:
        (folder / GAMES_DIR).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MatchError(f"--out {out}: cannot create the folder ({exc.strerror or exc})") from None
    path = folder / SETTINGS_FILE
    wanted = settings.to_json()
    if path.exists():
        try:
            stored = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            raise MatchError(f"--out {out}: {SETTINGS_FILE} is unreadable ({exc})") from None
        if stored != wanted:
            changed = ", ".join(changed_settings(stored, wanted))
            raise MatchError(f"--out {out} holds a match with other settings ({changed} differ); use another folder")
    else:
        try:
            write_atomic(path, (json.dumps(wanted, indent=1) + "\n").encode())
        except OSError as exc:
            raise MatchError(f"--out {out}: not writable ({exc.strerror or exc})") from None
    return folder


def changed_settings(stored: dict, wanted: dict) -> list[str]:
    """The names of the settings that differ between two match.json dicts (for the refusal's message)."""
    return sorted(k for k in set(stored) | set(wanted) if stored.get(k) != wanted.get(k))


def read_settings(folder: str | os.PathLike) -> MatchSettings:
    """The settings stored in a match folder."""
    return MatchSettings(**json.loads((Path(folder) / SETTINGS_FILE).read_text()))


def read_results(folder: str | os.PathLike) -> list[GameResult]:
    """The finished games, sorted by number (a torn last line, left by a crash mid-write, is skipped)."""
    path = Path(folder) / RESULTS_FILE
    if not path.exists():
        return []
    known = set(GameResult.__dataclass_fields__)
    found: dict[int, GameResult] = {}
    for line in path.read_text(errors="replace").splitlines():
        try:
            row = json.loads(line)
            if "winner" in row and "winner_engine" not in row:  # a file written before the field was renamed
                row["winner_engine"] = row.pop("winner")
            result = GameResult(**{k: v for k, v in row.items() if k in known})
        except (ValueError, TypeError):
            continue
        found.setdefault(result.game, result)
    return [found[k] for k in sorted(found)]


def append_result(folder: str | os.PathLike, result: GameResult) -> None:
    """Append one game's line to results.jsonl and fsync it (a finished game is never lost)."""
    append_line(Path(folder) / RESULTS_FILE, json.dumps(asdict(result), sort_keys=True))


def sort_results(folder: str | os.PathLike) -> None:
    """Rewrite results.jsonl in game order (parallel games finish out of order), atomically."""
    results = read_results(folder)
    data = "".join(json.dumps(asdict(r), sort_keys=True) + "\n" for r in results).encode()
    path = Path(folder) / RESULTS_FILE
    if results and path.read_bytes() != data:
        write_atomic(path, data)


# ---------------------------------------------------------------------- SGF
def _text(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def sgf_text(settings: MatchSettings, black: str, white: str, setup: Sequence[Point],
             moves: Sequence[tuple[int, Move]], result: str, comment: str = "") -> str:
    """One game as FF[4] SGF text (Chinese rules, handicap stones as AB, passes as empty moves)."""
    date = datetime.date.today().isoformat()
    root = (f"FF[4]GM[1]CA[UTF-8]AP[tengen match]SZ[{settings.size}]KM[{settings.komi:g}]"
            f"HA[{settings.handicap}]RU[Chinese]PB[{_text(black)}]PW[{_text(white)}]RE[{_text(result)}]DT[{date}]")
    if setup:
        root += "AB" + "".join(f"[{to_sgf(p)}]" for p in setup) + "PL[W]"
    if comment:
        root += f"C[{_text(comment)}]"
    body = "".join(f"\n;{'B' if color == BLACK else 'W'}[{to_sgf(point)}]" for color, point in moves)
    return f"(;{root}{body})\n"


def write_sgf(folder: str | os.PathLike, index: int, text: str) -> str:
    """Write game `index`'s SGF atomically; returns its path relative to the folder."""
    relative = game_file(index)
    write_atomic(Path(folder) / relative, text.encode())
    return relative


# ---------------------------------------------------------------------- summary
def interval95(p: float, n: int) -> float:
    """Half-width of the normal-approximation 95 % interval of a proportion: 1.96 * sqrt(p(1-p)/n)."""
    if n <= 0:
        return 0.0
    return Z95 * math.sqrt(max(p * (1.0 - p), 0.0) / n)


def exact_bound_all_or_none(wins: float, n: int) -> Optional[tuple[float, float]]:
    """The exact (Clopper-Pearson) 95 % interval when every game was won or every game lost, else None.

    The normal interval above is 0 wide at p = 0 or 1, which overstates what n games show: with all n won
    the exact lower bound is 0.025 ** (1/n) (0.929 for 50 games), and symmetrically with none won.
    """
    if n <= 0 or wins not in (0, n):
        return None
    bound = 0.025 ** (1.0 / n)  # P(all n won | p) = p ** n = alpha / 2
    return (bound, 1.0) if wins == n else (0.0, 1.0 - bound)


@dataclass
class Summary:
    """A match's numbers from A's side (draws count 1/2)."""

    games: int = 0
    a_wins: float = 0.0
    winrate: float = 0.0
    interval: float = 0.0
    by_color: dict = field(default_factory=dict)  # "black"/"white" -> {games, a_wins, winrate, interval}
    mean_moves: float = 0.0
    reasons: dict = field(default_factory=dict)  # reason -> count
    distinct: int = 0
    settings: Optional[MatchSettings] = None

    def lines(self, a_name: str = "A") -> list[str]:
        """The summary as a few printable lines."""
        out = [f"games: {self.games}   {a_name} wins: {self.a_wins:g}   win rate: {self.winrate:.3f} "
               f"+- {self.interval:.3f} (95 %)"]
        exact = exact_bound_all_or_none(self.a_wins, self.games)
        if exact:
            out.append(f"  {'all' if self.a_wins else 'none'} of {self.games} won: exact (Clopper-Pearson) 95 % "
                       f"interval {exact[0]:.3f}-{exact[1]:.3f} (the normal interval is 0 wide there)")
        for color in ("black", "white"):
            c = self.by_color.get(color)
            if c and c["games"]:
                out.append(f"  {a_name} as {color}: {c['a_wins']:g}/{c['games']} = {c['winrate']:.3f} "
                           f"+- {c['interval']:.3f}")
        out.append(f"mean game length: {self.mean_moves:.1f} moves; distinct games: {self.distinct}")
        if self.reasons:
            out.append("ended by: " + ", ".join(f"{k} {v}" for k, v in sorted(self.reasons.items())))
        return out


def summarize_results(results: Sequence[GameResult], settings: Optional[MatchSettings] = None) -> Summary:
    """The summary of a list of finished games."""
    summary = Summary(settings=settings)
    n = len(results)
    if not n:
        return summary
    wins = sum(r.a_score for r in results)
    summary.games, summary.a_wins = n, wins
    summary.winrate = wins / n
    summary.interval = interval95(summary.winrate, n)
    for color in ("black", "white"):
        part = [r for r in results if r.a_color == color]
        w = sum(r.a_score for r in part)
        p = w / len(part) if part else 0.0
        summary.by_color[color] = {"games": len(part), "a_wins": w, "winrate": p,
                                   "interval": interval95(p, len(part))}
    summary.mean_moves = sum(r.moves for r in results) / n
    for r in results:
        summary.reasons[r.reason] = summary.reasons.get(r.reason, 0) + 1
    summary.distinct = len({(r.a_color, r.moves_key) for r in results})
    return summary


def summarize(out_dir: str | os.PathLike) -> Summary:
    """The summary of the match stored in `out_dir` (empty when nothing has finished)."""
    folder = Path(out_dir)
    settings = read_settings(folder) if (folder / SETTINGS_FILE).exists() else None
    return summarize_results(read_results(folder), settings)
