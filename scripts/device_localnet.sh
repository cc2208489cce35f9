#!/usr/bin/env bash
# The GPU run that builds the local-move dataset and trains models/localnet/localnet.pt in one go.
# Run from the repository root on a machine with the repo, .carry/model.bin.gz (the KataGo network),
# .carry/games/ (archives + finished_19x19_scored_games.txt) and .whl/ (sgfmill), e.g. through the device tool:
#   bash scripts/device_localnet.sh OUT_DIR DATA_SECONDS TRAIN_MINUTES [extra build args...]
# Results in OUT_DIR: localnet.pt (best weights), dataset.json, labels.npz (KataGo labels), train.log.
set -euo pipefail
out=${1:?usage: device_localnet.sh OUT_DIR DATA_SECONDS TRAIN_MINUTES}
data_s=${2:-200}
train_min=${3:-4}
shift 3 || true
mkdir -p "$out"
source "$(dirname "$0")/device_setup.sh"
python3 -m tengen.train.localdata build --games-dir .carry/games --model .carry/model.bin.gz --workers "$workers" \
  --device auto --batch 256 --shard-games 1000 --time-budget "$data_s" "$@" 2>"$out/build.err" | tee "$out/dataset.json"
tail -3 "$out/build.err" >&2 || true
python3 -m tengen.train.localdata labels "$out/labels.npz"
python3 -m tengen.train.localnet train --device auto --batch 1024 --lr 3e-3 --steps 50000 --minutes "$train_min" \
  --eval-every 400 --patience 8 --out "$out/localnet.pt" --fresh 2>&1 | tee "$out/train.log"
ls -la "$out"
