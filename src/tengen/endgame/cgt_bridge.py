"""Where Go meets CGT: local trees become `tengen.cgt.Variation`s, their analysis fills a RegionResult,
and the regions' games give the orthodox whole-board move. Also the adapter for the exhaustive solver."""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional

from tengen.cgt import KINDS, KO, NUMBER, UNBOUNDED, UnsupportedKo, Variation, analyze_tree
from tengen.cgt.game import Game
from tengen.cgt.orthodox import BLACK as CGT_BLACK, WHITE as CGT_WHITE, PlayState, SimpleKo, orthodox
from tengen.cgt.numbers import INF, is_infinite
from tengen.cgt.standin import stand_in
from tengen.cgt.thermo import BLACK_SENTE, GOTE, WHITE_SENTE, Thermo
from tengen.cgt.tree import STOP
from tengen.endgame.notes import Note, without_kind
from tengen.endgame.results import UNSOLVED, UNSUPPORTED, BestPlay, LocalValue, RegionResult, region_label
from tengen.endgame.tree import MISSING, LocalNode, LocalTree
from tengen.go.colors import BLACK, WHITE
from tengen.go.coords import Move, Point, to_gtp

def _fraction(x: float) -> Fraction:
    return Fraction(x).limit_denominator(1000)


def to_variation(node: LocalNode, index: dict[int, Variation] | None = None, ko: bool = True) -> Variation:
    """The CGT variation of a local tree node (leaves: counts; threats: ±inf; ko retakes: phantoms).
    With `ko` False, banned retakes are left out and a node left without moves counts as a leaf.
    Analyze it with `one_sided=STOP` (`analyze_local`): a color with no local move there (none legal,
    or a banned retake left out) cannot play, which in Go costs it nothing."""
    if node.kind == "threat":
        var = Variation.leaf("+inf" if node.threat == BLACK else "-inf")
    elif node.kind in ("leaf", "probe") or (not ko and not node.children[BLACK] and not node.children[WHITE]):
        if node.value is None:
            raise ValueError(f"unscored leaf at {node.history}")
        var = Variation.leaf(_fraction(node.value))
    else:
        var = Variation()
        for color, side in ((BLACK, var.black), (WHITE, var.white)):
            for point, child in node.children[color]:
                label = "threat" if child.kind == "threat" and point == MISSING else point  # a seal break keeps its move
                side.append((label, to_variation(child, index, ko)))
        for color, point in node.ko_retakes if ko else ():
            (var.black if color == BLACK else var.white).append((point, Variation.ko_retake()))
    if index is not None:
        index[id(node)] = var
    return var


def analyze_local(var: Variation):
    """The CGT analysis of a local tree's variation, Go-style: a node where one color has no local move
    is worth the stop the other color's moves reach, not a normal-play number ({| -5} is -5, not -6)."""
    return analyze_tree(var, one_sided=STOP)


def _child(node: LocalNode, color: int, point: Point) -> Optional[LocalNode]:
    return next((c for p, c in node.children[color] if p == point), None)


def principal_line(node: LocalNode, first: int, index: dict[int, Variation],
                   limit: int = 20) -> tuple[list[tuple[int, Move]], Optional[float]]:
    """The local sequence with `first` to move, each side choosing its orthodox move, until the local
    game is settled (a leaf, or a number) or the next side has no move there; and the temperature of the
    position its first move leaves (its follow-up; <= 0: the move settles the region; None: unknown)."""
    line: list[tuple[int, Move]] = []
    follow: Optional[float] = None
    color = first
    while len(line) < limit and node.kind == "inner":
        try:
            ta = analyze_local(index[id(node)])
        except (UnsupportedKo, ValueError):
            break
        if line and ta.kind == NUMBER:
            break
        best = ta.best_black if color == BLACK else ta.best_white
        points = [p for p in best if isinstance(p, tuple)]
        if not points:
            break
        line.append((color, points[0]))
        child = _child(node, color, points[0])
        if child is None:
            break
        if len(line) == 1:
            follow = _option_temperature(ta.game, node, color, points[0])
        node, color = child, -color
    return line, follow


def _option_temperature(game: Game, node: LocalNode, color: int, point: Point) -> Optional[float]:
    """The area temperature of the option `color` playing `point` at `node` (its game's options follow the
    tree's moves in order, so a ko's phantom is valued as at the root); inf: an unanswered threat."""
    moves = [p for p, _ in node.children[color]]
    options = game.left if color == BLACK else game.right
    at = moves.index(point) if point in moves else len(options)
    return _as_float(options[at].thermograph.temperature) if at < len(options) else None


def _as_float(t) -> Optional[float]:
    """A CGT temperature as a float for the report (inf for an unanswered threat; None stays None)."""
    return None if t is None else math.inf if is_infinite(t) else float(t)


