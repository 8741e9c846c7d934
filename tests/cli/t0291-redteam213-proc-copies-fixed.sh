# t0291 - red team 213 (tests/fixtures/adversary/host/redteam213/
# README.md rows 2 and 3): a host box's /proc/meminfo was a copy read as
# the box started, the host's memory at that moment; a box that wrote
# stdout moved Cached by the ~4 MB the runner keeps, and the next box
# read the bit: eval promoted copies of a self-slowing incumbent 7 of 8.
# Now every box of one runner shows the copies it read once, at
# sandbox_init: a's three boxes, between w's 8 MB of stdout each, read
# the same MemFree, Cached, Dirty and Shmem.  Fails before: MemFree
# differs box to box (kB, live).
. "$REPO/tests/cli/lib.sh"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam213-meminfo3.yaml
expect_contains "$TEST_TMP/out" "a: init_failed"
n=$(grep -l '"variant": "a"' artifacts/runs/*.json | grep -cv batch)
[ "$n" = 3 ] || fail "expected 3 records of a, found $n"
grep -l '"variant": "a"' artifacts/runs/*.json | grep -v batch |
	xargs grep -h -o 'MemFree: *[0-9]* kB; MemAvailable: *[0-9]* kB; Cached: *[0-9]* kB' | sort | uniq -c > "$TEST_TMP/mem"
[ "$(wc -l < "$TEST_TMP/mem")" = 1 ] || { cat "$TEST_TMP/mem"; fail "a's boxes read different /proc/meminfo"; }
grep -q "^ *3 " "$TEST_TMP/mem" || { cat "$TEST_TMP/mem"; fail "not every box of a dumped /proc/meminfo"; }
