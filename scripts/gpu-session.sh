#!/usr/bin/env bash
# gpu-session.sh - what needs the GPU, in as few calls as possible (the lent
# machine is scarce): run on the GPU host from the repository root with the
# relocatable runner from `make dist` in dist/evident/ (carried with the
# call, together with build/git-bundle, see below).
#
# Steps (give any of them; the default is all, in this order):
#   state      the GPU as found (never changed: no clocks, power or persistence)
#   harness    tests/gpu/harness_check.sh (the harness's own checks)
#   adversary  the CUDA adversarial suite (tests/fixtures/specs/cuda-adversary*.yaml)
#   sealed     the sealed path's own suites (tests/fixtures/specs/cuda-sealed.yaml,
#              cuda-cdp.yaml) and the adversary suite as trust: host
#   redteam3   red team 3's suites (tests/fixtures/specs/cuda-redteam3.yaml,
#              cuda-redteam3-cdp.yaml; docs/redteam3-cuda.md; not in the default list)
#   redteam4   red team 4's suites (tests/fixtures/specs/cuda-redteam4.yaml,
#              cuda-redteam4-graph.yaml, cuda-redteam4-checks.yaml; docs/redteam4-cuda.md;
#              not in the default list)
#   redteam5   red team 5's suite (tests/fixtures/specs/cuda-redteam5.yaml;
#              docs/redteam5-cuda.md; not in the default list)
#   redteam6   red team 6's suite (tests/fixtures/specs/cuda-redteam6.yaml;
#              docs/redteam6-cuda.md): slot_count's skipped samples, gap_probe at
#              lags 1 and 2 there and on cuda-gap-probe.yaml (with OLD_E, the
#              older runner too, into ab-store; not in the default list)
#   redteam7   red team 7's suite (tests/fixtures/specs/cuda-redteam7.yaml;
#              docs/redteam7-cuda.md): cap_truncate's timed samples, checks and the
#              capped flag (one 16 s stall; not in the default list)
#   redteam8   red team 8's suite (tests/fixtures/specs/cuda-redteam8.yaml;
#              docs/redteam8-cuda.md): the outcomes, each variant's median, and
#              mix_cancel's checks on gemm's `cancel` distribution, seed and timed
#              (about 30 s; not in the default list)
#   redteam12  red team 12's gemm probe (tests/fixtures/specs/cuda-redteam12.yaml, graph
#              mode, trust: host, and cuda-redteam12-sealed.yaml): cancel_half's verdict,
#              each run's timing.by_dist and the batch's notes (a speed only `cancel`
#              has must not reach the time; about 1 min; not in the default list)
#   redteam13  red team 13's CUDA suites (docs/redteam13-cuda.md): the distribution sniffers
#              (cuda-redteam13.yaml gemm, -softmax, -layernorm; a cheat's `ok` is the hole
#              shown) and, where the host has two GPUs or more, the cross-slot hog
#              (cuda-redteam13-pool.yaml with --gpus all, then the hog's planner lines);
#              about 3 min, not in the default list)
#   redteam16  red team 16's CUDA probe (tests/fixtures/specs/cuda-redteam16.yaml;
#              docs/redteam16-cuda.md): attention with fp16 scores on the samples a
#              learned value dictionary calls timing ones; each variant's outcome,
#              median, timed checks by distribution and the batch's notes (10 jobs,
#              about 2-3 min on one H200; not in the default list)
#   redteam17  red team 17's CUDA probe (tests/fixtures/specs/cuda-redteam17.yaml;
#              docs/redteam17-cuda.md): attention with fp16 scores on the timed samples
#              after their block's stress sample, the block found from the warm-up's
#              recurring inputs (after) or learned from the stress samples alone
#              (learn); each run's outcome, checks by distribution, median, and the
#              share of its timing samples under 0.95x honest's median (6 jobs, about
#              1.5-2 min on one H200; not in the default list)
#   redteam18  red team 18's CUDA probe (tests/fixtures/specs/cuda-redteam18.yaml;
#              docs/redteam18-cuda.md): gemm fp16 accumulating in fp16 chunks flushed
#              into fp32, except on `cancel`; each variant's outcome, checks by
#              distribution, median, and the batch's precision notes (12 jobs, about
#              1-1.5 min on one H200; not in the default list).  Since red team 19
#              `cancel` is filled as `uniform` and judged entry by entry
#              (problems/gemm.c): the sniff finds nothing, chunk8 and chunk16 should
#              be wrong_output on their `cancel` checks alone
#   redteam19  red team 19's CUDA probe (tests/fixtures/specs/cuda-redteam19.yaml and
#              cuda-redteam19-bf16.yaml; docs/redteam19-cuda.md): attention fp16 and
#              bf16 summing P V in fp16 (chunks of 8 keys, or one sum), no sniff; each
#              variant's outcome, checks' rel L2 by distribution, median against
#              chunk32's, and the batches' precision notes (12 jobs, about 1-1.5 min
#              on one H200; not in the default list)
#   redteam20  red team 20's CUDA probe (tests/fixtures/specs/cuda-redteam20.yaml and
#              cuda-redteam20-fp16.yaml; docs/redteam20-cuda.md): a bf16 (and fp16) gemm
#              in fp16 chunks that redoes in fp32
#              only the entries its own result shows cancel (gemm's `cancel` focus);
#              each variant's outcome, every check's focus (entries, out, worst
#              error/bound), rel L2 by distribution, median against honest's
#              (12 jobs, about 1-1.5 min on one H200; not in the default list)
#   redteam21  red team 21's CUDA probe (docs/redteam21-cuda.md; tests/fixtures/specs/
#              cuda-redteam21.yaml, -hot24, -hot8, -steps): rowsum keeping its next inputs
#              in L2 through cache cold's flush (evict_last), an honest rowsum under cache
#              hot against the HBM floor (below_floor?), an honest rowsum of 1-128 kernels
#              against the clock check (clock_disagree?); each run's outcome, reason,
#              median (kernel clock and events), the floor and the events-kernel gap
#              (16 jobs, about 1-1.5 min on one H200; not in the default list)
#   redteam22  red team 22's CUDA probe (docs/redteam22-cuda.md; tests/fixtures/specs/
#              cuda-redteam22.yaml, -graph): honest rowsums launched with PDL (a PDL first
#              launch, 8 overlapping kernels, sealed) and a trust: host graph batch whose 8
#              launches overlap through PDL (window / batch); each run's outcome, reason,
#              kernel-clock and event medians, the gap, the clock, the batch and executor
#              (8 jobs, about 1 min on one H200; not in the default list)
#   redteam23  red team 23's CUDA probe (docs/redteam23-cuda.md; tests/fixtures/specs/
#              cuda-redteam23.yaml, -cap): honest sealed rowsum plans with memsets and DtoD
#              copies before and after the kernel (16-64 MiB, a split sum with memset(Y, 0),
#              32 tiny memsets): does the window kernel clock hold every step's device time?
#              and trust: host rowsums that overflow the harness's 4096 API ids a sample and
#              then put work on a stream of their own (hidden from other_stream and late?);
#              each run's outcome, reason, kernel-clock and event medians, the gap, the
#              clock and the plan's steps (12 jobs, about 1-1.5 min on one H200; not in the
#              default list)
#   redteam24  red team 24's CUDA probe (docs/redteam24-cuda.md; tests/fixtures/specs/
#              cuda-redteam24.yaml): trust: host rowsums whose helper thread hides half
#              the work after the stop event behind 1536 API ids (the stray ids' ring),
#              and a persisting-L2 access-policy window over the next sample's inputs
#              under cache: cold; each run's outcome, reason, clock medians and the gap
#              (7 jobs, about 1-1.5 min on one H200; not in the default list)
#   redteam25  red team 25's CUDA probe (tests/fixtures/specs/cuda-redteam25.yaml;
#              docs/redteam25-cuda.md): a trust: host sleeper grid launched from a
#              signal handler on the harness thread, a TMA tensor map as a sealed
#              kernel's parameter; outcomes, clock medians and each run's log line;
#              then cuda-redteam25-steal.yaml (CUPTI's subscription taken by a
#              kernel's constructor) (11 jobs, about 2 min on one H200; not in the
#              default list)
#   redteam26  red team 26's CUDA probe (tests/fixtures/specs/cuda-redteam26.yaml;
#              docs/redteam26-cuda.md): trust: host rowsums that replace CUPTI's
#              activity buffer callbacks (editing records) or turn records off
#              around a side-stream launch; outcomes, clock medians and each
#              run's fini line (6 jobs, about 1 min; not in the default list)
#   redteam84  red team 84's CUDA cache-dir twins (tests/fixtures/specs/cuda-redteam84-cachedir.yaml;
#              docs/redteam84-cuda.md): one object under two names, sealed and trust: host;
#              each variant's outcome and median and what each copy could read of its
#              cache directory (its "cachedir:" lines; not in the default list)
#   fresh16    every CUDA timed sample's inputs fresh (src/backends/fresh.h; red team 16):
#              scaling-d64-s512.yaml's mma variant and its baseline, --repeats 1 (B32 H32 S512
#              D64: 201 MB of fresh inputs a sample), then each record's timing.method.inputs
#              and fresh_inputs (fill CPU, upload and wait per sample), samples and capped,
#              for it and for the runs of sealed, adversary, redteam12 and redteam16 in this
#              session (about 2 min; not in the default list)
#   gpubox     the slot hog's closure (docs/redteam13-cuda.md, "Closed since"):
#              tests/fixtures/specs/cuda-gpubox-probe.yaml plainly and with --gpus all
#              (each box's nodes, NVML's openable GPUs, CUDA's count; execve refused),
#              then cuda-redteam13-pool.yaml with --gpus all (its planners killed at their
#              plans); judge.sandbox's gpu_nodes, planner_end and worker_end of each
#              record (about 3 min on two GPUs; not in the default list)
#   faults     experiments/cuda-faults.yaml
#   iter1      experiments/iter1.yaml, twice (repeats 3 each: do the CIs cover each other?;
#              ITER1_RUNS=1: once)
#   events     experiments/iter1-events.yaml (the CUDA-event clock, against older records)
#   aa         experiments/aa.yaml (the same kernel as 8 variants: the A/A rate)
#   problems   the new problems on the GPU (experiments/*-cuda.yaml)
#   iter2      experiments/iter2.yaml (the fa_mma rung; ITER2_REPEATS, default 2)
#   wgcheck    builds kernels/attention/tools/fa_wgmma_check (its header's command) and
#              runs it: fa_wgmma's steps against an fp32 reference, event times
#              (WGCHECK: its arguments, default "4 5 n176"; all steps: WGCHECK=all; about
#              20 s of GPU a step and head dim; not in the default list; WGCHECK_BIN=FILE:
#              run FILE, built on the CPU host by the same command and carried with the
#              call, instead of building here: the build takes about 2 min of one CPU)
#   iter3      experiments/iter3.yaml (the Hopper rung, fa_wgmma; ITER3_REPEATS, default 3;
#              ITER3_FLAGS: more options, e.g. "--only wg5 --only cudnn_sdpa")
#   scaling    experiments/scaling-*.yaml (SCALING: the shapes, e.g. "d128-s4096 d64-s512";
#              default all ten; SCALING_REPEATS, default 3; SCALING_GPUS: --gpus, e.g. all;
#              SCALING_FLAGS: more options, e.g. "--only wg4 --only cudnn_sdpa")
#   profile    scripts/ncu-profile on the newest batch of each PROFILE experiment (default
#              scaling-d128-s4096; PROFILE_ONLY: variants, e.g. "wg4 cudnn_sdpa"): Nsight
#              Compute's sections for the objects the batch timed (run it after the step
#              that recorded the batch, in the same call: the build cache is this host's)
#   sweep      experiments/sweep.yaml
#   evo        experiments/evo.yaml: the seeds' sweep as a search (README "Searches"; 3
#              generations of 4 candidates and the best: 45 runs and up to 12 builds, not yet
#              timed; iter1 took about 7 s a run on the H100; not in the
#              default list)
#   pool       experiments/iter1.yaml with --gpus all (not in the default list)
#   gapprobe   tests/fixtures/specs/cuda-gap-probe.yaml, then scripts/gap-probe: is the
#              sample after a checked one slower (a gap that tells the worker
#              the draw)?  With OLD_E also the older runner, into ab-store (not
#              in the default list)
#   ab         OLD_E=path/to/an/older/evident: iter1 (--only iter1 --only wmma, one
#              repeat) with the older runner and this one, twice in turn, into a
#              scratch store ab-store (not packed): do the medians move with the
#              runner? (not in the default list)
#   reproduce  evident reproduce on the newest committed iter1 batch that names a commit
#   clock      experiments/clock.yaml, then scripts/clock-check on it (CUPTI and events vs
#              Nsight Compute, every iter1 kernel and reference), with ncu's cache
#              control all, then none
#   tests      the GPU CLI tests (tests/cli/t30*), t0051/t0052/t0172/t0174-t0178 and
#              cuda-build-time.yaml (the sandbox, the build's time refused, the
#              parent's host clock) on this host
#   specs      each spec of SPECS (space-separated paths), as the other steps run theirs
#              (a red team's new specs; not in the default list)
#   pack       new records into $OUT/artifacts.tgz
# Usage: OUT=/some/dir scripts/gpu-session.sh [STEP...]
set -u
OUT=${OUT:-/tmp/gpu-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
E=$PWD/dist/evident/bin/evident
steps=${*:-"state harness sealed adversary faults iter1 events aa problems iter2 reproduce clock tests pack"}
log() { printf '\n=== %s\n' "$*" | tee -a "$OUT/session.log"; }
has() { case " $steps " in *" $1 "*) return 0;; *) return 1;; esac; }
T0=$(date +%s)
"$E" --version >/dev/null 2>&1 || { echo "dist/evident/bin/evident does not run here: $("$E" --version 2>&1)"; exit 1; }

