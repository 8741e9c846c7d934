# t0253: the process the runner judges and clocks is the box it talks to,
# and its worker maps only what the runner put in its box (red team 135,
# two stand-ins for bubblewrap let run by EVIDENT_BWRAP_UNVERIFIED=1):
#  - bwrap-decoy ran the real box elsewhere on the runner's channel and
#    let the runner find a decoy box with pipes of its own: the runner
#    stopped and clocked the decoy (early.c ok at 10.5x; through a
#    hand-made dist, 6.534x `faster`, supported).  Now the box's worker
#    must hold the runner's answer pipe (its descriptor 4, by inode),
#    read from outside at the hello: refused, exit 6, nothing recorded;
#  - bwrap-preload added a shim to the box's root with LD_PRELOAD, whose
#    dlopen() loaded another kernel than the one hashed at its path
#    (slow.c ok at 2.75x `faster`).  Now every file a host box's worker
#    maps at its hello must be one its argv put there: refused, exit 6;
#  - bwrap-checkswap gave a wrong kernel's checker a plug-in as wrong
#    (eighth.c ok at 3.43x): the checker's box is read from outside too
#    (the problem's object by content, a host box's mappings): exit 6;
#  - red team 137's bwrap-memfd preloaded a shim passed as a memfd: a
#    mapped memfd must be one the runner passed (by inode), and the
#    worker's environment may preload or audit nothing: exit 6.
. "$REPO/tests/cli/lib.sh"
plain_pass "an ASan worker refuses a preloaded shim itself, before its hello (ASan's link-order check), so the sanitized pass cannot show the runner refusing it"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
[ -x /usr/bin/bwrap ] || skip "no /usr/bin/bwrap (the Debian package's, which dpkg lists)"
mkrepo
D=$PWD/tests/fixtures/adversary/host/redteam135
norecords() { [ -z "$(ls "$1"/runs 2>/dev/null)" ] || fail "runs were recorded: $(ls "$1"/runs)"; }
EVIDENT_BWRAP_UNVERIFIED=1 EVIDENT_BWRAP=$D/bwrap-decoy \
	expect_exit 6 "$EVIDENT" run --no-progress --store decoy tests/fixtures/specs/host-redteam135-decoy.yaml
expect_contains "$TEST_TMP/err" "bwrap-decoy' made gives its worker another pipe than the runner's as its answer pipe: descriptor 4 is pipe:["
norecords decoy
cc -O2 -shared -fPIC -o "$TEST_TMP/dlswap.so" "$D/dlswap.c" -ldl || fail "cc dlswap"
cc -O2 -std=c11 -shared -fPIC -I./kernels -o "$TEST_TMP/fast134.so" tests/fixtures/adversary/host/redteam134/fast.c || fail "cc fast"
EVIDENT_RT135_SHIM=$TEST_TMP/dlswap.so EVIDENT_RT135_ALT=$TEST_TMP/fast134.so EVIDENT_BWRAP_UNVERIFIED=1 EVIDENT_BWRAP=$D/bwrap-preload \
	expect_exit 6 "$EVIDENT" run --no-progress --store preload tests/fixtures/specs/host-redteam134-swapobj.yaml
expect_contains "$TEST_TMP/err" "bwrap-preload' made maps in its process a file the runner did not put there: /usr/lib/x86_64-linux-gnu/rt135-dlswap.so"
norecords preload
# bwrap-checkswap gave the checker of eighth.c's runs (a wrong rowsum) a
# plug-in whose reference is as wrong: eighth ok at 3.43x "faster".  Now
# the checker's box is read from outside too at its first line: the
# problem's object by content, a host box's mappings.
cc -O2 -std=c11 -shared -fPIC -I./problems -I./kernels -o "$TEST_TMP/rowsum-eighth.so" "$D/rowsum_eighth_problem.c" || fail "cc eighth"
EVIDENT_RT135_PROBLEM=$TEST_TMP/rowsum-eighth.so EVIDENT_RT135_ONLY=rt135_eighth EVIDENT_BWRAP_UNVERIFIED=1 EVIDENT_BWRAP=$D/bwrap-checkswap \
	expect_exit 6 "$EVIDENT" run --no-progress --store checkswap tests/fixtures/specs/host-redteam135-checkswap.yaml
expect_contains "$TEST_TMP/err" "error: the checker's box: the box that bubblewrap '$D/bwrap-checkswap' made shows its checker another problem object than the runner built: "
# red team 137's bwrap-memfd passed the shim and the other object as
# memfds and set LD_PRELOAD=/proc/self/fd/200 (slow.c ok at 3.337x,
# promoted by eval): a memfd the worker maps must be one the runner passed
# (by inode), and its environment may preload or audit nothing the
# runner's does not
D7=$PWD/tests/fixtures/adversary/host/redteam137
cc -O2 -shared -fPIC -o "$TEST_TMP/memshim.so" "$D7/memshim.c" -ldl || fail "cc memshim"
EVIDENT_RT137_SHIM=$TEST_TMP/memshim.so EVIDENT_RT137_ALT=$TEST_TMP/fast134.so EVIDENT_BWRAP_UNVERIFIED=1 EVIDENT_BWRAP=$D7/bwrap-memfd \
	expect_exit 6 "$EVIDENT" run --no-progress --store memfd tests/fixtures/specs/host-redteam137-memfd.yaml
# (a host box has no /proc since red team 210: the preload through
# /proc/self/fd/200 finds nothing, and the memfds it left are the
# descriptors the runner did not pass)
expect_match "$TEST_TMP/err" "bwrap-memfd' made (maps in its process a file the runner did not put there: /memfd:rt137-|hands its worker descriptors the runner did not pass: 200 \(/memfd:rt137-shim)"
norecords memfd
cat >"$TEST_TMP/bwrap-env" <<'PY'
#!/usr/bin/env python3
import os, sys
a = sys.argv[1:]
if "__worker" in a:
    i = a.index("--remount-ro") if "--remount-ro" in a else 0
    a = a[:i] + ["--setenv", "LD_PRELOAD", "/nonexistent-rt137.so"] + a[i:]
os.execv("/usr/bin/bwrap", ["/usr/bin/bwrap"] + a)
PY
chmod +x "$TEST_TMP/bwrap-env"
EVIDENT_BWRAP_UNVERIFIED=1 EVIDENT_BWRAP=$TEST_TMP/bwrap-env \
	expect_exit 6 "$EVIDENT" run --no-progress --store env tests/fixtures/specs/tiny.yaml
expect_contains "$TEST_TMP/err" "bwrap-env' made sets in its worker's environment LD_PRELOAD=/nonexistent-rt137.so, which the runner did not"
norecords env
exit 0
