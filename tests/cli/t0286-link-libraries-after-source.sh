# t0286 - red team 212 (tests/fixtures/adversary/host/redteam212/README.md
# row 2): a spec's -lNAME went before the kernel's source in the compile
# command, and Debian's gcc links --as-needed, so the library was dropped
# and an honest BLAS kernel was launch_failed ("undefined symbol:
# cblas_sgemv"), boxed and unboxed.  Now a library flag follows the
# source: the BLAS and hwloc kernels are ok.
. "$REPO/tests/cli/lib.sh"
ls /usr/lib/*/libblas.so* >/dev/null 2>&1 || skip "no libblas here (apt-get install libblas-dev)"
ls /usr/lib/*/libhwloc.so.15 >/dev/null 2>&1 || skip "no libhwloc.so.15 here (apt-get install libhwloc15)"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam212-libs.yaml
expect_match "$TEST_TMP/out" "^blas +ok"
expect_match "$TEST_TMP/out" "^hwloc +ok"
