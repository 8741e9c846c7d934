# t0173 - eval promotes no copy of its reference whose echo-neutral
# identity is unknown: neutral_fail.c fails its echo-neutral build on
# purpose (#error where EV_PARAM is already defined), so its records have
# no code.echo_neutral_sha256; the candidate (the reference's file at
# SALT=2, a binary that differs only in its echo) is called the
# reference's code ("unknown") and not promoted, whatever its batch says.
# Before, it was "not the reference's code" (red team 50, neutral_dodge).
# And a kernel that defines _GNU_SOURCE after nothing else (age_probe.c)
# gets its echo-neutral identity: the neutral header includes nothing now
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
expect_contains ans.jsonl "whether the parameters reach its code is unknown"
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
