"""Differential check of tengen's rules core against GNU Go 3.8 (Debian's /usr/games/gnugo) over GTP.

Real games (played to a counted result, from ../shared/data/games) and random games (uniform random legal
moves that do not fill the mover's own single-point eye, with occasional passes, on 5x5..19x19) are
played on a tengen Board and in GNU Go side by side. After every move:

  * both accept the move, or both refuse it (`play`), and deliberately illegal probes (suicide, ko
    retake, occupied point) are refused by both;
  * the stones agree (`list_stones black|white`) and so do the prisoners (`captures black|white`);
  * the legal moves of the player to move agree (`all_legal`; this covers suicide and the ko point,
    which is also asked directly with `is_legal`).

At the end, GNU Go's dead stones (`final_status_list dead`) go into tengen's `area_score` and the margin is
compared with GNU Go's `final_score` under Chinese rules. The two count different boards (SCORING_NOTE),
so the check is: (1) no point that GNU Go gives to one color (alive or dead stones, territory) is
counted by tengen for the other one; (2) the margins are equal, or differ by no more than the points
GNU Go settles in its playout (dame and seki) can account for. Anything else is a disagreement.

    python bench/gnugo_differential.py --real 200 --random 200

Prints counts and ends with `disagreements: N`. tests/go/test_gnugo_differential.py imports it.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sgf_corpus import GAMES_DIR, iter_archive  # noqa: E402

from tengen.go.board import Board, IllegalMove  # noqa: E402
from tengen.go.colors import BLACK, WHITE  # noqa: E402
from tengen.go.coords import Point, from_gtp, neighbours, to_gtp  # noqa: E402
from tengen.go.rules import Rules  # noqa: E402
from tengen.go.scoring import area_ownership, area_score  # noqa: E402
from tengen.go.sgf import SgfError, load_game_bytes  # noqa: E402
from tengen.eval.gtp_client import GtpClient, GtpEngineError  # noqa: E402

FINISHED_LIST = GAMES_DIR / "finished_19x19_scored_games.txt"
STATUSES = ("alive", "dead", "seki", "black_territory", "white_territory", "dame")
RANDOM_SIZES = (9, 13, 19, 7, 5)
RANDOM_KOMI = (7.5, 7.0, 0.5, 6.5)
MIN_REAL_MOVES = 250  # shorter "finished" records often leave much unsettled: GNU Go's playout then takes a minute
SCORE_TIMEOUT = 120.0
PASS_PROBABILITY = 0.02
PROBE_PROBABILITY = 0.25
MAX_DISAGREEMENTS_PER_GAME = 3
SCORING_NOTE = (
    "GNU Go's final_score (and final_status_list) first finishes the game: both sides play "
    "genmove_conservative moves until two passes -- filling dame, connecting chains short of liberties, "
    "capturing -- and only then count area (engine/aftermath.c; play_gtp.c finish_and_score_game). "
    "tengen's area_score counts the position as it stands, Tromp-Taylor style, after removing the given "
    "dead stones. So the margins differ by the dame each side fills in GNU Go's playout, by empty points "
    "GNU Go calls dame although one color surrounds them (a liberty an atari'd chain must still fill, a "
    "seki eye), and by points GNU Go assigns although they still touch both colors (an open border, a "
    "dead stone next to both colors, a pending ko). Random games end with only single-point eyes left, "
    "so they mostly agree exactly."
)


def _color_name(color: int) -> str:
    return "black" if color == BLACK else "white"


@dataclass
class Tally:
    """Counts over a run. `disagreements` holds one line per disagreement (game, move, what)."""

    real_games: int = 0
    random_games: int = 0
    moves: int = 0
    refused_by_both: Counter = field(default_factory=Counter)  # illegal record moves / probes, by reason
    positions: int = 0
    legal_sets: int = 0
    ko_checks: int = 0
    captures: int = 0
    scored: Counter = field(default_factory=Counter)  # by kind of game: real / random
    score_equal: Counter = field(default_factory=Counter)
    score_explained: list[str] = field(default_factory=list)
    explanations: Counter = field(default_factory=Counter)  # games whose difference involves each reason
    skipped: Counter = field(default_factory=Counter)
    disagreements: list[str] = field(default_factory=list)
    seconds: float = 0.0


class Checker:
    """Plays the same moves on a tengen Board and in GNU Go, comparing after each one."""

    def __init__(self, client: GtpClient, tally: Tally):
        self.gg = client
        self.tally = tally
        self.game = ""
        self.game_disagreements = 0

    # ------------------------------------------------------------ helpers
    def disagree(self, board: Board, what: str) -> None:
        self.tally.disagreements.append(f"{self.game} after {len(board.moves)} moves: {what}")
        self.game_disagreements += 1

    def _points(self, text: str, size: int) -> set[Point]:
        table = _vertex_table(size)
        return {table[t] for t in text.split()}

    def new_game(self, name: str, size: int, komi: float) -> Board:
        self.game, self.game_disagreements, self.position_ok = name, 0, True
        for answer in self.gg.query_many([f"boardsize {size}", "clear_board", f"komi {komi:g}"]):
            if not answer.ok:
                raise RuntimeError(f"GNU Go refused to set up a {size}x{size} game: {answer.text}")
        return Board(size, rules=Rules.chinese(komi))

    def _compare_commands(self, board: Board, prisoners: bool) -> list[str]:
        to_play = _color_name(board.to_play)
        commands = ["list_stones black", "list_stones white"]
        if prisoners:
            commands += ["captures black", "captures white"]
        commands.append(f"all_legal {to_play}")
        if board.ko_point is not None:
            commands.append(f"is_legal {to_play} {to_gtp(board.ko_point, board.height)}")
        return commands

    def _check(self, board: Board, commands: list[str], answers) -> bool:
        """Compare GNU Go's answers to `_compare_commands` with the tengen board; True when all agree."""
        size, before = board.height, len(self.tally.disagreements)
        grid = board.array()
        for command, answer in zip(commands, answers):
            name, color_text = command.split()[:2]
            color = BLACK if color_text == "black" else WHITE
            if not answer.ok:
                self.disagree(board, f"GNU Go failed {command!r}: {answer.text}")
            elif name == "list_stones":
                theirs = self._points(answer.text, size)
                ours = {(int(r), int(c)) for r, c in zip(*(grid == color).nonzero())}
                if theirs != ours:
                    diff = " ".join(to_gtp(p, size) for p in sorted(theirs ^ ours)[:6])
                    self.disagree(board, f"{color_text} stones differ at {diff}")
            elif name == "captures":
                self.tally.captures += 1
                if int(answer.text) != board.captures[color]:
                    self.disagree(board, f"{color_text} prisoners: tengen {board.captures[color]}, GNU Go {answer.text}")
            elif name == "all_legal":
                self.tally.legal_sets += 1
                theirs = self._points(answer.text, size)
                ours = set(board.legal_moves(color))
                if theirs != ours:
                    only_ours = " ".join(to_gtp(p, size) for p in sorted(ours - theirs)[:6])
                    only_theirs = " ".join(to_gtp(p, size) for p in sorted(theirs - ours)[:6])
                    self.disagree(board, f"legal moves for {color_text}: only tengen [{only_ours}], only GNU Go [{only_theirs}]")
            elif name == "is_legal":
                self.tally.ko_checks += 1
                if answer.text != "0":
                    self.disagree(board, f"ko point {command.split()[2]}: GNU Go says legal")
        self.tally.positions += 1
        return len(self.tally.disagreements) == before

    def compare(self, board: Board, prisoners: bool = False) -> bool:
        """Stones, legal moves of the player to move, the ko point and (when asked) the prisoners, in one
        round trip. True when all agree."""
        commands = self._compare_commands(board, prisoners)
        return self._check(board, commands, self.gg.query_many(commands))

    def play(self, board: Board, color: int, point, compare: bool = True) -> Optional[bool]:
        """Play on both (and compare the positions after it, in the same round trip). Returns True when
        both accepted the move, None when both refused it, False when they disagree; `self.position_ok`
        tells whether the positions agreed afterwards."""
        vertex = to_gtp(point, board.height)
        try:
            captured = len(board.play(color, point))
            ours_ok, reason = True, ""
        except IllegalMove as exc:
            captured, ours_ok, reason = 0, False, exc.reason
        commands = self._compare_commands(board, prisoners=captured > 0) if compare else []
        answers = self.gg.query_many([f"play {_color_name(color)} {vertex}"] + commands)
        reply = answers[0]
        self.position_ok = self._check(board, commands, answers[1:]) if compare else True
        if ours_ok != reply.ok:
            self.disagree(board, f"{_color_name(color)} {vertex}: tengen {'accepts' if ours_ok else 'refuses (' + reason + ')'}, "
                                 f"GNU Go {'accepts' if reply.ok else 'refuses (' + reply.text + ')'}")
            return False
        if not ours_ok:
            self.tally.refused_by_both[reason] += 1
            return None
        self.tally.moves += 1
        return True

    def score(self, board: Board) -> None:
        """GNU Go's dead stones into tengen's area count, against GNU Go's final_score (see SCORING_NOTE).

        Every point has one GNU Go status. Where the status fixes the owner (alive, dead, territory)
        tengen must never count the point for the other color; it may count it for nobody (an unclosed
        border). Dame and seki points are settled by GNU Go's playout, each worth at most 1 + |tengen's
        count there|. A margin difference larger than what these account for is a disagreement.
        """
        size = board.height
        self.compare(board, prisoners=True)
        # the first status query runs GNU Go's playout (about a second on a finished 19x19 game); the
        # others and final_score reuse its cached result
        status = {name: self._points(self.gg.send(f"final_status_list {name}", timeout=SCORE_TIMEOUT), size)
                  for name in STATUSES}
        theirs_text = self.gg.send("final_score")
        theirs = _margin(theirs_text)
        dead = status["dead"]
        own = area_ownership(board, dead)
        ours = area_score(board, dead).margin
        grid = board.array()
        kind = "random" if self.game.startswith("random") else "real"
        self.tally.scored[kind] += 1
        if sum(len(v) for v in status.values()) != size * size:
            self.disagree(board, f"GNU Go's status lists cover {sum(len(v) for v in status.values())} of {size * size} points")
            return
        fixed = {p: int(grid[p]) for p in status["alive"]}
        fixed.update({p: -int(grid[p]) for p in dead})
        fixed.update({p: BLACK for p in status["black_territory"]})
        fixed.update({p: WHITE for p in status["white_territory"]})
        opposite = sorted(p for p, owner in fixed.items() if own[p] == -owner)
        if opposite:
            where = " ".join(to_gtp(p, size) for p in opposite[:6])
            self.disagree(board, f"tengen counts {len(opposite)} points for the other color than GNU Go: {where}")
            return
        if ours == theirs:
            self.tally.score_equal[kind] += 1
            return
        open_border = [p for p, owner in fixed.items() if own[p] == 0]
        known = sum(int(own[p]) - owner for p, owner in fixed.items())
        slack = sum(1 + abs(int(own[p])) for p in status["dame"] | status["seki"])
        inside = sum(1 for p in status["dame"] if own[p])
        line = (f"{self.game}: tengen {ours:+g}, GNU Go {theirs_text}: {len(open_border)} points GNU Go assigns "
                f"but tengen counts for nobody, {len(status['dame'])} dame ({inside} inside one color's area), "
                f"{len(status['seki'])} seki stones")
        if abs((ours - theirs) - known) <= slack:
            self.tally.score_explained.append(line)
            for reason, n in (("open border", len(open_border)), ("dame", len(status["dame"])),
                              ("seki", len(status["seki"]))):
                if n:
                    self.tally.explanations[reason] += 1
        else:
            self.disagree(board, f"score difference not accounted for (known {known:+d}, slack {slack}): {line}")

    # ------------------------------------------------------------ games
    def real_game(self, name: str, data: bytes) -> None:
        try:
            game = load_game_bytes(data, name)
        except SgfError as exc:
            self.tally.skipped[f"unreadable ({exc.problem[:40]})"] += 1
            return
        if game.width != game.height or game.width > 19:
            self.tally.skipped["board larger than GNU Go's 19x19"] += 1
            return
        board = self.new_game(name, game.width, game.komi)
        self.tally.real_games += 1
        moved = False
        for event in game.events:
            if not event.is_move:
                if moved:
                    self.tally.skipped["setup node after the first move (replay stopped there)"] += 1
                    return
                self.gg.query_many([f"play {_color_name(color)} {to_gtp(p, game.height)}"
                                    for color, points in ((BLACK, event.setup_black), (WHITE, event.setup_white))
                                    for p in points])
                if event.setup_empty:
                    self.tally.skipped["AE in the root (replay stopped)"] += 1
                    return
                to_play = board.to_play
                board.setup(event.setup_black, event.setup_white)
                board.to_play = to_play
                if not self.compare(board):
                    return
                continue
            moved = True
            outcome = self.play(board, event.color, event.point)
            if outcome is None:  # both refuse the record's move; the rest of the record cannot be replayed
                self.tally.skipped["record with an illegal move (both refuse it; replay stopped, not scored)"] += 1
                return
            if outcome is False or (not self.position_ok and self.game_disagreements >= MAX_DISAGREEMENTS_PER_GAME):
                return
        self.score(board)

    def random_game(self, name: str, rng: random.Random, size: int, komi: float) -> None:
        board = self.new_game(name, size, komi)
        self.tally.random_games += 1
        forced_passes, limit, seen = 0, 3 * size * size + 50, {board.hash}
        while forced_passes < 3 and len(board.moves) < limit:
            color = board.to_play
            if rng.random() < PROBE_PROBABILITY:
                self.probe(board, color, rng)
            moves = [p for p in board.legal_moves(color) if not _own_eye(board, color, p)]
            if len(moves) <= 4:  # endgame of a random game: drop moves that repeat a position (cycles)
                moves = [p for p in moves if not _repeats(board, color, p, seen)]
            # a voluntary pass now and then (it lifts a ko); the game ends when neither side has a move
            # left but filling its own eyes: three forced passes in a row, so that a ko banned by the
            # first one is open again when the last one is played
            point = rng.choice(moves) if moves and rng.random() >= PASS_PROBABILITY else None
            forced_passes = forced_passes + 1 if not moves else 0
            if self.play(board, color, point) is not True:
                return
            seen.add(board.hash)
            if not self.position_ok and self.game_disagreements >= MAX_DISAGREEMENTS_PER_GAME:
                return
        if forced_passes < 3:
            self.tally.skipped["random game stopped at the move limit (not scored)"] += 1
            return
        self.score(board)

    def probe(self, board: Board, color: int, rng: random.Random) -> None:
        """Try a move tengen refuses (suicide or ko, else an occupied point): GNU Go must refuse it too."""
        grid = board.array()
        empty = [(int(r), int(c)) for r, c in zip(*(grid == 0).nonzero())]
        illegal = [p for p in empty if not board.is_legal(color, p)]
        occupied = [(int(r), int(c)) for r, c in zip(*(grid != 0).nonzero())]
        candidates = illegal or occupied
        if not candidates:
            return
        point = rng.choice(candidates)
        if self.play(board, color, point, compare=False) is True:  # tengen called it illegal: impossible
            self.disagree(board, f"probe {to_gtp(point, board.height)} was accepted")


