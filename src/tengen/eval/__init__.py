"""Evaluators: everything that looks at a position and says who owns what and who is winning."""

from tengen.eval.evaluation import Evaluation, Evaluator

__all__ = ["Evaluation", "Evaluator"]
