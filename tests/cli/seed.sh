#!/usr/bin/env bash
# seed.sh - builds the seed build cache that tests/cli/run.sh gives every
# test's scratch repository (lib.sh's mkrepo copies it into build/cache,
# but for a test that calls builds_from_nothing), and prints its path.
#
#   EVIDENT=BIN REPO=ROOT tests/cli/seed.sh DIR
#
# The seed holds what most tests would otherwise compile each: every
# problem plug-in (`evident help problems` loads, so builds, each), the
# host kernels of tests/fixtures/specs/tiny.yaml (with its parameters) and
# tests/fixtures/host/correct.c, and kernels/rowsum/naive.c and
# kernels/softmax/naive.c without parameters (the baselines of about 70
# specs and tests; a kernel's build key holds its source bytes, flags and
# parameters, not the shape).  One build costs 0.3 to 0.5 s of CPU on the
# project's VM (the compiler, its dependency pass, their two boxes), more
# from the sanitized runner.  The cache is content-addressed and a hit
# re-hashes the object and its sources, so a kernel a test changes, or
# builds with other flags, misses and is built as before.  Built by the
# pass's own EVIDENT: the sanitized pass's seed runs the build's miss path
# (the compiler, the boxes, the entry's rename) under ASan+UBSan once a
# run.  scripts/cli-coverage.sh measures each test's lines with a seed
# built the same way, so tests/cli/san-skip.txt's claim is about the
# tests as the sanitized pass runs them.
# Exit 0 with the cache's path on stdout, else 1 with the reason on stderr
# (DIR/log has the runs' output; a run may exit 1, for a variant slowed
# by the load: what it built is built).
set -u
dir=${1:?usage: seed.sh DIR}
: "${EVIDENT:?seed.sh: EVIDENT is not set}" "${REPO:?seed.sh: REPO is not set}"
mkdir -p "$dir/repo/tests/fixtures/host" "$dir/repo/data" &&
	cp -r "$REPO/kernels" "$REPO/problems" "$dir/repo/" &&
	cp "$REPO/tests/fixtures/host/"*.[ch] "$dir/repo/tests/fixtures/host/" &&
	cp "$REPO/data/gpu-prices.yaml" "$dir/repo/data/" || { echo "seed.sh: cannot make '$dir/repo'" >&2; exit 1; }
cat >"$dir/repo/seed.yaml" <<-'EOF' || exit 1
	# tests/cli/seed.sh: the kernels of tests/fixtures/specs/tiny.yaml, with the same parameters, and correct.c
	name: seed
	problem: attention_fwd
	backend: host
	shape: {B: 1, H: 2, S: 32, D: 16}
	baseline: naive
	variants:
	  naive:   {kernel: kernels/host/attn_naive.c}
	  blocked: {kernel: kernels/host/attn_blocked.c, BLOCK_M: 8, BLOCK_N: 16}
	  correct: {kernel: tests/fixtures/host/correct.c}
	correctness: {seeds: 1}
	timing: {warmup_ms: 1, samples: 5, cache: hot}
	limits: {timeout_s: 20}
	repeats: 1
EOF
for p in rowsum softmax; do
	cat >"$dir/repo/seed-$p.yaml" <<-EOF || exit 1
		# tests/cli/seed.sh: kernels/$p/naive.c, the baseline most specs name
		name: seed-$p
		problem: $p
		backend: host
		shape: {R: 4, C: 64}
		baseline: naive
		variants:
		  naive: {kernel: kernels/$p/naive.c}
		correctness: {seeds: 1}
		timing: {warmup_ms: 0, samples: 3, cache: hot}
		limits: {timeout_s: 20}
		repeats: 1
	EOF
done
if (cd "$dir/repo" && export EVIDENT_STORE=$dir/store && "$EVIDENT" help problems &&
	for s in seed.yaml seed-rowsum.yaml seed-softmax.yaml; do
		"$EVIDENT" run --no-progress "$s"
		[ $? -le 1 ] || exit 1
	done) >"$dir/log" 2>&1 && [ -d "$dir/repo/build/cache" ]; then
	echo "$dir/repo/build/cache"
else
	echo "seed.sh: no seed build cache: $(tail -1 "$dir/log" 2>/dev/null)" >&2
	exit 1
fi