# The tree arrives with a .git that holds no objects, refs or index.  What
# `scripts/gpu-carry` made (carried in build/git-bundle/) brings the commit
# that was sent, leaving the working tree alone, so provenance names the
# commit and any difference is recorded as dirty with its patch:
#   head.pack + head.commit  the commit and its trees only (half a MB; the
#       whole history's bundle no longer fits the call's 64 MiB beside the
#       study's store): the blobs are the working tree's own files, hashed
#       in here by `git add -A`, and the pack holds the commit's version of
#       the files that differed when it was made (a dirty tree's patch);
#       the commit is marked shallow (its parents are not sent).
#   head.bundle  (`git bundle create build/git-bundle/head.bundle HEAD main`)
#       the whole history, where it fits (`evident reproduce` needs it).
log "git here"
if [ -f build/git-bundle/head.bundle ]; then
	# always the bundle's main: a skeleton may carry a stale HEAD from elsewhere
	git fetch -q --update-head-ok build/git-bundle/head.bundle "+refs/heads/main:refs/heads/main" 2>&1 | tee -a "$OUT/session.log"
	git symbolic-ref HEAD refs/heads/main
	git read-tree HEAD 2>&1 | tee -a "$OUT/session.log"
elif [ -f build/git-bundle/head.pack ] && [ -f build/git-bundle/head.commit ]; then
	c=$(cat build/git-bundle/head.commit)
	git unpack-objects -q < build/git-bundle/head.pack 2>&1 | tee -a "$OUT/session.log"
	echo "$c" > "$(git rev-parse --git-dir)/shallow"   # its parents are not here
	git update-ref refs/heads/main "$c"
	git symbolic-ref HEAD refs/heads/main
	git read-tree HEAD 2>&1 | tee -a "$OUT/session.log"
	git add -A 2>&1 | tee -a "$OUT/session.log"
	git read-tree HEAD 2>&1 | tee -a "$OUT/session.log"
	git diff --quiet HEAD 2>/dev/null || echo "note: the tree differs from $c: records will say dirty" | tee -a "$OUT/session.log"
