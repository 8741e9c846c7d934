# t0060: the record module owns the record's keys.  No C file under src/
# outside src/record/ may read or write a run or batch record's JSON, or
# spell a path into it; everything else reads typed records (record.h,
# query.h).  A violation fails naming FILE:LINE.
#
# The rule is about the OBJECT, not the word, so that the many words the
# record shares with other documents ("name", "path", "reason", "pass",
# "seed", "outcome"...) need no list of exceptions that could hide a real
# record read:
#
#  1. Record JSON.  A record's JSON is a manifest obtained with store_load()
#     or query_manifest_at(), a record made by record_run_json() or
#     record_batch_json(), a typed record's `raw`, and everything reached from
#     one: members and elements (json_object_get, json_array_get, the
#     json_*_foreach loops), copies, plain assignments, the parameters of
#     any function in src/ it is passed to, and what a function returns
#     when it returns one.  Any json_object_get / json_object_set* /
#     json_object_del / json_object_iter_at / json_unpack on record JSON is
#     a violation, whatever its key - except the store's envelope: the keys
#     store_commit() (src/store/store.c) itself writes on every manifest
#     (run_id, prev, digest; derived from that function, not listed here).
#     The worker protocol, JOB.json, the checker's messages, the build
#     cache's info.json, sanitize.c's verdict, NVML and device documents,
#     cost.c's price, the store's pending markers, export's columns and
#     `evident stats --json` are other documents: reading or writing them
#     never touches record JSON, so they pass without being named.
#     Documents the record embeds verbatim (machine, device, settings,
#     timing method, load, Slurm) stay their owners' and may be read from
#     a typed record's member of that name.  (One member is not such a
#     document: run_record.gpu_state is a {before, after, throttled}
#     wrapper whose keys the record writer spells, and src/run/job.c builds
#     it; once the struct holds before and after itself, add gpu_state to
#     ALWAYS below.)
#
#  2. Record paths.  The record keys are derived from the record writers
#     (the literal keys of json_object_set* calls in src/record/*.c).  A
#     string literal "a.b[.c...]" outside src/record/ whose every part is a
#     record key ("comparison.speedup.ratio", "code.git.commit") is a
#     query-style path into a record, whichever function it is given to.
#     Setting names of the spec ("timing.samples") are built from
#     backends/knobs.h, never spelled, so they cannot collide.
#
# The checker first proves itself on a small fixture tree with planted
# violations and planted look-alikes that must pass, then runs on src/.
. "$REPO/tests/cli/lib.sh"
plain_pass_only "it reads src/, never runs evident"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"

cat >check.py <<'PY'
import os, re, sys

root = sys.argv[1]

def files_under(d):
    out = []
    for dp, dn, fn in os.walk(d):
        dn.sort()
        for f in sorted(fn):
            if f.endswith(('.c', '.h')):
                out.append(os.path.join(dp, f))
    return out

def strip_comments(s):
    """Comments become spaces (newlines kept); strings and chars stay."""
    out, i, n = [], 0, len(s)
    while i < n:
        c = s[i]
        if c in '"\'':
            j = i + 1
            while j < n and s[j] != c:
                j += 2 if s[j] == '\\' else 1
            out.append(s[i:j + 1]); i = j + 1
        elif s.startswith('/*', i):
            j = s.find('*/', i + 2); j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', s[i:j])); i = j
        elif s.startswith('//', i):
            j = s.find('\n', i); j = n if j < 0 else j
            out.append(' ' * (j - i)); i = j
        else:
            out.append(c); i += 1
    return ''.join(out)

def close_paren(s, i):
    """s[i] is '(' or '{': the index of its match, skipping strings."""
    op = s[i]; cl = ')' if op == '(' else '}'
    depth, n = 0, len(s)
    while i < n:
        c = s[i]
        if c in '"\'':
            j = i + 1
            while j < n and s[j] != c:
                j += 2 if s[j] == '\\' else 1
            i = j
        elif c in '({[':
            depth += 1
        elif c in ')}]':
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return n

def split_args(s):
    out, depth, cur, i, n = [], 0, [], 0, len(s)
    while i < n:
        c = s[i]
        if c in '"\'':
            j = i + 1
            while j < n and s[j] != c:
                j += 2 if s[j] == '\\' else 1
            cur.append(s[i:j + 1]); i = j + 1; continue
        if c in '([{': depth += 1
        if c in ')]}': depth -= 1
        if c == ',' and depth == 0:
            out.append(''.join(cur).strip()); cur = []
        else:
            cur.append(c)
        i += 1
    if ''.join(cur).strip():
        out.append(''.join(cur).strip())
    return out

