# t0361 - red team 301 (host/redteam301/README.md): the slower side's
# refusal of the extra shape excuses a refusing faster side only where
# the slower side's own code refused (red team 298 row 1, t0357), and it
# was found by the program: the object, an echo-neutral twin or a
# loaded-image copy.  An echo-neutral twin of the author's own reference
# (base.c at TAG 1, a parameter that reaches only its echo, which its
# init reads to refuse every C but 65536) run once made the reference
# read "specialised": eval quoted the twin's refusal as the reference's
# (`candidate_specialised.reference_reason`) and lifted its hold in 4 of
# 4 stores, and a search promoted a refusing candidate 3 of 6.  Now only
# the reference's own object (the same binary, or the same sources,
# flags and parameters: code_identity.c code_specialised_held) excuses:
# with the twin in the store eval names no refusal of the reference and
# the candidate's refusal holds it.  The rule reads the store, not the
# timings, so one repeat a side.  About 20 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
B=tests/fixtures/adversary/host/redteam301/base.c
K=tests/fixtures/adversary/host/redteam296/lnshift.c
# spec TAG: the reference's base.c at TAG (1: the twin), R 8 C 65536
spec() {
	cat <<Y
name: t0361-$2
question: does an echo-neutral twin of the reference excuse a refusing candidate?
problem: layernorm
backend: host
kernel: $B
shape: {R: 8, C: 65536}
params: {TAG: $1, SHIFT: 0, RSQRT: 0, MINC: 0}
correctness: {seeds: 2}
timing: {warmup_ms: 1, samples: 6}
limits: {timeout_s: 120}
flags: [-O3, -mavx2, -mfma]
variants:
  ref: {expect: ok}
repeats: 1
Y
}
spec 1 twin > experiments/twin.yaml
spec 0 eval > experiments/eval.yaml
expect_exit 0 "$EVIDENT" run --no-progress experiments/twin.yaml
expect_match "$TEST_TMP/out" "ref: specialised: its init refused the extra shape \(tuned for C 65536"
printf '{"kernel":"%s","params":{"SHIFT":0,"RSQRT":1,"MINC":65536},"name":"rsqexact"}\n' "$K" > cands.jsonl
"$EVIDENT" eval --no-progress --repeats 1 experiments/eval.yaml < cands.jsonl > eval.out 2> eval.err
cat eval.out
python3 -S - eval.out <<'PY' || fail "the twin's refusal excused the candidate's"
import json, sys
a = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
assert len(a) == 1, a
c = a[0]
assert c["outcome"] == "ok", c["outcome"]
s = c["candidate_specialised"]
# the candidate refused (lnshift: every C under 65536), the reference's
# own object never did: the twin's refusal is not the reference's
assert s and "lnshift is tuned for C >= 65536" in s["reason"], s
assert s["reference_reason"] is None, s
assert not c["promoted"], c["decision"]
PY
exit 0