fi
echo "HEAD: $(git rev-parse HEAD 2>&1 | head -1)" | tee -a "$OUT/session.log"
git status --short | head -5 | tee -a "$OUT/session.log"

if has state; then
	log "GPU state as found"
	nvidia-smi --query-gpu=index,name,uuid,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,power.limit,persistence_mode,compute_mode --format=csv 2>&1 | tee -a "$OUT/session.log"
	nvcc --version | tail -2 | tee -a "$OUT/session.log"
fi
# run_exp NAME SPEC [ARGS...]: one experiment into the study's store
# The batch a run_exp output names (its "batch ID, ..." line), or nothing.
batch_of() { sed -n 's/^batch \([^,]*\),.*/\1/p' "$OUT/$1.txt" | head -n 1; }
# skips NAME VARIANT: a red-team fixture that computes nothing on the
# samples it believes unchecked (its bookkeeping kernel alone, a few us):
# how many of VARIANT's timed samples in run_exp NAME's batch are under
# half the honest kernel's median
skips() {
	local b
	b=$(batch_of "$1")
	[ -n "$b" ] || return 0
	"$E" show --store artifacts --samples "$b" honest > "$OUT/$1-honest.samples" 2>&1
	"$E" show --store artifacts --samples "$b" "$2" > "$OUT/$1-$2.samples" 2>&1
	python3 - "$OUT/$1-honest.samples" "$OUT/$1-$2.samples" "$2" <<'PY' | tee -a "$OUT/session.log"
import statistics, sys
def us(path):
    return [float(l) for l in open(path) if l.strip() and not l.startswith("#")]
h, c = us(sys.argv[1]), us(sys.argv[2])
if h and c:
    half = statistics.median(h) / 2
    print(f"{sys.argv[2]}: honest median {2 * half:.2f} us; {sys.argv[3]} {len(c)} samples, "
          f"{sum(x < half for x in c)} under {half:.2f} us, min {min(c):.2f} us")
PY
}
run_exp() {
	local name=$1 spec=$2
	shift 2
	log "evident run $spec $*"
	"$E" run --store artifacts --no-progress --jobs 16 "$@" "$spec" > "$OUT/$name.txt" 2>&1
	echo "exit $?" >> "$OUT/$name.txt"
	grep -vE "machine was busy" "$OUT/$name.txt" | tail -n 45 >> "$OUT/session.log"
	pack
}
# pack: every record so far into $OUT/artifacts.tgz, after each step, so a
# call cut off by its time limit still brings back what finished
pack() {
	tar czf "$OUT/artifacts.tgz.new" artifacts/runs artifacts/objects 2>/dev/null && mv "$OUT/artifacts.tgz.new" "$OUT/artifacts.tgz"
}
if has harness; then
	log "harness_check"
	bash tests/gpu/harness_check.sh > "$OUT/harness.txt" 2>&1
	tail -n 25 "$OUT/harness.txt" >> "$OUT/session.log"
fi
if has adversary; then
	run_exp adversary tests/fixtures/specs/cuda-adversary.yaml
	run_exp adversary-graph tests/fixtures/specs/cuda-adversary-graph.yaml
fi
if has sealed; then
	run_exp sealed tests/fixtures/specs/cuda-sealed.yaml
	run_exp cdp tests/fixtures/specs/cuda-cdp.yaml
	run_exp adversary-host tests/fixtures/specs/cuda-adversary-host.yaml
	run_exp iter1-unsealed experiments/iter1-unsealed.yaml
fi
if has redteam3; then
	run_exp redteam3 tests/fixtures/specs/cuda-redteam3.yaml
	run_exp redteam3-cdp tests/fixtures/specs/cuda-redteam3-cdp.yaml
fi
if has redteam4; then
	run_exp redteam4 tests/fixtures/specs/cuda-redteam4.yaml
	run_exp redteam4-graph tests/fixtures/specs/cuda-redteam4-graph.yaml
	run_exp redteam4-checks tests/fixtures/specs/cuda-redteam4-checks.yaml
