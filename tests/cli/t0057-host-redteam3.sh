# The third red team's host cheats (tests/fixtures/adversary/host/
# redteam3/README.md).  At 303dd36 all six were ok, and: sysctl_escape
# rewrote the host's kernel.core_pattern from the box (as root, the way
# to run any command on the host), host_files copied /etc/shadow's size,
# a file outside the box and a variable of the runner's environment into
# its stored log, check_spy2 told the checked samples from the others by
# the host's page-fault counter, asm_paste built a repository file its
# record does not name into its binary, cache_borrow ran another
# variant's object from the build cache as its own code, mem_hide held
# memory the OOM killer does not see (it would have killed the runner
# first).  Now: every entry of the box's /proc but its processes is read-only, the box shows the system's
# software and the worker's own objects (not the host's files, the cache
# or the repository), the worker gets a few of the runner's variables,
# the parent's work between samples does not depend on its draw, the
# compiler sees only the repository files its dependency list names
# (asm_paste: build_failed), and a kernel's process is the OOM killer's
# first choice.
. "$REPO/tests/cli/lib.sh"
runs_alone "reads the host's page-fault counter between samples, which other tests' work would move"
builds_from_nothing "its subject is the build box: the compiler sees only the files its dependency list names"
mkrepo
# a file outside the box, beside the runner's own directory (host_files
# looks there), and a variable of the runner's environment
planted_dir=$(cd "$(dirname "$EVIDENT")/.." && pwd)/build
mkdir -p "$planted_dir" || fail "cannot make $planted_dir"
file_token="file-token-$$-$RANDOM$RANDOM"
env_token="env-token-$$-$RANDOM$RANDOM"
planted="$planted_dir/redteam3-secret-$$"
echo "$file_token" > "$planted" || fail "cannot plant $planted"
trap 'rm -f "$planted"' EXIT
# (LD_LIBRARY_PATH's directories are shown to the box, but never / itself)
REDTEAM3_SECRET="$env_token" LD_LIBRARY_PATH=/ "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam3.yaml > "$TEST_TMP/out" 2>&1
rm -f "$planted"
grep "UNEXPECTED" "$TEST_TMP/out" && fail "a cheat did not get its expected outcome"
expect_match "$TEST_TMP/out" "^asm_paste +build_failed"
: > "$TEST_TMP/logs"
for r in $(grep -l '"experiment": "host-redteam3"' artifacts/runs/*.json | grep -v batch); do
	"$EVIDENT" show --log "$(basename "$r" .json)" >> "$TEST_TMP/logs" 2>&1
done
grep -q "host_files" "$TEST_TMP/logs" || fail "host_files left no log"
expect_not_contains "$TEST_TMP/logs" "sysctl_escape: WROTE"
expect_not_contains "$TEST_TMP/logs" "$file_token"
expect_not_contains "$TEST_TMP/logs" "$env_token"
expect_not_contains "$TEST_TMP/logs" "host_files: LEAK"
grep -q "cache_borrow: nothing to borrow" "$TEST_TMP/logs" || fail "cache_borrow ran another kernel's object as its own"
# mem_hide holds 128 MiB outside its resident size: it must be the OOM
# killer's first choice (the highest oom_score_adj there is), as the
# parent read it from the worker's /proc entry (a host kernel's boxes have
# no /proc of their own since red team 267: mem_hide reads none there)
grep -q "mem_hide: holding" "$TEST_TMP/logs" || fail "mem_hide left no log"
n=0
for r in $(grep -l '"variant": "mem_hide"' artifacts/runs/*.json | grep -v batch); do
	expect_eq "$(jget "$r" "d['judge']['sandbox']['oom_score_adj']")" "1000" "mem_hide's worker's oom_score_adj ($r)"
	n=$((n + 1))
done
[ $n -ge 1 ] || fail "no record of mem_hide"
# check_spy2: the page faults between samples must not tell the checked
# ones (the record's timed checks) from the others
r=$(grep -l '"variant": "check_spy2"' artifacts/runs/*.json | grep -v batch | head -1)
[ -n "$r" ] || fail "no record of check_spy2"
grep "check_spy2: gap " "$TEST_TMP/logs" > "$TEST_TMP/gaps"
# (since red teams 33 and 57 a box's /proc/vmstat is /dev/null: no
# counter to read, no gap printed; where one is, it must not tell)
[ -s "$TEST_TMP/gaps" ] && python3 - "$r" "$TEST_TMP/gaps" <<'P' || [ ! -s "$TEST_TMP/gaps" ] || fail "check_spy2 told the checked samples from the others"
import json, sys
d = json.load(open(sys.argv[1]))
# "check_spy2: gap I N" lines, one a timed launch after the first
g = {}
for line in open(sys.argv[2]):
    w = line.split()
    g[int(w[2])] = int(w[3])
gaps = [g[i] for i in range(len(g)) if i in g]
# every timed sample (the stress distributions' too: timing.by_dist), not just the time's
bd = d['timing'].get('by_dist')
n = sum(x['n'] for x in bd.values()) if bd else d['timing']['n']
warm = d['timing']['method']['warmup_launches']
checked = {c['sample'] for c in d['correctness']['checks'] if c['phase'] == 'timed'} - {n - 1}
after = {s: gaps[warm + s] for s in range(n - 1) if warm + s < len(gaps)}
if len(after) < n - 1 or not checked:
    sys.exit('check_spy2 printed %d gaps for %d samples' % (len(gaps), n))
hit = sum(after[s] >= 4 for s in checked) / len(checked)
rest = [s for s in after if s not in checked]
false = sum(after[s] >= 4 for s in rest) / len(rest)
print('check_spy2: %.2f of the checked samples and %.2f of the others had 4 or more faults after them' % (hit, false))
sys.exit(1 if hit - false >= 0.5 else 0)
P
