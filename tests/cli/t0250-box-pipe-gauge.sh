# t0250: a host box holds too few descriptors to read the host's pipe
# pages (red team 134's pipecount: every new pipe is charged 16 pages to
# its user host-wide, past pipe-user-pages-soft, 16384, a new pipe gets 2
# pages, and F_GETPIPE_SZ tells which; a box that made pipes until one
# read 8 KiB learned every root process's pipe pages: 976 alone, 469
# beside 32 MiB held, and made every pipe root opened meanwhile 8 KiB).
# A host box's RLIMIT_NOFILE is 256 (runcmd.h RUN_HOST_BOX_NOFILE), soft
# and hard: the gauge stops at EMFILE with every pipe full-sized, and the
# record says the limit.  Before: "pipes 976, the last 8192 bytes".
. "$REPO/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam134-pipecount.yaml
expect_contains "$TEST_TMP/out" "pipes: init_failed - init: pipes "
# since red team 210 the host worker's own filter refuses pipes (their
# inode numbers are get_next_ino()'s, a host-wide counter): no pipe at
# all, so no gauge of root's pipe pages either
expect_contains "$TEST_TMP/out" "pipes: init_failed - init: pipes 0, the last -1 bytes (Operation not permitted); nofile 256;"
python3 - artifacts/runs/*.json <<'PY' || fail "a record does not say its box's descriptor limit"
import json, sys
for f in sys.argv[1:]:
    if f.endswith("-batch.json"):
        continue
    sb = json.load(open(f))["judge"]["sandbox"]
    assert sb["nofile"]["limit"] == 256, (f, sb.get("nofile"))
PY
exit 0
