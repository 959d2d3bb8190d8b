#!/usr/bin/env bash
# Accuracy gates of the engine issues, on the shared evaluation data (CI runs this after npm test).
set -euo pipefail
DATA=${1:-../shared/data}
OUT=${EVAL_OUT:-.tmp/eval}
mkdir -p "$OUT"
status=0
gate() { node scripts/check-gate.mjs "$@" || status=1; }