fi
if has redteam5; then
	run_exp redteam5 tests/fixtures/specs/cuda-redteam5.yaml
	run_exp redteam5-r3 tests/fixtures/specs/cuda-redteam5.yaml --repeats 3
	# rt5_check_count skips a sample only where it believes the sample's
	# class has had its checks: its timed samples far under the honest
	# kernel's (its bookkeeping kernel alone, a few us) are the skips
	log "rt5_check_count: timed samples under half the honest median"
	for f in redteam5 redteam5-r3; do skips "$f" check_count; done
fi
if has redteam6; then
	run_exp redteam6 tests/fixtures/specs/cuda-redteam6.yaml
	run_exp redteam6-gap tests/fixtures/specs/cuda-gap-probe.yaml
	# rt6_slot_count skips a sample only where it believes the sample's
	# class has had its checks: its timed samples far under honest's are
	# the skips (none where the parent's work before the 'g' is the same
	# whatever it drew)
	log "rt6_slot_count: timed samples under half the honest median"
	skips redteam6 slot_count
	log "gap-probe lags 1 and 2, this runner (cuda-redteam6: 2 MiB frames; cuda-gap-probe: 128 KiB, 50 checks)"
	for f in redteam6 redteam6-gap; do
		b=$(batch_of "$f")
		[ -n "$b" ] || continue
		for lag in 1 2; do scripts/gap-probe --lag $lag "$E" artifacts "$b" 2>&1 | tee -a "$OUT/session.log"; done
	done
	if [ -n "${OLD_E:-}" ]; then
		log "gap-probe lags 1 and 2, the older runner ($("$OLD_E" --version 2>&1 | head -n 1))"
		for spec in cuda-redteam6 cuda-gap-probe; do
			"$OLD_E" run --store ab-store --no-progress --jobs 16 "tests/fixtures/specs/$spec.yaml" \
				> "$OUT/$spec-old.txt" 2>&1
			sed -n '/^variant /,/^$/p' "$OUT/$spec-old.txt" | tee -a "$OUT/session.log"
			b=$(batch_of "$spec-old")
			[ -n "$b" ] && for lag in 1 2; do scripts/gap-probe --lag $lag "$OLD_E" ab-store "$b" 2>&1 | tee -a "$OUT/session.log"; done
		done
	fi
fi
if has redteam7; then
	run_exp redteam7 tests/fixtures/specs/cuda-redteam7.yaml
	# rt7_cap_truncate ends the run with one long sample after 10: the
	# record's timed samples, its checks and the capped flag say whether
	# the time cap cut the exact draw short
	log "rt7_cap_truncate: timed samples, checks, capped"
	sed -n '/^variant /,/^$/p' "$OUT/redteam7.txt" | tee -a "$OUT/session.log"
	b=$(sed -n 's/^batch \([^,]*\),.*/\1/p' "$OUT/redteam7.txt" | head -n 1)
	if [ -n "$b" ]; then
		for v in honest cap_truncate; do
			"$E" show --store artifacts --samples "$b" "$v" > "$OUT/redteam7-$v.samples" 2>&1
		done
		# the run itself: its checks by phase, the sampling (capped?)
		r=$("$E" ls --store artifacts --experiment cuda-redteam7 | awk '$3 == "cap_truncate" { id = $1 } END { print id }')
		if [ -n "$r" ]; then
			"$E" show --store artifacts "$r" > "$OUT/redteam7-cap_truncate.show" 2>&1
			"$E" show --store artifacts --json "$r" > "$OUT/redteam7-cap_truncate.json" 2>&1
			grep -i -E 'capped|timed|outcome|samples' "$OUT/redteam7-cap_truncate.show" | head -n 20 | tee -a "$OUT/session.log"
			grep -o -E '"(capped|samples_requested|warmup_samples|asked_timed|got_timed|n)": *[^,}]+' \
				"$OUT/redteam7-cap_truncate.json" | head -n 12 | tee -a "$OUT/session.log"
		fi
		python3 - "$OUT/redteam7-honest.samples" "$OUT/redteam7-cap_truncate.samples" <<'PY' | tee -a "$OUT/session.log"
import statistics, sys
def us(path):
    return [float(l) for l in open(path) if l.strip() and not l.startswith("#")]
h, c = us(sys.argv[1]), us(sys.argv[2])
if h and c:
    print(f"honest: {len(h)} samples, median {statistics.median(h):.2f} us; cap_truncate: {len(c)} "
          f"samples, median {statistics.median(c):.2f} us, max {max(c):.0f} us")
PY
	fi
fi
if has redteam8; then
	run_exp redteam8 tests/fixtures/specs/cuda-redteam8.yaml
	# rt8_mix_cancel: fp16 accumulation after the seeds; its timed checks
	# of `cancel` (mixes of two bases) against the `cancel` seed (as filled)
	log "rt8_mix_cancel: outcomes, medians, the cancel checks"
	sed -n '/^variant /,/^$/p' "$OUT/redteam8.txt" | tee -a "$OUT/session.log"
	for v in mix_cancel always_fp16 honest; do
		r=$("$E" ls --store artifacts --experiment cuda-redteam8 | awk -v v="$v" '$3 == v { id = $1 } END { print id }')
		[ -n "$r" ] || continue
		"$E" show --store artifacts "$r" > "$OUT/redteam8-$v.show" 2>&1
		log "$v: $(grep -m 1 '^outcome' "$OUT/redteam8-$v.show")"
		grep -E '^  (seed|timed) |cancel' "$OUT/redteam8-$v.show" | head -n 16 | tee -a "$OUT/session.log"
	done
	b=$(batch_of redteam8)
	if [ -n "$b" ]; then
		for v in honest mix_cancel; do
			"$E" show --store artifacts --samples "$b" "$v" > "$OUT/redteam8-$v.samples" 2>&1
		done
		python3 - "$OUT/redteam8-honest.samples" "$OUT/redteam8-mix_cancel.samples" <<'PY' | tee -a "$OUT/session.log"
import statistics, sys
def us(path):
    return [float(l) for l in open(path) if l.strip() and not l.startswith("#")]
h, c = us(sys.argv[1]), us(sys.argv[2])
if h and c:
    print(f"honest: {len(h)} samples, median {statistics.median(h):.2f} us; mix_cancel: {len(c)} "
          f"samples, median {statistics.median(c):.2f} us ({statistics.median(h) / statistics.median(c):.2f}x)")
PY
	fi
fi
if has redteam12; then
	# cancel_half: half the work on `cancel`; expected ok, not faster, `cancel`
	# about 0.5x in timing.by_dist and named in the notes (the specs' headers)
	for x in cuda-redteam12 cuda-redteam12-sealed; do
		run_exp "$x" "tests/fixtures/specs/$x.yaml"
		log "$x: table, timed on, notes, by_dist"
		grep -E "^(honest|cancel_half) |timed on|: cancel [0-9.]+x" "$OUT/$x.txt" | tee -a "$OUT/session.log"
		for r in $("$E" ls --store artifacts --experiment "$x" | awk '$3 == "cancel_half" || $3 == "honest" { print $1 }' | tail -n 6); do
			"$E" show --store artifacts "$r" | grep -E "^(variant|outcome)|by dist" | tee -a "$OUT/session.log"
		done
	done
