"""The work a batch worker does: load the evaluator once per worker process, then compute chunks of units
(one record's turns) into plain JSON-ready results. Every backend (the local pool, Ray) calls only
`load_worker` and `compute_chunk`, so they give the same outputs for the same job.

Results are rounded (win rates to 4 decimals, scores and maps to 3) so that they are the same bytes
whichever process computed them. Values are from Black's side, as KaTrain asks KataGo for them.
"""
from __future__ import annotations

import os
import threading
import time
from typing import Any, Optional

import numpy as np


def make_evaluator(model: Optional[str], threads: Optional[int] = 1, device: str = "cpu"):
    """The job's evaluator: the KataGo network at `model` (a resolved path), or a tiny random one (TINY), on
    `device` (the endgame analysis's other networks follow it)."""
    from tengen.api.evaluators import make_evaluator

    return make_evaluator("katago", model=model, threads=threads, device=device)


_WORKER: dict[str, Any] = {}


def load_worker(model: Optional[str], threads: Optional[int] = 1, watch_parent: bool = True,
                device: str = "cpu") -> None:
    """Worker initializer: build the evaluator once; with `watch_parent`, exit when the parent dies (a
    killed batch must not leave workers behind)."""
    _WORKER["evaluator"] = make_evaluator(model, threads, device)
    _WORKER["model"] = model, device
    if watch_parent:
        parent = os.getppid()

        def watch() -> None:
            while True:
                time.sleep(0.5)
                if os.getppid() != parent:
                    os._exit(0)

        threading.Thread(target=watch, daemon=True, name="tengen-batch-parent-watch").start()


def worker_evaluator(model: Optional[str], threads: Optional[int] = 1, device: str = "cpu"):
    """This process's evaluator, loaded on first use (Ray actors and in-process runs)."""
    if "evaluator" not in _WORKER or _WORKER.get("model") != (model, device):
        load_worker(model, threads, watch_parent=False, device=device)
    return _WORKER["evaluator"]


def compute_chunk(task: dict, evaluator=None) -> list[dict]:
    """One chunk: {"file_id", "source", "data" (the record's bytes), "turns", "settings"} -> one result per
    turn: {"id", "file_id", "turn", "kind", "result"} or, when that position cannot be analyzed, "error"."""
    from tengen.go.sgf import load_game_bytes

    settings = task["settings"]
    kind = settings["what"]
    ev = evaluator if evaluator is not None else worker_evaluator(settings["model"], task.get("threads", 1),
                                                                         task.get("device", "cpu"))
    game = load_game_bytes(task["data"], task["source"])
    out: list[dict] = []
    boards, turns = [], []
    for turn in task["turns"]:
        head = {"id": f"{task['file_id']}:{turn}:{kind}", "file_id": task["file_id"], "turn": turn, "kind": kind}
        try:
            boards.append(game.board_at(turn, strict=False))
            turns.append(head)
        except Exception as exc:  # noqa: BLE001  (a position that cannot be set up is this unit's error)
            out.append({**head, "error": " ".join(str(exc).split()) or type(exc).__name__})
    if kind == "eval":
        evaluations = ev.evaluate(boards) if boards else []
        for head, board, evaluation in zip(turns, boards, evaluations):
            out.append({**head, "result": eval_result(board, evaluation, settings["maps"])})
    else:
        for head, board in zip(turns, boards):
            try:
                result = (search_result(board, ev, settings["visits"], settings["maps"]) if kind == "search"
                          else endgame_result(board, ev, settings["maps"]))
                out.append({**head, "result": result})
            except Exception as exc:  # noqa: BLE001  (one position's failure is reported, the job goes on)
                out.append({**head, "error": " ".join(str(exc).split()) or type(exc).__name__})
    said = game.rules_said()  # what each result assumes: the record's rules, or what was assumed and why
    for unit in out:
        if "result" in unit:
            unit["result"]["rules_said"] = said
    out.sort(key=lambda r: r["turn"])
    return out


def _r(x: float, digits: int) -> float:
    value = round(float(x), digits)
    return 0.0 if value == 0 else value  # no "-0.0": the same bytes whatever the sign of a tiny value


def _map(array: np.ndarray) -> list[float]:
    return [_r(v, 3) for v in np.asarray(array, dtype=np.float64).ravel()]


def _common(board) -> dict:
    from tengen.go.coords import to_gtp

    last = board.moves[-1] if getattr(board, "moves", None) else None
    return {"to_play": "B" if board.to_play == 1 else "W", "moves_played": len(board.moves),
            "last_move": None if last is None else ("B" if last[0] == 1 else "W") + " " + to_gtp(last[1], board.height),
            "komi": board.rules.komi, "size": [board.width, board.height]}


def eval_result(board, evaluation, maps: bool) -> dict:
    """A network evaluation: Black's win rate, lead, score mean and spread, the top policy moves."""
    from tengen.go.coords import to_gtp

    result = {**_common(board), "winrate": _r(evaluation.winrate, 4), "score_lead": _r(evaluation.score_lead, 3),
              "score_mean": _r(evaluation.score_mean, 3), "score_stdev": _r(evaluation.score_stdev, 3),
              "policy_top": [[to_gtp(m, board.height), _r(p, 4)] for m, p in evaluation.top_moves(5)]}
    if maps:
        result["ownership"] = _map(evaluation.ownership)
        result["policy"] = _map(evaluation.policy) + [_r(evaluation.pass_policy, 3)]
    return result


def search_result(board, evaluator, visits: int, maps: bool) -> dict:
    """A search of `visits` visits (a fresh tree, seed 0: the same result wherever it runs), Black's view."""
    from tengen.go.coords import to_gtp
    from tengen.search import Search, SearchConfig

    res = Search(evaluator, SearchConfig(visits=visits, seed=0)).run(board, visits=visits)
    sign = 1 if res.to_play == 1 else -1

    def black_wr(w: float) -> float:
        return w if sign == 1 else 1.0 - w

    moves = [{"move": to_gtp(m.move, board.height), "visits": m.visits, "winrate": _r(black_wr(m.winrate), 4),
              "score_lead": _r(sign * m.score_lead, 3), "prior": _r(m.prior, 4), "lcb_to_move": _r(m.lcb, 4),
              "order": m.order, "pv": [to_gtp(p, board.height) for p in m.pv[:10]]} for m in res.moves[:10]]
    result = {**_common(board), "visits": res.visits, "winrate": _r(black_wr(res.winrate), 4),
              "score_lead": _r(sign * res.score_lead, 3), "best": to_gtp(res.best, board.height), "moves": moves}
    if maps and res.ownership is not None:
        result["ownership"] = _map(res.ownership)
    return result


def endgame_result(board, evaluator, maps: bool) -> dict:
    """tengen's endgame analysis (`tengen.api.analyze`): regions, counts, temperatures, the orthodox move."""
    from tengen.api import analyze
    from tengen.io.report import strict_json_report

    report = strict_json_report(analyze(board, evaluator=evaluator), trees=False)
    if not maps:
        report.pop("ownership", None)
    report.pop("seconds", None)  # results must not depend on how busy the machine is
    for region in report["regions"]:
        region.pop("seconds", None)
    report.pop("conventions", None)
    return {**_common(board), **report}
