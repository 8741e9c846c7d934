# Red team 95's ptycount (tests/fixtures/adversary/host/redteam95/README.md)
# opened /dev/ptmx in a host box until the host refused: 3071 ptys in 62
# ms, every pty of the host's pool beyond kernel.pty.reserve, which every
# container and box on the host shares.  Now bubblewrap's devpts is
# hidden under an empty read-only tmpfs in every box (sandbox.c
# push_dev): the box opens none, and the kernel still runs (ok).
. "$REPO/tests/cli/lib.sh"
mkrepo
expect_exit 0 "$EVIDENT" run --no-progress tests/fixtures/specs/host-redteam95-pty.yaml
expect_match "$TEST_TMP/out" "^pty +ok "
r=$(ls artifacts/runs/*.json | grep -v batch | head -1)
"$EVIDENT" show --log "$(basename "$r" .json)" > "$TEST_TMP/log" 2>&1 || fail "show --log"
expect_contains "$TEST_TMP/log" "ptycount: opened 0 ptys"
expect_not_contains "$TEST_TMP/log" "then: No space left on device"
