"""GTP v2 engine: a dispatcher that maps `cmd_<name>` methods to the commands of the same name (a `kgs_`
prefix stands for the `kgs-` extension prefix, as in `kgs-genmove_cleanup`). Names match exactly.

Responses are framed `=[id] result` / `?[id] message`, each followed by a blank line. Error texts are
the canonical ones where GTP has them (illegal move, unacceptable size, cannot undo, unknown command,
cannot load file, syntax error).

Input is read as bytes and decoded here, the same under every locale: a command holding bytes that are not
UTF-8, or longer than MAX_LINE_BYTES (a comment may run past it), is answered `?` and the session goes on.
Input is read by a thread of its own into a queue, so a streaming command (the analysis commands of
`gtp_analysis`) runs until the next line arrives.

Moves: the rule-based policy (`tengen.play.simple_policy`, the default and `--player simple`), or a search
player (`gtp_player.SearchPlayer`, `--player search`), which also brings the analysis commands. The GoGui
analyze commands and `tengen-endgame` (`gtp_gogui`) are offered with either.
"""
from __future__ import annotations

import io
import math
import sys
import threading
from collections import deque
from typing import IO, Callable, Iterator, Optional

from tengen.go.board import MAX_RECORD_MOVES, MAX_SIDE, MIN_SIDE, Board, IllegalMove, MoveLimitError
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import CoordinateError, from_gtp, to_gtp
from tengen.go.render import render
from tengen.go.handicap import fixed_handicap_points, max_fixed_handicap
from tengen.go.rules import Rules
from tengen.go.scoring import benson_dead_stones, score
from tengen.go.sgf import SgfError, load_game
from tengen.io.gtp_base import RESIGN, GtpError, GtpHandler, Streamed, color_arg, command_methods, nargs, vertex_arg

ENGINE_NAME = "tengen"
MAX_LINE_BYTES = 64 * 1024  # one command line; a longer one is answered `? command too long` and skipped
# Integers longer than this are read as +-10**MAX_DIGITS, past every range a command checks: never given to
# int(), which refuses more than 4,300 digits (and is slow long before).
MAX_DIGITS = 18
MovePolicy = Callable[[Board, int, bool], Optional[tuple[int, int]]]
DeadStoneFinder = Callable[[Board], list]


def _default_policy(board: Board, color: int, cleanup: bool):
    from tengen.play.simple_policy import choose_move

    return choose_move(board, color, cleanup)


class _Lines:
    """The input lines read so far (the reader thread puts, the engine takes; None marks the end)."""

    def __init__(self) -> None:
        self._items: deque = deque()
        self._ready = threading.Condition()

    def put(self, item) -> None:
        with self._ready:
            self._items.append(item)
            self._ready.notify_all()

    def get(self):
        with self._ready:
            while not self._items:
                self._ready.wait()
            return self._items.popleft()

    def pending(self) -> bool:
        return bool(self._items)

    def wait_pending(self) -> None:
        with self._ready:
            while not self._items:
                self._ready.wait()


