#!/usr/bin/env bash
# gpu-session.sh - everything that needs the GPU, in one call (the lent
# machine is scarce): run on the GPU host from the repository root with the
# relocatable runner from `make dist` in dist/evident/.
#
#   1. GPU state as found (never changed: no clocks, power or persistence)
#   2. experiments/cuda-faults.yaml  (fault fixtures, compute-sanitizer)
#   3. experiments/iter1.yaml        (the study's first iteration + references)
#   4. experiments/sweep.yaml        (the fa_s512 tunables)
#   5. the GPU CLI tests (tests/cli/t30*)
#   6. ncu's kernel duration for iter1's baseline vs evident's median
#   7. new records packed into $OUT/artifacts.tgz, logs into $OUT/
# Usage: OUT=/some/dir scripts/gpu-session.sh [STEP...]  (default: all)
set -u
OUT=${OUT:-/tmp/gpu-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
E=$PWD/dist/evident/bin/evident
steps=${*:-"state faults iter1 sweep tests ncu pack"}
log() { printf '\n=== %s\n' "$*" | tee -a "$OUT/session.log"; }
has() { case " $steps " in *" $1 "*) return 0;; *) return 1;; esac; }
T0=$(date +%s)
"$E" --version >/dev/null 2>&1 || { echo "dist/evident/bin/evident does not run here: $("$E" --version 2>&1)"; exit 1; }

# The tree arrives with a .git that holds no objects, refs or index (seen
# on the lent H100).  build/git-bundle/head.bundle (made here by
# `git bundle create build/git-bundle/head.bundle HEAD main`, carried with
# the call) brings the commit that was sent; fetch it and fill the index
# from it, leaving the working tree alone.  libgit2 then diffs the working
# tree against that commit, so any difference is recorded as dirty, with
# its patch.
log "git here"
if ! git rev-parse -q --verify HEAD >/dev/null 2>&1 && [ -f build/git-bundle/head.bundle ]; then
	git fetch -q --update-head-ok build/git-bundle/head.bundle "+refs/heads/main:refs/heads/main" 2>&1 | tee -a "$OUT/session.log"
	git read-tree HEAD 2>&1 | tee -a "$OUT/session.log"
fi
echo "HEAD: $(git rev-parse HEAD 2>&1 | head -1)" | tee -a "$OUT/session.log"
git status --short | head -5 | tee -a "$OUT/session.log"

if has state; then
	log "GPU state as found"
	nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,power.limit,persistence_mode,compute_mode --format=csv 2>&1 | tee -a "$OUT/session.log"
	nvcc --version | tail -2 | tee -a "$OUT/session.log"
fi
run_exp() {
	log "evident run $1"
	"$E" run --store artifacts --no-progress --jobs 16 "$1" > "$OUT/$(basename "$1" .yaml).txt" 2>&1
	echo "exit $?" >> "$OUT/$(basename "$1" .yaml).txt"
	tail -n 40 "$OUT/$(basename "$1" .yaml).txt" >> "$OUT/session.log"
}
has faults && run_exp experiments/cuda-faults.yaml
has iter1 && run_exp experiments/iter1.yaml
has sweep && run_exp experiments/sweep.yaml
if has tests; then
	log "GPU CLI tests"
	EVIDENT=$E tests/cli/run.sh t30 > "$OUT/gpu-tests.txt" 2>&1
	tail -n 30 "$OUT/gpu-tests.txt" >> "$OUT/session.log"
fi
if has ncu; then
	log "ncu vs evident, iter1 base"
	python3 scripts/ncu-check.py "$E" "$OUT" >> "$OUT/session.log" 2>&1
fi
if has pack; then
	log "pack"
	tar czf "$OUT/artifacts.tgz" artifacts/runs artifacts/objects 2>&1 | tail -2
	ls -la "$OUT" >> "$OUT/session.log"
fi
log "session took $(( $(date +%s) - T0 )) s"
grep -E "^(=== |experiment |[a-zA-Z0-9_.-]+ +(ok|crashed|timeout|nan|unwritten_output|wrong_output|flaky|build_failed|launch_failed|init_failed) |cli: |exit |ncu|evident)" "$OUT/session.log" | tail -n 90
