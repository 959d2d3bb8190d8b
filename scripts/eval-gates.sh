#!/usr/bin/env bash
# Accuracy gates of the engine issues on the shared evaluation data (CI runs this after npm test).
# Fingerprint: the five dev sets' average EER may not get worse (2.15% today; docs/fingerprint.md);
# every face, liveness and document image is refused as not a fingerprint, at most 0.5% of the prints are.
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
  gate "$OUT/fingerprint.json" 'fingerprint average EER over the five dev sets <= 2.20%' 'r.average.eer <= 2.2'
fi
if run fingerprint-likeness npx tsx core/fingerprint/eval/likeness-cli.ts --json --prints "${FP_SETS[@]}" \
  --others "$DATA/faces" "$DATA/liveness" "$DATA/documents"; then
  gate "$OUT/fingerprint-likeness.json" 'every face, liveness and document image refused as not a fingerprint' 'r.othersPassed.wrong === 0 && r.othersPassed.images > 0'
  gate "$OUT/fingerprint-likeness.json" 'prints refused as not a fingerprint <= 0.5%' 'r.printsRefused.share <= 0.5'
fi

if run face npx tsx core/face/eval/eval-face.ts --json "$DATA/faces/lfw-dev"; then
  gate "$OUT/face.json" 'face TAR at FAR 1e-3 >= 98.0%' 'r.tarAtFar1e3 >= 0.98'
  gate "$OUT/face.json" 'face accuracy >= 99.2%' 'r.accuracy >= 0.992'
fi

if run liveness npx tsx core/face/eval/eval-liveness.ts --json "$DATA/liveness/nuaa-dev"; then
  gate "$OUT/liveness.json" 'liveness ACER at the shipped threshold <= 12%' 'r.atShipped.acer <= 0.12'
fi

# --no-peer: the native tesseract peer takes about 2 s a line; run it by hand with `npm run eval:documents`.
# Three dev specimens are printed with wrong check digits (eval-documents.ts): the rate is over the others, and
# those three must read invalid.
if run documents npx tsx core/document/eval/cli.ts --json --no-peer "$DATA/documents/passports-ids" "$DATA/documents/mrz-lines"; then
  # 97.8% as the evaluation prints it (one decimal; the reader measured 97.75% before and after its rewrite).
  gate "$OUT/documents.json" 'MRZ character accuracy on mrz-lines >= 98.0%' 'r.charAccuracy >= 0.98'
  gate "$OUT/documents.json" 'MRZ every check digit valid on dev documents printed valid >= 90%' 'r.printedValidRate >= 0.9'
  gate "$OUT/documents.json" 'no valid MRZ read on documents without one' 'r.noMrzFalseAccepts === 0'
  gate "$OUT/documents.json" 'no MRZ printed with a wrong check digit read valid' 'r.misprintedReadValid === 0'
fi

# The MRZ robustness benchmark renders its own pages (no data needed): 200 pages, seed 1, 20 per family.
if run mrz-synthetic npx tsx core/document/eval/cli.ts --json --synthetic 200 --seed 1; then
  gate "$OUT/mrz-synthetic.json" 'MRZ synthetic benchmark valid >= 95%' 'r.synthetic.validRate >= 0.95'
  gate "$OUT/mrz-synthetic.json" 'MRZ synthetic benchmark: no family under 85%' 'r.synthetic.lowestFamilyValidRate >= 0.85'
fi

for f in "$OUT"/*.json; do echo "== $f"; head -c 2000 "$f"; echo; done
exit $status
