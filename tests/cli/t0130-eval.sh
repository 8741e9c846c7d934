# t0130: evident eval judges candidates from outside, one JSON object a
# line on stdin, one answer a line on stdout, on the host backend at a tiny
# shape.  An honest candidate (source text) is ok with a median, a CI, a
# speedup and a verdict against the reference; sent again it is a build
# cache hit; a wrong one is wrong_output; two cheats of the adversary
# fixtures (one skips its work after 40 calls, one memoises by input
# pointer) are not promoted, and their outcome says why; a knob the kernel
# never reads is named in the notes, builds the reference's binary and is
# never promoted (red team 48: the reference's own binary drew 10.9x), nor
# is the reference's text under another name (red team 62); bad
# input gets an error line naming what and where, and the loop goes on.
# The runs are in the store with the candidate's lineage.  A candidate
# (--candidate FILE) whose init tries to read the store's files and to
# write into it finds nothing, ends ok, and the store verifies after.
. "$REPO/tests/cli/lib.sh"
mkrepo
cat > experiments/ev.yaml <<'Y'
name: ev
question: Which proposed CPU attention kernels beat the naive one?
problem: attention_fwd
backend: host
shape: {B: 1, H: 1, S: 32, D: 16}
baseline: naive
variants:
  naive: {kernel: kernels/host/attn_naive.c}
  blocked: {kernel: kernels/host/attn_blocked.c, BLOCK_M: 8, BLOCK_N: 16}
correctness: {seeds: 2}
timing: {warmup_ms: 1, samples: 60, cache: hot}
Y
python3 - > "$TEST_TMP/in.jsonl" <<'P'
import json
blocked = open("kernels/host/attn_blocked.c").read()
naive = open("kernels/host/attn_naive.c").read()
wrong = naive.replace("O[i * D + d] = acc / sum;", "O[i * D + d] = acc / sum * 1.01f;")
assert wrong != naive
lines = [
    {"source": blocked, "params": {"BLOCK_M": 8, "BLOCK_N": 16}, "parent": "naive",
     "origin": "model-x@sha256:0badc0de", "mutation": "cache blocking, online softmax"},
    {"source": blocked, "params": {"BLOCK_N": 16, "BLOCK_M": 8}, "name": "again"},
    {"source": wrong, "name": "wrong"},
    {"kernel": "tests/fixtures/adversary/host/skip_after_n.c", "name": "skipper", "origin": "red team"},
    {"kernel": "tests/fixtures/adversary/host/ptr_memo.c", "name": "memo"},
    {"params": {"BLOCK_M": 8}, "name": "knob"},
]
for l in lines:
    print(json.dumps(l))
print('{"source": "int x;", "parms": {}}')                                      # 7
print('{"kernel": "kernels/host/attn_blocked.c", "params": {"BLOCK_Q": 3}}')     # 8
print('{"kernel": "kernels/host/attn_blocked.c", "params": {')                   # 9
print('["not", "an object"]')                                                    # 10
print(json.dumps({"source": "/*" + "x" * (2 << 20) + "*/"}))                     # 11
print('{"source": "' + "y" * (7 << 20) + '"}')                                   # 12
print(json.dumps({"source": naive, "kernel": "kernels/host/attn_naive.c"}))      # 13
print(json.dumps({"kernel": "../outside.c"}))                                    # 14
print(json.dumps({"kernel": "kernels/host/nowhere.c"}))                          # 15
print(json.dumps({"kernel": "kernels/host/attn_naive.c", "name": "naive"}))      # 16
print("   ")                                                                     # 17: skipped
print(json.dumps({"kernel": "kernels/host/attn_naive.c", "trust": "host"}))      # 18
print(json.dumps({"source": naive, "name": "copy"}))                             # 19
P
expect_exit 1 "$EVIDENT" eval --no-progress experiments/ev.yaml < "$TEST_TMP/in.jsonl"
cp "$TEST_TMP/out" "$TEST_TMP/answers"
expect_contains "$TEST_TMP/err" "eval: experiment ev, reference naive, 3 repeats a side per candidate"
python3 - "$TEST_TMP/answers" <<'P' || fail "the answers are not as expected"
import json, sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "", "the last answer does not end its line"
a = [json.loads(l) for l in lines[:-1]]
by = {x["line"]: x for x in a}
def check(cond, what):
    if not cond:
        print("FAIL:", what, file=sys.stderr)
        sys.exit(1)
