#!/usr/bin/env bash
# t0111: fa_wgmma's, fa_wgmma2's and fa_wgmma3's bad builds say what is wrong and what to do (where nvcc
# exists): a tile the kernel cannot take is a static_assert naming the
# allowed values; a target without the sm_90a features is an #error naming
# the flag to use; and the kernel carries the arch line that the runner
# builds it with (before the spec's arch).
# The #error of a target without sm_90a, and PERSIST's, are the
# preprocessor's, so those compiles stop after it (-E, the device pass's
# preprocessing, where it fires: 0.3 s of CPU against 1.1 s for -c, which
# preprocesses the same way first); the static_asserts need the front end,
# and they are the device pass's as much as the host's (in the config
# templates, outside any #if __CUDA_ARCH__), so they compile to PTX (-ptx:
# the device pass alone, 0.6 s of CPU against 1.4 s for -c, whose host
# pass stops at the same static_assert first).
. "$REPO/tests/cli/lib.sh"
plain_pass_only "it runs nvcc, never evident"
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || skip "no nvcc"
cd "$REPO" || fail "no repository"
k=kernels/attention/fa_wgmma.cu
# the runner's arch rule: the kernel's directive wins over the spec's sm_90
expect_eq "$(grep -cx '// evident: arch sm_90a' "$k")" 1 "fa_wgmma.cu's arch directive"
expect_exit 1 "$nvcc" -ptx -gencode=arch=compute_90a,code=sm_90a -Ikernels -DBLOCK_N=96 -o "$TEST_TMP/x.ptx" "$k"
expect_contains "$TEST_TMP/err" 'BLOCK_N must be 64 or 128'
expect_exit 1 "$nvcc" -ptx -gencode=arch=compute_90a,code=sm_90a -Ikernels -DSTEP=5 -o "$TEST_TMP/x.ptx" "$k"
expect_contains "$TEST_TMP/err" 'STEP must be 1, 2, 3 or 4'
expect_exit 1 "$nvcc" -E -arch=sm_90 -Ikernels -o /dev/null "$k"
expect_contains "$TEST_TMP/err" 'fa_wgmma.cu needs sm_90a (wgmma, setmaxnreg): compile with -gencode arch=compute_90a,code=sm_90a'
# fa_wgmma2.cu, the ladder's continuation (step 5, the wider tiles): the
# same refusals with its own bounds, and its own name in the #error
k=kernels/attention/fa_wgmma2.cu
expect_eq "$(grep -cx '// evident: arch sm_90a' "$k")" 1 "fa_wgmma2.cu's arch directive"
expect_exit 1 "$nvcc" -ptx -gencode=arch=compute_90a,code=sm_90a -Ikernels -DSTEP=6 -o "$TEST_TMP/x.ptx" "$k"
expect_contains "$TEST_TMP/err" 'STEP must be 1, 2, 3, 4 or 5'
expect_exit 1 "$nvcc" -ptx -gencode=arch=compute_90a,code=sm_90a -Ikernels -DSTEP=5 -DNUM_WG=1 -o "$TEST_TMP/x.ptx" "$k"
expect_contains "$TEST_TMP/err" 'STEP=5 (ping-pong) needs NUM_WG >= 2'
expect_exit 1 "$nvcc" -ptx -gencode=arch=compute_90a,code=sm_90a -Ikernels -DSTEP=2 -DBLOCK_N=96 -o "$TEST_TMP/x.ptx" "$k"
expect_contains "$TEST_TMP/err" 'BLOCK_N'
expect_exit 1 "$nvcc" -E -arch=sm_90 -Ikernels -o /dev/null "$k"
expect_contains "$TEST_TMP/err" 'fa_wgmma2.cu needs sm_90a (wgmma, setmaxnreg): compile with -gencode arch=compute_90a,code=sm_90a'
# PERSIST=1 (persistent CTAs) needs the producer warp group (STEP >= 3) and
# room for its O staging tile (BLOCK_N=176 at D=128 has none)
expect_exit 1 "$nvcc" -ptx -gencode=arch=compute_90a,code=sm_90a -Ikernels -DSTEP=2 -DPERSIST=1 -o "$TEST_TMP/x.ptx" "$k"
expect_contains "$TEST_TMP/err" 'PERSIST=1 needs STEP >= 3'
expect_exit 1 "$nvcc" -ptx -gencode=arch=compute_90a,code=sm_90a -Ikernels -DSTEP=5 -DHEAD_DIM=128 -DBLOCK_N=176 -DPERSIST=1 -o "$TEST_TMP/x.ptx" "$k"
expect_contains "$TEST_TMP/err" 'PERSIST=1 adds an O staging tile'
expect_exit 1 "$nvcc" -E -gencode=arch=compute_90a,code=sm_90a -Ikernels -DSTEP=4 -DPERSIST=2 -o /dev/null "$k"
expect_contains "$TEST_TMP/err" 'PERSIST must be 0 or 1'
# fa_wgmma3.cu, fa_wgmma2.cu with the knobs OSTORE and SMX: its own name in
# the #error, the knobs' values refused with what is allowed, SMX=2 only
# with the overlap (STEP >= 4), and the 176-key tile with persistent CTAs
# refused while O is staged, with the knob that makes room named, and
# built with OSTORE=1 (-ptx: the static_asserts are the front end's)
k=kernels/attention/fa_wgmma3.cu
expect_eq "$(grep -cx '// evident: arch sm_90a' "$k")" 1 "fa_wgmma3.cu's arch directive"
expect_exit 1 "$nvcc" -E -arch=sm_90 -Ikernels -o /dev/null "$k"
expect_contains "$TEST_TMP/err" 'fa_wgmma3.cu needs sm_90a (wgmma, setmaxnreg): compile with -gencode arch=compute_90a,code=sm_90a'
expect_exit 1 "$nvcc" -ptx -gencode=arch=compute_90a,code=sm_90a -Ikernels -DSTEP=5 -DOSTORE=2 -o "$TEST_TMP/x.ptx" "$k"
expect_contains "$TEST_TMP/err" 'OSTORE must be 0 (O through shared memory) or 1 (from registers)'
expect_exit 1 "$nvcc" -ptx -gencode=arch=compute_90a,code=sm_90a -Ikernels -DSTEP=3 -DSMX=2 -o "$TEST_TMP/x.ptx" "$k"
expect_contains "$TEST_TMP/err" 'SMX=2 (O rescaled beside Q K^T) needs STEP >= 4'
expect_exit 1 "$nvcc" -ptx -gencode=arch=compute_90a,code=sm_90a -Ikernels -DSTEP=5 -DHEAD_DIM=128 -DBLOCK_N=176 -DPERSIST=1 -o "$TEST_TMP/x.ptx" "$k"
expect_contains "$TEST_TMP/err" 'OSTORE=1 stores O from registers, without it'
expect_exit 0 "$nvcc" -ptx -gencode=arch=compute_90a,code=sm_90a -Ikernels -DSTEP=5 -DHEAD_DIM=128 -DBLOCK_N=176 -DPERSIST=1 -DOSTORE=1 -DSMX=2 -o "$TEST_TMP/x.ptx" "$k"
expect_eq "$(grep -c 'st.shared' "$TEST_TMP/x.ptx")" 0 "OSTORE=1: O staged in shared memory (st.shared in the PTX)"
