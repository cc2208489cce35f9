"""The pyramidal Bayes net (PBN) move predictor for corners and sides: regions, the net, EM,
inference and weights files."""
from tengen.eval.pbn.inference import predict, predict_board
from tengen.eval.pbn.model import PBNConfig, PBNModel, fit_bucket, structure
from tengen.eval.pbn.regions import KINDS, region_kind, region_stones
from tengen.eval.pbn.weights import MODELS_DIR, load_model, load_models, save_model

__all__ = ["KINDS", "MODELS_DIR", "PBNConfig", "PBNModel", "fit_bucket", "load_model", "load_models", "predict",
           "predict_board", "region_kind", "region_stones", "save_model", "structure"]