fi
if has redteam13; then
	for x in cuda-redteam13 cuda-redteam13-softmax cuda-redteam13-layernorm; do
		run_exp "$x" "tests/fixtures/specs/$x.yaml"
		grep -E "^[a-z_0-9]+ +[a-z_]+ |timed on|UNEXPECTED" "$OUT/$x.txt" | tee -a "$OUT/session.log"
	done
	if [ "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')" -ge 2 ]; then
		run_exp cuda-redteam13-pool tests/fixtures/specs/cuda-redteam13-pool.yaml --gpus all
		for r in $("$E" ls --store artifacts --experiment cuda-redteam13-pool | awk '{ print $1 }' | tail -n 8); do
			"$E" show --store artifacts --log "$r" 2>/dev/null | grep "rt13_slot_hog" | head -n 5 | tee -a "$OUT/session.log"
		done
	else
		log "redteam13: one GPU here, the cross-slot hog (cuda-redteam13-pool.yaml) needs two: not run"
	fi
fi
if has redteam16; then
	# dict and rowsniff ok (and faster) is the hole shown; always and
	# inverse wrong_output (the control, and the dictionary finding the
	# stress samples); the spec's header says what each outcome means
	run_exp cuda-redteam16 tests/fixtures/specs/cuda-redteam16.yaml
	log "cuda-redteam16: table, notes, each run's checks and by_dist"
	grep -E "^[a-z_0-9]+ +[a-z_]+ |timed on|UNEXPECTED|precision|x of " "$OUT/cuda-redteam16.txt" | tee -a "$OUT/session.log"
	for r in $("$E" ls --store artifacts --experiment cuda-redteam16 | awk '{ print $1 }' | grep -v batch | tail -n 10); do
		log "cuda-redteam16 $r"
		"$E" show --store artifacts "$r" 2>&1 | grep -iE "^(variant|outcome)|by dist|timed check|check|median|note" | head -n 20 | tee -a "$OUT/session.log"
	done
fi
if has redteam17; then
	# after and learn ok (every check passing, a share of fast samples near
	# 1/2 and 1/3) is the hole shown; always and window wrong_output (the
	# control, and a kernel blind to the block phase); hmm ok unless device
	# code can read pageable host memory; the spec's header says more
	run_exp cuda-redteam17 tests/fixtures/specs/cuda-redteam17.yaml
	log "cuda-redteam17: table, notes, each run's checks, median and fast share"
	grep -E "^[a-z_0-9]+ +[a-z_]+ |timed on|UNEXPECTED|precision|x of " "$OUT/cuda-redteam17.txt" | tee -a "$OUT/session.log"
	rt17=$("$E" ls --store artifacts --experiment cuda-redteam17 | awk '{ print $1 }' | grep -E "^[0-9]{8}T" | grep -v batch | tail -n 6)
	for r in $rt17; do
		log "cuda-redteam17 $r"
		"$E" show --store artifacts "$r" 2>&1 | grep -iE "^(variant|outcome)|by dist|timed check|check|median|note" | head -n 20 | tee -a "$OUT/session.log"
	done
	# the share of each run's timing samples (in the order taken) under
	# 0.95x the honest run's median: the fp16 path's samples
	python3 - artifacts $rt17 <<'PY' 2>&1 | tee -a "$OUT/session.log"
import json, statistics, sys
store, runs = sys.argv[1], sys.argv[2:]
rec = {}
for r in runs:
    d = json.load(open(f"{store}/runs/{r}.json"))
    t = d.get("timing") or {}
    h = t.get("samples_object")
    xs = []
    if h:
        for line in open(f"{store}/objects/{h[:2]}/{h[2:]}"):
            if line.strip() and not line.startswith("#"):
                xs.append(float(line))
    rec[r] = (d.get("variant"), d.get("outcome"), xs, t.get("by_dist"))
hon = [x for v, o, x, b in rec.values() if v == "honest"]
ref = statistics.median(hon[0]) if hon and hon[0] else None
print("honest median", ref)
for r, (v, o, xs, bd) in rec.items():
    if not xs:
        print(v, o, "no samples"); continue
    med = statistics.median(xs)
    fast = sum(x < 0.95 * ref for x in xs) / len(xs) if ref else float("nan")
    print(f"{v:8s} {o:14s} n {len(xs):4d} median {med:9.2f} us  honest/median {ref / med if ref else float('nan'):.3f}  fast share {fast:.2f}  by_dist {json.dumps(bd)}")
PY
fi
if has redteam18; then
	# chunk8 and chunk16 ok (every check passing, no precision note, a
	# median below honest's) is the hole shown; blind16 wrong_output (the
	# control: chunked fp16 on `cancel`); the spec's header says more.
	# Since red team 19 (`cancel` filled as `uniform`, ~1024 entries judged
	# each against its terms): all three wrong_output, failing on `cancel`
	# checks only (mismatches: entries out of their bounds), honest ok
	run_exp cuda-redteam18 tests/fixtures/specs/cuda-redteam18.yaml
	log "cuda-redteam18: table, notes (precision), each run's checks by distribution and median"
	grep -E "^[a-z_0-9]+ +[a-z_]+ |timed on|UNEXPECTED|precision|error|x of " "$OUT/cuda-redteam18.txt" | tee -a "$OUT/session.log"
	for r in $("$E" ls --store artifacts --experiment cuda-redteam18 | awk '{ print $1 }' | grep -E "^[0-9]{8}T" | grep -v batch | tail -n 12); do
		log "cuda-redteam18 $r"
		"$E" show --store artifacts "$r" 2>&1 | grep -iE "^(variant|outcome)|by dist|timed check|check|median|note" | head -n 20 | tee -a "$OUT/session.log"
		# each distribution's median rel L2 of its passing checks (what the precision notes compare)
		python3 -c "import json,sys,statistics as S; d=json.load(open(sys.argv[1])); c=d.get('correctness') or {}; ch=c.get('checks') or d.get('checks') or []; by={}
for x in ch:
    if isinstance(x, dict) and x.get('pass') and x.get('rel_l2') is not None and x.get('phase') != 'shape': by.setdefault(x.get('dist'), []).append(x['rel_l2'])
print(d.get('variant'), d.get('outcome'), {k: '%.3g (%d)' % (S.median(v), len(v)) for k, v in by.items()})" "artifacts/runs/$r.json" 2>&1 | tee -a "$OUT/session.log"
	done