def _repeats(board: Board, color: int, point: Point, seen: set[int]) -> bool:
    """Whether playing `point` recreates a position already seen in this game."""
    board.play(color, point)
    repeated = board.hash in seen
    board.undo()
    return repeated


_VERTEX_TABLES: dict[int, dict[str, Point]] = {}


def _vertex_table(size: int) -> dict[str, Point]:
    """GTP vertex text -> point for every point of a size x size board (parsing 10^6 vertices fast)."""
    if size not in _VERTEX_TABLES:
        table = {}
        for r in range(size):
            for c in range(size):
                v = to_gtp((r, c), size)
                table[v] = table[v.lower()] = from_gtp(v, size)
        _VERTEX_TABLES[size] = table
    return _VERTEX_TABLES[size]


def _own_eye(board: Board, color: int, point: Point) -> bool:
    return all(board.get(n) == color for n in neighbours(point, board.height, board.width))


def _margin(text: str) -> float:
    """GTP score text ('B+3.5', 'W+0.5', '0') as Black's margin."""
    text = text.strip()
    if text in ("0", "Draw", "draw", "B+0", "W+0"):
        return 0.0
    sign = 1.0 if text[:2].upper() == "B+" else -1.0
    return sign * float(text[2:])


def real_game_sample(n: int) -> Iterator[tuple[str, bytes]]:
    """`n` games from the list of 19x19 games played to a counted result (at least MIN_REAL_MOVES moves), spread over the archives
    (every k-th listed game of each archive; small n takes the first listed games met in each archive)."""
    by_archive: dict[str, list[str]] = {}
    with open(FINISHED_LIST, encoding="utf-8") as f:
        next(f)
        for line in f:
            archive, path, _result, _komi, _handicap, moves = line.rstrip("\n").split("\t")[:6]
            if int(moves) >= MIN_REAL_MOVES:
                by_archive.setdefault(archive, []).append(path)
    archives = sorted(by_archive)
    quotas = {a: n // len(archives) + (1 if i < n % len(archives) else 0) for i, a in enumerate(archives)}
    for archive in archives:
        quota = quotas[archive]
        if quota == 0:
            continue
        paths = by_archive[archive]
        wanted = set(paths[:: max(1, len(paths) // quota)][:quota]) if n >= 50 else set(paths)
        for member, data in iter_archive(GAMES_DIR / archive, wanted=wanted, limit=quota):
            yield f"{archive}:{member}", data


def run(real: int, random_games: int, seed: int = 1, progress: bool = False) -> Tally:
    """Replay `real` archive games and play `random_games` random games against a fresh GNU Go (level 0,
    Chinese rules); returns the tally. A game GNU Go cannot answer in time is skipped (and counted) and
    GNU Go restarted."""
    tally = Tally()
    start = time.perf_counter()
    rng = random.Random(seed)
    games = []
    if real:
        games += [("real", name, data) for name, data in real_game_sample(real)]
    games += [("random", i, None) for i in range(random_games)]
    gg = None
    try:
        for done, (kind, name, data) in enumerate(games, 1):
            try:
                if gg is None:
                    gg = GtpClient.gnugo(level=0, rules="chinese")
                    gg.send("set_random_seed 1")
                    checker = Checker(gg, tally)
                if kind == "real":
                    checker.real_game(name, data)
                else:
                    size, komi = RANDOM_SIZES[name % len(RANDOM_SIZES)], RANDOM_KOMI[name % len(RANDOM_KOMI)]
                    checker.random_game(f"random#{name} {size}x{size}", rng, size, komi)
            except GtpEngineError as exc:
                tally.skipped[f"GNU Go failed ({' '.join(str(exc).split()[:6])}...), restarted"] += 1
                if gg is not None:
                    gg.close()
                gg = None
            if progress and done % 20 == 0:
                print(f"  {done}/{len(games)} games  {time.perf_counter() - start:.0f}s", file=sys.stderr)
    finally:
        if gg is not None:
            gg.close()
    tally.seconds = time.perf_counter() - start
    return tally


def report(t: Tally) -> str:
    lines = [
        f"games: {t.real_games} real, {t.random_games} random ({t.seconds:.1f}s)",
        f"moves played on both: {t.moves}",
        f"positions compared (all stones): {t.positions}; prisoner counts compared: {t.captures}",
        f"legal-move sets compared: {t.legal_sets}; ko points checked with is_legal: {t.ko_checks}",
        "moves refused by both: " + (", ".join(f"{k} {v}" for k, v in sorted(t.refused_by_both.items())) or "none"),
        f"final positions scored: {sum(t.scored.values())} (real {t.scored['real']}, random {t.scored['random']}); "
        f"area score equal: {sum(t.score_equal.values())} (real {t.score_equal['real']}, random {t.score_equal['random']})",
        f"score differences accounted for by GNU Go's playout: {len(t.score_explained)} (games involving: "
        + ", ".join(f"{k} {v}" for k, v in sorted(t.explanations.items())) + ")",
    ]
    lines += [f"  {line}" for line in t.score_explained[:20]]
    if t.skipped:
        lines.append("skipped: " + ", ".join(f"{k} {v}" for k, v in sorted(t.skipped.items())))
    lines += [f"  DISAGREEMENT {d}" for d in t.disagreements[:30]]
    lines.append(f"disagreements: {len(t.disagreements)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--real", type=int, default=200, help="real games to replay (default 200)")
    parser.add_argument("--random", type=int, default=200, help="random games to play (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = parser.parse_args(argv)
    from tengen.eval.gtp_client import find_gnugo

    if find_gnugo() is None:
        print("GNU Go not found (install Debian's gnugo: /usr/games/gnugo)")
        print("disagreements: unknown")
        return 2
    if args.real and not FINISHED_LIST.exists():
        print(f"real games skipped: {FINISHED_LIST} not found")
        args.real = 0
    tally = run(args.real, args.random, args.seed, progress=not args.quiet)
    print(report(tally))
    return 1 if tally.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
