# paper-lib.sh - helpers for the t60xx paper/audit/export tests: a tiny
# repository in $TEST_TMP (kernel ABI header, the fixture kernel, the
# fixture specs) and a quick run of the fixture experiment into ./store.
setup_tiny_repo() {
	mkdir -p kernels
	cp "$REPO/kernels/evident_kernel.h" kernels/
	cp -r "$REPO/problems" .
	cp "$REPO/tests/fixtures/paper/kernels/tiny_attn.c" kernels/
	cp "$REPO/tests/fixtures/paper/"tiny*.yaml .
	export EVIDENT_STORE="$TEST_TMP/store"
	seed_cache
}
# run_tiny SPEC: record one batch; fails the test if evident run could not record it
# (the test's first batch only: when tiny/base, honest, did not end ok, the
# batch runs once more in a fresh store, as t0147 does: make test's alone
# tests run two at a time on 2 CPUs, and one of base's three processes was
# escaped_work for 9 samples computing after its done line at a load
# spike, which contradicted t6012's value claims; a real regression fails
# both tries)
run_tiny() {
	local try first=1
	ls "$EVIDENT_STORE"/runs/*-batch.json >/dev/null 2>&1 && first=0
	for try in 1 2; do
		"$EVIDENT" run "$1" >"$TEST_TMP/run.out" 2>&1
		local rc=$?
		[ $rc -le 1 ] || { cat "$TEST_TMP/run.out"; fail "'evident run $1' exited $rc"; }
		[ $first = 1 ] && [ $try = 1 ] && ! grep -Eq '^base( \(baseline\))? +ok ' "$TEST_TMP/run.out" || break
		echo "run_tiny: base did not end ok in the first try; once more in a fresh store" >&2
		rm -rf "$EVIDENT_STORE"
	done
}
# tiny_n: the pooled count of timing samples of tiny/base in the newest
# batch that ran it (what a claim "stat=n" reads): each timed sample's
# distribution is drawn on its own (a timing one with chance 3/4), so
# 3 repeats of 20 samples make about 45, not exactly
tiny_n() {
	python3 - "$EVIDENT_STORE" <<'PY'
import glob, json, sys
runs = [json.load(open(f)) for f in glob.glob(sys.argv[1] + "/runs/*.json") if not f.endswith("-batch.json")]
base = [r for r in runs if r.get("variant") == "base"]
last = max(r["batch_id"] for r in base)
print(sum(r["timing"]["n"] for r in base if r["batch_id"] == last and r.get("outcome") == "ok"))
PY
}
# tiny_fix_n FILE N: a fixture's written count of tiny/base's timing
# samples (45, and what a claim says of it) made N, the recorded one
tiny_fix_n() {
	sed -i -e "s/stat=n value=45 /stat=n value=$2 /g" -e "s/\b45 timing samples/$2 timing samples/g" \
		-e "s/on 45 samples/on $2 samples/g" -e "s/\b45 samples per/$2 samples per/g" "$1"
}
