"""Score finished games from the network's ownership: how often is the result exactly right?

For each of the 896 KGS games whose last node carries territory markup (TB/TW; the markup reproduces the
recorded result in 895 of them), take the final position, evaluate it with the default KataGo network
(as it stood before the closing passes: the networks are much less sure of positions already ended),
call a stone dead when its ownership points the other way by more than --dead (default 0.5), count the
position under the game's rules with `tengen.eval.katago.final_score` (territory: empty points of
single-color regions + prisoners + dead stones, without seki regions; area: stones + regions) and
compare with the recorded result (RE). GNU Go 3.4 scored 82.2 % of pro games exactly.

    python bench/final_scoring.py [--limit N] [--threads 2] [--value-net]

It also checks the value dataset's ownership labels against the markup: each point's owner by the markup
(TB Black, TW White, an unmarked stone its own colour, other empty points nobody's) against KataGo's ownership
of the final position rounded at +-0.5 (the label `python -m tengen.train.valuedata build` stores), and, with
`--value-net`, against tengen's value network's final-ownership head.

Needs ../shared/data/games (skips with a message when absent). Ends with `exact_score: n/896`.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tarfile
import time
from pathlib import Path

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from tengen.go import BLACK, WHITE  # noqa: E402
from tengen.go.sgf import load_game_bytes, markup_points  # noqa: E402
from tengen.files import shared_data_path  # noqa: E402

DATA = shared_data_path("games", must_exist=False)
LIST = DATA / "kgs_games_with_TB_TW_territory.txt"
ARCHIVE = DATA / "kgs_6d_godmoves_36692.tar.xz"


def read_games(limit: int | None) -> list[tuple[str, bytes]]:
    wanted = [line.strip() for line in LIST.read_text().splitlines() if line.strip()]
    if limit:
        wanted = wanted[:limit]
    want = set(wanted)
    found: dict[str, bytes] = {}
    with tarfile.open(ARCHIVE, "r:xz") as tar:
        for member in tar:
            if member.name in want:
                found[member.name] = tar.extractfile(member).read()
                if len(found) == len(want):
                    break
    return [(name, found[name]) for name in wanted if name in found]


def result_margin(re_text: str | None) -> float | None:
    """Black's margin from RE ('B+5.50' -> 5.5, 'W+0.5' -> -0.5); None for resignations and the like."""
    m = re.fullmatch(r"\s*([BW])\+([0-9.]+)\s*", re_text or "")
    if not m:
        return None
    return float(m.group(2)) * (1 if m.group(1) == "B" else -1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--dead", type=float, default=0.5, help="ownership beyond which a stone is dead")
    ap.add_argument("--seki", type=float, default=0.3, help="territory needs |ownership| at least this")
    ap.add_argument("--symmetries", type=int, default=1)
    ap.add_argument("--model", default=None)
    ap.add_argument("--verbose", action="store_true", help="list the games scored wrongly")
    ap.add_argument("--value-net", action="store_true", help="also check tengen's value network's final ownership")
    args = ap.parse_args()
    if not LIST.exists() or not ARCHIVE.exists():
        print(f"shared data not available under {DATA}; nothing to score")
        print("exact_score: 0/0")
        return

    from tengen.eval.katago import KataGoEvaluator
    from tengen.eval.katago.final_score import position_before_passes, score_final_position

    t0 = time.perf_counter()
    games = read_games(args.limit)
    print(f"read {len(games)} games in {time.perf_counter() - t0:.0f} s")
    ev = KataGoEvaluator(args.model, threads=args.threads, batch_size=16, symmetries=args.symmetries)
    value_net = None
    if args.value_net:
        from tengen.eval.valuenet.evaluator import ValueNetEvaluator

        value_net = ValueNetEvaluator()
    exact = markup_agree = markup_total = 0
    owners = {"katago": [0, 0], "value net": [0, 0]}  # points agreeing with the markup's owner, points
    wrong = []
    batch: list = []

    def owner_agreement(name: str, ownership: np.ndarray, truth: np.ndarray) -> None:
        rounded = np.where(ownership > 0.5, 1, np.where(ownership < -0.5, -1, 0))
        owners[name][0] += int((rounded == truth).sum())
        owners[name][1] += truth.size

    def flush():
        nonlocal exact, markup_agree, markup_total
        evals = ev.evaluate([position_before_passes(b) for _, b, _, _, _, _ in batch])
        finals = ev.evaluate([b for _, b, _, _, _, _ in batch])  # the position as the dataset labels it
        ours_final = None
        if value_net is not None:
            boards = [b.copy() for _, b, _, _, _, _ in batch]
            ours_final = value_net.raw(boards)[1][:, 0].reshape(-1, 19, 19)
        for i, ((name, board, margin, handicap, truth_dead, truth_owner), e) in enumerate(zip(batch, evals)):
            owner_agreement("katago", finals[i].ownership, truth_owner)
            if ours_final is not None:
                owner_agreement("value net", ours_final[i], truth_owner)
            ours = score_final_position(board, e.ownership, args.dead, args.seki, handicap).margin
            grid = board.array()
            ours_dead = (grid != 0) & (e.ownership * grid < -args.dead)
            markup_total += int((grid != 0).sum())
            markup_agree += int(((ours_dead == truth_dead) & (grid != 0)).sum())
            if margin is not None and abs(ours - margin) < 1e-6:
                exact += 1
            else:
                wrong.append((name, margin, ours, int((ours_dead != truth_dead).sum())))
        batch.clear()

    t1 = time.perf_counter()
    for name, data in games:
        try:
            game = load_game_bytes(data, name)
            board = game.board_at(None, strict=False)
        except Exception as exc:  # noqa: BLE001 - a broken record counts as a miss
            wrong.append((name, None, None, f"unreadable: {exc}"))
            continue
        node = game.sgf.get_main_sequence()[-1]
        tb = set(markup_points(node, "TB", board.height)) if node.has_property("TB") else set()
        tw = set(markup_points(node, "TW", board.height)) if node.has_property("TW") else set()
        grid = board.array()
        truth_dead = np.zeros_like(grid, dtype=bool)
        for p in tb:
            truth_dead[p] = grid[p] == WHITE
        for p in tw:
            truth_dead[p] = truth_dead[p] or grid[p] == BLACK
        truth_owner = grid.astype(int).copy()
        for p in tb:
            truth_owner[p] = BLACK
        for p in tw:
            truth_owner[p] = WHITE
        batch.append((name, board, result_margin(game.result), game.handicap, truth_dead, truth_owner))
        if len(batch) == 16:
            flush()
    if batch:
        flush()
    elapsed = time.perf_counter() - t1
    print(f"evaluated {len(games)} final positions in {elapsed:.0f} s ({len(games) / elapsed:.1f} positions/s)")
    print(f"stones whose life/death matches the TB/TW markup: {markup_agree}/{markup_total} "
          f"({100 * markup_agree / max(1, markup_total):.2f} %)")
    for name, (agree, total) in owners.items():
        if total:
            print(f"point owners matching the markup, {name} final-position ownership rounded at 0.5: "
                  f"{agree}/{total} ({100 * agree / total:.2f} %)")
    if args.verbose:
        for item in wrong:
            print("  wrong:", item)
    print(f"exact results: {100 * exact / max(1, len(games)):.1f} % (GNU Go 3.4 on pro games: 82.2 %)")
    print(f"exact_score: {exact}/{len(games)}")


if __name__ == "__main__":
    main()
