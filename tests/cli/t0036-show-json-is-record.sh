# show --json prints the record byte for byte; show prints a run and a batch readably; ids by prefix or hash part; no such run exits 7, an ambiguous one 2
. "$REPO/tests/cli/lib.sh"
mkrepo git specs/tiny.yaml # of tests/fixtures only what it reads (lib.sh mkrepo)
"$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml >/dev/null 2>&1 || fail "run"
f=$(grep -l '"variant": "naive"' artifacts/runs/*.json | grep -v -- -batch | head -1); id=$(basename "$f" .json)
expect_exit 0 "$EVIDENT" show --json "$id"
cmp "$TEST_TMP/out" "$f" || fail "show --json differs from the manifest"
expect_exit 0 "$EVIDENT" show "${id%???}"
expect_contains "$TEST_TMP/out" "commit $(git rev-parse HEAD) on"
expect_contains "$TEST_TMP/out" "correctness pass"
expect_contains "$TEST_TMP/out" "source   kernels/host/attn_naive.c"
expect_exit 0 "$EVIDENT" show --samples "$id"
# the samples of the time: uniform's, three of the 10 timed in four (7 or 8, by the phase)
nt=$(jget "$f" "d['timing']['n']")
expect_eq "$(jget "$f" "sum(x['n'] for x in d['timing']['by_dist'].values())")" 10 "timed samples"
[ "$(grep -vc '^#' "$TEST_TMP/out")" = "$nt" ] || fail "expected $nt samples"
# a v2 run reads as one repeat of its batch, with its checks by phase and its clock
expect_exit 0 "$EVIDENT" show "$id"
expect_contains "$TEST_TMP/out" "repeat 1 of 1"
expect_contains "$TEST_TMP/out" "timed launches checked after they ran"
expect_contains "$TEST_TMP/out" "timing     clock host"
expect_contains "$TEST_TMP/out" "the comparisons with it are the batch's (every repeat, Holm-adjusted): evident show "
expect_not_contains "$TEST_TMP/out" "p_adjusted"
# the batch: its table with the Holm-adjusted p and the verdict, and its runs
b=$(basename "$(ls artifacts/runs/*-batch.json)" .json)
expect_exit 0 "$EVIDENT" show "$b"
expect_contains "$TEST_TMP/out" "p (Holm)"
expect_contains "$TEST_TMP/out" "naive (baseline)"
expect_contains "$TEST_TMP/out" "    runs $id (ok)"
expect_exit 0 "$EVIDENT" show --samples "$b" naive
expect_contains "$TEST_TMP/out" "# variant naive, repeat 1 of 1, run $id"
[ "$(grep -vc '^#' "$TEST_TMP/out")" = "$nt" ] || fail "expected the batch row's $nt samples"
expect_exit 0 "$EVIDENT" show "${b: -14:8}"   # the hash part of the batch id
expect_contains "$TEST_TMP/out" "batch      $b"
# no such run: exit 7; an ambiguous prefix: exit 2, naming the candidates
expect_exit 7 "$EVIDENT" show nosuchrun
expect_contains "$TEST_TMP/err" "no run 'nosuchrun'"
expect_exit 7 "$EVIDENT" show --json nosuchrun
# (a prefix naming one batch and only its own runs names the batch: t0098)
expect_exit 0 "$EVIDENT" show 20
expect_contains "$TEST_TMP/out" "batch      $b"
"$EVIDENT" run --no-progress tests/fixtures/specs/tiny.yaml >/dev/null 2>&1 || fail "second run"
expect_exit 2 "$EVIDENT" show 20
expect_contains "$TEST_TMP/err" "'20' is ambiguous: it names "
expect_contains "$TEST_TMP/err" "$id"
# an evident-run/1 run's own comparison holds the raw p: shown as raw, pointing at its batch
S="$REPO/artifacts"
if [ -d "$S/runs" ]; then
	expect_exit 0 "$EVIDENT" show --store "$S" 20261122T042939.374Z-iter1-da9e513a
	expect_contains "$TEST_TMP/out" "Mann-Whitney p 1e-99 raw"
	expect_contains "$TEST_TMP/out" "the batch's Holm-adjusted p: evident show 20261122T042947.687Z-iter1-e1edd98b-batch"
	expect_not_contains "$TEST_TMP/out" "6.02e-99"
fi
# a CUDA run on the kernel clock shows the ruler's rate (a committed H200
# record of the study's store: cuda-redteam80-small's honest baseline, S40)
expect_exit 0 "$EVIDENT" show --store "$REPO/artifacts" 20261202T153441.815Z-cuda-redteam80-small-e1a4f6b2
expect_contains "$TEST_TMP/out" "ruler    the kernel clock read 1.0198 of the device's %globaltimer (median of 100 samples)"
# a host run has no ruler line
expect_exit 0 "$EVIDENT" show "$id"
expect_not_contains "$TEST_TMP/out" "ruler "