check([x["line"] for x in a] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 19],
      "one answer per non-blank line, in order: %s" % [x["line"] for x in a])
h = by[1]
for k in ["candidate", "outcome", "reason", "promoted", "decision", "interrupted", "median_us", "median_ci_us", "speedup",
          "speedup_ci", "verdict", "verdict_reason", "p", "clock", "runs", "reference", "repeats", "batch",
          "build", "kernel", "source_sha256", "lineage", "notes", "seconds", "batches_of_code"]:
    check(k in h, "the answer lacks '%s'" % k)
check(h["outcome"] == "ok" and h["reason"] is None and h["interrupted"] is False, "the honest candidate is ok: %s" % h["decision"])
lo, hi = h["median_ci_us"]
check(lo <= h["median_us"] <= hi and h["median_us"] > 0, "median inside its CI")
check(h["speedup_ci"][0] <= h["speedup"] <= h["speedup_ci"][1], "speedup inside its CI")
check(h["verdict"] in ("faster", "slower", "no_difference", "inconclusive"), "a verdict")
check(h["promoted"] == (h["verdict"] == "faster"), "promoted means ok and faster")
check(h["clock"] == "host" and h["repeats"] == 3 and len(h["runs"]) == 3, "3 repeats timed by the parent")
check(all(r["outcome"] == "ok" for r in h["runs"]), "every repeat ok")
check(h["reference"]["name"] == "naive" and h["reference"]["outcome"] == "ok" and
      len(h["reference"]["runs"]) == 3, "the reference timed in the same batch")
check(h["batch"].endswith("-batch"), "the batch id")
# (a confirmed first answer is its second batch's: its build a cache hit)
check(h["build"]["status"] == "ok" and (h["build"]["cache_hit"] is False or "confirms" in h), "first build: a cache miss")
check(h["kernel"] == "build/eval-src/%s.c" % h["source_sha256"], "the source lives under build/eval-src, by hash")
check(h["lineage"] == {"parent": "naive", "origin": "model-x@sha256:0badc0de",
                       "mutation": "cache blocking, online softmax"}, "lineage echoed")
check(h["candidate"].startswith("cand-"), "named by content")
g = by[2]
check(g["candidate"] == "again" and g["outcome"] == "ok", "the resubmission judged")
check(g["build"]["cache_hit"] is True, "the identical resubmission is a build cache hit")
check(g["build"]["binary_sha256"] == h["build"]["binary_sha256"], "the same object")
check(g["batch"] != h["batch"], "a batch per candidate")
# a resubmission is the same evidence (fix50): the second batch of the
# code is weighed with the first, and promoted only when both are faster
# a first batch faster runs a second before answering (red team 110):
# the answer is that one's, "confirms" naming the first, both weighed
hc = 1 if "confirms" in h else 0
check(not hc or (h["confirms"].endswith("-batch") and h["confirms"] != h["batch"]), "confirms names the first batch")
check(h["batches_of_code"] == {"weighed": 1 + hc, "faster": hc + int(h["verdict"] == "faster"), "earlier": hc, "left_out_other_job": 0},
      "the first batch of its code: %s" % h["batches_of_code"])