fi
if has redteam19; then
	# fp16: pv16 ok (every check passing, no precision note, a median below
	# chunk32's) is the hole shown; whole16 wrong_output (the control: one
	# fp16 sum over all of S).  bf16: pv16 and whole16 ok is the hole shown.
	# The specs' headers say more.
	for x in cuda-redteam19 cuda-redteam19-bf16; do
	run_exp $x tests/fixtures/specs/$x.yaml
	log "$x: table, notes (precision), each run's checks by distribution and median"
	grep -E "^[a-z_0-9]+ +[a-z_]+ |timed on|UNEXPECTED|precision|error|x of " "$OUT/$x.txt" | tee -a "$OUT/session.log"
	rt19=$("$E" ls --store artifacts --experiment $x | awk '{ print $1 }' | grep -E "^[0-9]{8}T" | grep -v batch | tail -n 6)
	for r in $rt19; do
		log "$x $r"
		"$E" show --store artifacts "$r" 2>&1 | grep -iE "^(variant|outcome)|by dist|timed check|check|median|note" | head -n 20 | tee -a "$OUT/session.log"
	done
	# each run's median rel L2 of its passing checks by distribution (what
	# the precision notes compare), its timing median and that against
	# chunk32's (the median of chunk32's runs' medians)
	python3 scripts/redteam-runs.py artifacts chunk32 $rt19 2>&1 | tee -a "$OUT/session.log"
	done
fi
if has redteam20; then
	# dodge8 and dodge16 ok (every check passing, each `cancel` check's
	# focus 0 out, no precision note) is the hole shown, and a median below
	# honest's is what it buys; blind16 wrong_output on `cancel` checks
	# alone (the control: the focus reaches the kernel).  The spec's header
	# says more
	for x in cuda-redteam20 cuda-redteam20-fp16; do
	run_exp $x tests/fixtures/specs/$x.yaml
	log "$x: table, notes (precision), each run's checks, cancel focus and median"
	grep -E "^[a-z_0-9]+ +[a-z_]+ |timed on|UNEXPECTED|precision|error|x of " "$OUT/$x.txt" | tee -a "$OUT/session.log"
	rt20=$("$E" ls --store artifacts --experiment $x | awk '{ print $1 }' | grep -E "^[0-9]{8}T" | grep -v batch | tail -n 8)
	for r in $rt20; do
		log "$x $r"
		"$E" show --store artifacts "$r" 2>&1 | grep -iE "^(variant|outcome)|by dist|timed check|check|median|note" | head -n 20 | tee -a "$OUT/session.log"
	done
	# each run: outcome, timing median and honest's over it, the median rel
	# L2 of its passing checks by distribution (what the precision notes
	# compare), and every check's focus (phase:out/entries, worst error/bound)
	python3 scripts/redteam-runs.py artifacts honest $rt20 2>&1 | tee -a "$OUT/session.log"
	done
fi
if has redteam21; then
	# the spec headers say what each outcome means; keep ok and faster than
	# honest is the flush defeated, honest below_floor (hot) and s32/s128
	# clock_disagree are honest kernels misjudged
	for x in cuda-redteam21 cuda-redteam21-hot24 cuda-redteam21-hot8 cuda-redteam21-steps; do
	run_exp $x tests/fixtures/specs/$x.yaml
	log "$x: table"
	grep -E "^[a-z_0-9]+ +[a-z_]+ |UNEXPECTED|error|floor|clock" "$OUT/$x.txt" | head -n 30 | tee -a "$OUT/session.log"
	rt21=$("$E" ls --store artifacts --experiment $x | awk '{ print $1 }' | grep -E "^[0-9]{8}T" | grep -v batch | tail -n 6)
	python3 scripts/clock-runs.py artifacts $rt21 2>&1 | tee -a "$OUT/session.log"
	done
fi
if has redteam22; then
	# the spec headers say what each outcome means: every variant is honest
	# in stream mode (ok; split_pdl near honest, split_serial slower); in the
	# graph batch, overlap ok and several times "faster" than honest is the
	# window / batch counting 8 concurrent launches as one launch's time
	for x in cuda-redteam22 cuda-redteam22-graph; do
	run_exp $x tests/fixtures/specs/$x.yaml
	log "$x: table"
	grep -E "^[a-z_0-9]+ +[a-z_]+ |UNEXPECTED|error|floor|clock" "$OUT/$x.txt" | head -n 30 | tee -a "$OUT/session.log"
	rt22=$("$E" ls --store artifacts --experiment $x | awk '{ print $1 }' | grep -E "^[0-9]{8}T" | grep -v batch | tail -n 5)
	python3 scripts/clock-runs.py artifacts $rt22 2>&1 | tee -a "$OUT/session.log"
	done
fi
if has redteam23; then
	# the spec header says what each outcome means: every variant is honest
	# (ok, the memset/copy variants slower by their bytes, the events minus
	# the kernel clock about honest's); clock_disagree on memset64/copy32, or
	# memset16/copy8 ok at honest's time with a gap grown by their bytes, is
	# a memset or copy whose device time the window does not hold
	# (-cap: trust: host; side/half/hide75 ok or below_floor, timed on
	# cuda_events, is work on a stream of its own that the overflowed
	# table of API ids hid from other_stream and late)
	for x in cuda-redteam23 cuda-redteam23-cap; do
	n=7; [ $x = cuda-redteam23-cap ] && n=5
	run_exp $x tests/fixtures/specs/$x.yaml
	log "$x: table"
	grep -E "^[a-z_0-9]+ +[a-z_]+ |UNEXPECTED|error|clock" "$OUT/$x.txt" | head -n 30 | tee -a "$OUT/session.log"
	rt23=$("$E" ls --store artifacts --experiment $x | awk '{ print $1 }' | grep -E "^[0-9]{8}T" | grep -v batch | tail -n $n)
	python3 scripts/clock-runs.py artifacts $rt23 2>&1 | tee -a "$OUT/session.log"
	done
fi
if has redteam24; then
	# evict ok and faster than honest is the stray ids' hole; aside_st or
	# aside_pf faster than plain / noaside_pf is L2 kept through the flush
	run_exp cuda-redteam24 tests/fixtures/specs/cuda-redteam24.yaml
	log "cuda-redteam24: table"
	grep -E "^[a-z_0-9]+ +[a-z_]+ |UNEXPECTED|error|clock" "$OUT/cuda-redteam24.txt" | head -n 30 | tee -a "$OUT/session.log"
	rt24=$("$E" ls --store artifacts --experiment cuda-redteam24 | awk '{ print $1 }' | grep -E "^[0-9]{8}T" | grep -v batch | tail -n 7)
	python3 scripts/clock-runs.py artifacts $rt24 2>&1 | tee -a "$OUT/session.log"
