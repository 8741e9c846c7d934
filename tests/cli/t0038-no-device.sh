# a CUDA experiment on a machine without a GPU stops with a clear no_device message and exit 4, writing nothing
. "$REPO/tests/cli/lib.sh"
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then skip "a GPU is present here"; fi
mkrepo
mkdir -p kernels/attention && cat > kernels/attention/k.cu <<'Y'
#include "evident_kernel.h"
static int launch(struct ev_launch *l) { (void)l; return 0; }
EVIDENT_DEFINE_KERNEL("k", "cuda", "attention_fwd", NULL, launch, NULL, "")
Y
cat > experiments/g.yaml <<'Y'
name: g
problem: attention_fwd
shape: {B: 1, H: 1, S: 16, D: 16}
kernel: kernels/attention/k.cu
Y
expect_exit 4 "$EVIDENT" run experiments/g.yaml
expect_contains "$TEST_TMP/err" "error: no_device: experiment 'g' needs the cuda backend, which cannot run here:"
[ ! -e artifacts ] || fail "the store was touched"
