# t3017 - on a GPU: a trust: host kernel's times are its own process's
# word, so a comparison with one holds no verdict (stats.h rule 0c).  Red
# team 151's forge5 (tests/fixtures/adversary/cuda/redteam151/rt151_got.cu,
# MODE 1) hooks the timing worker's write() through its GOT and cuts every
# sample line's times to 5% of honest work: recorded ok and 19.99x
# "faster", p 1.3e-09, on an H200 before the rule.  Now its row reads
# inconclusive with the rule's reason, the batch says why, and the audit
# contradicts a faster claim on it; the sealed copy of the same file is
# compared as before.
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
cat > experiments/th.yaml <<'Y'
name: th
question: Does a trust-host kernel that writes its own times get a verdict?
problem: attention_fwd
backend: cuda
kernel: tests/fixtures/adversary/cuda/redteam151/rt151_got.cu
shape: {B: 1, H: 2, S: 128, D: 64}
dtype: fp16
baseline: honest
variants:
  honest:  {MODE: 0, PCT: 5}
  sealed:  {MODE: 1, PCT: 5}
  forge5:  {MODE: 1, PCT: 5, trust: host}
repeats: 3
correctness: {seeds: 2}
timing: {warmup_ms: 5, samples: 30}
limits: {timeout_s: 60}
arch: sm_90
Y
git add experiments/th.yaml && git -c user.email=t@t -c user.name=t commit -qm th || fail "commit"
expect_exit 0 "$EVIDENT" run --no-progress --store st experiments/th.yaml
expect_match "$TEST_TMP/out" "^forge5 +ok .*inconclusive \\(trust: host\\)"
expect_contains "$TEST_TMP/out" "1 comparison with a kernel of the spec's run trust: host"
b=$(ls st/runs/*-batch.json | head -n 1)
jexpect "$b" <<'E'
[r for r in d["variants"] if r["variant"] == "forge5"][0]["comparison"]["verdict"] => inconclusive
"trust: host" in [r for r in d["variants"] if r["variant"] == "forge5"][0]["comparison"]["verdict_reason"] => True
[r for r in d["variants"] if r["variant"] == "sealed"][0]["comparison"]["verdict"] != "inconclusive" or "trust" not in [r for r in d["variants"] if r["variant"] == "sealed"][0]["comparison"]["verdict_reason"] => True
E
printf 'Forged. <!-- claim: faster experiment=th a=forge5 b=honest -->\n' > claim.md
expect_exit 1 "$EVIDENT" audit --store st --no-untraced claim.md
expect_contains "$TEST_TMP/out" "but forge5 is a kernel of the spec's that ran trust: host"
