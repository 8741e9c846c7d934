# t0268: the host clock's handshake is measured before the worker loads
# the kernel (protocol 6, calibrate_ready; host_clock.c
# host_clock_calibrate), so a kernel cannot inflate it.  Red team 168's
# hsnap (tests/fixtures/adversary/host/redteam168/README.md) rewires the
# worker's read() in its untimed init() to sleep 20 ms on every null
# round: measured after init(), its runs' handshake was 20 ms, and rule 0e
# (stats.h) held every comparison closer than that inconclusive: as the
# baseline it denied an honest 2.6x faster challenger its verdict 3 of 3,
# and eval never promoted it 4 of 4; a 2.6x slower hsnap was never
# recorded slower 4 of 4.  Now: the recorded handshake is the null rounds'
# before the kernel loaded, the napping rounds are recorded apart
# (handshake_loaded_us), and no comparison of these is held by rule 0e.
# (The verdicts themselves are the other rules' on a busy machine; the
# property read here is rule 0e's reason, and a decided verdict's side.)
. "$REPO/tests/cli/lib.sh"
plain_pass "hsnap rewires the plain worker's GOT slot for read(); the sanitized worker's read() is ASan's interceptor, linked in, so its nap never arms there (make test, 2026-12-04: loaded rounds 154 us)"
case "$EVIDENT" in *build-san/*) skip "hsnap's nap cannot arm in the sanitized worker (read() is ASan's, linked in)" ;; esac
runs_alone "timed verdicts of host kernels"
mkrepo
for s in incumbent slownap; do
	expect_exit 0 "$EVIDENT" run --no-progress "tests/fixtures/specs/host-redteam168-$s.yaml"
	cp "$TEST_TMP/out" "$s.txt"
done
expect_not_contains incumbent.txt "(within the handshake)"
expect_not_contains slownap.txt "(within the handshake)"
expect_match incumbent.txt '^naive +ok .*x \[.*\] +[0-9.e-]+ +(faster|inconclusive)'
expect_match slownap.txt '^slownap +ok .*x \[.*\] +[0-9.e-]+ +(slower|inconclusive)'
for r in $(ls artifacts/runs | grep -v -- '-batch.json$'); do
	"$EVIDENT" show --json "${r%.json}" >"run-${r%.json}.json" || fail "show --json $r"
done
python3 - <<'PY' || fail "the handshake was not measured before the kernel loaded"
import glob, json, statistics, sys
hs, loaded = {}, {}
for f in glob.glob("run-*.json"):
    r = json.load(open(f))
    m = (r.get("timing") or {}).get("method") or {}
    if "handshake_us" not in m:
        continue
    hs.setdefault(r["variant"], []).append(m["handshake_us"])
    loaded.setdefault(r["variant"], []).append(m.get("handshake_loaded_us", 0))
for v in ("incumbent", "slownap"):
    h, l = statistics.median(hs[v]), statistics.median(loaded[v])
    print(f"{v}: handshake {h:.1f} us, with its code loaded {l:.1f} us")
    if not l > 15000:
        sys.exit(f"{v}'s null rounds with its code loaded took {l:.1f} us: the nap did not arm")
    if not h < 10000:
        sys.exit(f"{v}'s recorded handshake is {h:.1f} us: the kernel's nap")
PY
