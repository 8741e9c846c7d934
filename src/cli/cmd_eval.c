/*
 * cmd_eval.c - `evident eval SPEC.yaml`: the judge for proposers outside
 * evident (an LLM loop, a search script).  It loads the spec as `evident
 * run` does, opens one session (run/eval.h: store, sandbox, provenance,
 * the problem and the reference's build, kept for the session), then
 * reads one JSON object per line on stdin and writes one answer per line
 * on stdout, flushed, in order, until end of input; or, with --candidate
 * FILE, judges the object each file holds.  Bad input (malformed JSON, a
 * line over the bound, an unknown key, a source too large, a parameter the
 * spec does not declare) gets an answer {"line", "error", "at"} and the
 * loop goes on.  stdout carries nothing but answers; the banner, progress
 * and diagnostics go to stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/runcmd.h"
#include "cli/evident.h"
#include "cli/options.h"
#include "run/eval.h"

static const char synopsis[] =
	"usage: evident eval [options] SPEC.yaml < candidates.jsonl\n"
	"       evident eval [options] --candidate FILE.json... SPEC.yaml\n"
	"\n"
	"Judges kernels proposed from outside against the spec's reference (its\n"
	"baseline, or --reference NAME): each candidate is built (through the\n"
	"content-hash cache), checked and timed as an adversary by the same judge as\n"
	"'evident run', in a batch of its own with the reference, the repeats of both\n"
	"interleaved, and recorded in the store with its lineage.  One JSON object per\n"
	"line on stdin, one answer per line on stdout:\n"
	"\n"
	"  in:  {\"source\": \"...C text...\"  or  \"kernel\": \"path/in/repo.c\",\n"
	"        \"params\": {\"BLOCK_M\": 64}, \"name\": \"c17\", \"parent\": \"RUN_ID or name\",\n"
	"        \"origin\": \"model@prompt-sha\", \"mutation\": \"BLOCK_M 32->64\"}\n"
	"  out: {\"line\", \"candidate\", \"outcome\", \"reason\", \"promoted\", \"decision\",\n"
	"        \"interrupted\", \"median_us\", \"median_ci_us\", \"speedup\", \"speedup_ci\",\n"
	"        \"verdict\", \"verdict_reason\", \"p\", \"clock\", \"runs\", \"reference\",\n"
	"        \"repeats\", \"batch\", \"build\": {\"status\", \"cache_hit\", \"compile_seconds\",\n"
	"        \"reason\", \"binary_sha256\", \"same_binary_as_reference\"}, \"kernel\",\n"
	"        \"source_sha256\", \"lineage\", \"notes\", \"seconds\",\n"
	"        \"batches_of_code\": {\"weighed\", \"faster\", \"earlier\"}, \"confirms\"}\n"
	"   or  {\"line\", \"error\", \"at\"} for input refused: nothing ran\n"
	"\n"
	"promoted: the candidate is ok, its code is not the reference's, its verdict\n"
	"against the reference is faster, and so are more than half of the batches\n"
	"of its code against the reference's code in the store, this one included:\n"
	"a resubmission is weighed with its earlier batches (batches_of_code).  A\n"
	"candidate faster in the first batch of its code runs a second, in fresh\n"
	"processes, before it is promoted: the answer is that batch's, both weighed,\n"
	"\"confirms\" naming the first.\n"
	"Blank lines are skipped.  README.md, \"evident eval\", has the reference of\n"
	"every key.\n";

static const char epilogue[] =
	"exit codes of eval:\n"
	"  0    every candidate was judged (whatever its outcome)\n"
	"  1    at least one input was refused (its answer says why), or stdout failed\n"
	"  2    bad command line\n"
	"  3    the spec is invalid, or its reference does not build\n"
	"  4    no device: the spec needs a GPU that is not here\n"
	"  5    the store cannot be read or written, or overlaps build/eval-src\n"
	"  6    a required tool is missing (the sandbox, the compiler)\n"
	"  130  interrupted: the candidate in flight is recorded with what finished\n";

static struct opt_usage usage = { "eval", synopsis, epilogue };

/* Reads lines from fd 0 with a bound: a longer line is skipped to its end
 * and reported, not held in memory. */