def tree_parts(tree: LocalTree, height: int) -> tuple[LocalValue, BestPlay, list[Note]]:
    """The value (mean, temperature, kind, game), the best play (best moves, principal lines) and the notes
    of a grown, scored tree."""
    index: dict[int, Variation] = {}
    notes: list[Note] = []
    try:
        ta = analyze_local(to_variation(tree.root, index))
    except UnsupportedKo as exc:
        index.clear()
        try:
            ta = analyze_local(to_variation(tree.root, index, ko=False))
        except (UnsupportedKo, ValueError):
            return LocalValue(kind=UNSUPPORTED), BestPlay(), [Note("ko", f"unsupported ko: {exc}")]
        notes.append(Note("ko", f"ko approximated ({exc}): banned retakes left out"))
    if ta.kind == UNBOUNDED:
        notes.append(Note("threat", "a threat stays unanswered: the tree needs the reply to a forcing move"))
    fight = cold_fight(ta.game, tree.root, height) if ta.kind == NUMBER else ""
    if fight:
        notes.append(Note("cold fight", fight))
    value = LocalValue(count=None if ta.mean is None or is_infinite(ta.mean) else float(ta.mean),
                       temperature=None if is_infinite(ta.temperature) else float(ta.temperature),
                       kind=ta.kind if ta.kind in KINDS else UNSUPPORTED, game=ta.game, game_text=_game_text(ta.game),
                       cold_fight=fight, ko=ta.ko)
    (line_black, follow_black), (line_white, follow_white) = (principal_line(tree.root, color, index)
                                                              for color in (BLACK, WHITE))
    play = BestPlay(tuple(p for p in ta.best_black if isinstance(p, tuple)),
                    tuple(p for p in ta.best_white if isinstance(p, tuple)),
                    tuple(line_black), tuple(line_white), follow_black, follow_white)
    return value, play, notes


def cold_fight(game: Game, root: LocalNode, height: int, hot: float = 1) -> str:
    """Why a region whose first moves start fights (an option hotter than `hot`, area) is still a number:
    each side's best start and the count best play reaches after it. Empty when no first move is hot (a
    settled region whose moves only fill or lose points)."""
    if not any(is_infinite(o.thermograph.temperature) or o.thermograph.temperature > hot
               for o in (*game.left, *game.right)):
        return ""
    # the root's moves come first among the game's options, in the tree's order (ko phantoms follow)
    starts = {}
    for color, options, stop, pick in ((BLACK, game.left, "rs", max), (WHITE, game.right, "ls", min)):
        ends = [(getattr(o.thermograph, stop), point) for (point, _), o in zip(root.children[color], options)]
        if not ends:
            return ""
        starts[color] = pick(ends, key=lambda e: e[0])
    (b_end, b_move), (w_end, w_move) = starts[BLACK], starts[WHITE]
    return (f"cold, though its moves start fights: after Black's best start {to_gtp(b_move, height)} and best play "
            f"the count is {float(b_end):.3g}, after White's {to_gtp(w_move, height)} {float(w_end):.3g}, so neither "
            "side gains by starting (by the tree's values; a fight the budget cuts short can misread so)")


def _no_move_reason(results, default: str) -> str:
    """Why there is no orthodox move: `default`, unless a region only reads cold (`cold_fight`)."""
    cold = [region_label(i) for i, r in enumerate(results) if r.cold_fight]
    if not cold:
        return default
    return (f"no move gains by the regions' values, but region{'s' if len(cold) > 1 else ''} {', '.join(cold)} "
            "read cold although their moves start fights (see the notes)")


def _game_text(game: Game) -> str:
    from tengen.cgt import format_game

    try:
        return format_game(game)
    except Exception:  # formatting is cosmetic; never lose an analysis over it
        return ""


# positions the wider game of a user's mask (its undecided outside points played too) may take before the
# marked points alone are solved instead: a count, so the choice never depends on the machine's load
WIDER_GAME_NODES = 500_000


