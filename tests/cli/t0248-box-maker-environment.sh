# t0248: the verified bubblewrap is the one that runs, and a runner whose
# own process its environment changes does not vouch for its boxes (red
# team 134).  Before: (1) EVIDENT_BWRAP naming a link to /usr/bin/bwrap,
# re-pointed at a stand-in after the hash, ran the stand-in (every box ran
# by the name); (2) an LD_PRELOAD'd realpath() made the runner hash
# /usr/bin/bwrap and run a stand-in; (3) a seccomp filter on the runner
# that refuses ptrace turned the filter read-back off, silently, on a root
# runner.  Each recorded the boxes as verified and the audit supported a
# faster claim for a kernel honestly 0.196x.  Now: every box runs the real
# path that was hashed; a runner with LD_PRELOAD or LD_AUDIT set, or a
# root runner that cannot read its boxes' filters back, is refused unless
# EVIDENT_BWRAP_UNVERIFIED=1 (and then its records count for nothing).
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
command -v cc >/dev/null 2>&1 || skip "no C compiler"
[ -x /usr/bin/bwrap ] || skip "no /usr/bin/bwrap (the Debian package's, which dpkg lists)"
mkrepo
S=tests/fixtures/specs/tiny.yaml
D=$PWD/tests/fixtures/adversary/host/redteam134

# (1) a link to the real one, re-pointed at a stand-in once the runner
# has hashed it: the boxes run the hashed file, the stand-in never runs
printf '#!/bin/sh\necho ran >>"%s"\nexec /usr/bin/bwrap "$@"\n' "$TEST_TMP/ran" >"$TEST_TMP/bwrap-pass"
chmod +x "$TEST_TMP/bwrap-pass"
ln -s /usr/bin/bwrap "$TEST_TMP/bwlink"
# the link re-pointed as soon as the first worker box (after both of the
# runner's hashes) is seen, then every later box
python3 - "$TEST_TMP/bwlink" "$TEST_TMP/bwrap-pass" "$EVIDENT" "$S" >"$TEST_TMP/out1" 2>&1 <<'PY' ||
import os, subprocess, sys, time
link, standin, ev, spec = sys.argv[1:5]
p = subprocess.Popen([ev, "run", "--no-progress", spec], env=dict(os.environ, EVIDENT_BWRAP=link))
swapped = False
def below(d, top):
    # d is a descendant of top (other tests' workers run beside this one)
    for _ in range(64):
        try:
            ppid = int([l for l in open("/proc/%s/status" % d) if l.startswith("PPid:")][0].split()[1])
        except (OSError, IndexError, ValueError):
            return False
        if ppid == top:
            return True
        if ppid <= 1:
            return False
        d = str(ppid)
    return False
while p.poll() is None and not swapped:
    for d in os.listdir("/proc"):
        try:
            args = open("/proc/%s/cmdline" % d, "rb").read().split(b"\0") if d.isdigit() else []
        except OSError:
            continue
        if b"__worker" in args and below(d, p.pid):
            os.symlink(standin, link + ".new")
            os.rename(link + ".new", link)
            swapped = True
            break
    time.sleep(0.001)
print("swapped" if swapped else "never swapped")
sys.exit(p.wait())
PY
	{ cat "$TEST_TMP/out1"; fail "the run behind the link exited $?"; }
expect_contains "$TEST_TMP/out1" "swapped"
[ ! -e "$TEST_TMP/ran" ] || fail "a box was made by the stand-in the link was re-pointed at"
R=$(ls artifacts/runs/*.json | grep -v -- '-batch.json$' | head -1)
expect_match "$R" "\"binary\": \"/usr/bin/bwrap\""

# (2) the runner itself preloaded: not verified, refused
cat >"$TEST_TMP/shim.c" <<'C'
int evident_t0248_shim;
C
cc -shared -fPIC -o "$TEST_TMP/shim.so" "$TEST_TMP/shim.c" || fail "the shim"
rm -rf artifacts
# (under ASan the runtime must come first: the sanitized pass says not to check)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 LD_PRELOAD=$TEST_TMP/shim.so expect_exit 3 "$EVIDENT" run --no-progress "$S"
expect_contains "$TEST_TMP/err" "is not one this runner can verify: the runner itself runs with LD_PRELOAD=$TEST_TMP/shim.so, whose code can answer for what it hashes"
[ -z "$(ls artifacts/runs 2>/dev/null)" ] || fail "runs were recorded by a preloaded runner"

# (3) a root runner that may not trace its boxes: refused
if [ "$(id -u)" = 0 ]; then
	cc -O2 -o "$TEST_TMP/noptrace" "$D/noptrace.c" || fail "noptrace"
	# (LeakSanitizer's exit scan needs ptrace: off in the sanitized pass)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 "$TEST_TMP/noptrace" "$EVIDENT" run --no-progress "$S" >"$TEST_TMP/out3" 2>&1
	expect_eq "$?" 3 "a root runner that cannot read its boxes' filters back"
	expect_contains "$TEST_TMP/out3" "this runner is root but cannot read its boxes' seccomp filters back"
else
	echo "note: not root: the read-back is unavailable here by design (the record says why)"
fi
exit 0