struct line_reader {
	char buf[65536];
	size_t start, end;
	int eof;
};

enum line_kind { LINE_OK, LINE_TOO_LONG, LINE_EOF, LINE_INTERRUPTED };

static enum line_kind read_line(struct line_reader *r, size_t max, struct strbuf *line)
{
	int too_long = 0;
	strbuf_reset(line);
	for (;;) {
		char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);
		size_t n = nl ? (size_t)(nl - (r->buf + r->start)) : r->end - r->start;
		if (!too_long && line->len + n > max)
			too_long = 1;
		if (!too_long)
			strbuf_add(line, r->buf + r->start, n);
		r->start += n + (nl != NULL);
		if (nl)
			return too_long ? LINE_TOO_LONG : LINE_OK;
		if (r->eof)
			return line->len || too_long ? (too_long ? LINE_TOO_LONG : LINE_OK) : LINE_EOF;
		r->start = r->end = 0;
		ssize_t k = read(0, r->buf, sizeof(r->buf));
		if (k < 0 && errno == EINTR) {
			if (runcmd_interrupted)
				return LINE_INTERRUPTED;
			continue;
		}
		if (k <= 0)
			r->eof = 1;
		else
			r->end = (size_t)k;
	}
}

static int blank(const struct strbuf *l)
{
	for (size_t i = 0; i < l->len; i++)
		if (l->buf[i] != ' ' && l->buf[i] != '\t' && l->buf[i] != '\r')
			return 0;
	return 1;
}

/* One answer on stdout, a line, flushed.  0, or -1 when stdout failed. */
static int put_answer(json_t *a)
{
	char *text = json_dumps(a, JSON_COMPACT | JSON_PRESERVE_ORDER);
	int rc = text && printf("%s\n", text) > 0 && fflush(stdout) == 0 ? 0 : -1;
	free(text);
	if (rc < 0)
		error("cannot write the answer to standard output");
	return rc;
}

/* Where the answer's input was: {"line": N} or {"file": PATH}, first. */
static json_t *located(json_t *ans, const char *file, long line)
{
	json_t *a = file ? json_pack("{s:s}", "file", file) : json_pack("{s:I}", "line", (json_int_t)line);
	json_object_update(a, ans);
	json_decref(ans);
	return a;
}

struct tally {
	int refused, interrupted, store_failed, out_failed;
};

static void judge_one(struct eval_session *es, json_t *in, const char *file, long line, struct tally *t)
{
	enum eval_status st;
	json_t *ans = located(eval_judge(es, in, &st), file, line);
	t->refused += st == EVAL_REFUSED;
	t->interrupted |= st == EVAL_INTERRUPTED;
	t->store_failed |= st == EVAL_STORE_FAILED;
	if (put_answer(ans) < 0)
		t->out_failed = 1;
	json_decref(ans);
}

static void refuse(const char *why, const char *file, long line, struct tally *t)
{
	json_t *ans = located(json_pack("{s:s, s:s}", "error", why, "at", ""), file, line);
	t->refused++;
	if (put_answer(ans) < 0)
		t->out_failed = 1;
	json_decref(ans);
}

