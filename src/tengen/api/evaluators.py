"""`make_evaluator`: the one place an evaluator is built from a name and settings, for every front end (the
CLI's commands, GTP, the JSON protocol, batch workers, the web server, the library). Adding an evaluator is
adding a branch here and a class that meets `tengen.eval.evaluation.Evaluator` (the optional members it
may offer are written there too); after KataGo's one `NeuralNet` interface that every backend implements.
"""
from __future__ import annotations

import os
from typing import Optional

EVALUATORS = ("katago", "classic", "playouts")
TINY = "tiny"  # model "tiny": a tiny random KataGo network (tests and benches; meaningless values)


def make_evaluator(name: str = "katago", *, model: Optional[str] = None, device: str = "cpu",
                   threads: Optional[int] = None, batch_size: Optional[int] = None, symmetries: int = 1,
                   playouts: int = 64, seed: int = 0):
    """An evaluator by name: `katago` (the network file `model`, "tiny" for a random one, None for the
    cached default, fetched on first use; on `device` with `threads`, `batch_size`, `symmetries`),
    `classic` (no network: Benson, life and death by search, small sealed regions solved exactly) or
    `playouts` (no network: `playouts` random playouts a position, `seed`). ValueError (one line) for an
    unknown name, FileNotFoundError for a model file that is not there."""
    if name == "katago":
        from tengen.eval.katago.evaluator import KataGoEvaluator

        if model == TINY and not os.path.exists(model):
            from tengen.eval.katago.tiny import random_model

            return KataGoEvaluator(random_model(seed=0), device=device, threads=threads, batch_size=batch_size,
                                   symmetries=symmetries)
        if model is not None and not os.path.exists(model):
            raise FileNotFoundError(f"{model}: no such model file")
        return KataGoEvaluator(model, device=device, threads=threads, batch_size=batch_size, symmetries=symmetries)
    if name == "classic":
        from tengen.api.classic import classic_evaluator

        return classic_evaluator()
    if name == "playouts":
        from tengen.eval.playout_evaluator import PlayoutEvaluator

        return PlayoutEvaluator(playouts=playouts, seed=seed)
    raise ValueError(f"unknown evaluator {name!r} (choose {', '.join(EVALUATORS)})")