class GtpEngine:
    """The state (board, rules, komi, clock) plus one method per command.

    player: a search player (`gtp_player.SearchPlayer`) for genmove, kgs-genmove_cleanup and the analysis
    commands; None (default) plays the rule-based `policy`. name / version: what `name` and `version`
    answer (default `tengen` and the package version). load_evaluator: the network for the GoGui endgame
    commands (default: the player's, else the cached default network), loaded on first use."""

    def __init__(self, size: int = 19, rules: Rules | None = None, policy: MovePolicy = _default_policy,
                 dead_stones: DeadStoneFinder = benson_dead_stones, player=None, name: str = ENGINE_NAME,
                 version: Optional[str] = None, load_evaluator: Optional[Callable[[], object]] = None):
        self.rules = rules or Rules.chinese()
        self.policy = policy
        self.player = player
        self.dead_stones = dead_stones  # for final_score / final_status_list: Benson, or a network's ownership
        self.engine_name = name
        self.engine_version = version
        self.load_evaluator = load_evaluator
        self.handlers: list[GtpHandler] = []  # command sets beyond the protocol's own (`register`)
        self.board = Board(size, rules=self.rules)
        self.handicap = 0
        self.time_settings: tuple[int, int, int] | None = None
        self.time_left: dict[int, tuple[int, int]] = {}
        self.quit_requested = False
        self.waiting_for_input = threading.Event()  # set while run() waits for the next line (tests gate on it)
        self._lines: Optional[_Lines] = None
        self._live_out: Optional[IO] = None
        self._cmd_id = ""
        self._stream_parts: list[str] = []
        self._streaming = False

    # ------------------------------------------------------------ protocol plumbing
    def commands(self) -> list[str]:
        """The GTP command names this engine answers (what list_commands prints)."""
        return sorted(self._command_table())

    def register(self, *handlers: GtpHandler) -> "GtpEngine":
        """Add handlers' commands (`tengen.io.engines.gtp_engine` registers every handler tengen ships); a
        later handler's command of the same name wins."""
        self.handlers.extend(handlers)
        return self

    def handler(self, kind: type) -> GtpHandler:
        """The registered handler of class `kind` (its settings: `endgame_options`, `life_config`)."""
        return next(h for h in self.handlers if isinstance(h, kind))

    def _command_table(self) -> dict[str, Callable]:
        table = dict(command_methods(self))
        for handler in self.handlers:
            for name, method in command_methods(handler):
                if self.player is not None or name not in handler.needs_player:  # analysis needs the search
                    table[name] = method
        return table

    def handle(self, line: str) -> Optional[str]:
        """One input line -> framed response (None for empty/comment lines). Bytes that were not UTF-8
        arrive as lone surrogates (run's decoding): such a command is answered `?`, not run."""
        parts = _split(line)
        if not parts:
            return None
        cmd_id = ""
        if parts[0].isascii() and parts[0].isdigit():
            cmd_id = parts.pop(0)
            if not parts:
                return f"?{cmd_id} syntax error\n\n"
        if any("\udc80" <= ch <= "\udcff" for part in parts for ch in part):
            return f"?{cmd_id} invalid command: not UTF-8 text\n\n"
        name, args = parts[0], parts[1:]
        method = self._command_table().get(name)
        if method is None:
            return f"?{cmd_id} unknown command\n\n"
        self._cmd_id, self._stream_parts, self._streaming = cmd_id, [], False
        try:
            result = method(args)
        except (GtpError, MoveLimitError) as exc:
            if self._streaming:
                return self._end_stream(f"{exc}")
            return f"?{cmd_id} {exc}\n\n"
        except Exception as exc:  # an engine bug must not kill the session
            text = f"internal error: {' '.join(str(exc).split()) or type(exc).__name__}"
            if self._streaming:
                return self._end_stream(text)
            return f"?{cmd_id} {text}\n\n"
        if isinstance(result, Streamed):
            return "".join(self._stream_parts) + result.tail + "\n"
        result = "" if result is None else str(result)
        sep = " " if result and not result.startswith("\n") else ""
        return f"={cmd_id}{sep}{result}\n\n"

    def run(self, stdin: Optional[IO] = None, stdout: Optional[IO] = None) -> None:
        """Read commands until `quit` or end of input (default: sys.stdin / sys.stdout, read as bytes; a
        closed stdin or stdout, None, is a session with nothing to read or nowhere to answer)."""
        stdin = sys.stdin if stdin is None else stdin
        stdout = sys.stdout if stdout is None else stdout
        if stdin is None or stdout is None:
            return
        lines = _Lines()
        reader = threading.Thread(target=_read_into, args=(stdin, lines), name="gtp-input", daemon=True)
        reader.start()
        self._lines, self._live_out = lines, stdout
        try:
            while True:
                self.waiting_for_input.set()
                item = lines.get()
                if item is None:
                    break
                line, whole = item
                # past the length limit: refused, unless its comment starts within it (the command is then whole)
                response = self.handle(line) if whole or "#" in line else _refuse(line, "command too long")
                if response is not None:
                    _write(stdout, response)
                if self.quit_requested:
                    break
        finally:
            self._lines, self._live_out = None, None

    # ------------------------------------------------------------ streaming responses (analysis)
    def _emit(self, text: str) -> None:
        if self._live_out is not None:
            _write(self._live_out, text)
        else:
            self._stream_parts.append(text)

    def stream_begin(self) -> None:
        """Start a streamed response: `=[id]` on a line of its own."""
        self._streaming = True
        self._emit(f"={self._cmd_id}\n")

    def stream_line(self, text: str) -> None:
        self._emit(text + "\n")

    def _end_stream(self, message: str) -> str:
        """A streamed response that failed after its `=`: it ends (an empty line), the error goes to stderr."""
        print(f"tengen gtp: {message}", file=sys.stderr)
        return "".join(self._stream_parts) + "\n"

    def input_pending(self) -> bool:
        """Whether the next input line (or the end of input) has arrived (False outside run())."""
        return self._lines is not None and self._lines.pending()

    def wait_for_input(self) -> None:
        """Block until the next input line arrives (an analysis that finished before it); no-op outside run()."""
        if self._lines is not None:
            self.waiting_for_input.set()
            self._lines.wait_pending()

    def require_player(self):
        if self.player is None:
            raise GtpError("this command needs the search player (tengen gtp --player search)")
        return self.player

    def _new_game(self) -> None:
        if self.player is not None:
            self.player.new_game()

    # ------------------------------------------------------------ argument helpers
    @staticmethod
    def _nargs(args: list[str], n: int) -> None:
        nargs(args, n)

    @staticmethod
    def _color(text: str) -> int:
        return color_arg(text)

    def _vertex(self, text: str):
        return vertex_arg(text, self.board)

    # ------------------------------------------------------------ administrative
    def cmd_protocol_version(self, args):
        return "2"

    def cmd_name(self, args):
        return self.engine_name

    def cmd_version(self, args):
        from tengen import __version__

        return self.engine_version or __version__

    def cmd_known_command(self, args):
        self._nargs(args, 1)
        return "true" if args[0] in self.commands() else "false"

    def cmd_list_commands(self, args):
        return "\n".join(self.commands())

    def cmd_quit(self, args):
        self.quit_requested = True

    # ------------------------------------------------------------ setup
    def cmd_boardsize(self, args):
        self._nargs(args, 1)
        size = _integer(args[0])
        if not MIN_SIDE <= size <= getattr(self.player, "max_side", MAX_SIDE):  # a player may play fewer sizes
            raise GtpError("unacceptable size")
        self.board = Board(size, rules=self.rules)
        self.handicap = 0
        self._new_game()

    def cmd_clear_board(self, args):
        self.board = Board(self.board.width, self.board.height, rules=self.rules)
        self.handicap = 0
        self._new_game()

    def cmd_komi(self, args):
        self._nargs(args, 1)
        try:
            komi = float(args[0])
        except ValueError:
            raise GtpError("syntax error") from None
        if not math.isfinite(komi):
            raise GtpError("syntax error")
        self.rules = self.rules.with_komi(komi)
        self.board.rules = self.rules
        self._new_game()

    def _handicap_count(self, args) -> int:
        """The stone count argument of a handicap command, on an empty board only."""
        self._nargs(args, 1)
        n = _integer(args[0])
        if self.board.moves or self.board.array().any():
            raise GtpError("board not empty")
        return n

    def _answer_handicap(self, points) -> str:
        self._place_handicap(points)
        return " ".join(to_gtp(p, self.board.height) for p in points)

    def cmd_fixed_handicap(self, args):
        n = self._handicap_count(args)
        if self.board.width != self.board.height or not 2 <= n <= max_fixed_handicap(self.board.width):
            raise GtpError("invalid number of stones")
        return self._answer_handicap(fixed_handicap_points(self.board.width, n))

    def cmd_place_free_handicap(self, args):
        n = self._handicap_count(args)
        if n < 2 or n > self.board.width * self.board.height - 1:
            raise GtpError("invalid number of stones")
        size = self.board.width
        square_with_stars = size == self.board.height and max_fixed_handicap(size) >= 2
        points = fixed_handicap_points(size, min(n, max_fixed_handicap(size))) if square_with_stars else []
        extra = [(r, c) for r in range(self.board.height) for c in range(self.board.width) if (r, c) not in points]
        return self._answer_handicap((points + extra)[:n])

    def cmd_set_free_handicap(self, args):
        if len(args) < 2:
            raise GtpError("bad vertex list")
        if self.board.moves or self.board.array().any():
            raise GtpError("board not empty")
        points = []
        for a in args:
            try:
                p = from_gtp(a, self.board.height, self.board.width)
            except CoordinateError:
                raise GtpError("bad vertex list") from None
            if p is None or p in points:
                raise GtpError("bad vertex list")
            points.append(p)
        if len(points) >= self.board.width * self.board.height:
            raise GtpError("bad vertex list")
        self._place_handicap(points)

    def _place_handicap(self, points) -> None:
        self.board.setup(black=points)
        self.board.to_play = WHITE
        self.handicap = len(points)
        self._new_game()

    # ------------------------------------------------------------ play
    def cmd_play(self, args):
        self._nargs(args, 2)
        color = self._color(args[0])
        point = self._vertex(args[1])
        try:
            self._play_on_record(color, point)
        except IllegalMove:
            raise GtpError("illegal move") from None

    def _play_on_record(self, color: int, point) -> None:
        """Play on the game's board, refusing a move past the record cap (the board itself keeps room
        above it for reading)."""
        if len(self.board.moves) >= MAX_RECORD_MOVES:
            raise MoveLimitError()
        self.board.play(color, point)

    def _genmove(self, args, cleanup: bool):
        self._nargs(args, 1)
        color = self._color(args[0])
        if self.player is not None:
            return self.search_genmove(color, cleanup)
        point = self.policy(self.board, color, cleanup)
        self._play_on_record(color, point)
        return to_gtp(point, self.board.height)

    def search_genmove(self, color: int, cleanup: bool, on_progress=None, progress_every: float = 1.0) -> str:
        """The search player's move for `color`, played on the board: a vertex, `pass` or `resign`."""
        from tengen.search.time_control import TimeSettings

        if len(self.board.moves) >= MAX_RECORD_MOVES:
            raise MoveLimitError()
        settings = None
        if self.time_settings is not None:
            settings = TimeSettings(*self.time_settings)
        move = self.player.genmove(self._board_for_player(), color, cleanup=cleanup, time_settings=settings,
                                   time_left=self.time_left.get(color), on_progress=on_progress,
                                   progress_every=progress_every)
        if move == RESIGN:
            return RESIGN
        self._play_on_record(color, move)
        return to_gtp(move, self.board.height)

    def _board_for_player(self):
        """The board the player searches: the game's, or, for a player that scores with its board's komi alone
        (`komi_includes_handicap` True: the native playout player), a copy whose komi carries the handicap
        bonus of the rules (Chinese: one point a stone), the count final_score and a GNU Go referee use."""
        komi = self._effective_komi()
        if not getattr(self.player, "komi_includes_handicap", False) or komi == self.board.rules.komi:
            return self.board
        board = self.board.copy()
        board.rules = board.rules.with_komi(komi)
        return board

    def cmd_genmove(self, args):
        return self._genmove(args, cleanup=False)

    def cmd_kgs_genmove_cleanup(self, args):
        return self._genmove(args, cleanup=True)

    def cmd_set_random_seed(self, args):
        """set_random_seed N: the search player draws its early moves by visits with this seed (games vary
        by seed and replay exactly with the same one); the rule-based player is seeded by the position."""
        self._nargs(args, 1)
        seed = _integer(args[0])
        if self.player is not None:
            self.player.set_seed(seed)

    def cmd_undo(self, args):
        try:
            self.board.undo()
        except IndexError:
            raise GtpError("cannot undo") from None

    def cmd_loadsgf(self, args):
        """loadsgf FILE [N | VERTEX]: the position before move N (GNU Go's convention) or before the first
        stone on VERTEX; without it, the end of the main line. As in GNU Go, a second argument that names
        no move of the game (an off-board or unplayed vertex, 'pass', junk) loads the whole game."""
        self._nargs(args, 1)
        try:
            game = load_game(args[0])
            limit = None
            if len(args) > 1:
                if args[1].isascii() and args[1].isdigit():
                    limit = max(0, min(_integer(args[1]) - 1, len(game.moves)))
                else:
                    try:
                        target = from_gtp(args[1], game.height, game.width)
                    except CoordinateError:
                        target = None
                    if target is not None:
                        limit = next((i for i, (_, p) in enumerate(game.moves) if p == target), None)
            if not game.names_rules:  # the file states no rules: the engine's own rules, the file's komi
                game.rules = self.rules.with_komi(game.rules.komi)
            board = game.board_at(limit, strict=False)
        except (SgfError, OSError):
            raise GtpError("cannot load file") from None
        self.rules = board.rules
        self.board = board
        self.handicap = game.handicap
        self._new_game()
        return "black" if board.to_play == BLACK else "white"

    # ------------------------------------------------------------ scoring
    def _dead(self):
        return self.dead_stones(self.board)

    def cmd_final_score(self, args):
        """The score under the current rules (area or territory) with the dead stones we can determine."""
        return score(self.board, self._dead(), komi=self._effective_komi()).result_string()

    def _effective_komi(self) -> float:
        bonus = self.rules.white_handicap_bonus
        extra = 0 if self.handicap < 2 or bonus == 0 else (self.handicap if bonus == 2 else self.handicap - 1)
        return self.rules.komi + extra

    def cmd_final_status_list(self, args):
        self._nargs(args, 1)
        status = args[0].lower()
        if status not in ("alive", "dead", "seki"):
            raise GtpError("syntax error")
        dead = set(self._dead())
        if status == "seki":
            return ""
        # a chain's status is its first stone's (row-major), as finders may mark only part of a chain
        chains = [chain for chain in self.board.chains() if (min(chain) in dead) == (status == "dead")]
        return "\n".join(" ".join(to_gtp(p, self.board.height) for p in sorted(chain)) for chain in chains)

    # ------------------------------------------------------------ display and clock
    def cmd_showboard(self, args):
        caps = self.board.captures
        return "\n" + render(self.board) + f"\nBlack has captured {caps[BLACK]} stones, White has captured {caps[WHITE]} stones"

    def cmd_time_settings(self, args):
        self._nargs(args, 3)
        values = tuple(_integer(a) for a in args[:3])
        if min(values) < 0:
            raise GtpError("syntax error: times and stones cannot be negative")
        self.time_settings = values  # type: ignore[assignment]

    def cmd_time_left(self, args):
        self._nargs(args, 3)
        color = self._color(args[0])
        left = (_integer(args[1]), _integer(args[2]))
        if min(left) < 0:
            raise GtpError("syntax error: time and stones left cannot be negative")
        self.time_left[color] = left


