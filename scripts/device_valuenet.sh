#!/usr/bin/env bash
# The GPU run that builds the value dataset (KataGo labels) and trains the value network's four variants in one
# go. Run from the repository root on a machine with the repo, .carry/model.bin.gz (the KataGo network),
# .carry/games-finished-v1.npz (the games pack: `python -m tengen.train.valuedata pack`) and .whl/ (sgfmill):
#   bash scripts/device_valuenet.sh OUT_DIR DATA_SECONDS TRAIN_MINUTES [extra build args...]
# Results in OUT_DIR: <variant>.pt (best weights), dataset.json, build.err, train.log. TRAIN_ARGS adds training
# options (e.g. TRAIN_ARGS="--variants bvmlvn --init .carry/bvmlvn.pt --lr 1e-3" fine-tunes one variant).
set -euo pipefail
out=${1:?usage: device_valuenet.sh OUT_DIR DATA_SECONDS TRAIN_MINUTES}
data_s=${2:-240}
train_min=${3:-4}
shift 3 || true
mkdir -p "$out"
source "$(dirname "$0")/device_setup.sh"
python3 -m tengen.train.valuedata build --pack .carry/games-finished-v1.npz --model "$katago_model" \
  --workers "$workers" --device auto --batch 512 --shard-games 1500 --time-budget "$data_s" "$@" \
  2>"$out/build.err" | tee "$out/dataset.json"
tail -3 "$out/build.err" >&2 || true
python3 -m tengen.train.valuenet train --device auto --batch 1024 --lr 3e-3 --steps 100000 --minutes "$train_min" \
  --eval-every 400 --out-dir "$out" --fresh ${TRAIN_ARGS:-} 2>&1 | tee "$out/train.log"
ls -la "$out"