def solve_exhaustively(board, region, result: Optional[RegionResult] = None, config=None) -> RegionResult:
    """The region's result from the exact solver, for a sealed region or a user's mask (`config`: an
    ExhaustiveConfig for the budgets; a user's mask always vouches for its surroundings: the marked
    diagram's conventions of `tengen.endgame.exact.rules`); `result`'s notes, when given, come first. A
    user's mask is solved first as the wider game (the outside points next to its empty points whose owner
    the open board leaves undecided played too, within WIDER_GAME_NODES positions), else as marked. A
    solve that gives no value (`solver_declined`: not sealed, too large, a ko or loop it cannot value, no
    position searched, an infinite count or temperature) is `unsolved` (kind UNSOLVED, no count) with the
    reason in `declined`."""
    from dataclasses import replace

    from tengen.endgame.exact import ExhaustiveConfig

    notes = list(result.notes) if result is not None else []
    # the analysis values a repetition that decides the value without repetitions (superko on the local line)
    config = replace(config or ExhaustiveConfig(), vouched=region.source == "mask", repetitions="superko")
    if not config.vouched or not _opens_outside_points(board, region, config):
        return _solve_once(board, region, notes, config)[0]  # the marked game is the whole game
    wider = replace(config, open_outside=True, max_nodes=min(config.max_nodes, WIDER_GAME_NODES))
    answer, opened = _solve_once(board, region, notes, wider)
    if answer.method == "exhaustive":
        return answer
    marked = _solve_once(board, region, notes, config)[0]
    points = " ".join(to_gtp(q, board.height) for q in opened)
    return replace(marked, seconds=marked.seconds + answer.seconds, notes=marked.notes + [Note("diagram", (
        f"outside points {points} given to the nearest stones (the game that plays them too gave no value: "
        f"{answer.declined or 'unsolved'})"))])


def _opens_outside_points(board, region, config) -> bool:
    """Whether the wider game of the mask plays any outside point (`LocalRegion.opened`)."""
    from tengen.endgame.exact import LocalRegion, RegionNotSealed

    try:
        return bool(LocalRegion(board, region.points, config.require_benson, config.vouched,
                                open_outside=True).opened)
    except (RegionNotSealed, ValueError):
        return False  # the marked game's solve says why


def _solve_once(board, region, notes: list, config) -> tuple[RegionResult, list]:
    """One exact solve of the region under `config`: the result, and the outside points it played too."""
    from tengen.endgame.exact import OK, solve_region
    from tengen.endgame.exact import RegionNotSealed

    notes = list(notes)
    try:  # a user's mask vouches for its surroundings (local diagrams on an otherwise empty board)
        solved = solve_region(board, region.points, config)
    except RegionNotSealed as exc:
        return _unsolved(region, notes, f"region not sealed: {exc}"), []
    notes += solved.notes
    if solved.status != OK:
        return _unsolved(region, notes, f"{solved.status} ({solved.reason})", solved.seconds), solved.opened
    why = solver_declined(solved, _root_threat(board, region, config) if _infinite(solved.mean) else False)
    if why:  # the value that was not given is not described either
        return _unsolved(region, without_kind(notes, "repetition"), why, solved.seconds), solved.opened
    # the essential-option game when it is a plain game; else the thermograph (a ko inside)
    value = LocalValue(count=float(solved.mean), temperature=float(solved.temperature), kind=solved.kind,
                       game=solved.game if solved.game is not None else solved.thermograph,
                       game_text=_game_text(solved.game) if solved.game is not None else "",
                       thermograph_text=thermograph_text(solved.thermograph), ko=solved.ko)
    play = BestPlay(tuple(solved.best_black), tuple(solved.best_white), tuple(solved.principal_black),
                    tuple(solved.principal_white), _as_float(solved.follow_black), _as_float(solved.follow_white))
    # every line was played and counted by the rules core
    return RegionResult.from_parts(region, value, play, method="exhaustive", exact_rules=True, seconds=solved.seconds,
                                   notes=notes + [Note("positions", f"exhaustive: {solved.nodes} positions")]), solved.opened


def _infinite(x) -> bool:
    return x is not None and is_infinite(x)


def _root_threat(board, region, config) -> bool:
    """Whether the region's start position is already a threat leaf (the seal broken before any move)."""
    from tengen.endgame.exact import LocalRegion, RegionNotSealed

    try:
        local = LocalRegion(board, region.points, config.require_benson, config.vouched,
                            open_outside=config.open_outside)
        return bool(local.analyze(local.start[BLACK], local.start[WHITE]).threat)
    except (RegionNotSealed, ValueError):
        return False


