#!/usr/bin/env bash
# Accuracy gates of the engine issues on the shared evaluation data (CI runs this after npm test).
# Each gate is the issue's own target (the fingerprint ones: average EER <= 2.5% on the five dev sets, every face,
# liveness and document image refused as not a fingerprint and at most 0.5% of the prints; see
# docs/fingerprint-matching.md for today's figures).
set -uo pipefail
DATA=${1:-../shared/data}
OUT=${EVAL_OUT:-.tmp/eval}
mkdir -p "$OUT"
status=0

run() { # name, then the command; stdout to $OUT/name.json
  local name=$1; shift
  echo "-- $name: $*"
  local start=$SECONDS
  if ! "$@" > "$OUT/$name.json" 2> "$OUT/$name.log"; then
    echo "FAIL $name: the evaluation did not run"; tail -20 "$OUT/$name.log"; status=1; return 1
  fi
  echo "   done in $((SECONDS - start)) s"
}
gate() { node scripts/check-gate.mjs "$@" || status=1; }

FP="$DATA/fingerprints"
FP_SETS=("$FP/FVC2002_DB1_B" "$FP/FVC2002_DB3_B" "$FP/FVC2004_DB1_B" "$FP/FVC2004_DB4_B" "$FP/FCJ2020_A")
if run fingerprint npx tsx core/fingerprint/eval/cli.ts --json --workers 2 "${FP_SETS[@]}"; then
  gate "$OUT/fingerprint.json" 'fingerprint average EER over the five dev sets <= 2.5%' 'r.average.eer <= 2.5'
fi
if run fingerprint-likeness npx tsx core/fingerprint/eval/likeness-cli.ts --json --prints "${FP_SETS[@]}" \
  --others "$DATA/faces" "$DATA/liveness" "$DATA/documents"; then
  gate "$OUT/fingerprint-likeness.json" 'every face, liveness and document image refused as not a fingerprint' 'r.othersPassed.wrong === 0 && r.othersPassed.images > 0'
  gate "$OUT/fingerprint-likeness.json" 'prints refused as not a fingerprint <= 0.5%' 'r.printsRefused.share <= 0.5'
fi

if run face npx tsx core/face/eval/eval-face.ts --json --no-write "$DATA/faces/lfw-dev"; then
  gate "$OUT/face.json" 'face TAR at FAR 1e-3 >= 98.0%' 'r.tarAtFar1e3 >= 0.98'
  gate "$OUT/face.json" 'face accuracy >= 99.2%' 'r.accuracy >= 0.992'
fi

if run liveness npx tsx core/face/eval/eval-liveness.ts --json --no-write "$DATA/liveness/nuaa-dev"; then
  gate "$OUT/liveness.json" 'liveness ACER <= 12%' 'r.acer <= 0.12'
fi

# --no-peer: the native tesseract peer takes about 2 s a line; run it by hand with `npm run eval:documents`.
if run documents npx tsx core/document/eval/cli.ts --json --no-peer "$DATA/documents/passports-ids" "$DATA/documents/mrz-lines"; then
  gate "$OUT/documents.json" 'MRZ character accuracy on mrz-lines >= 97%' 'r.charAccuracy >= 0.97'
  gate "$OUT/documents.json" 'MRZ documents (those carrying an MRZ) all valid >= 85%' 'r.mrzAllValidRate >= 0.85'
  gate "$OUT/documents.json" 'no valid MRZ read on documents without one' 'r.noMrzFalseAccepts === 0'
fi

for f in "$OUT"/*.json; do echo "== $f"; head -c 2000 "$f"; echo; done
exit $status
