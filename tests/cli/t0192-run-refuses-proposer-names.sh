# t0192 - `evident run` refuses a spec variant's name that an eval session
# holds in the store for other code: the store would hold two codes under
# one name, and a claim on the variant would read the proposer's runs.
# Before (red team 81's late, tests/fixtures/adversary/host/redteam81/):
# an eval took `fast2` for wrong code, the spec then gained an honest
# `fast2`, `evident run` recorded it, and `validated fast2` was
# contradicted on the eval's runs.  A spec variant whose own kernel
# changed keeps its name (the operator's kernel being worked on).  The same
# when only a header differs (red team 82's latehdr: the candidate's header
# made it wrong, then was fixed, and the spec's variant of the same file
# took the name).
. "$REPO/tests/cli/lib.sh"
mkrepo
# (the fixtures are hard links shared by every test: the kernel edited
# below is a copy in kernels/)
cp tests/fixtures/adversary/host/redteam81/hasinc.c kernels/mine.c || fail "cp"
sed -e 's|^flags: .*||' -e 's/samples: 200/samples: 5/' \
	-e 's|ref: {kernel: tests/fixtures/adversary/host/redteam81/hasinc.c|ref: {kernel: kernels/mine.c|' \
	tests/fixtures/specs/host-redteam81-hasinc.yaml > experiments/late.yaml
grep -q 'ref: {kernel: kernels/mine.c' experiments/late.yaml || fail "the spec did not take kernels/mine.c"
sed -e '/^  ref: /a\  fast2: {kernel: tests/fixtures/adversary/host/redteam81/hasinc.c, NOP: 5, expect: ok}' \
	experiments/late.yaml > experiments/late2.yaml
grep -q '^  fast2:' experiments/late2.yaml || fail "the spec did not take fast2"
echo '{"name": "fast2", "kernel": "tests/fixtures/adversary/host/redteam81/hasinc_off.c", "params": {"NOP": 2}}' |
	"$EVIDENT" eval --no-progress experiments/late.yaml > eval.jsonl 2> eval.err || { cat eval.err; fail "eval exited $?"; }
grep -q '"candidate": *"fast2"' eval.jsonl || { cat eval.jsonl; fail "eval did not answer for fast2"; }
"$EVIDENT" run --no-progress experiments/late2.yaml > run.out 2>&1
rc=$?
expect_eq "$rc" 3 "evident run of a variant named as an eval candidate of other code"
expect_contains run.out "variant 'fast2': the name is taken in this experiment's store by an eval candidate of other code"
expect_contains run.out "rename the variant"
# only a header differs: the candidate's header scaled its rows, the
# spec's variant of the same file reads the fixed one
cp tests/fixtures/adversary/host/redteam82/late_hdr.c tests/fixtures/adversary/host/redteam82/late_hdr.h kernels/ || fail "cp"
sed -i 's/^#define ROW_SCALE 1.0f/#define ROW_SCALE 1.01f/' kernels/late_hdr.h
grep -q '1.01f' kernels/late_hdr.h || fail "the header did not take 1.01f"
echo '{"name": "hdr2", "kernel": "kernels/late_hdr.c"}' |
	"$EVIDENT" eval --no-progress experiments/late.yaml > eval2.jsonl 2> eval2.err || { cat eval2.err; fail "eval (hdr2) exited $?"; }
grep -q '"outcome": *"wrong_output"' eval2.jsonl || { cat eval2.jsonl; fail "the candidate with the scaled header was not wrong_output"; }
sed -i 's/^#define ROW_SCALE 1.01f/#define ROW_SCALE 1.0f/' kernels/late_hdr.h
sed -e '/^  ref: /a\  hdr2: {kernel: kernels/late_hdr.c, expect: ok}' experiments/late.yaml > experiments/late3.yaml
"$EVIDENT" run --no-progress experiments/late3.yaml > run3.out 2>&1
rc=$?
expect_eq "$rc" 3 "evident run of a variant named as an eval candidate of the same file with another header"
expect_contains run3.out "variant 'hdr2': the name is taken in this experiment's store by an eval candidate whose sources differ"
# the spec's own variant, its kernel edited between runs, keeps its name
expect_exit 0 "$EVIDENT" run --no-progress experiments/late.yaml
echo '/* edited */' >> kernels/mine.c
expect_exit 0 "$EVIDENT" run --no-progress experiments/late.yaml
exit 0