def calls(text, names):
    """(name, offset, args) of every call of one of names."""
    for m in re.finditer(r'\b(' + '|'.join(names) + r')\s*\(', text):
        o = m.end() - 1
        c = close_paren(text, o)
        yield m.group(1), m.start(), split_args(text[o + 1:c])

def functions(text):
    """(name, params, body offset, body) of each function definition."""
    i, n = 0, len(text)
    while i < n:
        b = text.find('{', i)
        if b < 0:
            return
        e = close_paren(text, b)
        head = text[:b].rstrip()
        if head.endswith(')'):
            # the '(' matching the last ')'
            depth, k = 0, len(head) - 1
            while k >= 0:
                if head[k] == ')': depth += 1
                elif head[k] == '(':
                    depth -= 1
                    if depth == 0: break
                k -= 1
            m = re.search(r'([A-Za-z_]\w*)\s*$', head[:k])
            if m and m.group(1) not in ('if', 'while', 'for', 'switch', 'return', 'sizeof'):
                params = []
                for p in split_args(head[k + 1:-1]):
                    pm = re.search(r'([A-Za-z_]\w*)\s*(\[[^\]]*\])?\s*$', p)
                    params.append(pm.group(1) if pm and p != 'void' else None)
                static = bool(re.search(r'\bstatic\b[^;{}]*$', head[:k]))
                yield m.group(1), params, b, text[b:e + 1], static
        i = e + 1

def line_of(text, off):
    return text.count('\n', 0, off) + 1

ACCESS = ['json_object_get', 'json_object_getn', 'json_object_set', 'json_object_set_new',
          'json_object_set_nocheck', 'json_object_set_new_nocheck', 'json_object_setn',
          'json_object_setn_new', 'json_object_del', 'json_object_deln', 'json_object_iter_at',
          'json_unpack', 'json_unpack_ex']
SOURCES = {'store_load': 2}                   # name -> index of the out-argument
SOURCE_RET = {'query_manifest_at', 'record_run_json', 'record_batch_json'}
ALWAYS = r'(?:->|\.)\s*raw\b'   # a typed record's JSON

all_files = files_under(root)
rel = lambda f: os.path.relpath(f, os.path.dirname(root))
is_record = lambda f: os.path.relpath(f, root).split(os.sep)[0] == 'record'
text = {f: strip_comments(open(f, encoding='utf-8', errors='replace').read()) for f in all_files}

# record keys: the literal keys of the record writers
R = set()
for f in all_files:
    if is_record(f) and f.endswith('.c'):
        for _, _, a in calls(text[f], ['json_object_set', 'json_object_set_new']):
            if len(a) >= 2 and re.fullmatch(r'"[^"]*"', a[1]):
                R.add(a[1][1:-1])

# the store's envelope: keys store_commit() writes on the manifest it is given
envelope = set()
for f in all_files:
    if os.path.relpath(f, root) == os.path.join('store', 'store.c'):
        for name, params, b, body, st in functions(text[f]):
            if name == 'store_commit' and len(params) >= 3:
                for _, _, a in calls(body, ['json_object_set', 'json_object_set_new']):
                    if len(a) >= 2 and a[0] == params[2] and re.fullmatch(r'"[^"]*"', a[1]):
                        envelope.add(a[1][1:-1])

# every function outside src/record/, for taint through calls
others = [f for f in all_files if not is_record(f)]
defs = {}
for f in others:
    for name, params, b, body, st in functions(text[f]):
        defs.setdefault(name, []).append((f, params, b, body, st))

def mentions(expr, tainted):
    if re.search(ALWAYS, expr):
        return True
    for t in tainted:
        if re.search(r'(?<![\w.>])' + re.escape(t).replace(r'\ ', r'\s*') + r'(?!\w)', expr):
            return True
    return False

norm = lambda s: re.sub(r'\s+', '', s.lstrip('&').strip())
param_taint = set()      # (file, function, index)
ret_sources = set(SOURCE_RET)

def has_source(f, name, params, body):
    if re.search(ALWAYS, body) or any((f, name, k) in param_taint for k in range(len(params))):
        return True
    return re.search(r'\b(' + '|'.join(sorted(set(SOURCES) | ret_sources)) + r')\s*\(', body) is not None