static void judge_stdin(struct eval_session *es, size_t max_line, struct tally *t)
{
	struct line_reader *r = xcalloc(1, sizeof(*r));
	struct strbuf line = STRBUF_INIT;
	for (long n = 1; !t->interrupted && !t->store_failed && !t->out_failed; n++) {
		enum line_kind k = read_line(r, max_line, &line);
		if (k == LINE_EOF)
			break;
		if (k == LINE_INTERRUPTED) {
			t->interrupted = 1;
			break;
		}
		if (k == LINE_TOO_LONG) {
			char *why = xstrfmt("the line is longer than %zu bytes (the source text is bounded by "
					    "--max-source-bytes, and JSON may spell a byte in 6)",
					    max_line);
			refuse(why, NULL, n, t);
			free(why);
			continue;
		}
		if (blank(&line))
			continue;
		char *why = NULL;
		json_t *in = eval_parse_line(line.buf, line.len, &why);
		if (!in)
			refuse(why, NULL, n, t);
		else
			judge_one(es, in, NULL, n, t);
		free(why);
		json_decref(in);
	}
	strbuf_release(&line);
	free(r);
}

static void judge_files(struct eval_session *es, const struct opt_list *files, size_t max_line, struct tally *t)
{
	for (size_t i = 0; i < files->n && !t->interrupted && !t->store_failed && !t->out_failed; i++) {
		struct strbuf text = STRBUF_INIT;
		char *why = NULL;
		json_t *in = NULL;
		if (read_file(files->v[i], &text) < 0)
			why = xstrfmt("cannot read the candidate file '%s'", files->v[i]);
		else if (text.len > max_line)
			why = xstrfmt("the file is %zu bytes, more than the %zu accepted (--max-source-bytes)", text.len,
				      max_line);
		else
			in = eval_parse_line(strbuf_str(&text), text.len, &why);
		if (in)
			judge_one(es, in, files->v[i], 0, t);
		else
			refuse(why, files->v[i], 0, t);
		json_decref(in);
		free(why);
		strbuf_release(&text);
	}
}

static int exit_of(enum run_error why)
{
	switch (why) {
	case RUN_NO_DEVICE: return EV_NO_DEVICE;
	case RUN_STORE: return EV_STORE;
	case RUN_USAGE: return EV_SPEC;
	case RUN_SPEC: return EV_SPEC;
	default: return EV_ENV;
	}
}