def _integer(text: str) -> int:
    """A GTP integer argument (an optional sign, ASCII digits); GtpError 'syntax error' otherwise."""
    sign, digits = (-1, text[1:]) if text[:1] == "-" else (1, text[1:] if text[:1] == "+" else text)
    if not (digits.isascii() and digits.isdigit()):
        raise GtpError("syntax error")
    return sign * (int(digits) if len(digits) <= MAX_DIGITS else 10 ** MAX_DIGITS)


def _split(line: str) -> list[str]:
    """A command line's words: control characters dropped, tabs as spaces, the comment removed (GTP 2.2)."""
    line = "".join(ch for ch in line if ch in "\t\n" or 32 <= ord(ch) != 127).replace("\t", " ")
    return line.split("#", 1)[0].split()


def _refuse(line: str, message: str) -> str:
    """`?[id] message` for a line that is not run (its id, when it starts with one)."""
    parts = _split(line)
    cmd_id = parts[0] if parts and parts[0].isascii() and parts[0].isdigit() else ""
    return f"?{cmd_id} {message}\n\n"


def _read_into(stream: IO, lines: _Lines) -> None:
    """The reader thread: every input line into `lines`, then None (end of input, or a stream that fails)."""
    try:
        for item in _read_lines(stream):
            lines.put(item)
    except (OSError, ValueError):
        pass
    finally:
        lines.put(None)