def taint_of(f, name, params, body):
    T = {params[k] for k in range(len(params)) if params[k] and (f, name, k) in param_taint}
    if not has_source(f, name, params, body):
        return T
    changed = True
    while changed:
        changed = False
        new = set()
        for fn, off, a in calls(body, list(SOURCES)):
            k = SOURCES[fn]
            if len(a) > k:
                new.add(norm(a[k]))
        for m in re.finditer(r'([A-Za-z_]\w*(?:\s*(?:->|\.)\s*[A-Za-z_]\w*|\[[^\]]*\])*)\s*=(?!=)([^;]*);', body):
            lhs, rhs = norm(m.group(1)), m.group(2).strip()
            rhs0 = re.sub(r'^\((?:const\s+)?json_t\s*\*\)\s*', '', rhs)
            src = re.match(r'([A-Za-z_]\w*)\s*\(', rhs0)
            if src and src.group(1) in ret_sources:
                new.add(lhs)
            elif src and src.group(1) in ('json_object_get', 'json_array_get', 'json_object_iter_value',
                                          'json_incref', 'json_deep_copy', 'json_copy', 'json_object_getn'):
                a = split_args(rhs0[src.end():close_paren(rhs0, src.end() - 1)])
                if a and mentions(a[0], T):
                    new.add(lhs)
            elif not src and re.fullmatch(r'[A-Za-z_][\w\s>.\[\]-]*', rhs0) and mentions(rhs0, T):
                new.add(lhs)
        for fn, off, a in calls(body, ['json_array_foreach', 'json_object_foreach']):
            if len(a) >= 3 and mentions(a[0], T):
                new.add(norm(a[-1]))
        if not new <= T:
            T |= new
            changed = True
    return T

# the calls each function makes to functions defined outside src/record/
callsites = {}
for name, ds in defs.items():
    for f, params, b, body, st in ds:
        cs = []
        for m in re.finditer(r'\b([A-Za-z_]\w*)\s*\(', body):
            if m.group(1) in defs:
                o = m.end() - 1
                cs.append((m.group(1), split_args(body[o + 1:close_paren(body, o)])))
        callsites[(f, name, b)] = cs

# fixpoint over the whole program: parameters and returns
for _ in range(20):
    before = (len(param_taint), len(ret_sources))
    for name, ds in defs.items():
        for f, params, b, body, st in ds:
            T = taint_of(f, name, params, body)
            if not T and not re.search(ALWAYS, body):
                continue
            for m in re.finditer(r'\breturn\s+([^;]+);', body):
                if mentions(m.group(1), T):
                    ret_sources.add(name)
            for callee, a in callsites[(f, name, b)]:
                for k, arg in enumerate(a):
                    if not mentions(arg, T):
                        continue
                    for tf, tparams, tb, tbody, tst in defs[callee]:
                        if tst and tf != f:
                            continue
                        if k < len(tparams) and tparams[k]:
                            param_taint.add((tf, callee, k))
    if (len(param_taint), len(ret_sources)) == before:
        break

bad = []
for name, ds in defs.items():
    for f, params, b, body, st in ds:
        T = taint_of(f, name, params, body)
        for fn, off, a in calls(body, ACCESS):
            if not a or not mentions(a[0], T):
                continue
            keys = [x[1:-1] for x in a[1:] if re.fullmatch(r'"[^"]*"', x)]
            if fn == 'json_unpack' or fn == 'json_unpack_ex':
                keys = keys[1:] if keys else keys
            if keys and all(k in envelope for k in keys) and fn != 'json_unpack':
                continue
            what = ', '.join('"%s"' % k for k in keys) or 'a key'
            bad.append((rel(f), line_of(text[f], b + off),
                        "%s(%s, %s): a record's JSON read or written outside src/record/; "
                        "use the typed record (record.h) or add a named reader there" % (fn, a[0], what)))

# query-style paths into a record
for f in others:
    for m in re.finditer(r'"([A-Za-z_]\w*(?:\.[A-Za-z_0-9]\w*)+)"', text[f]):
        parts = m.group(1).split('.')
        if all(p in R for p in parts):
            bad.append((rel(f), line_of(text[f], m.start()),
                        "\"%s\" is a path into a record (every part is a key the record writers write); "
                        "use the typed record (record.h)" % m.group(1)))

if len(R) < 20:
    print("found only %d record keys in %s/record/: the writers moved?" % (len(R), root))
    sys.exit(2)
for f, l, msg in sorted(set(bad)):
    print("%s:%d: %s" % (f, l, msg))
sys.exit(1 if bad else 0)
PY

