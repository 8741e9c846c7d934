# t0080: every command that takes a store accepts --store=DIR and --store DIR
# (one table row, cli/options.h), before or after its positionals: run
# records into the store named, ls, show, verify, reproduce, paper, audit and
# export read it; an unknown option exits 2 with a did-you-mean.  No
# $EVIDENT_STORE, and no default store/ here: only --store finds the runs.
. "$REPO/tests/cli/lib.sh"
unset EVIDENT_STORE
mkdir -p kernels
cp "$REPO/kernels/evident_kernel.h" kernels/
cp -r "$REPO/problems" .
cp "$REPO/tests/fixtures/paper/kernels/tiny_attn.c" kernels/
cat > t.yaml <<'EOF'
# one host variant, a few samples: the quickest spec that records a batch
name: forms
question: Do both forms of --store reach the same store?
problem: attention_fwd
backend: host
shape: {B: 1, H: 1, S: 16, D: 16}
dtype: fp32
baseline: base
variants:
  base: {kernel: kernels/tiny_attn.c, REPEAT: 1, CRASH: 0}
correctness: {seeds: 1, atol: 1e-4, rtol: 1e-4}
timing: {warmup_ms: 1, samples: 5, cache: hot}
limits: {timeout_s: 20}
repeats: 1
EOF
S=$TEST_TMP/s1

# run: both forms, the option before and after the spec, one store
expect_exit 0 "$EVIDENT" run --no-progress --store="$S" t.yaml
expect_contains "$TEST_TMP/out" "in s1/runs/"
expect_exit 0 "$EVIDENT" run t.yaml --no-progress --store "$S"
expect_contains "$TEST_TMP/out" "in s1/runs/"
[ "$(ls "$S/runs" | wc -l)" = 4 ] || fail "expected 2 runs and 2 batches in $S/runs: $(ls "$S/runs")"
[ ! -e store ] || fail "a default store/ appeared"
run=$(ls "$S/runs" | grep -v -- -batch | head -1); run=${run%.json}

for form in "--store=$S" "--store $S"; do
	# ls
	expect_exit 0 "$EVIDENT" ls $form
	expect_eq "$(grep -c ' forms  *base ' "$TEST_TMP/out")" 2 "ls $form lists the 2 runs"
	expect_exit 0 "$EVIDENT" ls --batches $form --experiment=forms
	expect_eq "$(grep -c -- '-batch ' "$TEST_TMP/out")" 2 "ls --batches $form"
	# show, the option before and after the id
	expect_exit 0 "$EVIDENT" show $form "$run"
	expect_contains "$TEST_TMP/out" "run        $run"
	expect_exit 0 "$EVIDENT" show "$run" --json $form
	expect_contains "$TEST_TMP/out" "\"run_id\": \"$run\""
	# verify
	expect_exit 0 "$EVIDENT" verify $form
	expect_contains "$TEST_TMP/out" "verify: $S: "
	expect_contains "$TEST_TMP/out" "4 runs: intact"
	# reproduce: the store is read (no such batch in it: exit 7, naming the store)
	expect_exit 7 "$EVIDENT" reproduce $form zzzzzz
	expect_contains "$TEST_TMP/err" "error: no batch 'zzzzzz' in '$S'"
	# paper and audit: a file that names no store of its own
	printf '# forms\n\n<!-- evident:table experiment=forms run=latest -->\n<!-- /evident:table -->\n\nbase passes. <!-- claim: validated experiment=forms variant=base -->\n' > p.md
	expect_exit 0 "$EVIDENT" paper $form p.md
	expect_contains p.md '| base (baseline) | | ok | 1/1 |'
	expect_exit 0 "$EVIDENT" audit p.md $form
	expect_contains "$TEST_TMP/out" "audit: 1 claim: 1 supported, 0 contradicted"
	# export
	rm -rf ex
	expect_exit 0 "$EVIDENT" export $form --out ex
	expect_contains "$TEST_TMP/out" "exported 4 record(s) from '$S' to ex/"
	expect_eq "$(tail -n +2 ex/summaries.csv | wc -l)" 2 "export $form: one summary row per batch"
done

# without --store nothing is found: the option above was what found the store
expect_exit 0 "$EVIDENT" ls
expect_contains "$TEST_TMP/out" "no runs yet (store 'store' does not exist)"
expect_exit 7 "$EVIDENT" show "$run"

# an unknown option: exit 2, the did-you-mean, the usage line, in every command
for c in run ls show verify reproduce paper audit export; do
	expect_exit 2 "$EVIDENT" $c --stor="$S" x
	expect_contains "$TEST_TMP/err" "error: unknown option '--stor' for 'evident $c'; did you mean '--store'?"
	expect_contains "$TEST_TMP/err" "usage: evident $c "
	expect_eq "$(wc -c <"$TEST_TMP/out")" 0 "evident $c --stor: nothing on stdout"
	# a missing value is a usage error too
	expect_exit 2 "$EVIDENT" $c --store
	expect_contains "$TEST_TMP/err" "error: option '--store' needs a value (--store DIR)"
done
expect_exit 2 "$EVIDENT" stats a b --alpah 0.1
expect_contains "$TEST_TMP/err" "error: unknown option '--alpah' for 'evident stats'; did you mean '--alpha'?"
exit 0
