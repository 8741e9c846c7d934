# t0318 - red team 267 (host/redteam267/README.md): a host kernel's timed
# box has had no procfs since red team 210, but its untimed jobs (the
# extra shape) ran in a box with a procfs of its own, where
# stat("/proc/self/fd/3") read the runner's pipe inode, a value of the
# host's get_next_ino() counter, in 10 of 10 extra-shape boxes (procx.c's
# init refuses the extra shape where it reads one, and says so).  Now
# every box of a host kernel has the timed box's view (kexec.c
# kexec_host_in_process): the extra shape is checked.  About 15 s.
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
EVIDENT_STORE=$TEST_TMP/s "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam267-procx.yaml > run.out 2>&1
cat run.out
expect_match run.out "^procx +ok "
grep -q "PROCX" run.out && fail "a host kernel's extra-shape box read a procfs inode"
n=0
for r in $("$EVIDENT" ls --store "$TEST_TMP/s" | awk '$1 ~ /procx/ { print $1 }'); do
	"$EVIDENT" show --store "$TEST_TMP/s" --json "$r" | python3 -c 'import json, sys
d = json.load(sys.stdin)
e = (d.get("correctness") or {}).get("extra_shape") or {}
print(e.get("status"), e.get("reason"))' > es.out
	grep -q "^checked" es.out || { cat es.out; fail "run $r: the extra shape was not checked"; }
	n=$((n + 1))
done
[ $n -ge 2 ] || fail "no procx runs found ($n)"
exit 0
