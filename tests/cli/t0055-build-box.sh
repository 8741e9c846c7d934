# The kernel's compiler is no way out of the box (issue 22; the red team's
# build_incbin, tests/fixtures/adversary/host/redteam2/README.md).  Before:
# the compiler ran with the runner's rights, so build_incbin's .incbin
# copied a file the box hides into kernel.so (ok, its log printed the
# file), an #include of an absolute path outside the repository compiled,
# and the build key followed only the #include "..." lines it resolved
# itself, so a header included through a macro could change and the cache
# still handed out the old object.  Now: .incbin and absolute includes
# outside the repository are refused before compiling, the compiler runs in
# the build box (the file it reaches through a macro is not there), under
# --unsandboxed its own -MD list shows the read outside the repository,
# and a cache hit re-hashes every file of that list.
. "$REPO/tests/cli/lib.sh"
builds_from_nothing "its subject is the build box: what a compile may read"
mkrepo
secret="evident-t0055-secret-$$"
echo "$secret" > /tmp/red2-outside.txt.t0055
printf 'const char outside_text[] = "%s";\n' "$secret" > "$TEST_TMP/outside.h"
fx=tests/fixtures/host
# build_incbin itself, pointed at a file of this test
sed 's|/tmp/red2-outside.txt|/tmp/red2-outside.txt.t0055|g' \
	tests/fixtures/adversary/host/redteam2/build_incbin.c > tests/fixtures/adversary/host/redteam2/build_incbin_t.c
{ printf '#include "%s"\n' "$TEST_TMP/outside.h"; cat $fx/correct.c; } > $fx/abs_include.c
{ printf '#define OUTSIDE_H "%s"\n#include OUTSIDE_H\n' "$TEST_TMP/outside.h"; cat $fx/correct.c; } > $fx/macro_include.c
{ printf '#define TUNE_H "tune.h"\n#include TUNE_H\n'; cat $fx/correct.c; } > $fx/tuned.c
echo 'const char tune_text[] = "one";' > $fx/tune.h
spec() { # spec NAME VARIANT KERNEL [EXPECT]
	cat > "experiments/$1.yaml" <<EOF
name: $1
question: does the build stay in the box?
problem: attention_fwd
backend: host
shape: {B: 1, H: 2, S: 64, D: 16}
variants:
  $2: {kernel: $3${4:+, expect: $4}}
correctness: {seeds: 1}
timing: {warmup_ms: 1, samples: 5}
limits: {timeout_s: 30}
repeats: 1
EOF
}
rec() { grep -l "\"experiment\": \"$1\"" artifacts/runs/*.json | grep -v batch | sort | tail -1; }

# 1. the red team's build_incbin: build_failed, and the hidden file is in no log
spec incbin build_incbin tests/fixtures/adversary/host/redteam2/build_incbin_t.c build_failed
"$EVIDENT" run --no-progress experiments/incbin.yaml > "$TEST_TMP/out" 2>&1
rm -f /tmp/red2-outside.txt.t0055
expect_match "$TEST_TMP/out" "^build_incbin +build_failed"
expect_contains "$TEST_TMP/out" "build_incbin_t.c' uses .incbin"
r=$(rec incbin)
"$EVIDENT" show --log "$(basename "$r" .json)" > "$TEST_TMP/log" 2>&1
expect_not_contains "$TEST_TMP/log" "$secret"
grep -rqF "$secret" artifacts build && fail "the hidden file's text reached the store or the build cache"

# 2. an #include of an absolute path outside the repository: refused, with the reason
spec absinc abs_include $fx/abs_include.c build_failed
"$EVIDENT" run --no-progress experiments/absinc.yaml > "$TEST_TMP/out" 2>&1
expect_match "$TEST_TMP/out" "^abs_include +build_failed"
expect_contains "$TEST_TMP/out" "includes '$TEST_TMP/outside.h', outside the repository"

# 3. the same through a macro (no text search sees it): in the box the
# file is not there; unsandboxed, the compiler's own list shows the read
spec macroinc macro_include $fx/macro_include.c build_failed
"$EVIDENT" run --no-progress experiments/macroinc.yaml > "$TEST_TMP/out" 2>&1
expect_match "$TEST_TMP/out" "^macro_include +build_failed"
expect_contains "$TEST_TMP/out" "outside.h: No such file or directory"
"$EVIDENT" run --no-progress --unsandboxed experiments/macroinc.yaml > "$TEST_TMP/out" 2>&1
expect_match "$TEST_TMP/out" "^macro_include +build_failed"
expect_contains "$TEST_TMP/out" "the kernel's build read '$(realpath "$TEST_TMP/outside.h")', outside the repository"
grep -rqF "$secret" build && fail "the outside header's text is in the build cache"

# 4. a header reached through a macro changes: the cache does not hand out the old object
spec tuned tuned $fx/tuned.c
expect_exit 0 "$EVIDENT" run --no-progress experiments/tuned.yaml
r1=$(rec tuned)
expect_eq "$(jget "$r1" "d['outcome']")" ok
jget "$r1" "[s['path'] for s in d['code']['sources']]" | grep -qF "$fx/tune.h" || fail "tune.h is not among the recorded sources"
expect_exit 0 "$EVIDENT" run --no-progress experiments/tuned.yaml
r2=$(rec tuned)
expect_eq "$(jget "$r2" "d['build']['cached']")" True "nothing changed: a cache hit"
echo 'const char tune_text[] = "two";' > $fx/tune.h
expect_exit 0 "$EVIDENT" run --no-progress experiments/tuned.yaml
r3=$(rec tuned)
expect_eq "$(jget "$r3" "d['build']['cached']")" False "tune.h changed: a rebuild"
[ "$(jget "$r3" "d['code']['binary_sha256']")" != "$(jget "$r1" "d['code']['binary_sha256']")" ] ||
	fail "the object built from the changed header is the old one"
true
