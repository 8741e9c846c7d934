# A batch records the runner's cpu cgroup where the host has cgroup v1
# controllers beside v2's line (red team 158): provenance.c read only the
# "0::" line, which says "/" on such a hybrid host while the runner sat
# in a v1 cpu cgroup of its own, so every batch said cgroup "/" and the
# pool's share note (gather.c) stayed silent.  Needs root and a v1 cpu
# hierarchy at /sys/fs/cgroup/cpu (skips, saying so, elsewhere).
. "$REPO/tests/cli/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "not root: cannot make a cpu cgroup"
grep -qE '^[0-9]+:([^:]*,)?cpu(,[^:]*)?:' /proc/self/cgroup || skip "no cgroup v1 cpu controller on this host"
[ -d /sys/fs/cgroup/cpu ] || skip "no v1 cpu hierarchy at /sys/fs/cgroup/cpu"
cg=/sys/fs/cgroup/cpu/evident-t0263-$$
mkdir "$cg" 2>/dev/null || skip "cannot make $cg"
trap 'rmdir "$cg" 2>/dev/null' EXIT
mkrepo
expect_exit 0 sh -c 'echo $$ > "$1/cgroup.procs" && exec "$2" run --no-progress "$3"' sh "$cg" "$EVIDENT" "$REPO/tests/fixtures/specs/tiny.yaml"
b=$(sed -n 's/^records: .* batch \([^ ]*\) in .*/\1/p' "$TEST_TMP/out")
[ -n "$b" ] || fail "no batch id"
got=$(python3 -c "import json; print(json.load(open('artifacts/runs/$b.json'))['machine']['cgroup'])")
[ "$got" = "/evident-t0263-$$" ] || fail "machine.cgroup is '$got', expected /evident-t0263-$$"
