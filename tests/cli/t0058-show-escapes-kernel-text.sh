# t0058: a kernel's own text (its compiled parameters, its log) reaches
# the reader's terminal as visible \xNN escapes, never as raw control bytes
# that could clear the screen, retitle the terminal or overwrite a line
# (red team 3, host: kernel strings were printed unescaped).  The stored
# log keeps the bytes as written; --diff stays raw (a patch must apply).
. "$REPO/tests/cli/lib.sh"
mkrepo
cat >t.yaml <<'EOF'
name: term
question: Does show print a kernel's control bytes as escapes?
problem: attention_fwd
backend: host
shape: {B: 1, H: 1, S: 16, D: 8}
baseline: base
variants:
  base: {kernel: tests/fixtures/host/term_escape.c}
  refused: {kernel: tests/fixtures/host/term_escape.c, FAIL_INIT: 1, expect: init_failed}
repeats: 1
correctness: {seeds: 1}
timing: {warmup_ms: 1, samples: 5, cache: hot}
limits: {timeout_s: 20}
EOF
expect_exit 0 "$EVIDENT" run --repeats 1 t.yaml
# an init failure's reason is the kernel's text too: escaped in the summary
expect_contains "$TEST_TMP/out" 'refused \x1b[2J\x1b]0;owned\x07 here'
python3 - "$TEST_TMP/out" <<'PY' || fail "the summary printed a raw control byte"
import sys
b = open(sys.argv[1], "rb").read()
bad = [c for c in b if (c < 0x20 and c not in (0x0a, 0x09)) or c == 0x7f]
assert not bad, bad[:5]
PY
RUN=$("$EVIDENT" ls --json | python3 -c "import json,sys; print([r['run_id'] for r in json.load(sys.stdin) if r['kind']=='run' and r.get('variant')=='base'][-1])")
[ -n "$RUN" ] || fail "no run recorded"
expect_exit 0 "$EVIDENT" show "$RUN"
expect_contains "$TEST_TMP/out" 'TERM=\x1b[2Jx'
python3 - "$TEST_TMP/out" <<'PY' || fail "show printed a raw control byte"
import sys
b = open(sys.argv[1], "rb").read()
bad = [c for c in b if (c < 0x20 and c not in (0x0a, 0x09)) or c == 0x7f]
assert not bad, bad[:5]
PY
expect_exit 0 "$EVIDENT" show --log "$RUN"
expect_contains "$TEST_TMP/out" 'log line \x1b[2J\x1b]0;owned\x07 and\x0dOVERWRITE'
python3 - "$TEST_TMP/out" <<'PY' || fail "show --log printed a raw control byte"
import sys
b = open(sys.argv[1], "rb").read()
bad = [c for c in b if (c < 0x20 and c not in (0x0a, 0x09)) or c == 0x7f]
assert not bad, bad[:5]
PY
# the record keeps the kernel's bytes as they were: escaping is display only
expect_exit 0 "$EVIDENT" show --json "$RUN"
python3 - "$TEST_TMP/out" <<'PY' || fail "the record lost the kernel's bytes"
import json, sys
r = json.load(open(sys.argv[1]))
def strings(o):
    if isinstance(o, dict):
        for v in o.values(): yield from strings(v)
    elif isinstance(o, list):
        for v in o: yield from strings(v)
    elif isinstance(o, str):
        yield o
assert any("TERM=\x1b[2Jx" in s for s in strings(r)), "compiled params not kept as written"
PY