gc = 1 if "confirms" in g else 0
check(not gc, "a resubmission's first batch is not its code's first")
hf = hc + int(h["verdict"] == "faster")
check(g["batches_of_code"] == {"weighed": 2 + hc, "faster": hf + int(g["verdict"] == "faster"),
                               "earlier": 1 + hc, "left_out_other_job": 0}, "the resubmission weighed with the first: %s" % g["batches_of_code"])
check(g["promoted"] == (g["verdict"] == "faster" and 2 * (hf + 1) > 2 + hc + 1),
      "a resubmission promoted on more than half of its code's batches: %s" % g["decision"])
w = by[3]
check(w["outcome"] == "wrong_output" and not w["promoted"] and "out of tolerance" in w["reason"],
      "wrong output said: %s" % w["decision"])
check(w["median_us"] is None and w["verdict"] is None, "no time or verdict for a wrong kernel")
for n, name in ((4, "skipper"), (5, "memo")):
    c = by[n]
    check(c["candidate"] == name, "named as asked")
    check(not c["promoted"] and c["verdict"] != "faster", "%s promoted: %s" % (name, c["decision"]))
    check(c["outcome"] in ("unwritten_output", "wrong_output", "flaky"), "%s: %s" % (name, c["outcome"]))
    check("timed launches checked after they ran" in c["reason"], "%s's reason says why: %s" % (name, c["reason"]))
    check(c["decision"].startswith("not promoted: " + c["outcome"]), "the decision says why")
k = by[6]
check(k["kernel"] == "kernels/host/attn_naive.c", "params alone: the reference's kernel")
check(k["build"]["same_binary_as_reference"] is True, "a knob the kernel never reads builds the same binary")
# red team 48: code that is the reference's is never promoted, whatever its timing says
check(k["build"]["same_code_as_reference"] is True, "the same binary is the same code")
check(k["promoted"] is False, "the reference's own binary promoted: %s" % k["decision"])
check(k["outcome"] != "ok" or k["decision"].startswith(
      "not promoted: no effect: the candidate's code is the reference's (the same binary)"),
      "the decision says the code is the reference's: %s" % k["decision"])
check(h["build"]["same_code_as_reference"] is False, "the blocked kernel is other code")
# red team 62: the reference's text under another name is the same code
# by content; linked stripped (red team 178: backend_host.c host_flags'
# -s), its file no longer holds its name, so it is the same binary too
c = by[19]
check(c["build"]["same_binary_as_reference"] is True and c["build"]["same_code_as_reference"] is True,
      "a renamed copy of the reference is its code: %s" % c["build"])
check(c["promoted"] is False and (c["outcome"] != "ok" or c["decision"].startswith(
      "not promoted: no effect: the candidate's code is the reference's (the same binary)")),
      "the copy's decision: %s" % c["decision"])
check(any("knob: parameter BLOCK_M was not echoed by the kernel" in n for n in k["notes"]),
      "the note names the knob: %s" % k["notes"])
errors = {
    7: ("parms", "unknown key 'parms' (did you mean 'params'?)"),
    8: ("params.BLOCK_Q", "parameter 'BLOCK_Q' is not declared by the spec (did you mean 'BLOCK_M'?); "
                          "its variants declare BLOCK_M, BLOCK_N"),
    9: ("", "malformed JSON at column"),
    10: ("", "expected one JSON object per line, got an array"),
    11: ("source", "'source' is 2097156 bytes, more than the 1048576 accepted"),
    12: ("", "the line is longer than 6356992 bytes"),
    13: ("kernel", "give 'source' (the kernel's text) or 'kernel' (a file), not both"),
    14: ("kernel", "'kernel' '../outside.c' climbs out with '..'"),
    15: ("kernel", "'kernel' 'kernels/host/nowhere.c': No such file or directory"),
    16: ("name", "'name' 'naive' is the reference's"),
    18: ("trust", "unknown key 'trust': a candidate is always judged as an adversary"),
}
for n, (at, msg) in errors.items():
    e = by[n]
    check(set(e) == {"line", "error", "at"}, "line %d: an error answer only: %s" % (n, e))
    check(e["at"] == at and msg in e["error"], "line %d: %s" % (n, e))
