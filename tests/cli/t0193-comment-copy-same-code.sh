# t0193 - a comment-only copy of a kernel under another file name is the
# same code to `validated` (issue 22; red team 83's twin and rate,
# tests/fixtures/adversary/host/redteam83/README.md).  Before: the copy's
# object held its own file name (.symtab's STT_FILE) and a build id over
# it, so code.binary_sha256 differed, and its sources' hash covered the
# comments: the copy had no history, and `validated` on the copy that drew
# clean read its own runs alone (8 copies of coin_wrong: one supported).
# Now each record has code.load_sha256, the hash of what the loader maps
# of the object, its build id zeroed (base/elf.c elf_load_sha256): one for
# the copies, and the audit reads load-equal runs as the same program
# where that counts against a claim (report/code_identity.h).  The form
# here is deterministic: wide.c is off where rows are 256 wide; its copy
# wide_g.c ran only at 64 wide.  Controls: wide_fix.c (one constant
# changed) is another code, and the naive rowsum its own.  eval never
# promotes a comment-only copy of its reference (the same loaded image).
. "$REPO/tests/cli/lib.sh"
mkrepo
d=tests/fixtures/adversary/host/redteam83
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam83-wide.yaml
expect_contains "$TEST_TMP/out" "a: wrong_output"
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam83-widectl.yaml
# the records: one loaded image; and, since host objects are linked
# stripped (red team 178), one file: the copy's name and comments are in
# nothing that is linked
runs=$(grep -L '"kind": "batch"' "$EVIDENT_STORE"/runs/*.json)
rec() { grep -l "\"kernel\": \"$d/$1\"" $runs | head -1; }
fa=$(rec wide.c) fg=$(rec wide_g.c) ff=$(rec wide_fix.c)
[ -n "$fa" ] && [ -n "$fg" ] && [ -n "$ff" ] || fail "no run record of wide.c, wide_g.c or wide_fix.c"
la=$(jget "$fa" "d['code']['load_sha256']") lg=$(jget "$fg" "d['code']['load_sha256']")
lf=$(jget "$ff" "d['code']['load_sha256']")
expect_eq "${#la}" 64 "a load hash"
expect_eq "$lg" "$la" "the comment-only copy's loaded image"
[ "$lf" != "$la" ] || fail "wide_fix.c (one constant changed) has wide.c's load hash"
[ "$(jget "$fa" "d['code']['binary_sha256']")" = "$(jget "$fg" "d['code']['binary_sha256']")" ] ||
	fail "the comment-only copy's stripped object is not the original's file"
# validated on the copy: wide.c's failure at 256 wide is its own
expect_exit 1 "$EVIDENT" audit --strict "$d/wide.md"
expect_contains "$TEST_TMP/out" "contradicted: validated host-redteam83-widectl/g: 1 of 2 run(s) of the current source failed"
expect_contains "$TEST_TMP/out" "(the same code as host-redteam83-wide/a): wrong_output"
# the controls: another code is still its own
expect_exit 0 "$EVIDENT" audit --strict "$d/wide-control.md"
expect_contains "$TEST_TMP/out" "supported: validated host-redteam83-widectl/fix: 2 run(s) of the current source passed"
expect_contains "$TEST_TMP/out" "supported: validated host-redteam83-widectl/naive"
# eval: a comment-only copy of the reference is the reference's code
cat > experiments/cc.yaml <<'Y'
name: cc
problem: rowsum
backend: host
shape: {R: 64, C: 64}
baseline: naive
variants:
  naive: {kernel: kernels/rowsum/naive.c}
correctness: {seeds: 1}
timing: {warmup_ms: 0, samples: 5, cache: hot}
Y
python3 -c '
import json
print(json.dumps({"source": "/* a comment-only copy */\n" + open("kernels/rowsum/naive.c").read(), "name": "ccopy"}))
' > cc.jsonl
"$EVIDENT" eval --no-progress experiments/cc.yaml < cc.jsonl > cc.out 2> cc.err || { cat cc.err; fail "eval exited $?"; }
# (stripped, the copy is the reference's very file: the same binary)
jexpect cc.out <<'E'
d['build']['same_binary_as_reference'] => True
d['build']['same_code_as_reference'] => True
d['promoted'] => False
E
[ "$(jget cc.out "d['outcome']")" != ok ] || expect_contains cc.out "not promoted: no effect: the candidate's code is the reference's (the same binary"
exit 0
