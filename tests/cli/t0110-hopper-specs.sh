#!/usr/bin/env bash
# t0110: the Hopper rung's experiments are there and valid (issue 24):
# every committed spec passes `evident run --dry-run`; iter3 names one
# fa_wgmma variant per step (STEP=1..4; 5 in fa_wgmma2.cu) beside fa_mma (the baseline),
# fa_wmma and cuDNN; the scaling specs cover S in {512..8192} x D in
# {64, 128}, one spec per shape, with B = 16384/S, H = 2048/D and every
# fa_wgmma/fa_mma variant compiled for the shape's D.
. "$REPO/tests/cli/lib.sh"
cd "$REPO" || fail "no repository"
for f in experiments/*.yaml; do
	expect_exit 0 "$EVIDENT" run --dry-run "$f"
	expect_contains "$TEST_TMP/out" "spec $f is valid"
done

expect_exit 0 "$EVIDENT" run --dry-run experiments/iter3.yaml
expect_contains "$TEST_TMP/out" "baseline mma"
for step in 1 2 3 4; do
	expect_match "$TEST_TMP/out" "^  wg$step +kernels/attention/fa_wgmma.cu STEP=$step HEAD_DIM=64 "
done
expect_match "$TEST_TMP/out" "^  wg5 +kernels/attention/fa_wgmma2.cu STEP=5 HEAD_DIM=64 "
expect_match "$TEST_TMP/out" "^  wg5p +kernels/attention/fa_wgmma2.cu STEP=5 PERSIST=1 HEAD_DIM=64 "
expect_match "$TEST_TMP/out" "^  mma +kernels/attention/fa_mma.cu BLOCK_M=128 BLOCK_N=128 NUM_WARPS=8 STAGES=2$"
expect_match "$TEST_TMP/out" "^  wmma +kernels/attention/fa_wmma.cu$"
expect_match "$TEST_TMP/out" "^  cudnn_sdpa +kernels/reference/cudnn_sdpa.cu$"

n=0
for D in 64 128; do
	for S in 512 1024 2048 4096 8192; do
		f=experiments/scaling-d$D-s$S.yaml
		[ -f "$f" ] || fail "no $f"
		n=$((n + 1))
		grep -qxF "shape: {B: $((16384 / S)), H: $((2048 / D)), S: $S, D: $D}" "$f" ||
			fail "$f: the shape is not B=$((16384 / S)) H=$((2048 / D)) S=$S D=$D"
		expect_exit 0 "$EVIDENT" run --dry-run "$f"
		expect_match "$TEST_TMP/out" "^  wg4 +kernels/attention/fa_wgmma.cu STEP=4 HEAD_DIM=$D "
		expect_match "$TEST_TMP/out" "^  wg5 +kernels/attention/fa_wgmma2.cu STEP=5 HEAD_DIM=$D "
		expect_match "$TEST_TMP/out" "^  mma +kernels/attention/fa_mma.cu HEAD_DIM=$D "
		expect_match "$TEST_TMP/out" "^  cudnn_sdpa "
		# every kernel variant is compiled for this D
		if grep -E '^  (wg|mma)' "$TEST_TMP/out" | grep -v "HEAD_DIM=$D " >/dev/null; then
			fail "$f: a variant is not compiled for D=$D"
		fi
	done
done
expect_eq "$(ls experiments/scaling-*.yaml | wc -l)" "$n" "scaling specs beyond the S x D grid"
# step 5 by persistent CTAs beside cuDNN's (grid 132) at S4096 D128
expect_exit 0 "$EVIDENT" run --dry-run experiments/scaling-d128-s4096.yaml
expect_match "$TEST_TMP/out" "^  wg5p +kernels/attention/fa_wgmma2.cu STEP=5 PERSIST=1 HEAD_DIM=128 BLOCK_N=128 "
# fa_wgmma3.cu's knobs on wg5p (issue 24's last 1.8%): all of them, and each alone
expect_match "$TEST_TMP/out" "^  wg6p +kernels/attention/fa_wgmma3.cu STEP=5 PERSIST=1 OSTORE=1 SMX=2 HEAD_DIM=128 BLOCK_N=128 NUM_WG=2 STAGES=3$"
for v in wg6p_o wg6p_k3 wg6p_s2 wg6p_n176; do
	expect_match "$TEST_TMP/out" "^  $v +kernels/attention/fa_wgmma3.cu STEP=5 PERSIST=1 "
done
expect_exit 0 "$EVIDENT" run --dry-run experiments/iter3.yaml
expect_match "$TEST_TMP/out" "^  wg6p +kernels/attention/fa_wgmma3.cu STEP=5 PERSIST=1 OSTORE=1 SMX=2 HEAD_DIM=64 "
expect_match "$TEST_TMP/out" "^  wg6 +kernels/attention/fa_wgmma3.cu STEP=5 PERSIST=0 OSTORE=1 SMX=2 HEAD_DIM=64 "