P
# nothing was written for the refused lines: 7 candidates, 7 batches of 2 x 3 runs
expect_eq "$(ls artifacts/runs | grep -c -- '-batch.json$')" 7 "a batch per judged candidate"
expect_eq "$(ls artifacts/runs | grep -vc -- '-batch.json$')" 42 "3 repeats a side per candidate"
ls kernels/host | grep -q '^[0-9a-f]\{64\}' && fail "a candidate was written into kernels/"

# the runs carry the lineage; show and show --lineage read it
RUN=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["runs"][0]["run"])' "$TEST_TMP/answers")
expect_eq "$(jget artifacts/runs/$RUN.json 'd["lineage"]["origin"]')" "model-x@sha256:0badc0de"
expect_eq "$(jget artifacts/runs/$RUN.json 'd["lineage"]["parent"]')" "naive"
expect_exit 0 "$EVIDENT" show --lineage "$RUN"
expect_contains "$TEST_TMP/out" "parent naive, mutation cache blocking, online softmax, origin model-x@sha256:0badc0de"
expect_match "$TEST_TMP/out" "^  <- [^ ]+  naive  ok"
expect_exit 0 "$EVIDENT" show "$RUN"
expect_match "$TEST_TMP/out" "^kernel +build/eval-src/[0-9a-f]{64}\.c$"

# a candidate whose init reaches for the store (read its HEAD, list its
# runs, read and append to a manifest, create a file) finds nothing there;
# it proves it can open a file first (its own /proc: the box shows no
# repository file since red team 3), so the probe works
STORE=$PWD/artifacts REPO_DIR=$PWD python3 - "$RUN" > "$TEST_TMP/probe.json" <<'P'
import json, os, sys
store, repo, run = os.environ["STORE"], os.environ["REPO_DIR"], sys.argv[1]
probe = r'''
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
static int reach(const char *path, int flags)
{
	int fd = open(path, flags, 0644);
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}
static int store_probe(char *err, size_t n)
{
	if (!reach("/proc/cpuinfo", O_RDONLY)) {
		snprintf(err, n, "probe broken: it cannot open a file");
		return 1;
	}
	int listed = 0;
	DIR *d = opendir("STORE/runs");
	struct dirent *e;
	while (d && (e = readdir(d)))
		listed += e->d_name[0] != '.';
	if (d)
		closedir(d);
	if (listed || reach("STORE/HEAD", O_RDONLY) || reach("STORE/runs/RUN.json", O_RDONLY) ||
	    reach("STORE/runs/RUN.json", O_WRONLY | O_APPEND)) {
		snprintf(err, n, "the kernel reached the store");
		return 1;
	}
	reach("STORE/pwned", O_WRONLY | O_CREAT);
	return 0;
}
'''.replace("STORE", store).replace("REPO", repo).replace("RUN", run)
naive = open("kernels/host/attn_naive.c").read()
head = "static int naive_init(struct ev_launch *l, char *err, size_t errlen)\n{\n"
assert head in naive
src = naive.replace(head, probe + head + "\tif (store_probe(err, errlen))\n\t\treturn 1;\n")
print(json.dumps({"source": src, "name": "probe", "origin": "t0130"}))
P
expect_exit 0 "$EVIDENT" eval --no-progress --candidate "$TEST_TMP/probe.json" experiments/ev.yaml
expect_eq "$(jget "$TEST_TMP/out" 'd["file"]')" "$TEST_TMP/probe.json"
expect_eq "$(jget "$TEST_TMP/out" 'd["outcome"]')" ok "the probe found the store closed"
[ ! -e artifacts/pwned ] || fail "a candidate wrote into the store"
expect_exit 0 "$EVIDENT" verify
expect_contains "$TEST_TMP/out" "intact"
exit 0
