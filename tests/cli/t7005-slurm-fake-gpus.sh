# t7005 - GPU binding without GPUs: a node with 4 fake GPUs (gres.conf
# AutoDetect=off, File= device nodes that are /dev/null underneath) gives a
# task of `--gres=gpu:1` one CUDA_VISIBLE_DEVICES index, tasks that run at
# the same time get different ones, `--gres=gpu:2` gets two ("0,1"), and a
# job that asks for none has no CUDA_VISIBLE_DEVICES at all; a request for
# more GPUs than the node has is refused at submission
. "$REPO/tests/cli/lib.sh"
. "$REPO/tests/cli/slurm-lib.sh"
slurm_once
slurm_up --cpus 4 --gpus 4
grep -q '^NodeName=.* File=' "$SLURM_DIR/gres.conf" || skip "mknod is not allowed here, so the fake GPUs have no device numbers"
expect_eq "$(sinfo -h -o %G)" "gpu:4" "the node's GRES"
mkdir -p shared work && cd work || fail "mkdir"
export SHARED=$TEST_TMP/shared
cat > task.sh <<'SH'
#!/bin/bash
name=${SLURM_ARRAY_TASK_ID:+task$SLURM_ARRAY_TASK_ID}
echo "${CUDA_VISIBLE_DEVICES-unset} ${SLURM_JOB_GPUS-unset} ${SLURM_GPUS_ON_NODE-unset}" > "$SHARED/${name:-$1}"
# hold the GPU until all four tasks have theirs, so that they overlap
for _ in $(seq 50); do [ "$(ls "$SHARED" | grep -c '^task')" -ge 4 ] && break; sleep 0.1; done
SH
chmod +x task.sh
arr=$(slurm_submit --array=0-3 --gres=gpu:1 -o /dev/null task.sh)
two=$(slurm_submit --gres=gpu:2 -o /dev/null task.sh two)
none=$(slurm_submit -o /dev/null task.sh none)
slurm_wait_job "$arr" 30; slurm_wait_job "$two" 30; slurm_wait_job "$none" 30
for i in 0 1 2 3; do
	read -r cvd jobgpus n < "$SHARED/task$i" || fail "task $i wrote nothing"
	[[ $cvd =~ ^[0-3]$ ]] || fail "task $i: CUDA_VISIBLE_DEVICES='$cvd'"
	expect_eq "$jobgpus $n" "$cvd 1" "task $i: SLURM_JOB_GPUS and SLURM_GPUS_ON_NODE"
done
expect_eq "$(cut -d' ' -f1 "$SHARED"/task? | sort -u | wc -l)" 4 "four tasks at once hold four different GPUs"
read -r cvd jobgpus n < "$SHARED/two"
[[ $cvd =~ ^[0-3],[0-3]$ ]] && [ "${cvd%,*}" != "${cvd#*,}" ] || fail "--gres=gpu:2: CUDA_VISIBLE_DEVICES='$cvd'"
expect_eq "$jobgpus $n" "$cvd 2" "--gres=gpu:2: SLURM_JOB_GPUS and SLURM_GPUS_ON_NODE"
expect_eq "$(cat "$SHARED/none")" "unset unset unset" "no --gres: no GPU variables"
expect_eq "$(slurm_field "${arr}_0" TresPerNode)" "gres:gpu:1" "scontrol's TresPerNode"
expect_exit 1 sbatch --parsable --gres=gpu:5 -o /dev/null task.sh
expect_contains "$TEST_TMP/err" "Requested node configuration is not available"
exit 0