def _read_lines(stream: IO) -> Iterator[tuple[str, bool]]:
    """(line, whole) for each input line. A binary stream (or a text stream's binary buffer, as sys.stdin)
    is read in lines of at most MAX_LINE_BYTES, decoded as UTF-8 with undecodable bytes kept as lone
    surrogates (whatever the locale), the rest of a longer line skipped (whole False); a text stream with no
    buffer (io.StringIO) gives its own lines."""
    binary = getattr(stream, "buffer", stream)
    if isinstance(binary, io.TextIOBase):
        for line in binary:
            yield line, True
        return
    while True:
        raw = binary.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        whole = len(raw) <= MAX_LINE_BYTES or raw.endswith(b"\n")
        rest = raw
        while not rest.endswith(b"\n") and not whole:
            rest = binary.readline(MAX_LINE_BYTES)
            if not rest:
                break
        yield (raw if whole else raw[:MAX_LINE_BYTES]).decode("utf-8", "surrogateescape"), whole


def _write(stream: IO, text: str) -> None:
    """One response, flushed: as UTF-8 bytes to a binary stream or a text stream's binary buffer (the
    locale's encoding cannot refuse it), else as text."""
    binary = stream if isinstance(stream, (io.RawIOBase, io.BufferedIOBase)) else getattr(stream, "buffer", None)
    if binary is not None:
        if binary is not stream:
            stream.flush()
        binary.write(text.encode("utf-8", "replace"))
        binary.flush()
    else:
        stream.write(text)
        stream.flush()