int cmd_eval(int argc, const char **argv)
{
	const char *store_arg = NULL, *cache_arg = NULL, *reference = NULL;
	unsigned long max_source = EVAL_MAX_SOURCE_BYTES;
	int repeats = 0, device = 0, progress = isatty(2), rc = EV_USAGE;
	struct opt_list files = OPT_LIST_INIT;
	const struct option opts[] = {
		OPT_STORE(&store_arg),
		OPT_CACHE(&cache_arg),
		OPT_STRING("reference", &reference, "NAME",
			   "the variant candidates are compared with\n(default: the spec's baseline)"),
		OPT_INT("repeats", &repeats, "N", "[1, 1000]",
			"worker processes per side and candidate (default: the\n"
			"spec's repeats, else 3); with fewer than 3 a side\n"
			"(its sessions pooled) no verdict is drawn, so nothing\n"
			"is promoted"),
		OPT_ULONG("max-source-bytes", &max_source, "N", "[1, 67108864]",
			  "the longest source text or kernel file accepted\n(default 1048576)"),
		OPT_STRING_LIST("candidate", &files, "FILE",
				"judge the JSON object FILE holds instead of reading\nstdin (repeatable)"),
		OPT_INT("device", &device, "N", "[0, 1023]", "CUDA device ordinal (default 0)"),
		OPT_NO_PROGRESS(&progress),
		OPT_END(),
	};
	argc = parse_options(argc, argv, opts, &usage);
	if (argc < 0) {
		opt_list_release(&files);
		return argc == OPT_HELP ? EV_OK : EV_USAGE;
	}
	if (argc != 1) {
		if (argc)
			opt_usage_error(&usage, "one spec at a time ('%s' and '%s')", argv[0], argv[1]);
		else
			opt_usage_error(&usage, "no spec given");
		opt_list_release(&files);
		return EV_USAGE;
	}
	if (!path_exists(argv[0])) {
		error("spec '%s' does not exist; experiments live in experiments/NAME.yaml", argv[0]);
		opt_list_release(&files);
		return EV_SPEC;
	}
	/* paths as `evident run` takes them: the candidate files and the
	 * store against the current directory, the spec's kernels against
	 * the repository root, where the session runs */
	char *spec_abs = cli_absolute(argv[0]), *root = cli_repo_root(spec_abs);
	const char *env_store = getenv("EVIDENT_STORE");
	char *store_abs = store_arg ? cli_absolute(store_arg) : env_store && *env_store ? cli_absolute(env_store) : NULL;
	char *cache_abs = cache_arg ? cli_absolute(cache_arg) : NULL;
	char *spec_rel = NULL, *store_rel = NULL, *cache_path = NULL;
	struct opt_list abs_files = OPT_LIST_INIT;
	for (size_t i = 0; i < files.n; i++)
		opt_list_push(&abs_files, cli_absolute(files.v[i]));
	struct eval_session *es = NULL;
	struct spec s;
	memset(&s, 0, sizeof(s));
	if (chdir(root) < 0) {
		error("cannot enter the repository root '%s'", root);
		rc = EV_ENV;
		goto out;
	}
	spec_rel = cli_relative_to(spec_abs, root);
	store_rel = store_abs ? cli_relative_to(store_abs, root) : xstrdup(store_default_root(NULL));
	cache_path = xstrdup(cache_abs ? cache_abs : "build/cache");
	if (run_spec_load(spec_rel, NULL, cache_path, &s) < 0) {
		rc = EV_SPEC;
		goto out;
	}
	if (reference && !spec_variant(&s, reference)) {
		struct strbuf names = STRBUF_INIT;
		for (size_t i = 0; i < s.n_variants; i++)
			strbuf_addf(&names, "%s%s", i ? ", " : "", s.variants[i].name);
		error("--reference '%s': no such variant in '%s'; its variants: %s", reference, spec_rel, names.buf);
		strbuf_release(&names);
		rc = EV_USAGE;
		goto out;
	}
	struct eval_options eo = {
		.store_root = store_rel,
		.cache_dir = cache_path,
		.price_table = "data/gpu-prices.yaml",
		.reference = reference,
		.repeats = repeats,
		.max_source_bytes = max_source,
		.device = device,
		.progress = progress,
	};
	enum run_error why;
	if (eval_open(&s, &eo, &es, &why) < 0) {
		rc = exit_of(why);
		goto out;
	}
	int reps = eval_repeats(es);
	fprintf(stderr, "eval: experiment %s, reference %s, %d repeat%s a side per candidate, store %s; %s\n", s.name,
		eval_reference(es), reps, reps == 1 ? "" : "s", store_rel,
		files.n ? "judging the candidate files" : "one JSON object per line on stdin, one answer per line on stdout");
	if (reps == 1)
		warning("1 repeat a side: every verdict is inconclusive (the variance between processes is unknown), "
			"so no candidate is promoted; use --repeats 3 or more");
	fflush(stderr);
	/* JSON spells a byte in at most 6 characters (\u00XX), plus the other keys */
	size_t max_line = 6 * (size_t)max_source + 65536;
	struct tally t = { 0 };
	if (files.n)
		judge_files(es, &abs_files, max_line, &t);
	else
		judge_stdin(es, max_line, &t);
	rc = t.store_failed ? EV_STORE : t.interrupted ? EV_INTERRUPTED : t.refused || t.out_failed ? EV_FAILURES : EV_OK;
out:
	eval_close(es);
	spec_release(&s);
	for (size_t i = 0; i < abs_files.n; i++)
		free((char *)abs_files.v[i]);
	opt_list_release(&abs_files);
	opt_list_release(&files);
	free(spec_abs);
	free(root);
	free(store_abs);
	free(cache_abs);
	free(spec_rel);
	free(store_rel);
	free(cache_path);
	return rc;
}