def solver_declined(solved, root_threat: Optional[bool] = None) -> str:
    """Why an 'ok' ExhaustiveResult still gives no value for the region ('' when it does): the start
    position is already a threat leaf (a safe chain touches the opponent's outside territory: the search
    visits no position and the count is ±inf; `root_threat` when the caller checked the start, else
    0 positions searched tells), the count is infinite or missing (every line ends in a break-in), or a
    threat stays unanswered (unbounded: infinite temperature, no mean)."""
    rec = solved.thermograph
    mean, temperature = solved.mean, solved.temperature
    if rec is None or mean is None and temperature is None:
        return "the search gave no thermograph"
    from tengen.endgame.exact import parts_hint

    if (solved.loop_dependent or solved.ko_dependent) and temperature is not None and temperature <= 0 \
            and solved.bracket and None not in solved.bracket and solved.bracket[0].mean != solved.bracket[1].mean:
        return (f"unsupported: a ko or repetition the phantom rule cannot value decides whether anything is to "
                f"be played here (the count lies between {solved.bracket[0].mean} and {solved.bracket[1].mean} "
                f"as one side or the other wins it){parts_hint(solved.parts)}")
    if _infinite(mean) and (root_threat if root_threat is not None else solved.nodes == 0):
        side = "Black" if mean > 0 else "White"
        return (f"the start position is already a threat leaf ({side}'s safe chain touches the "
                f"opponent's outside territory: the seal is broken before any move), {solved.nodes} positions searched")
    if mean is not None and is_infinite(mean):
        side = "Black" if mean > 0 else "White"
        return f"infinite count ({'+' if mean > 0 else '-'}inf: every line ends in {side}'s break-in)"
    if solved.kind == UNBOUNDED or temperature is None or is_infinite(temperature) or mean is None:
        return ("unbounded (a threat to break into the opponent's outside territory stays unanswered "
                "inside the region: infinite temperature, no count)")
    return ""


def _unsolved(region, notes: list, why: str, seconds: float = 0.0) -> RegionResult:
    """The result of a solve that gave no value: kind UNSOLVED, no count or temperature, the reason kept."""
    return RegionResult.from_parts(region, LocalValue(kind=UNSOLVED), declined=why, seconds=seconds,
                                   notes=notes + [Note("declined", f"exhaustive solver: {why}")])


def thermograph_text(rec) -> str:
    """A thermograph in compact text: each wall's breakpoints as (temperature: value) pairs from t = 0 up
    to the mast, then the mean and the temperature, e.g. 'left 0:1 2:0 | right 0:-3 2:0 | mean 0, temperature 2'."""
    if rec is None:
        return ""

    def wall(w) -> str:
        return " ".join(f"{_q(t)}:{_q(w.at(t))}" for t in w.breakpoints())

    return (f"left {wall(rec.left)} | right {wall(rec.right)} | mean {_q(rec.mean)}, "
            f"temperature {_q(rec.temperature)}")


def _q(x) -> str:
    """An exact value as text: integers plain, fractions as a/b, infinities as inf / -inf."""
    if x is None:
        return "-"
    if is_infinite(x):
        return "inf" if x > 0 else "-inf"
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _component(result):
    ko = result.ko
    if result.kind == KO and ko is not None and ko.moves == 3:
        return SimpleKo(ko.black_exit, ko.white_exit, ko.taker)
    if isinstance(result.game, Game):
        return result.game
    th = result.game
    if isinstance(th, Thermo) and th.kind in (GOTE, BLACK_SENTE, WHITE_SENTE) and th.mean is not None \
            and th.temperature != INF:
        return stand_in(th.mean, th.temperature, th.kind)  # known thermograph, no plain game (a ko inside)
    return None


def whole_board_move(results, to_play: int) -> tuple[Optional[tuple[int, Move]], str]:
    """The orthodox move over all regions: sentestrat / ko rule / tedomari / hottest."""
    comps, owners = [], []
    for i, r in enumerate(results):
        c = _component(r)
        if c is not None and (r.best_black or r.best_white):
            comps.append(c)
            owners.append(i)
    if not comps:
        return None, _no_move_reason(results, "no hot region")
    player = CGT_BLACK if to_play == BLACK else CGT_WHITE
    try:
        move = orthodox(PlayState(tuple(comps), player), [])
    except Exception as exc:  # an unusual sum must not cost the per-region results
        return None, f"orthodox play failed: {exc}"
    if move is None:
        return None, _no_move_reason(results, "every region is settled")
    r_index = owners[move.index]
    region = results[r_index]
    best = region.best_black if to_play == BLACK else region.best_white
    if not best:
        return None, f"region {region_label(r_index)} has no move for the side to play"
    temps = [(rr.temperature or 0.0) for rr in results if rr.temperature is not None]
    hottest = max(temps) if temps else 0.0
    t = region.temperature or 0.0
    if region.kind == KO:
        reason = f"ko in region {region_label(r_index)} (ko rule, t_K = {t:g})"
    elif t >= hottest:
        own_sente = (region.kind == BLACK_SENTE) == (to_play == BLACK) and region.kind in (BLACK_SENTE, WHITE_SENTE)
        reason = f"hottest region {region_label(r_index)}, temperature {t:g}" + (" (own sente first: tedomari)" if own_sente else "")
    else:
        reason = f"region {region_label(r_index)} by tedomari / sentestrat (temperature {t:g}, hottest {hottest:g})"
    return (to_play, best[0]), reason