fi
if has redteam25; then
	# post/pre ok and faster than honest is the harness thread's unfiled
	# calls (a signal handler's grid); tma not ok is the seal's relocation
	run_exp cuda-redteam25 tests/fixtures/specs/cuda-redteam25.yaml
	log "cuda-redteam25: table"
	grep -E "^[a-z_0-9]+ +[a-z_]+ |UNEXPECTED|error|clock" "$OUT/cuda-redteam25.txt" | head -n 30 | tee -a "$OUT/session.log"
	rt25=$("$E" ls --store artifacts --experiment cuda-redteam25 | awk '{ print $1 }' | grep -E "^[0-9]{8}T" | grep -v batch | tail -n 7)
	python3 scripts/clock-runs.py artifacts $rt25 2>&1 | tee -a "$OUT/session.log"
	# each sig variant's own count (printed at fini): sleepers armed, given up
	grep -rh "rt25_sig_sleeper MODE" artifacts/objects 2>/dev/null | sort | uniq -c | tee -a "$OUT/session.log"
	# the follow-up: CUPTI's subscription taken by the kernel's constructor
	run_exp cuda-redteam25-steal tests/fixtures/specs/cuda-redteam25-steal.yaml
	grep -E "^[a-z_0-9]+ +[a-z_]+ |UNEXPECTED|not compared" "$OUT/cuda-redteam25-steal.txt" | head -n 12 | tee -a "$OUT/session.log"
	steal=$("$E" ls --store artifacts --experiment cuda-redteam25-steal | awk '{ print $1 }' | grep -E "^[0-9]{8}T" | grep -v batch | tail -n 4)
	python3 scripts/clock-runs.py artifacts $steal 2>&1 | tee -a "$OUT/session.log"
	grep -rh "rt25_cupti_steal:" artifacts/objects 2>/dev/null | sort | uniq -c | tee -a "$OUT/session.log"
fi
if has redteam26; then
	# hide/toggle ok and faster than honest, or shrink ok well under
	# honest's kernel clock, is trust: host code editing or silencing
	# CUPTI's records (docs/redteam26-cuda.md)
	run_exp cuda-redteam26 tests/fixtures/specs/cuda-redteam26.yaml
	log "cuda-redteam26: table"
	grep -E "^[a-z_0-9]+ +[a-z_]+ |UNEXPECTED|error|clock" "$OUT/cuda-redteam26.txt" | head -n 30 | tee -a "$OUT/session.log"
	rt26=$("$E" ls --store artifacts --experiment cuda-redteam26 | awk '{ print $1 }' | grep -E "^[0-9]{8}T" | grep -v batch | tail -n 6)
	python3 scripts/clock-runs.py artifacts $rt26 2>&1 | tee -a "$OUT/session.log"
	for r in $rt26; do
		echo "$r: $("$E" show --store artifacts --log "$r" 2>&1 | grep -m1 'rt26_cupti_rebind')" | tee -a "$OUT/session.log"
	done
fi
if has fresh16; then
	# the fill's cost at the scaling shape: is timing.samples (100) reached
	# within max_seconds, or capped?
	run_exp fresh16-scaling experiments/scaling-d64-s512.yaml --only mma --repeats 1
	log "fresh16: each run's timed inputs (timing.method.inputs, fresh_inputs), samples, capped"
	for x in scaling-d64-s512 cuda-sealed cuda-adversary cuda-redteam12 cuda-redteam12-sealed cuda-redteam16; do
		for r in $("$E" ls --store artifacts --experiment "$x" | awk '{ print $1 }' | grep -v batch | tail -n 12); do
			python3 -c "import json,sys; d=json.load(open(sys.argv[1])); t=d.get('timing') or {}; m=t.get('method') or {}; print(sys.argv[2], d.get('variant'), d.get('outcome'), m.get('inputs'), json.dumps(m.get('fresh_inputs')), 'n', t.get('n'), 'capped', m.get('capped'))" \
				"artifacts/runs/$r.json" "$x" 2>&1 | tee -a "$OUT/session.log"
		done
	done
fi
if has gpubox; then
	run_exp gpubox-probe tests/fixtures/specs/cuda-gpubox-probe.yaml
	run_exp gpubox-probe-pool tests/fixtures/specs/cuda-gpubox-probe.yaml --gpus all
	run_exp gpubox-hog tests/fixtures/specs/cuda-redteam13-pool.yaml --gpus all
	for x in cuda-gpubox-probe cuda-redteam13-pool; do
		for r in $("$E" ls --store artifacts --experiment "$x" | awk '{ print $1 }' | grep -v batch | tail -n 12); do
			log "$x $r"
			"$E" show --store artifacts --log "$r" 2>&1 | grep -E "rt13_|planner \\(" | tee -a "$OUT/session.log"
			python3 -c "import json,sys; d=json.load(open(sys.argv[1])); s=d.get('judge',{}).get('sandbox',{}); print(d.get('variant'), d.get('outcome'), (d.get('executor') or {}).get('pinned'), '|', s.get('gpu_nodes'), '|', s.get('planner_end'), '|', s.get('worker_end'))" \
				"artifacts/runs/$r.json" 2>&1 | tee -a "$OUT/session.log"
		done
	done
fi
has faults && run_exp faults experiments/cuda-faults.yaml
if has iter1; then
	run_exp iter1-a experiments/iter1.yaml
	[ "${ITER1_RUNS:-2}" -gt 1 ] && run_exp iter1-b experiments/iter1.yaml
