# t3011 - on a GPU: a GPU box's strict seccomp filter is an allow list
# (issue 22, src/base/sandbox_filter.c gpu_allow_list): the host box's list
# and what the CUDA driver, runtime, CUPTI, NVML, cuBLAS and cuDNN were
# measured to call in GPU boxes on an H200 (data/syscall-census/: the
# driver's ioctls, AF_UNIX sockets, symlink, sysinfo unless
# SANDBOX_GPU_REFUSES_SYSINFO in src/base/sandbox.h).  The naive gemm runs
# ok sealed (planner and timing worker boxes) and trust: host (the CUDA
# worker's box); gpufilter_probe's init makes what the census kept
# (succeeds) and what it never saw (perf_event_open, inotify,
# process_vm_readv, AF_INET and AF_ALG sockets, socketpair, fork, shmget,
# getsockopt, rename, an unknown call, file locks on /dev/null: each
# refused; the driver's compute cache off, CUDA_CACHE_DISABLE=1) and fails
# naming any the filter got wrong; ok in both boxes.  Under the deny list before it
# the probe is predicted init_failed (not run), naming perf_event_open,
# socketpair, shmget, getsockopt, rename and the unknown call (allowed
# there).  Each probe's log line says what sysinfo answered.
. "$REPO/tests/cli/lib.sh"
plain_pass "a GPU test: the plain build is what a GPU host runs, and its timings are judged without ASan's overhead"
runs_alone_machine "shares the one GPU: another process's kernels beside its timed samples move its medians"
need_gpu
mkrepo git
"$EVIDENT" run --no-progress tests/fixtures/specs/cuda-gpufilter.yaml >run.txt 2>&1
rc=$?
[ $rc = 0 ] || { cat run.txt; fail "the run failed (exit $rc)"; }
for v in honest honest_host probe probe_host; do
	grep -qE "^$v +ok " run.txt || { cat run.txt; fail "$v is not ok under the GPU box's allow list"; }
done
for v in probe probe_host; do
	run=$(grep -l "\"variant\": \"$v\"" artifacts/runs/*.json | grep -v batch | head -1)
	[ -n "$run" ] || fail "no record of $v"
	"$EVIDENT" show --log "$(basename "$run" .json)" >"$v.log" 2>&1
	grep -q "gpufilter_probe: .*wrong: none;" "$v.log" || { cat "$v.log"; fail "$v: the probe found the filter wrong, or logged nothing"; }
	grep "gpufilter_probe: " "$v.log" | head -1 | sed "s/^/$v: /"
done
exit 0
