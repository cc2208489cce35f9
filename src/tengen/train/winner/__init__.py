"""Winner prediction from influence maps: NN-Influence's MLP (363-200-1, sigmoid) and a logistic baseline.

Inputs are an influence map (361 values, + = Black) and the two prisoner counts; the "all" models add the
move number (`features`). One network per phase (moves 30, 80, 130, 180) as in NN-Influence, and one for all
phases with the move number as an input (`model`). Training uses the 8 board symmetries as augmentation and
stops early on the validation log loss (`training`; accuracy and log loss in `metrics`). Weights are stored
as small ``.npz`` files (float16) with an ``index.json`` that names, per phase, the model that did best on
validation; `predict.predict_winner` uses it. `card` writes ``models/winner/MODEL_CARD.md``.

The ``*-clean`` models (sources ``zobrist-clean``, ``bouzy-clean``, ``cross-clean``) read the sign of the
influence computed after removing the stones tengen's value network calls dead (`deadstones`: which ownership
head and threshold, chosen on validation), plus the game's komi and handicap. The value network's and KataGo's
outputs on the dataset are computed once and cached beside it (`netcache`); `netreference` measures both
networks as winner predictors next to GNU Go.

Commands: ``python -m tengen.train.winner valuenet|dead-stones|train|evaluate|gnugo|card`` (``--help``).
"""
