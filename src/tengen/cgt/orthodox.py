"""Playing sums of local games: orthodox strategies and the exact minimax they are measured against.

Components are `Game`s or `SimpleKo`s (a ko in play, with the ban on an immediate retake). Play goes on
until every component is a number; the score is their sum (Black = positive). Moves inside numbers are
never made (number avoidance); a player with no legal move passes, which lifts a ko ban.

Strategies (each `f(state, history) -> Move`):
- `hotstrat`: move in the hottest component, choosing the orthodox option there.
- `sentestrat`: if the opponent's last move made its component hotter than the whole board was before
  that move, answer it there; otherwise hotstrat.
- `tedomari`: among the hottest components play your own sente first; otherwise prefer a move after
  which the board is cooler (you keep the last move before the temperature drops); otherwise hotstrat.
- `ko_rule`: take a ko (temperature t_K) before the hottest gote (t_G) if 3 t_K > 2 t_G + t_E, t_E being
  the hottest of the rest; otherwise tedomari.
- `orthodox`: sentestrat, then the ko rule, then tedomari.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Callable, Optional, Union

from tengen.cgt.game import Game
from tengen.cgt.ko import KoChain, simple_ko
from tengen.cgt.numbers import NEG_INF, Value, add_values
from tengen.cgt.thermo import BLACK_SENTE, GOTE, WHITE_SENTE, orthodox_indices

BLACK, WHITE = "black", "white"


@dataclass(frozen=True)
class SimpleKo:
    """A simple ko between two exits: `taker` can take (from the ko position); the other side connects
    (reaching its exit); after a take the taker connects (its exit) or the other side retakes."""

    black_exit: Value
    white_exit: Value
    taker: str = BLACK
    taken: bool = False

    @property
    def chain(self) -> KoChain:
        return simple_ko(self.black_exit, self.white_exit, self.taker)

    @property
    def temperature(self) -> Value:
        return self.chain.temperature

    @property
    def mean(self) -> Value:
        """Count of the current state (the ko position, or one move further after a take)."""
        c = self.chain
        step = c.temperature if self.taken else 0
        return c.mean + step if self.taker == BLACK else c.mean - step


Component = Union[Game, SimpleKo]


@dataclass(frozen=True)
class Move:
    """`player` moves in component `index` (label: option index, or 'take' / 'connect' / 'retake')."""

    player: str
    index: int
    label: Union[int, str]
    result: Component


@dataclass(frozen=True)
class PlayState:
    """A sum in play: its components, who moves, and the component where a ko retake is banned."""

    components: tuple[Component, ...]
    to_move: str
    ko_ban: Optional[int] = None


@dataclass(frozen=True)
class Record:
    """A move made, with the board temperature just before it."""

    move: Optional[Move]  # None for a pass
    board_temperature_before: Value


Strategy = Callable[[PlayState, list[Record]], Optional[Move]]


def _other(player: str) -> str:
    return WHITE if player == BLACK else BLACK


def is_cold(c: Component) -> bool:
    return isinstance(c, Game) and c.number is not None


def temperature(c: Component) -> Value:
    """Temperature of a component (-inf for numbers: nobody moves there)."""
    if is_cold(c):
        return NEG_INF
    return c.temperature


def board_temperature(components: tuple[Component, ...]) -> Value:
    return max((temperature(c) for c in components), default=NEG_INF)


def score(components: tuple[Component, ...]) -> Value:
    """Sum of the components once they are all numbers."""
    total: Value = Fraction(0)
    for c in components:
        if not is_cold(c):
            raise ValueError("the sum is not over yet")
        total = add_values(total, c.number)
    return total


def component_moves(c: Component, player: str, banned: bool) -> list[tuple[Union[int, str], Component]]:
    """(label, result) for each move `player` may make in the component."""
    if isinstance(c, SimpleKo):
        taker = player == c.taker
        if not c.taken:
            if taker:
                return [] if banned else [("take", replace(c, taken=True))]
            exit_ = c.white_exit if player == WHITE else c.black_exit
            return [("connect", Game(value=exit_))]
        if taker:
            exit_ = c.black_exit if player == BLACK else c.white_exit
            return [("connect", Game(value=exit_))]
        return [] if banned else [("retake", replace(c, taken=False))]
    if is_cold(c):
        return []
    opts = c.left if player == BLACK else c.right
    return list(enumerate(opts))


def legal_moves(state: PlayState) -> list[Move]:
    out = []
    for i, c in enumerate(state.components):
        for label, res in component_moves(c, state.to_move, state.ko_ban == i):
            out.append(Move(state.to_move, i, label, res))
    return out


def apply(state: PlayState, move: Optional[Move]) -> PlayState:
    """The state after a move (None = pass). A take or retake bans the immediate answer in that ko."""
    nxt = _other(state.to_move)
    if move is None:
        return PlayState(state.components, nxt, None)
    comps = list(state.components)
    comps[move.index] = move.result
    ban = move.index if move.label in ("take", "retake") else None
    return PlayState(tuple(comps), nxt, ban)


def is_over(state: PlayState) -> bool:
    return all(is_cold(c) for c in state.components)


# ---------------------------------------------------------------- exact minimax
def minimax(components: tuple[Component, ...], first: str) -> Value:
    """The score under best play by both sides (Black maximises), playing until all components are cold."""
    return _minimax(PlayState(tuple(components), first, None), 0)


@lru_cache(maxsize=1 << 18)
def _minimax(state: PlayState, passes: int) -> Value:
    if is_over(state):
        return score(state.components)
    moves = legal_moves(state)
    if not moves:
        if passes >= 2:
            raise RuntimeError("neither side can move in an unfinished sum")
        return _minimax(apply(state, None), passes + 1)
    values = [_minimax(apply(state, m), 0) for m in moves]
    return max(values) if state.to_move == BLACK else min(values)


# ---------------------------------------------------------------- strategies
def _best_in(c: Component, player: str, banned: bool, index: int) -> Optional[Move]:
    """The orthodox move for `player` inside one component (None if it has none)."""
    moves = component_moves(c, player, banned)
    if not moves:
        return None
    if isinstance(c, SimpleKo):
        label, res = moves[0]
        return Move(player, index, label, res)
    th = c.thermograph
    li, ri = orthodox_indices([o.thermograph for o in c.left], [o.thermograph for o in c.right], th)
    picks = li if player == BLACK else ri
    j = picks[0] if picks else 0
    return Move(player, index, j, moves[j][1])


def _candidates(state: PlayState) -> list[tuple[Value, int]]:
    """(temperature, index) of the components where the mover has a move, hottest first."""
    out = []
    for i, c in enumerate(state.components):
        if component_moves(c, state.to_move, state.ko_ban == i):
            out.append((temperature(c), i))
    out.sort(key=lambda ti: (-ti[0], ti[1]))
    return out


def hotstrat(state: PlayState, history: list[Record]) -> Optional[Move]:
    """Move in the hottest component (orthodox option there)."""
    cands = _candidates(state)
    if not cands:
        return None
    i = cands[0][1]
    return _best_in(state.components[i], state.to_move, state.ko_ban == i, i)


def answer_to_forcing_move(state: PlayState, history: list[Record]) -> Optional[Move]:
    """The local answer when the opponent's last move left its component hotter than the board was."""
    if history and history[-1].move is not None:
        last = history[-1]
        i = last.move.index
        c = state.components[i]
        if temperature(c) > last.board_temperature_before:
            m = _best_in(c, state.to_move, state.ko_ban == i, i)
            if m is not None:
                return m
    return None