# --- the checker on planted violations and look-alikes ---
mkdir -p fx/src/record fx/src/store fx/src/cli fx/src/backends fx/src/report
cat >fx/src/record/run.c <<'EOF'
json_t *record_run_json(const struct run_record *r)
{
	json_t *m = json_object(), *t = json_object(), *s = json_object();
	json_object_set_new(m, "outcome", json_string("ok"));
	json_object_set_new(m, "reason", json_null());
	json_object_set_new(m, "variant", json_null());
	json_object_set_new(m, "run_id", json_null());
	json_object_set_new(t, "stats", s);
	json_object_set_new(s, "median", json_real(1));
	json_object_set_new(s, "name", json_null());
	json_object_set_new(m, "timing", t);
	json_object_set_new(m, "code", json_object());
	json_object_set_new(m, "git", json_object());
	json_object_set_new(m, "commit", json_object());
	for (int i = 0; i < 12; i++) /* more keys, so the writers look like writers */
		json_object_set_new(m, "k0", json_null());
	json_object_set_new(m, "k1", json_null()); json_object_set_new(m, "k2", json_null());
	json_object_set_new(m, "k3", json_null()); json_object_set_new(m, "k4", json_null());
	json_object_set_new(m, "k5", json_null()); json_object_set_new(m, "k6", json_null());
	json_object_set_new(m, "k7", json_null()); json_object_set_new(m, "k8", json_null());
	json_object_set_new(m, "k9", json_null());
	return m;
}
EOF
cat >fx/src/store/store.c <<'EOF'
int store_commit(struct store *st, const char *run_id, json_t *m)
{
	json_object_set_new(m, "run_id", json_string(run_id));
	json_object_set_new(m, "prev", json_null());
	json_object_set_new(m, "digest", json_null());
	return 0;
}
EOF
cat >fx/src/cli/cmd_bad.c <<'EOF'
static void show_timing(json_t *t)
{
	printf("%f\n", json_number_value(json_object_get(t, "median")));
}

int cmd_bad(struct store *st)
{
	json_t *m;
	if (store_load(st, "x", &m) < 0)
		return 1;
	const char *o = json_string_value(json_object_get(m, "outcome"));
	json_t *t = json_object_get(m, "timing");
	show_timing(t);
	const char *prev = json_string_value(json_object_get(m, "prev"));
	return o && prev;
}
EOF
cat >fx/src/report/bad2.c <<'EOF'
static double of_row(const struct batch_row *row, const struct run_record *r)
{
	double v = get_path(row, "timing.stats.median");
	const char *k = "timing.samples";
	const char *x = json_string_value(json_object_get(r->raw, "variant"));
	json_t *q = query_manifest_at(NULL, 0);
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(q, "code"), i, e) puts(json_string_value(json_object_get(e, "name")));
	return v + (k != x);
}
EOF
cat >fx/src/backends/protocol.c <<'EOF'
static int on_message(struct proto *p, json_t *msg)
{
	const char *name = json_string_value(json_object_get(msg, "name"));
	const char *oc = json_string_value(json_object_get(msg, "outcome"));
	json_t *doc = json_pack("{s:s, s:s}", "outcome", "ok", "reason", "none");
	json_object_set_new(doc, "variant", json_string(name));
	return oc != NULL;
}
EOF
python3 check.py fx/src >fx.out 2>&1 && { cat fx.out; fail "the checker passed planted violations"; }
cat fx.out
for want in "src/cli/cmd_bad.c:3: json_object_get(t, \"median\")" \
	"src/cli/cmd_bad.c:11: json_object_get(m, \"outcome\")" \
	"src/cli/cmd_bad.c:12: json_object_get(m, \"timing\")" \
	"src/report/bad2.c:3: \"timing.stats.median\" is a path into a record" \
	"src/report/bad2.c:5: json_object_get(r->raw, \"variant\")" \
	"src/report/bad2.c:9: json_object_get(e, \"name\")" \
	"src/report/bad2.c:9: json_object_get(q, \"code\")"; do
	expect_contains fx.out "$want"
done
expect_not_contains fx.out '"prev"'            # the store's envelope
expect_not_contains fx.out 'timing.samples'    # a spec key: not all of its parts are record keys
expect_not_contains fx.out 'protocol.c'        # another document's words, the record's too
[ "$(grep -c . fx.out)" = 7 ] || fail "expected exactly the 7 planted violations"

# --- the real tree ---
python3 check.py "$REPO/src" >out.txt 2>&1 || { cat out.txt; fail "record keys spelled outside src/record/ (above)"; }
exit 0
