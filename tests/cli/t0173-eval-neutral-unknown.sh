# t0173 - eval promotes no copy of its reference that differs from it in
# the EV_PARAM echo alone, whatever the kernel does to a second build:
# neutral_fail.c stops with #error where EV_PARAM is already defined, which
# failed the old echo-neutral build (a second build with
# evident_echo_neutral.h forced in), so its records had no identity and
# the copy (the reference's file at SALT=2, a binary that differs only in
# its echo) was "unknown" (red team 50, neutral_dodge: before that, "not
# the reference's code").  Now the identity is of the variant's own
# compile (red team 125, build.c echo_twin): there is no second build to
# stop, the copy has the reference's echo-neutral identity and is "no
# effect", not promoted, whatever its batch says.
# And a kernel that defines _GNU_SOURCE after nothing else (age_probe.c)
# gets its echo-neutral identity.
. "$REPO/tests/cli/lib.sh"
runs_alone "verdicts timed on the CPU"
mkrepo
cat > experiments/nf.yaml <<'Y'
name: nf
problem: rowsum
backend: host
shape: {R: 64, C: 256}
baseline: ref
variants:
  ref: {kernel: tests/fixtures/adversary/host/neutral_fail.c, SALT: 1}
correctness: {seeds: 1}
timing: {warmup_ms: 0, samples: 5, cache: hot}
limits: {timeout_s: 60}
repeats: 3
Y
echo '{"name": "copy", "kernel": "tests/fixtures/adversary/host/neutral_fail.c", "params": {"SALT": 2}}' > in.jsonl
"$EVIDENT" eval --no-progress experiments/nf.yaml < in.jsonl > ans.jsonl 2> err.txt || { cat err.txt; fail "eval exited $?"; }
cat ans.jsonl
expect_eq "$(jget ans.jsonl "d['build']['same_code_as_reference']")" True
expect_eq "$(jget ans.jsonl "d['promoted']")" False
expect_eq "$(jget ans.jsonl "bool(d['build']['echo_neutral_sha256'])")" True
expect_contains ans.jsonl "no effect: the candidate's code is the reference's (the same object but for its EV_PARAM echo"
# age_probe.c (#define _GNU_SOURCE first, Dl_info) has its neutral identity
cat > experiments/age.yaml <<'Y'
name: age
problem: rowsum
backend: host
shape: {R: 64, C: 256}
kernel: tests/fixtures/adversary/host/age_probe.c
variants:
  probe: {AGE_S: 60}
correctness: {seeds: 1}
timing: {warmup_ms: 0, samples: 5, cache: hot}
limits: {timeout_s: 60}
Y
expect_exit 0 "$EVIDENT" run --no-progress experiments/age.yaml
f=$(grep -l '"variant": "probe"' $(grep -L '"kind": "batch"' "$EVIDENT_STORE"/runs/*.json) | head -1)
[ -n "$f" ] || fail "no run record of probe"
expect_eq "$(jget "$f" "bool(d['code'].get('echo_neutral_sha256'))")" True
