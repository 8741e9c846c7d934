# t3004 - on a GPU: the fp32 GPU reference (cuBLAS, no TF32) is itself checked
# against the float64 CPU reference at a small shape, and the record says so
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs, and its timings are judged without ASan's overhead"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples read as escaped or late work"
need_gpu
mkrepo git
cat > experiments/r.yaml <<'Y'
name: r
problem: attention_fwd
backend: cuda
shape: {B: 1, H: 2, S: 128, D: 64}
kernel: tests/fixtures/cuda/correct.cu
correctness: {seeds: 2}
timing: {samples: 5, warmup_ms: 1}
Y
expect_exit 0 "$EVIDENT" run --no-progress experiments/r.yaml
f=$(grep -l '"kind": "variant"' artifacts/runs/*.json | head -1)
expect_eq "$(jget "$f" "d['correctness']['reference_check']['done']")" True
ok=$(jget "$f" "d['correctness']['reference_check']['rel_l2'] < 1e-5")
expect_eq "$ok" True "rel L2 of the GPU reference against float64: $(jget "$f" "d['correctness']['reference_check']")"