fi
has events && run_exp iter1-events experiments/iter1-events.yaml
has aa && run_exp aa experiments/aa.yaml
if has problems; then
	for s in experiments/*-cuda.yaml; do run_exp "$(basename "$s" .yaml)" "$s"; done
fi
has iter2 && run_exp iter2 experiments/iter2.yaml --repeats "${ITER2_REPEATS:-2}"
if has wgcheck; then
	wa=${WGCHECK:-4 5 n176}
	[ "$wa" = all ] && wa=
	log "fa_wgmma_check $wa"
	mkdir -p build
	wb=build/fa_wgmma_check
	if [ -n "${WGCHECK_BIN:-}" ]; then
		wb=$WGCHECK_BIN
		echo "fa_wgmma_check: the carried $wb (sha256 $(sha256sum < "$wb" | cut -c1-16)), not built here" > "$OUT/fa_wgmma_check.txt"
	elif ! nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Ikernels -o "$wb" \
		kernels/attention/tools/fa_wgmma_check.cu > "$OUT/fa_wgmma_check.txt" 2>&1; then
		wb=
	fi
	# shellcheck disable=SC2086  # WGCHECK is a list of arguments
	[ -n "$wb" ] && "$wb" $wa >> "$OUT/fa_wgmma_check.txt" 2>&1
	echo "exit $?" >> "$OUT/fa_wgmma_check.txt"
	cat "$OUT/fa_wgmma_check.txt" >> "$OUT/session.log"
fi
# shellcheck disable=SC2086  # ITER3_FLAGS is a list of options
has iter3 && run_exp iter3 experiments/iter3.yaml --repeats "${ITER3_REPEATS:-3}" ${ITER3_FLAGS:-}
if has scaling; then
	for sh in ${SCALING:-d64-s512 d64-s1024 d64-s2048 d64-s4096 d64-s8192 d128-s512 d128-s1024 d128-s2048 d128-s4096 d128-s8192}; do
		# shellcheck disable=SC2086  # SCALING_FLAGS is a list of options
		run_exp "scaling-$sh" "experiments/scaling-$sh.yaml" --repeats "${SCALING_REPEATS:-3}" ${SCALING_GPUS:+--gpus "$SCALING_GPUS"} ${SCALING_FLAGS:-}
	done
fi
if has profile; then
	for ex in ${PROFILE:-scaling-d128-s4096}; do
		log "ncu-profile $ex ${PROFILE_ONLY:-}"
		only=()
		for v in ${PROFILE_ONLY:-}; do only+=(--only "$v"); done
		python3 scripts/ncu-profile --store artifacts --experiment "$ex" "${only[@]}" "$OUT/profile-$ex" \
			> "$OUT/profile-$ex.txt" 2>&1
		echo "exit $?" >> "$OUT/profile-$ex.txt"
		tail -n 40 "$OUT/profile-$ex.txt" >> "$OUT/session.log"
	done
fi
has sweep && run_exp sweep experiments/sweep.yaml
has evo && run_exp evo experiments/evo.yaml
has pool && run_exp pool experiments/iter1.yaml --gpus all
if has gapprobe; then
	run_exp gapprobe tests/fixtures/specs/cuda-gap-probe.yaml
	b=$(batch_of "gapprobe")
	log "gap-probe, this runner"
	[ -n "$b" ] && scripts/gap-probe "$E" artifacts "$b" 2>&1 | tee -a "$OUT/session.log"
	if [ -n "${OLD_E:-}" ]; then
		log "gap-probe, the older runner ($("$OLD_E" --version 2>&1 | head -n 1))"
		"$OLD_E" run --store ab-store --no-progress --jobs 16 tests/fixtures/specs/cuda-gap-probe.yaml \
			> "$OUT/gapprobe-old.txt" 2>&1
		b=$(batch_of "gapprobe-old")
		[ -n "$b" ] && scripts/gap-probe "$OLD_E" ab-store "$b" 2>&1 | tee -a "$OUT/session.log"
	fi
fi
if has ab && [ -n "${OLD_E:-}" ]; then
	for r in 1 2; do
		for who in old new; do
			x=$E
			[ "$who" = old ] && x=$OLD_E
			log "A/B $who $r: $("$x" --version 2>&1 | head -n 1)"
			"$x" run --store ab-store --no-progress --jobs 16 --repeats 1 --only iter1 --only wmma \
				experiments/iter1.yaml > "$OUT/ab-$who-$r.txt" 2>&1
			echo "exit $?" >> "$OUT/ab-$who-$r.txt"
			sed -n '/^variant /,/^$/p' "$OUT/ab-$who-$r.txt" | tee -a "$OUT/session.log"
		done
	done
fi
if has reproduce; then
	log "evident reproduce (the committed iter1 batch)"
	b=$("$E" ls --store artifacts --batches --json 2>/dev/null | python3 -c "
import json,sys
rows=[r for r in json.load(sys.stdin) if r.get('experiment')=='iter1' and r.get('commit')]
print(rows[-1]['run_id'] if rows else '')" 2>/dev/null)
	"$E" reproduce --store artifacts --no-progress "${REPRODUCE_BATCH:-$b}" > "$OUT/reproduce.txt" 2>&1
	echo "exit $?" >> "$OUT/reproduce.txt"
	tail -n 30 "$OUT/reproduce.txt" >> "$OUT/session.log"
fi
if has clock; then
	log "clock-check: CUPTI and events vs Nsight Compute"
	run_exp clock experiments/clock.yaml
	python3 scripts/clock-check --store artifacts --experiment clock "$OUT/clock" > "$OUT/clock-check.txt" 2>&1
	echo "exit $?" >> "$OUT/clock-check.txt"
	tail -n 20 "$OUT/clock-check.txt" >> "$OUT/session.log"
	# the same objects with ncu's own flush off (kcheck --cold still flushes L2)
	python3 scripts/clock-check --store artifacts --experiment clock --cache-control none "$OUT/clock-none" \
		> "$OUT/clock-check-none.txt" 2>&1
	echo "exit $?" >> "$OUT/clock-check-none.txt"
	tail -n 20 "$OUT/clock-check-none.txt" >> "$OUT/session.log"
fi
if has redteam84; then
	run_exp redteam84 tests/fixtures/specs/cuda-redteam84-cachedir.yaml
	log "redteam84: what each copy read of its cache directory (1 found, -1 unreadable)"
	for r in $("$E" ls --store artifacts --experiment cuda-redteam84-cachedir | awk '{ print $1 }' | grep -E "^[0-9]{8}T" | grep -v batch | tail -n 8); do
		echo "$r: $("$E" show --store artifacts --log "$r" 2>&1 | grep -m2 'cachedir:' | tr '\n' ' ')" | tee -a "$OUT/session.log"
	done
fi
if has specs; then
	# SPECS="a.yaml b.yaml": any specs (a red team's), each as run_exp does
	for spec in ${SPECS:-}; do
		run_exp "spec-$(basename "$spec" .yaml)" "$spec"
	done
fi
if has tests; then
	log "GPU CLI tests"
	# t0051/t0052: the sandbox and the parent's host clock on this host too;
	# t0172/t0174: a host box shows copies only (as root here)
	EVIDENT=$E tests/cli/run.sh t30 t0051 t0052 t0172 t0174 t0175 t0176 t0177 t0178 > "$OUT/gpu-tests.txt" 2>&1
	echo "exit $?" >> "$OUT/gpu-tests.txt"
	tail -n 12 "$OUT/gpu-tests.txt" >> "$OUT/session.log"
	# nvcc refuses __DATE__/__TIME__ (-Xcompiler -Werror=date-time)
	run_exp build-time tests/fixtures/specs/cuda-build-time.yaml
fi
if has pack; then
	log "pack"
	pack
	ls -la "$OUT" >> "$OUT/session.log"
fi
log "session took $(( $(date +%s) - T0 )) s"
grep -E "^(=== |experiment |[a-zA-Z0-9_.-]+ +(ok|crashed|timeout|nan|unwritten_output|wrong_output|flaky|build_failed|launch_failed|init_failed|escaped_work|protocol_violation|tampered|below_floor|reference_failed) |cli: |exit |clock|  - .*UNEXPECTED)" "$OUT/session.log" | tail -n 120
