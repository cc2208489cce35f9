#!/usr/bin/env bash
# One GPU call: build the value dataset (KataGo labels) once, then train several BV-ML-VN runs side by side on
# the same data (a small network's training steps are bound by kernel launches, so parallel runs cost little).
# Run from the repository root with .carry/model.bin.gz (the KataGo network), .carry/pack.npz (a games pack:
# `python -m tengen.train.valuedata pack --limit N --out .carry/pack.npz`) and .whl/ (sgfmill):
#   bash scripts/device_valuenet_runs.sh OUT_DIR DATA_SECONDS TRAIN_MINUTES
# Runs (each in OUT_DIR/<name>/ with train.log and bvmlvn.pt, the best validation checkpoint):
#   fresh   6x64 from scratch, lr 3e-3 (the shipped configuration, longer)
#   tuned   6x64 from the shipped weights (models/valuenet/bvmlvn.pt), lr 1e-3
#   deeper  8x64 from scratch, lr 3e-3
# RUNS picks some of them (default: all three), e.g. RUNS=tuned TUNE_LR=1.5e-3 continues the committed weights alone.
# Everything ends in OUT_DIR/valuenet-runs.tar (one file: the device returns few files).
set -uo pipefail
out=${1:?usage: device_valuenet_runs.sh OUT_DIR DATA_SECONDS TRAIN_MINUTES}
data_s=${2:-170}
train_min=${3:-3.8}
work=$(mktemp -d)
source "$(dirname "$0")/device_setup.sh"
python3 -m tengen.train.valuedata build --pack .carry/pack.npz --model "$katago_model" \
  --workers "$workers" --device auto --batch 512 --shard-games 500 --time-budget "$data_s" \
  2>"$work/build.err" | tee "$work/dataset.json"
tail -3 "$work/build.err" >&2
train() {  # name, extra args...
  local name=$1; shift
  mkdir -p "$work/$name"
  python3 -m tengen.train.valuenet train --variants bvmlvn --device auto --batch 1024 --steps 1000000 \
    --minutes "$train_min" --eval-every 400 --out-dir "$work/$name" --checkpoints "$work/ckpt-$name" --fresh "$@" \
    >"$work/$name/train.log" 2>&1
}
for run in ${RUNS:-fresh tuned deeper}; do
  case $run in
    fresh) train fresh --lr 3e-3 & ;;
    tuned) train tuned --lr "${TUNE_LR:-1e-3}" --init models/valuenet/bvmlvn.pt & ;;
    deeper) train deeper --lr 3e-3 --blocks 8 & ;;
    *) echo "unknown run $run" >&2 ;;
  esac
done
wait
nvidia-smi --query-gpu=name,memory.used --format=csv >"$work/gpu.txt" 2>&1
rm -rf "$work"/ckpt-*
tar -C "$work" -cf "$out/valuenet-runs.tar" .
for log in "$work"/*/train.log; do echo "$log"; tail -n 2 "$log"; done
