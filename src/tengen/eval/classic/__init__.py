"""The classic evaluator: an `Evaluator` without a network, from Benson, enclosed areas,
life and death of weak groups, atari, sealed regions valued as local games, and influence for the rest."""
from tengen.eval.classic.config import ClassicConfig
from tengen.eval.classic.evaluator import ClassicEvaluator
from tengen.eval.classic.judges import (LifeJudge, LifeVerdict, RegionValue, RegionValuer, no_region_valuer,
                                        static_life_judge)

__all__ = ["ClassicConfig", "ClassicEvaluator", "LifeJudge", "LifeVerdict", "RegionValue", "RegionValuer",
           "no_region_valuer", "static_life_judge"]
