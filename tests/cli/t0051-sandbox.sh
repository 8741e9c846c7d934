# The kernel's process is boxed (src/base/sandbox.h): an honest kernel
# whose init() tries every way out (tests/fixtures/adversary/host/
# escape_probe.c) finds each one closed - no other process or its memory,
# no ptrace, no fork (so no daemon outlives the worker), the store neither
# listed nor written, the repository read-only, no network, no io_uring,
# no sysctl of the host, no write into its /proc at all (a host box's
# /proc is read-only; a GPU box keeps its own processes' entries writable
# for the CUDA driver, which test_sandbox checks) - and is still ok.  The same kernel with --unsandboxed finds them open, which shows the
# probe can see what it claims to, and the record says it ran unboxed.
. "$REPO/tests/cli/lib.sh"
command -v bwrap >/dev/null 2>&1 || [ -x "$(dirname "$EVIDENT")/bwrap" ] ||
	fail "bubblewrap is not installed (scripts/deps.sh installs it; make dist puts it beside evident)"
mkrepo
cat > experiments/probe.yaml <<'Y'
name: probe
question: Can a kernel reach out of its worker?
problem: attention_fwd
backend: host
shape: {B: 1, H: 1, S: 32, D: 16}
baseline: probe
variants:
  probe: {kernel: tests/fixtures/adversary/host/escape_probe.c}
correctness: {seeds: 2}
timing: {warmup_ms: 1, samples: 5, cache: hot}
repeats: 1
Y
# a listener on loopback for the network probe (stops by itself)
python3 - "$TEST_TMP/port" <<'P' &
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8); s.settimeout(1)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
end = time.time() + 60
while time.time() < end:
    try: s.accept()[0].close()
    except OSError: pass
P
lpid=$!
trap 'kill $lpid 2>/dev/null' EXIT
for i in $(seq 50); do [ -s "$TEST_TMP/port" ] && break; sleep 0.1; done
export EVIDENT_PROBE_PORT=$(cat "$TEST_TMP/port") EVIDENT_PROBE_MARK="$TEST_TMP/mark"
# the store's path for the probe (the box leaves EVIDENT_STORE out)
export EVIDENT_PROBE_STORE="${EVIDENT_STORE:-$PWD/artifacts}"
probe_log() { # the worker log of the newest run of variant probe
	local r
	r=$(ls -t artifacts/runs/*.json | grep -v batch | head -1)
	"$EVIDENT" show --log "$(basename "$r" .json)" > "$TEST_TMP/log" || fail "show --log"
	echo "$r"
}

expect_exit 0 "$EVIDENT" run --no-progress experiments/probe.yaml
expect_match "$TEST_TMP/out" "^probe +ok "
r=$(probe_log)
for p in procs mem ptrace fork store_ls store_w repo_w net io_uring sysctl task_comm; do
	expect_match "$TEST_TMP/log" "^probe $p: denied"
done
expect_eq "$(jget "$r" "d['judge']['sandbox']['tool']")" "bubblewrap" "the record names the box"
sleep 3
[ ! -e "$TEST_TMP/mark" ] || fail "a daemon outlived its worker"
[ ! -e artifacts/tmp/pwned ] || fail "the kernel wrote into the store"
[ ! -e kernels/pwned ] || fail "the kernel wrote into the repository"

# unboxed, the same probe gets through: the test above can fail
expect_exit 0 "$EVIDENT" run --no-progress --unsandboxed experiments/probe.yaml
r=$(probe_log)
for p in procs mem fork store_ls store_w repo_w net; do
	expect_match "$TEST_TMP/log" "^probe $p: allowed"
done
expect_eq "$(jget "$r" "d['judge']['sandbox']['tool']")" "none" "the record says it ran unboxed"
for i in $(seq 40); do [ -e "$TEST_TMP/mark" ] && break; sleep 0.1; done
[ -e "$TEST_TMP/mark" ] || fail "unboxed, the probe's daemon should have outlived its worker"
[ -e artifacts/tmp/pwned ] || fail "unboxed, the probe should have written into the store"
