"""GNU Go's life-and-death GTP commands: dragon_status, owl_attack, owl_defend (GNU Go's reply formats, so its
regression suites run unchanged). The df-pn proof (`tengen.life.proof`, within the search's node budget; near
the dragon first, `prove_near`) answers first where it proves the answer without a ko; else the network judges
one move deep (`tengen.life.net`; a ko, with GNU Go's codes 2 and 3, told by the search) when the engine has
one for them (`network`), else `tengen.life.search`'s search without a network. A ko the proof finds (code 2)
rests on its komaster convention (the komaster wins every ko, approach kos included), which GNU Go's codes do
not share, so it is left to the others' own ko reading. `tengen-life_budget` sets the node budget (and an
optional seconds cap) per query."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Optional

from tengen.go.colors import EMPTY
from tengen.go.coords import Point, to_gtp
from tengen.io.gtp_base import GtpError, GtpHandler, nargs, vertex_arg
from tengen.life.search import ALIVE, DEAD, KO, LifeConfig, LifeSearch, analyze_group
from tengen.life.net import dragon, network_status, owl_answer, pass_alive
from tengen.life.proof import ProofResult, default_region, prove_near_first


class LifeCommands(GtpHandler):
    """Life-and-death commands: GNU Go's dragon_status and owl_attack / owl_defend, and the search's budget
    (`life_config`)."""

    def __init__(self, engine, network: Optional[Callable[[], object]] = None):
        super().__init__(engine)
        self.life_config: LifeConfig = LifeConfig()
        self.network = network  # loads the evaluator the network mode judges with (None: the search)
        self.last_basis = "none"  # how the last life answer is known: proved / judged / searched

    def _proved(self, point: Point, attack: bool) -> Optional[ProofResult]:
        """The df-pn proof with the attacker (or the defender) first within the search's budget, where it
        is proved without a ko (GNU Go's code 1 or 0); else None."""
        board = self.engine.board
        self.last_basis = "judged" if self.network is not None else "searched"  # unless proved below
        first = -board.get(point) if attack else board.get(point)
        budget = dict(max_nodes=self.life_config.max_nodes, seconds=self.life_config.seconds)
        try:
            result = prove_near_first(board, point, default_region(board, point), first,
                                      near_group=dragon(board, point), **budget)
        except ValueError:  # a region past the proof's limit
            return None
        proved = result.proved and result.code in (0, 1)  # a ko (2) rests on the komaster convention
        if proved:
            self.last_basis = "proved"
        return result if proved else None

    def _proved_status(self, point: Point) -> Optional[tuple[str, int]]:
        """dragon_status's answer by proof (alive, dead or critical ATTACK DEFENSE) and the nodes, or None."""
        attack = self._proved(point, attack=True)
        if attack is None:
            return None
        if attack.code == 0:
            return "alive", attack.nodes
        defence = self._proved(point, attack=False)
        if defence is None:
            return None
        nodes = attack.nodes + defence.nodes
        if defence.code == 0:
            return "dead", nodes
        return f"critical {self._gtp_move(attack.move)} {self._gtp_move(defence.move)}", nodes

    def _judged(self, args):
        """The network's status of the group at the argument (`tengen.life.net`)."""
        return network_status(self.engine.board, self._life_point(args), self.network())

    def _owl(self, args, attack: bool) -> str:
        """The network mode's owl_attack / owl_defend reply: the network's move, a ko told by the search."""
        code, move = owl_answer(self.engine.board, self._life_point(args), self.network(), attack=attack)
        return f"{code} {self._gtp_move(move)}" if code else "0"

    def _life_point(self, args) -> Point:
        """The one vertex argument, which must hold a stone (GNU Go's errors otherwise)."""
        nargs(args, 1)
        if len(args) > 1:
            raise GtpError("syntax error")
        point = vertex_arg(args[0], self.engine.board)
        if point is None:
            raise GtpError("invalid vertex")
        if self.engine.board.get(point) == EMPTY:
            raise GtpError("vertex must not be empty")
        return point

    def _gtp_move(self, move: Optional[Point]) -> str:
        """A key move as GNU Go writes it (a pass: PASS)."""
        return "PASS" if move is None else to_gtp(move, self.engine.board.height)

    def cmd_dragon_status(self, args):
        """dragon_status VERTEX: alive, dead, critical ATTACK DEFENSE (ko included), or unknown."""
        proved = self._proved_status(self._life_point(args))
        if proved is not None:
            self.last_basis = "proved"
            return proved[0]
        if self.network is not None:
            result = self._judged(args)
        else:
            result = analyze_group(self.engine.board, self._life_point(args), self.life_config)
        if result.status in ("critical", "ko"):
            return f"critical {self._gtp_move(result.attack)} {self._gtp_move(result.defense)}"
        return result.status

    def cmd_tengen_dragon_status(self, args):
        """tengen-dragon_status VERTEX: dragon_status's answer, then how it is known and the work it took:
        `proved` (pass-alive by Benson's algorithm: no move can kill it, or by the df-pn proof), `judged` (by
        the network, one move deep) or `searched` (tengen's search without a network, within its candidate
        moves and budget),
        then `nodes N` (positions the network evaluated or the search visited)."""
        point = self._life_point(args)
        board = self.engine.board
        if pass_alive(board, point):
            return "alive proved nodes 0"
        proved = self._proved_status(point)
        if proved is not None:
            return f"{proved[0]} proved nodes {proved[1]}"
        if self.network is not None:
            result, how = network_status(board, point, self.network()), "judged"
        else:
            result, how = analyze_group(board, point, self.life_config), "searched"
        answer = result.status
        if result.status in ("critical", "ko"):
            answer = f"critical {self._gtp_move(result.attack)} {self._gtp_move(result.defense)}"
        return f"{answer} {how} nodes {result.nodes}"

    def cmd_owl_attack(self, args):
        """owl_attack VERTEX: 0, or CODE MOVE (1 kills, 2 ko) with the attacker moving first."""
        proved = self._proved(self._life_point(args), attack=True)
        if proved is not None:
            return f"{proved.code} {self._gtp_move(proved.move)}" if proved.code else "0"
        if self.network is not None:
            return self._owl(args, attack=True)
        answer = LifeSearch(self.engine.board, self._life_point(args), self.life_config).attack()
        return _reply(answer.outcome, DEAD, answer.move, self._gtp_move)

    def cmd_owl_defend(self, args):
        """owl_defend VERTEX: 0, or CODE MOVE (1 saves, 2 ko) with the defender moving first."""
        proved = self._proved(self._life_point(args), attack=False)
        if proved is not None:
            return f"{proved.code} {self._gtp_move(proved.move)}" if proved.code else "0"
        if self.network is not None:
            return self._owl(args, attack=False)
        answer = LifeSearch(self.engine.board, self._life_point(args), self.life_config).defend()
        return _reply(answer.outcome, ALIVE, answer.move, self._gtp_move)

    def cmd_tengen_life_basis(self, args):
        """tengen-life_basis: how the last dragon_status / owl_attack / owl_defend answer is known: proved
        (df-pn), judged (the network) or searched (the classic search); none before any."""
        nargs(args, 0)
        return self.last_basis

    def cmd_tengen_life_budget(self, args):
        """tengen-life_budget NODES [SECONDS]: the life-and-death search's budget per search."""
        nargs(args, 1)
        try:
            nodes = int(args[0])
            seconds = float(args[1]) if len(args) > 1 else None
        except ValueError:
            raise GtpError("syntax error") from None
        if nodes < 1 or (seconds is not None and not seconds > 0):
            raise GtpError("budget must be positive")
        self.life_config = replace(self.life_config, max_nodes=nodes, seconds=seconds)


def _reply(outcome: Optional[int], goal: int, move: Optional[Point], gtp_move) -> str:
    """GNU Go's owl reply: `0`, `1 MOVE` or `2 MOVE` (ko); an unknown result (budget out) is `0`."""
    if outcome == goal:
        return f"1 {gtp_move(move)}"
    if outcome == KO:
        return f"2 {gtp_move(move)}"
    return "0"
