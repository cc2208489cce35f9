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
export PYTHONUNBUFFERED=1 TENGEN_CACHE=${TENGEN_CACHE:-/tmp/tengen-cache}
mkdir -p "$out"
if ls .whl/*.whl >/dev/null 2>&1 && ! python3 -c "import sgfmill" 2>/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
  export PYTHONPATH=/tmp/site
fi
export PYTHONPATH=${PYTHONPATH:+$PYTHONPATH:}$PWD/src
python3 -c "import tengen.go._native" 2>/dev/null || python3 setup.py -q build_ext --inplace >/dev/null
workers=$(( $(nproc) > 2 ? $(nproc) - 1 : 2 ))
python3 -m tengen.train.valuedata build --pack .carry/games-finished-v1.npz --model .carry/model.bin.gz \
  --workers "$workers" --device auto --batch 512 --shard-games 1500 --time-budget "$data_s" "$@" \
  2>"$out/build.err" | tee "$out/dataset.json"
tail -3 "$out/build.err" >&2 || true
python3 -m tengen.train.valuenet train --device auto --batch 1024 --lr 3e-3 --steps 100000 --minutes "$train_min" \
  --eval-every 400 --out-dir "$out" --fresh ${TRAIN_ARGS:-} 2>&1 | tee "$out/train.log"
ls -la "$out"