def sentestrat(state: PlayState, history: list[Record]) -> Optional[Move]:
    """Answer the opponent's last move locally when it left that component hotter than the board was."""
    return answer_to_forcing_move(state, history) or hotstrat(state, history)


def _kind_for(c: Component) -> Optional[str]:
    return None if isinstance(c, SimpleKo) or is_cold(c) else c.kind


def tedomari(state: PlayState, history: list[Record]) -> Optional[Move]:
    """Among the hottest components: own sente first, then a move that leaves the board cooler."""
    cands = _candidates(state)
    if not cands:
        return None
    top = cands[0][0]
    hottest = [i for t, i in cands if t == top]
    mine = BLACK_SENTE if state.to_move == BLACK else WHITE_SENTE
    for i in hottest:
        if _kind_for(state.components[i]) == mine:
            return _best_in(state.components[i], state.to_move, state.ko_ban == i, i)
    for i in hottest:
        m = _best_in(state.components[i], state.to_move, state.ko_ban == i, i)
        after = apply(state, m)
        if board_temperature(after.components) < top:
            return m
    return hotstrat(state, history)


def ko_rule(state: PlayState, history: list[Record]) -> Optional[Move]:
    """Take a ko before the hottest gote when 3 t_K > 2 t_G + t_E; otherwise tedomari."""
    cands = _candidates(state)
    kos = [i for _, i in cands if isinstance(state.components[i], SimpleKo)
           and not state.components[i].taken and state.components[i].taker == state.to_move]
    others = [(t, i) for t, i in cands if not isinstance(state.components[i], SimpleKo)]
    if kos and others:
        k = kos[0]
        t_k = temperature(state.components[k])
        t_g, g = others[0]
        if _kind_for(state.components[g]) == GOTE and t_g >= t_k:
            rest = [t for t, i in cands if i not in (k, g)]
            t_e = max(rest, default=Fraction(0))
            t_e = max(t_e, Fraction(0))
            if 3 * t_k > 2 * t_g + t_e:
                return _best_in(state.components[k], state.to_move, False, k)
            return _best_in(state.components[g], state.to_move, state.ko_ban == g, g)
    return tedomari(state, history)


def orthodox(state: PlayState, history: list[Record]) -> Optional[Move]:
    """sentestrat, then the ko rule, then tedomari."""
    return answer_to_forcing_move(state, history) or ko_rule(state, history)


@dataclass(frozen=True)
class PlayResult:
    score: Value
    moves: list[Record]


def play_out(components: tuple[Component, ...], first: str, black: Strategy, white: Strategy,
             max_moves: int = 10_000) -> PlayResult:
    """Play the sum to the end with the given strategies; returns the score and the move record."""
    state = PlayState(tuple(components), first, None)
    history: list[Record] = []
    passes = 0
    while not is_over(state):
        if len(history) > max_moves:
            raise RuntimeError("play did not finish")
        strategy = black if state.to_move == BLACK else white
        move = strategy(state, history) if legal_moves(state) else None
        history.append(Record(move, board_temperature(state.components)))
        passes = passes + 1 if move is None else 0
        if passes > 2:
            raise RuntimeError("neither side can move in an unfinished sum")
        state = apply(state, move)
    return PlayResult(score(state.components), history)
