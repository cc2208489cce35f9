"""How good is the analyzer's recommended move on real late-game positions? For N scored KGS 6d+ games
(the positions of bench/endgame_cost.py: move ~ 80 % of the game), compare tengen's moves with the move
the players chose and with the network's own first policy choice, and judge them by the network's score
lead one move later (from the mover's side; a proxy judge, not the truth).

    python bench/endgame_move_quality.py [--games 10] [--seed 1] [--threads 1]

tengen's moves: the orthodox move of the regions' local games, and the recommended move (the orthodox one
unless the network's one-move check overruled it for losing more than 3 points: that check uses the same
judge, so the recommended move's loss is bounded by construction; the orthodox move's is not). Each
move's loss = (score lead after the policy move) - (after this move), in points for the side to move
(negative: better than the policy move by that judge). The last line is `tengen_mean_loss: X` (the
recommended move, points per position).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from endgame_cost import GAMES, late_positions  # noqa: E402

from tengen.endgame.analysis import analyze_board  # noqa: E402
from tengen.endgame.options import AnalysisOptions  # noqa: E402
from tengen.endgame.move_check import policy_move, scores_after  # noqa: E402
from tengen.go.colors import BLACK  # noqa: E402
from tengen.go.coords import to_gtp  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads (default 1)")
    args = parser.parse_args()
    if not GAMES.exists():
        print(f"game archives not found under {GAMES}: nothing to measure")
        return 1
    from tengen.eval.katago.evaluator import KataGoEvaluator

    evaluator = KataGoEvaluator(threads=args.threads)
    losses: dict[str, list[float]] = {"orthodox": [], "recommended": [], "played": []}
    agree = {"recommended=played": 0, "recommended=policy": 0, "played=policy": 0}
    overruled = 0
    n = 0
    for name, game, move, board in late_positions(args.games, args.seed):
        color, played = game.moves[move]
        if color != board.to_play or played is None or not board.is_legal(color, played):
            print(f"{name}: skipped (the record's next move is not a legal move for the side to play)")
            continue
        start = time.perf_counter()
        analysis = analyze_board(board, evaluator, AnalysisOptions(life_groups=0))  # the move, not the life notes
        seconds = time.perf_counter() - start
        if analysis.recommended is None or analysis.recommended[1] is None:
            print(f"{name} (move {move}): skipped (no recommended move: {analysis.recommended_reason})")
            continue
        ours = analysis.recommended[1]
        check = analysis.move_check
        orthodox = ours if check is None else check.orthodox
        overruled += check is not None and check.overruled
        policy = policy_move(board, evaluator)
        if policy is None:
            print(f"{name} (move {move}): skipped (the network's first choice is a pass)")
            continue
        moves = {"orthodox": orthodox, "recommended": ours, "played": played, "policy": policy}
        scores = dict(zip(moves, scores_after(board, evaluator, list(moves.values()))))
        n += 1
        loss = {k: scores["policy"] - scores[k] for k in losses}
        for k in losses:
            losses[k].append(loss[k])
        agree["recommended=played"] += ours == played
        agree["recommended=policy"] += ours == policy
        agree["played=policy"] += played == policy
        side = "B" if board.to_play == BLACK else "W"
        gtp = lambda p: to_gtp(p, board.height)  # noqa: E731
        print(f"{name} (move {move}, {side} to play): orthodox {gtp(orthodox):>4} ({loss['orthodox']:+5.1f})  "
              f"recommended {gtp(ours):>4} ({loss['recommended']:+5.1f})  played {gtp(played):>4} "
              f"({loss['played']:+5.1f})  policy {gtp(policy):>4}  [{analysis.recommended_reason}; {seconds:.0f} s]",
              flush=True)
    if not n:
        print("no position measured")
        return 1
    print(f"positions {n}: the network's check overruled the orthodox move {overruled} times; agreement "
          f"recommended=played {agree['recommended=played']}/{n}, recommended=policy {agree['recommended=policy']}/{n}, "
          f"played=policy {agree['played=policy']}/{n}")
    for k, v in losses.items():
        print(f"{k}: mean loss {statistics.mean(v):+.2f}, median {statistics.median(v):+.2f}, "
              f"worst {max(v):+.1f} points (the network's score lead one move later, against its policy move)")
    print(f"tengen_mean_loss: {statistics.mean(losses['recommended']):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
