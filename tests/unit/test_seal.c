/*
 * test_seal.c - the runner's half of the sealed path (backends/seal.h):
 * a planner's plan is checked field by field before a replay; a kernel
 * object's device code is read from its .nv_fatbin section as data,
 * searched for launches from the device (compressed entries too), and
 * only what the search read is loaded; the module globals its cubins
 * name are found (in a hand-made cubin, and in one nvcc makes where nvcc
 * exists) and a plan's globals are checked like its scratch; the
 * fresh-input mixing bit (scramble.h) the harness and the checker share;
 * and the parent's rules for fresh-input keys (protocol.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/protocol.h"
#include "base/runcmd.h"
#include "backends/scramble.h"
#include "backends/seal.h"
#include "backends/seal_move.h"

static const size_t IN[3] = { 1024, 1024, 1024 }, OUT[1] = { 1024 };

/* parse text; returns the parse's status, *why freed unless kept */
static int parse(const char *text, struct seal_plan *sp, char **why)
{
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);
	assert_non_null(j);
	int rc = seal_plan_parse(j, IN, 3, OUT, 1, sp, why);
	json_decref(j);
	return rc;
}

#define KSTEP(relocs, args)                                                                              \
	"{\"version\": 1, \"scratch\": [4096], \"kernel\": \"k\", \"compiled_params\": \"B=1\", "          \
	"\"steps\": [{\"kind\": \"kernel\", \"name\": \"_Z1kPf\", \"grid\": [4, 1, 1], \"block\": [64, 1, 1], " \
	"\"cluster\": [0, 0, 0], \"smem\": 0, \"attrs\": {\"max_dynamic_smem\": 0, \"carveout\": -1, "     \
	"\"nonportable_cluster\": 0}, \"params\": [0, 8], \"relocs\": " relocs ", \"args\": \"" args "\"}]}"

#define ARGS16 "00000000000000000000000000000000"

/* a kernel step without parameters, programmatic (PDL) or not */
#define PSTEP(prog)                                                                                       \
	"{\"kind\": \"kernel\", \"name\": \"k\", \"grid\": [4, 1, 1], \"block\": [64, 1, 1], "               \
	"\"cluster\": [0, 0, 0], \"smem\": 0, \"attrs\": {\"max_dynamic_smem\": 0, \"carveout\": -1, "          \
	"\"nonportable_cluster\": 0, \"programmatic\": " prog "}, \"params\": [], \"relocs\": [], \"args\": \"\"}"

static void test_plan_accepted(void **state)
{
	(void)state;
	struct seal_plan sp;
	char *why = NULL;
	assert_int_equal(parse(KSTEP("[[0, 0, 0], [8, 16, 4000]]", ARGS16), &sp, &why), 0);
	assert_null(why);
	assert_int_equal(sp.plan.n_steps, 1);
	assert_int_equal(sp.plan.n_scratch, 1);
	const struct evc_step *s = &sp.plan.steps[0];
	assert_int_equal(s->kind, EVC_STEP_KERNEL);
	assert_string_equal(s->name, "_Z1kPf");
	assert_int_equal(s->grid[0], 4);
	assert_int_equal(s->args_bytes, 16);
	assert_int_equal(s->n_relocs, 2);
	assert_int_equal(s->relocs[1].buf, EVC_BUF_SCRATCH);
	assert_int_equal(s->relocs[1].off, 4000);
	assert_string_equal(sp.plan.compiled_params, "B=1");
	assert_int_equal(s->cooperative, 0);
	assert_int_equal(s->cache_config, -1); /* none asked: the replay leaves the function's */
	seal_plan_release(&sp);
	/* the cache configuration the process set travels (red team 48's
	 * cache_func: replayed at the driver's default split, 1.9x faster than
	 * its process ran it); a value outside CUfunc_cache is left out */
	static const char *const cc[] = { "1", "3", "4", "-2" };
	static const int want[] = { 1, 3, -1, -1 };
	for (size_t i = 0; i < 4; i++) {
		char *t = xstrfmt("{\"version\": 1, \"scratch\": [], \"steps\": [{\"kind\": \"kernel\", \"name\": \"k\", "
				  "\"grid\": [4, 1, 1], \"block\": [64, 1, 1], \"cluster\": [0, 0, 0], \"smem\": 0, "
				  "\"attrs\": {\"max_dynamic_smem\": 0, \"carveout\": 25, \"nonportable_cluster\": 0, "
				  "\"cache_config\": %s, \"cluster_policy\": 2}, \"params\": [], \"relocs\": [], \"args\": \"\"}]}",
				  cc[i]);
		assert_int_equal(parse(t, &sp, &why), 0);
		assert_int_equal(sp.plan.steps[0].cache_config, want[i]);
		assert_int_equal(sp.plan.steps[0].carveout, 25);
		assert_int_equal(sp.plan.steps[0].cluster_policy, 2); /* red team 50's sched */
		seal_plan_release(&sp);
		free(t);
	}
	/* a cooperative launch stays one (rt3_coop) */
	assert_int_equal(parse("{\"version\": 1, \"scratch\": [], \"steps\": [{\"kind\": \"kernel\", \"name\": "
			       "\"k\", \"grid\": [4, 1, 1], \"block\": [64, 1, 1], \"cluster\": [0, 0, 0], "
			       "\"smem\": 0, \"attrs\": {\"max_dynamic_smem\": 0, \"carveout\": -1, "
			       "\"nonportable_cluster\": 0, \"cooperative\": 1}, \"params\": [], \"relocs\": [], "
			       "\"args\": \"\"}]}",
			       &sp, &why),
			 0);
	assert_int_equal(sp.plan.steps[0].cooperative, 1);
	seal_plan_release(&sp);
	/* a cluster init() required of the function travels with the step
	 * (red team 46's clus_func); a malformed one is refused */
	assert_int_equal(parse("{\"version\": 1, \"scratch\": [], \"steps\": [{\"kind\": \"kernel\", \"name\": "
			       "\"k\", \"grid\": [4, 1, 1], \"block\": [64, 1, 1], \"cluster\": [0, 0, 0], "
			       "\"smem\": 0, \"attrs\": {\"max_dynamic_smem\": 0, \"carveout\": -1, "
			       "\"nonportable_cluster\": 0, \"required_cluster\": [2, 1, 1]}, \"params\": [], "
			       "\"relocs\": [], \"args\": \"\"}]}",
			       &sp, &why),
			 0);
	assert_int_equal(sp.plan.steps[0].required_cluster[0], 2);
	assert_int_equal(sp.plan.steps[0].required_cluster[2], 1);
	seal_plan_release(&sp);
	assert_int_equal(parse("{\"version\": 1, \"scratch\": [], \"steps\": [{\"kind\": \"kernel\", \"name\": "
			       "\"k\", \"grid\": [4, 1, 1], \"block\": [64, 1, 1], \"cluster\": [0, 0, 0], "
			       "\"smem\": 0, \"attrs\": {\"max_dynamic_smem\": 0, \"carveout\": -1, "
			       "\"nonportable_cluster\": 0, \"required_cluster\": [2, 1]}, \"params\": [], "
			       "\"relocs\": [], \"args\": \"\"}]}",
			       &sp, &why),
			 -1);
	assert_non_null(strstr(why, "required cluster"));
	free(why);
	why = NULL;
	seal_plan_release(&sp);
	/* a programmatic dependent launch on the kernel before it stays one
	 * (red team 4, rt4_pdl) */
	assert_int_equal(parse("{\"version\": 1, \"scratch\": [], \"steps\": [" PSTEP("0") ", " PSTEP("1") "]}", &sp,
			       &why),
			 0);
	assert_int_equal(sp.plan.steps[0].programmatic, 0);
	assert_int_equal(sp.plan.steps[1].programmatic, 1);
	seal_plan_release(&sp);
	/* memsets and copies inside their buffers */
	assert_int_equal(parse("{\"version\": 1, \"scratch\": [], \"steps\": ["
			       "{\"kind\": \"memset\", \"dst\": [8, 0], \"value\": 0, \"elem\": 4, \"width\": 256, "
			       "\"height\": 1, \"pitch\": 0},"
			       "{\"kind\": \"copy\", \"dst\": [8, 512], \"src\": [0, 0], \"bytes\": 512}]}",
			       &sp, &why),
			 0);
	assert_int_equal(sp.plan.steps[1].kind, EVC_STEP_COPY);
	seal_plan_release(&sp);
}

#define SINIT(init) \
	"{\"version\": 1, \"scratch\": [4096, 64], \"steps\": [{\"kind\": \"memset\", \"dst\": [8, 0], " \
	"\"value\": 0, \"elem\": 4, \"width\": 1, \"height\": 1, \"pitch\": 0}], \"scratch_init\": " init "}"

/* what init() left in the launch's own allocations travels with the plan
 * (rt3_init_table), inside those allocations only */
static void test_plan_scratch_init(void **state)
{
	(void)state;
	struct seal_plan sp;
	char *why = NULL;
	assert_int_equal(parse(SINIT("[[0, 8, \"00ff10\"], [1, 60, \"01020304\"]]"), &sp, &why), 0);
	assert_int_equal(sp.plan.n_inits, 2);
	assert_int_equal(sp.plan.inits[0].scratch, 0);
	assert_int_equal(sp.plan.inits[0].off, 8);
	assert_int_equal(sp.plan.inits[0].bytes, 3);
	assert_int_equal(sp.plan.inits[0].data[1], 0xff);
	assert_int_equal(sp.plan.inits[1].scratch, 1);
	assert_int_equal(sp.plan.inits[1].data[3], 4);
	seal_plan_release(&sp);
	/* none at all is a plan as before */
	assert_int_equal(parse(SINIT("[]"), &sp, &why), 0);
	assert_int_equal(sp.plan.n_inits, 0);
	seal_plan_release(&sp);
	static const char *bad[] = {
		SINIT("[[1, 62, \"01020304\"]]"),  /* past its buffer's end */
		SINIT("[[2, 0, \"01\"]]"),         /* no such scratch buffer */
		SINIT("[[0, 0, \"0g\"]]"),         /* not hex */
		SINIT("[[0, 0, \"012\"]]"),        /* half a byte */
		SINIT("[[0, 0]]"),                 /* no bytes */
		SINIT("{\"0\": 1}"),               /* not a list */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse(bad[i], &sp, &why) != -1)
			print_error("scratch_init %zu was accepted: %s\n", i, bad[i]);
		assert_non_null(why);
		free(why);
		why = NULL;
	}
	/* more runs than a plan may carry */
	struct strbuf big = STRBUF_INIT;
	strbuf_addstr(&big, "[");
	for (int k = 0; k <= EVC_PLAN_MAX_RUNS; k++)
		strbuf_addf(&big, "%s[0, 0, \"01\"]", k ? ", " : "");
	strbuf_addstr(&big, "]");
	char *text = xstrfmt(SINIT("%s"), big.buf);
	assert_int_equal(parse(text, &sp, &why), -1);
	assert_non_null(strstr(why, "at most"));
	free(why);
	free(text);
	strbuf_release(&big);
}

/*
 * A plan with `runs` scratch_init runs of 1 MiB each into one scratch
 * buffer of that size and `gruns` global_init runs of 1 MiB into one
 * module global, every run the bytes of a 1 MiB contents at 0 (malloc'd;
 * the caller frees).
 */
static char *mib_runs_plan(int runs, int gruns)
{
	const size_t mib = (size_t)1 << 20;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb,
		    "{\"version\": 1, \"scratch\": [%zu], \"steps\": [" PSTEP("0") "], \"globals\": [[0, \"g\", %zu]], "
		    "\"scratch_init\": [",
		    (runs ? runs : 1) * mib, (gruns ? gruns : 1) * mib);
	for (int k = 0; k < runs; k++)
		strbuf_addf(&sb, "%s[0, %zu, %zu, 0]", k ? ", " : "", k * mib, mib);
	strbuf_addstr(&sb, "], \"global_init\": [");
	for (int k = 0; k < gruns; k++)
		strbuf_addf(&sb, "%s[0, %zu, %zu, 0]", k ? ", " : "", k * mib, mib);
	strbuf_addstr(&sb, "], \"contents\": \"");
	size_t at = sb.len;
	strbuf_grow(&sb, 2 * mib + 8);
	memset(sb.buf + at, '1', 2 * mib);
	sb.len = at + 2 * mib;
	sb.buf[sb.len] = 0;
	strbuf_addstr(&sb, "\"}");
	return strbuf_detach(&sb, NULL);
}

/*
 * The contents beside the plan's line (red team 40's devlazy: an honest
 * 1 MiB table was over the 256 KiB a line carried): [k, offset, bytes,
 * at] runs into the plan's "contents", each inside its buffer and inside
 * the contents, EVC_PLAN_MAX_CONTENTS bytes written in all, scratch and
 * globals together; the contents lower-case hex of at most that.
 */
static void test_plan_contents(void **state)
{
	(void)state;
	struct seal_plan sp;
	char *why = NULL;
#define SCONT(init, contents) SINIT(init ", \"contents\": " contents)
	assert_int_equal(parse(SCONT("[[0, 8, 3, 0], [1, 60, 4, 3], [0, 100, \"aa\"]]", "\"00ff1001020304\""), &sp,
			       &why),
			 0);
	assert_int_equal(sp.plan.n_inits, 3);
	assert_int_equal(sp.plan.inits[0].off, 8);
	assert_int_equal(sp.plan.inits[0].bytes, 3);
	assert_int_equal(sp.plan.inits[0].data[1], 0xff);
	assert_true(sp.plan.inits[0].data == sp.contents);
	assert_int_equal(sp.plan.inits[1].bytes, 4);
	assert_int_equal(sp.plan.inits[1].data[3], 4);
	assert_int_equal(sp.plan.inits[2].data[0], 0xaa); /* in the line, as before */
	seal_plan_release(&sp);
	/* a run at the very end of its buffer and of the contents */
	assert_int_equal(parse(SCONT("[[1, 63, 1, 6]]", "\"00ff1001020304\""), &sp, &why), 0);
	assert_int_equal(sp.plan.inits[0].data[0], 4);
	seal_plan_release(&sp);
	static const char *bad[] = {
		SCONT("[[1, 62, 4, 0]]", "\"00ff1001020304\""),  /* past its buffer's end */
		SCONT("[[0, 0, 4, 4]]", "\"00ff1001020304\""),   /* past the contents' end */
		SCONT("[[0, 0, 1, 7]]", "\"00ff1001020304\""),   /* starts at their end */
		SCONT("[[0, 0, 1, 9223372036854775807]]", "\"00ff1001020304\""), /* far past */
		SCONT("[[0, 0, 1, 0]]", "\"\""),                  /* no contents */
		SINIT("[[0, 0, 1, 0]]"),                          /* none at all */
		SCONT("[[0, 0, 0, 0]]", "\"00ff\""),              /* no bytes */
		SCONT("[[2, 0, 1, 0]]", "\"00ff\""),              /* no such scratch buffer */
		SCONT("[[0, 0, 1, 0, 0]]", "\"00ff\""),           /* five fields */
		SCONT("[[0, 0, \"1\", 0]]", "\"00ff\""),          /* a size that is no number */
		SCONT("[]", "\"0g\""),                            /* contents not hex */
		SCONT("[]", "\"00F0\""),                          /* nor lower-case */
		SCONT("[]", "\"012\""),                           /* half a byte */
		SCONT("[]", "16"),                                /* not a string */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse(bad[i], &sp, &why) != -1)
			print_error("contents %zu were accepted: %s\n", i, bad[i]);
		assert_non_null(why);
		free(why);
		why = NULL;
		assert_null(sp.contents); /* released */
	}
#undef SCONT
	/* the cap is on the bytes written: 16 runs of 1 MiB from 1 MiB of
	 * contents fill it, one more is over, scratch and globals together */
	assert_int_equal(EVC_PLAN_MAX_CONTENTS, (size_t)16 << 20);
	static const int shapes[][3] = { { 16, 0, 0 }, { 17, 0, -1 }, { 8, 8, 0 }, { 9, 8, -1 }, { 0, 17, -1 } };
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		char *text = mib_runs_plan(shapes[i][0], shapes[i][1]);
		int rc = parse(text, &sp, &why);
		free(text);
		if (rc != shapes[i][2])
			print_error("%d + %d runs of 1 MiB: %d (%s)\n", shapes[i][0], shapes[i][1], rc, why ? why : "");
		assert_int_equal(rc, shapes[i][2]);
		if (rc) {
			assert_non_null(strstr(why, "more than 16777216 bytes"));
			free(why);
			why = NULL;
		} else {
			assert_int_equal(sp.plan.n_inits + sp.plan.n_ginits, 16);
			seal_plan_release(&sp);
		}
	}
}

/* The parent's end of the contents (protocol.h): one plan_data frame of
 * at most PROTO_PLAN_DATA_MAX bytes before the plan, put in the plan as
 * "contents" hex; a plan whose line carries contents itself is refused. */
static void test_plan_data_frame(void **state)
{
	(void)state;
	for (int variant = 0; variant < 5; variant++) {
		int fds[2];
		assert_int_equal(pipe(fds), 0);
		struct proto p;
		proto_init(&p);
		p.phase = "plan";
		char hello[80];
		snprintf(hello, sizeof(hello), "{\"msg\":\"hello\",\"protocol\":%d,\"pid\":1}\n", PROTOCOL_VERSION);
		const char *pre[] = { hello, "{\"msg\":\"device\",\"info\":{}}\n", "{\"msg\":\"kernel\",\"name\":\"k\"}\n" };
		for (size_t i = 0; i < 3; i++)
			assert_int_equal(proto_feed(&p, pre[i], strlen(pre[i]), fds[1]), 0);
		const char *plan = "{\"msg\":\"plan\",\"plan\":{\"version\":1}}\n";
		if (variant == 0) {
			/* the frame in two reads, then the plan */
			const char *hdr = "{\"msg\":\"plan_data\",\"bytes\":3}\n\x01";
			assert_int_equal(proto_feed(&p, hdr, strlen(hdr), fds[1]), 0);
			assert_int_equal(proto_feed(&p, "\xab\x10", 2, fds[1]), 0);
			assert_int_equal(proto_feed(&p, plan, strlen(plan), fds[1]), 0);
			assert_string_equal(json_string_value(json_object_get(p.plan, "contents")), "01ab10");
		} else if (variant == 1) {
			/* none: the plan as it came */
			assert_int_equal(proto_feed(&p, plan, strlen(plan), fds[1]), 0);
			assert_null(json_object_get(p.plan, "contents"));
		} else {
			const char *m = variant == 2 ? "{\"msg\":\"plan\",\"plan\":{\"version\":1,\"contents\":\"00\"}}\n"
				      : variant == 3 ? "{\"msg\":\"plan_data\",\"bytes\":16777217}\n"
						     : "{\"msg\":\"plan_data\",\"bytes\":0}\n";
			assert_int_equal(proto_feed(&p, m, strlen(m), fds[1]), -1);
			assert_non_null(p.violation);
		}
		proto_release(&p);
		close(fds[0]);
		close(fds[1]);
	}
}

#define SLAYOUT(at)                                                                                       \
	"{\"version\": 1, \"scratch\": [4096, 64], \"steps\": [{\"kind\": \"memset\", \"dst\": [8, 0], "        \
	"\"value\": 0, \"elem\": 4, \"width\": 1, \"height\": 1, \"pitch\": 0}], \"scratch_at\": " at "}"

/* where the scratch buffers lay in the planner (red team 34's endptr: an
 * end pointer of one buffer that was the next one's start): kept when no
 * two overlap and the span is bounded; none is the layout of old plans */
static void test_plan_scratch_layout(void **state)
{
	(void)state;
	struct seal_plan sp;
	char *why = NULL;
	assert_int_equal(parse(SLAYOUT("[0, 4096]"), &sp, &why), 0);
	assert_non_null(sp.plan.scratch_at);
	assert_int_equal(sp.plan.scratch_at[1], 4096);
	seal_plan_release(&sp);
	assert_int_equal(parse(SLAYOUT("[4160, 0]"), &sp, &why), 0);
	seal_plan_release(&sp);
	assert_int_equal(parse(SLAYOUT("null"), &sp, &why), 0);
	assert_null(sp.plan.scratch_at);
	assert_int_equal(sp.plan.stack_bytes, 0);
	seal_plan_release(&sp);
	/* the planner's raised stack, carried (red team 35's stack); bounded */
	assert_int_equal(parse(SLAYOUT("null, \"stack_bytes\": 16384"), &sp, &why), 0);
	assert_int_equal(sp.plan.stack_bytes, 16384);
	seal_plan_release(&sp);
	assert_int_equal(parse(SLAYOUT("null, \"stack_bytes\": 1073741824"), &sp, &why), -1);
	assert_non_null(strstr(why, "stack_bytes"));
	free(why);
	why = NULL;
	static const char *bad[] = {
		SLAYOUT("[0, 4000]"),          /* the second inside the first */
		SLAYOUT("[0]"),                /* not one offset a buffer */
		SLAYOUT("[0, 1099511627776]"), /* a span far past the buffers */
		SLAYOUT("[0, -64]"),           /* not an offset */
		SLAYOUT("{\"0\": 1}"),         /* not a list */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse(bad[i], &sp, &why) != -1)
			print_error("scratch_at %zu was accepted: %s\n", i, bad[i]);
		assert_non_null(why);
		free(why);
		why = NULL;
	}
	/* the bytes between the buffers of a kept layout (red team 163's
	 * between): runs of the span, [0, offset, bytes, at], inside it; none
	 * without a kept layout, none past the span's end (4096 + 64 + the
	 * 64 between), none of another "buffer" than 0 */
	assert_int_equal(parse(SLAYOUT("[0, 4160], \"span_init\": [[0, 4096, 8, 0]], \"contents\": \"0102030405060708\""),
			       &sp, &why),
			 0);
	assert_int_equal(sp.plan.n_span_inits, 1);
	assert_int_equal(sp.plan.span_inits[0].off, 4096);
	assert_int_equal(sp.plan.span_inits[0].bytes, 8);
	assert_int_equal(sp.plan.span_inits[0].data[7], 8);
	char id1[SHA256_HEX_LEN + 1], id2[SHA256_HEX_LEN + 1], l1[SHA256_HEX_LEN + 1], l2[SHA256_HEX_LEN + 1];
	seal_plan_identity(&sp, id1, l1, NULL);
	seal_plan_release(&sp);
	assert_int_equal(parse(SLAYOUT("[0, 4160], \"span_init\": [[0, 4096, 8, 0]], \"contents\": \"0102030405060709\""),
			       &sp, &why),
			 0);
	seal_plan_identity(&sp, id2, l2, NULL);
	assert_string_not_equal(id1, id2); /* its bytes are in the plan's identity */
	seal_plan_release(&sp);
	static const char *bad_span[] = {
		SLAYOUT("null, \"span_init\": [[0, 0, 8, 0]], \"contents\": \"0102030405060708\""),
		SLAYOUT("[0, 4160], \"span_init\": [[0, 4220, 8, 0]], \"contents\": \"0102030405060708\""),
		SLAYOUT("[0, 4160], \"span_init\": [[1, 4096, 8, 0]], \"contents\": \"0102030405060708\""),
		SLAYOUT("[0, 4160], \"span_init\": [[0, 4096, 8, 4]], \"contents\": \"0102030405060708\""),
	};
	for (size_t i = 0; i < sizeof(bad_span) / sizeof(bad_span[0]); i++) {
		if (parse(bad_span[i], &sp, &why) != -1)
			print_error("span_init %zu was accepted: %s\n", i, bad_span[i]);
		assert_non_null(why);
		free(why);
		why = NULL;
	}
}

#define SRELOC(relocs)                                                                                    \
	"{\"version\": 1, \"scratch\": [4096, 64], \"steps\": [{\"kind\": \"memset\", \"dst\": [8, 0], "        \
	"\"value\": 0, \"elem\": 4, \"width\": 1, \"height\": 1, \"pitch\": 0}], \"scratch_init\": [], "           \
	"\"scratch_relocs\": " relocs "}"

/* pointers init() left in scratch, to scratch of the plan, are relocated
 * (red team 4, rt4_init_ptrtable); to tensors or outside, refused */
static void test_plan_scratch_relocs(void **state)
{
	(void)state;
	struct seal_plan sp;
	char *why = NULL;
	assert_int_equal(parse(SRELOC("[[1, 0, 16, 128], [1, 56, 17, 64], [0, 4088, 17, 0]]"), &sp, &why), 0);
	assert_int_equal(sp.plan.n_srelocs, 3);
	assert_int_equal(sp.plan.srelocs[0].scratch, 1);
	assert_int_equal(sp.plan.srelocs[0].at, 0);
	assert_int_equal(sp.plan.srelocs[0].buf, EVC_BUF_SCRATCH);
	assert_int_equal(sp.plan.srelocs[0].off, 128);
	assert_int_equal(sp.plan.srelocs[1].off, 64); /* one past the end of a buffer */
	seal_plan_release(&sp);
	/* a plan without any is a plan as before */
	assert_int_equal(parse(SINIT("[]"), &sp, &why), 0);
	assert_int_equal(sp.plan.n_srelocs, 0);
	seal_plan_release(&sp);
	static const char *bad[] = {
		SRELOC("[[1, 60, 16, 0]]"),    /* the word runs past its scratch buffer */
		SRELOC("[[0, 4, 16, 0]]"),     /* not aligned */
		SRELOC("[[2, 0, 16, 0]]"),     /* no such scratch buffer */
		SRELOC("[[0, 0, 0, 0]]"),      /* to an input: it moves every sample */
		SRELOC("[[0, 0, 8, 0]]"),      /* to an output */
		SRELOC("[[0, 0, 18, 0]]"),     /* to no scratch buffer */
		SRELOC("[[0, 0, 17, 65]]"),    /* past the end of its target */
		SRELOC("[[0, 0, 16]]"),        /* three fields */
		SRELOC("{\"0\": 1}"),          /* not a list */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse(bad[i], &sp, &why) != -1)
			print_error("scratch_relocs %zu was accepted: %s\n", i, bad[i]);
		assert_non_null(why);
		free(why);
		why = NULL;
	}
}

/* the identity of a plan (run/kexec.c plan_same): the planner's addresses
 * at every relocation site aside, everything the replay does */
static const char *identity_of(const char *text, char out[SHA256_HEX_LEN + 1])
{
	struct seal_plan sp;
	char *why = NULL;
	assert_int_equal(parse(text, &sp, &why), 0);
	seal_plan_identity(&sp, out, NULL, NULL);
	seal_plan_release(&sp);
	return out;
}

#define SPTR(init) \
	"{\"version\": 1, \"scratch\": [4096, 64], \"steps\": [{\"kind\": \"memset\", \"dst\": [8, 0], " \
	"\"value\": 0, \"elem\": 4, \"width\": 1, \"height\": 1, \"pitch\": 0}], \"scratch_init\": " init ", " \
	"\"scratch_relocs\": [[0, 8, 17, 0]]}"

static void test_plan_identity(void **state)
{
	(void)state;
	char a[SHA256_HEX_LEN + 1], b[SHA256_HEX_LEN + 1];
	/* two parameters, both pointers: other addresses, one identity */
	identity_of(KSTEP("[[0, 0, 0], [8, 16, 4000]]", "00e0ff6db07f0000" "0000006eb07f0000"), a);
	identity_of(KSTEP("[[0, 0, 0], [8, 16, 4000]]", "00e0ffff9f7f0000" "000000a0ff7f0000"), b);
	assert_string_equal(a, b);
	/* a pointer moved within its buffer is another plan */
	identity_of(KSTEP("[[0, 0, 0], [8, 16, 4008]]", "00e0ffff9f7f0000" "000000a0ff7f0000"), b);
	assert_string_not_equal(a, b);
	/* the second word a value, not a pointer: a count in it is another plan */
	identity_of(KSTEP("[[0, 0, 0]]", "00e0ff6db07f0000" "0300000000000000"), a);
	identity_of(KSTEP("[[0, 0, 0]]", "1111111111110000" "0300000000000000"), b);
	assert_string_equal(a, b);
	identity_of(KSTEP("[[0, 0, 0]]", "00e0ff6db07f0000" "0400000000000000"), b);
	assert_string_not_equal(a, b);
	/* a pointer init() left in scratch (at 8 of buffer 0) is zeroed, the
	 * bytes beside it are not */
	identity_of(SPTR("[[0, 0, \"0102030405060708" "00e0ff6db07f0000" "0a0b\"]]"), a);
	identity_of(SPTR("[[0, 0, \"0102030405060708" "1111222233334444" "0a0b\"]]"), b);
	assert_string_equal(a, b);
	identity_of(SPTR("[[0, 0, \"0102030405060708" "1111222233334444" "0a0c\"]]"), b);
	assert_string_not_equal(a, b);
	/* the launches alone (what init() left aside) are one */
	{
		struct seal_plan sp;
		char *why = NULL, la[SHA256_HEX_LEN + 1], lb[SHA256_HEX_LEN + 1], x[SHA256_HEX_LEN + 1];
		assert_int_equal(parse(SPTR("[[0, 0, \"0102030405060708" "1111222233334444" "0a0c\"]]"), &sp, &why), 0);
		seal_plan_identity(&sp, x, la, NULL);
		seal_plan_release(&sp);
		assert_int_equal(parse(SPTR("[[0, 0, \"0102030405060709" "00e0ff6db07f0000" "0a0b\"]]"), &sp, &why), 0);
		seal_plan_identity(&sp, x, lb, NULL);
		seal_plan_release(&sp);
		assert_string_equal(la, lb);
		assert_string_not_equal(la, x);
	}
	identity_of(SPTR("[[0, 0, \"0102030405060709" "00e0ff6db07f0000" "0a0b\"]]"), b);
	assert_string_not_equal(a, b);
}

/* which parameter bytes a kernel's PTX reads (seal_ptx_param_reads): a
 * struct's padding and fields no code loads are left out of the plan's
 * identity (red team 53's pad1, 54's deep1), a parameter whose address is
 * taken counts whole */
static void test_ptx_param_reads(void **state)
{
	(void)state;
	static const char ptx[] =
		".visible .entry _Z2kk1Pi(\n"
		"\t.param .align 8 .b8 _Z2kk1Pi_param_0[48],\n"
		"\t.param .u32 _Z2kk1Pi_param_1\n"
		")\n{\n"
		"\tld.param.u32 \t%r5, [_Z2kk1Pi_param_1];\n"
		"\tld.param.u32 \t%r4, [_Z2kk1Pi_param_0+40];\n"
		"\tld.param.u64 \t%rd3, [_Z2kk1Pi_param_0+32];\n"
		"\tld.param.v2.u32 \t{%r2, %r3}, [_Z2kk1Pi_param_0+8];\n"
		"\tld.param.u64 \t%rd1, [_Z2kk1Pi_param_0];\n"
		"\tret;\n}\n"
		".visible .entry _Z2kkaddr(\n"
		"\t.param .align 8 .b8 _Z2kkaddr_param_0[48]\n"
		")\n{\n"
		"\tmov.u64 \t%rd1, _Z2kkaddr_param_0;\n"
		"\tret;\n}\n";
	const size_t off[2] = { 0, 48 };
	unsigned char m[52];
	assert_int_equal(seal_ptx_param_reads(ptx, sizeof(ptx) - 1, "_Z2kk1Pi", 52, off, 2, m), 1);
	for (size_t b = 0; b < 52; b++) {
		int want = b < 16 || (b >= 32 && b < 44) || b >= 48;
		if (m[b] != want)
			print_error("byte %zu: %d, want %d\n", b, m[b], want);
		assert_int_equal(m[b], want);
	}
	/* its address taken: no mask (every byte, the caller's) */
	const size_t off1[1] = { 0 };
	assert_int_equal(seal_ptx_param_reads(ptx, sizeof(ptx) - 1, "_Z2kkaddr", 48, off1, 1, m), 0);
	/* red team 55: a decoy ".entry NAME" in a pragma, a load through a
	 * register, an offset past the parameter (ptxas wraps it), none
	 * masked; a parameter no load names counts whole */
	static const char fake[] = ".visible .entry _Z1d(\n)\n{\n.pragma \".entry _Z1k( {\";\nret;\n}\n"
				   ".visible .entry _Z1k(\n\t.param .u64 _Z1k_param_0,\n\t.param .u64 _Z1k_param_1\n)\n{\n"
				   "\tld.param.u64 \t%rd1, [_Z1k_param_0];\n\tret;\n}\n";
	const size_t off2[2] = { 0, 8 };
	assert_int_equal(seal_ptx_param_reads(fake, sizeof(fake) - 1, "_Z1k", 16, off2, 2, m), 0);
	static const char one[] = ".visible .entry _Z1k(\n\t.param .u64 _Z1k_param_0,\n\t.param .u64 _Z1k_param_1\n)\n{\n"
				  "\tld.param.u32 \t%r1, [_Z1k_param_0];\n\tret;\n}\n";
	assert_int_equal(seal_ptx_param_reads(one, sizeof(one) - 1, "_Z1k", 16, off2, 2, m), 1);
	for (size_t b = 0; b < 16; b++) /* param 0's bytes 4-7 unread; param 1, never named, whole */
		assert_int_equal(m[b], b < 4 || b >= 8);
	static const char reg[] = ".visible .entry _Z1k(\n\t.param .u64 _Z1k_param_0,\n\t.param .u64 _Z1k_param_1\n)\n{\n"
				  "\tld.param.u32 \t%r1, [_Z1k_param_0];\n\tld.param.u64 \t%rd2, [%rd1+8];\n\tret;\n}\n";
	assert_int_equal(seal_ptx_param_reads(reg, sizeof(reg) - 1, "_Z1k", 16, off2, 2, m), 0);
	static const char wrap[] = ".visible .entry _Z1k(\n\t.param .u64 _Z1k_param_0,\n\t.param .u64 _Z1k_param_1\n)\n{\n"
				   "\tld.param.u32 \t%r1, [_Z1k_param_0+4294967304];\n\tret;\n}\n";
	assert_int_equal(seal_ptx_param_reads(wrap, sizeof(wrap) - 1, "_Z1k", 16, off2, 2, m), 0);
	/* a function the PTX does not have, or a parameter past the plan's */
	assert_int_equal(seal_ptx_param_reads(ptx, sizeof(ptx) - 1, "_Z2nope", 48, off1, 1, m), 0);
	assert_int_equal(seal_ptx_param_reads(ptx, sizeof(ptx) - 1, "_Z2kk1Pi", 48, off1, 1, m), 0);
	/* and the identity: two plans whose parameters differ only where the
	 * mask is 0 are one */
	char a[SHA256_HEX_LEN + 1], b2[SHA256_HEX_LEN + 1];
	struct seal_plan sp;
	char *why = NULL;
	unsigned char mask[16];
	memset(mask, 1, 16);
	memset(mask + 12, 0, 4); /* a hole after a 4-byte field */
	const unsigned char *masks[1] = { mask };
	assert_int_equal(parse(KSTEP("[[0, 0, 0]]", "00e0ff6db07f0000" "03000000ad550000"), &sp, &why), 0);
	seal_plan_identity(&sp, a, NULL, masks);
	seal_plan_release(&sp);
	assert_int_equal(parse(KSTEP("[[0, 0, 0]]", "00e0ff6db07f0000" "03000000ae550000"), &sp, &why), 0);
	seal_plan_identity(&sp, b2, NULL, masks);
	assert_string_equal(a, b2);
	seal_plan_identity(&sp, b2, NULL, NULL);
	assert_string_not_equal(a, b2);
	seal_plan_release(&sp);
}

/* every way a planner could make the replay write or point elsewhere */
static void test_plan_refused(void **state)
{
	(void)state;
	static const char *bad[] = {
		/* a relocation past the parameter bytes, unaligned, or to no buffer */
		KSTEP("[[16, 0, 0]]", ARGS16),
		KSTEP("[[4, 0, 0]]", ARGS16),
		KSTEP("[[0, 3, 0]]", ARGS16),
		KSTEP("[[0, 17, 0]]", ARGS16),
		/* pointing past its buffer's end */
		KSTEP("[[0, 0, 1025]]", ARGS16),
		KSTEP("[[0, 16, 4097]]", ARGS16),
		/* parameter bytes that are not hex */
		KSTEP("[]", "zz000000000000000000000000000000"),
		/* a memset or copy past its buffer */
		"{\"version\": 1, \"scratch\": [], \"steps\": [{\"kind\": \"memset\", \"dst\": [8, 0], \"value\": 0, "
		"\"elem\": 4, \"width\": 257, \"height\": 1, \"pitch\": 0}]}",
		"{\"version\": 1, \"scratch\": [], \"steps\": [{\"kind\": \"copy\", \"dst\": [8, 1], \"src\": [0, 0], "
		"\"bytes\": 1024}]}",
		/* a 2D memset whose rows run past the buffer */
		"{\"version\": 1, \"scratch\": [], \"steps\": [{\"kind\": \"memset\", \"dst\": [8, 0], \"value\": 0, "
		"\"elem\": 1, \"width\": 16, \"height\": 3, \"pitch\": 512}]}",
		/* rows whose span wraps 64 bits to the width alone: 2^24 rows of
		 * 2^40 bytes (red team 5, rt5_memset_wrap), or wraps to a span
		 * inside the buffer */
		"{\"version\": 1, \"scratch\": [], \"steps\": [{\"kind\": \"memset\", \"dst\": [8, 0], \"value\": 0, "
		"\"elem\": 1, \"width\": 64, \"height\": 16777217, \"pitch\": 1099511627776}]}",
		"{\"version\": 1, \"scratch\": [], \"steps\": [{\"kind\": \"memset\", \"dst\": [8, 0], \"value\": 0, "
		"\"elem\": 4, \"width\": 4, \"height\": 549755813889, \"pitch\": 33554432}]}",
		/* no steps, another version, an unknown kind */
		"{\"version\": 1, \"scratch\": [], \"steps\": []}",
		"{\"version\": 2, \"scratch\": [], \"steps\": [{\"kind\": \"copy\"}]}",
		"{\"version\": 1, \"scratch\": [], \"steps\": [{\"kind\": \"host_callback\"}]}",
		/* PDL on the first step (it would overlap the harness's work
		 * before the start event) or on a step after a memset */
		"{\"version\": 1, \"scratch\": [], \"steps\": [" PSTEP("1") "]}",
		"{\"version\": 1, \"scratch\": [], \"steps\": [{\"kind\": \"memset\", \"dst\": [8, 0], \"value\": 0, "
		"\"elem\": 4, \"width\": 1, \"height\": 1, \"pitch\": 0}, " PSTEP("1") "]}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct seal_plan sp;
		char *why = NULL;
		if (parse(bad[i], &sp, &why) != -1)
			print_error("plan %zu was accepted: %s\n", i, bad[i]);
		assert_non_null(why);
		free(why);
		assert_null(sp.steps); /* released */
	}
}

/* a minimal ELF64 object with a .nv_fatbin section of two images and padding */
static void write_elf(const char *path, int with_fatbin)
{
	/* two images as nvcc lays them out: a 16-byte header, then one PTX
	 * entry (a 64-byte entry header and its payload) filling it */
	unsigned char sec[200]; /* and 8 bytes of padding after the last */
	memset(sec, 0, sizeof(sec));
	uint32_t magic = 0xBA55ED50u, ehs = 64;
	uint16_t ver = 1, hs = 16, kind = 1;
	uint64_t fs = 72, es = 8; /* image 0: 16 + 64 + 8 bytes */
	memcpy(sec, &magic, 4), memcpy(sec + 4, &ver, 2), memcpy(sec + 6, &hs, 2), memcpy(sec + 8, &fs, 8);
	memcpy(sec + 16, &kind, 2), memcpy(sec + 20, &ehs, 4), memcpy(sec + 24, &es, 8);
	fs = 80, es = 16; /* image 1 at 96 (8 bytes of padding), 16 + 64 + 16 bytes */
	memcpy(sec + 96, &magic, 4), memcpy(sec + 100, &ver, 2), memcpy(sec + 102, &hs, 2), memcpy(sec + 104, &fs, 8);
	memcpy(sec + 112, &kind, 2), memcpy(sec + 116, &ehs, 4), memcpy(sec + 120, &es, 8);
	const char names[] = "\0.nv_fatbin\0.shstrtab\0.other\0";
	Elf64_Ehdr eh;
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_DYN;
	eh.e_ehsize = sizeof(eh);
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 3;
	eh.e_shstrndx = 2;
	size_t sec_at = sizeof(eh), names_at = sec_at + sizeof(sec), sh_at = names_at + sizeof(names);
	eh.e_shoff = sh_at;
	Elf64_Shdr sh[3];
	memset(sh, 0, sizeof(sh));
	sh[1].sh_name = with_fatbin ? 1 : 22;
	sh[1].sh_type = SHT_PROGBITS;
	sh[1].sh_offset = sec_at;
	sh[1].sh_size = sizeof(sec);
	sh[2].sh_name = 11;
	sh[2].sh_type = SHT_STRTAB;
	sh[2].sh_offset = names_at;
	sh[2].sh_size = sizeof(names);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fwrite(&eh, sizeof(eh), 1, f);
	fwrite(sec, sizeof(sec), 1, f);
	fwrite(names, sizeof(names), 1, f);
	fwrite(sh, sizeof(sh), 1, f);
	fclose(f);
}

/* write_elf's object with image 0's declared size stretched over image 1
 * (the cover of red team 72) */
static void write_elf_cover(const char *path)
{
	write_elf(path, 1);
	FILE *f = fopen(path, "r+b");
	assert_non_null(f);
	uint64_t fs = 176, es = 112; /* image 0: 16 + 64 + 112 bytes, its entry over image 1 at 96 */
	assert_int_equal(fseek(f, (long)sizeof(Elf64_Ehdr) + 8, SEEK_SET), 0);
	assert_int_equal(fwrite(&fs, 8, 1, f), 1);
	assert_int_equal(fseek(f, (long)sizeof(Elf64_Ehdr) + 24, SEEK_SET), 0);
	assert_int_equal(fwrite(&es, 8, 1, f), 1);
	fclose(f);
}

static void test_fatbin_images(void **state)
{
	(void)state;
	char path[] = "/tmp/evident-test-seal-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	write_elf(path, 1);
	unsigned char *data = NULL;
	const void *im[4];
	size_t ib[4];
	char *why = NULL;
	assert_int_equal(seal_fatbin_images(path, &data, im, ib, 4, &why), 2);
	assert_int_equal(ib[0], 88);
	assert_int_equal(ib[1], 96);
	assert_ptr_equal(im[1], data + 96);
	free(data);
	/* laid out otherwise than nvcc does (red team 76): a declared size
	 * that stops short of its entry's end, a header size other than 16,
	 * and non-zero bytes between images, each where a cubin could hide
	 * from the walk: refused */
	static const struct {
		long at;
		int bytes;
		uint64_t value;
		const char *says;
	} odd[] = {
		{ 8, 8, 64, "not laid out as nvcc" },	      /* image 0 declares 16 + 64: its payload past it */
		{ 6, 2, 24, "not laid out as nvcc" },	      /* a 24-byte header */
		{ 88, 8, 0x0102030405060708ULL, "not padding" }, /* the padding between them */
		{ 192, 8, 1, "not padding" },		      /* after the last */
	};
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		write_elf(path, 1);
		FILE *g = fopen(path, "r+b");
		assert_non_null(g);
		assert_int_equal(fseek(g, (long)sizeof(Elf64_Ehdr) + odd[i].at, SEEK_SET), 0);
		assert_int_equal(fwrite(&odd[i].value, (size_t)odd[i].bytes, 1, g), 1);
		fclose(g);
		why = NULL;
		assert_int_equal(seal_fatbin_images(path, &data, im, ib, 4, &why), -1);
		assert_non_null(strstr(why, odd[i].says));
		free(why);
	}
	write_elf(path, 1);
	/* more images than the caller reads: refused, never a part of them
	 * (a shadow image ahead of a crowd of others would be read alone) */
	assert_int_equal(seal_fatbin_images(path, &data, im, ib, 1, &why), -1);
	assert_non_null(strstr(why, "more than 1 fatbin images"));
	free(why);
	/* an image whose declared size covers another's start (red team 72's
	 * cover over nvcc's own image): refused, never jumped over */
	write_elf_cover(path);
	assert_int_equal(seal_fatbin_images(path, &data, im, ib, 4, &why), -1);
	assert_non_null(strstr(why, "where the images' walk does not reach it"));
	free(why);
	/* an object without device code says so */
	write_elf(path, 0);
	assert_int_equal(seal_fatbin_images(path, &data, im, ib, 4, &why), -1);
	assert_non_null(strstr(why, "no .nv_fatbin"));
	free(why);
	/* not an ELF at all */
	FILE *f = fopen(path, "w");
	fputs("#!/bin/sh\n", f);
	fclose(f);
	assert_int_equal(seal_fatbin_images(path, &data, im, ib, 4, &why), -1);
	assert_non_null(strstr(why, "not a 64-bit ELF"));
	free(why);
	unlink(path);
}

#define GPLAN(globals, init, relocs, krelocs, srelocs)                                                    \
	"{\"version\": 1, \"scratch\": [64], \"steps\": [{\"kind\": \"kernel\", \"name\": \"_Z1kPf\", "      \
	"\"grid\": [4, 1, 1], \"block\": [64, 1, 1], \"cluster\": [0, 0, 0], \"smem\": 0, \"attrs\": {}, "      \
	"\"params\": [0, 8], \"relocs\": " krelocs ", \"args\": \"" ARGS16 "\"}, {\"kind\": \"memset\", "       \
	"\"dst\": [8, 0], \"value\": 0, \"elem\": 4, \"width\": 1, \"height\": 1, \"pitch\": 0}], "             \
	"\"scratch_relocs\": " srelocs ", \"globals\": " globals ", \"global_init\": " init ", "              \
	"\"global_relocs\": " relocs "}"
#define G3 "[[0, \"is_qscale\", 256], [0, \"_ZN2ns2ndE\", 8], [0, \"$str.1\", 16]]"

/* module globals init() wrote travel with the plan (red team 3,
 * rt3_init_symbol): named, sized, their runs and pointers inside them,
 * pointers to them relocated; every other shape is refused */
static void test_plan_globals(void **state)
{
	(void)state;
	struct seal_plan sp;
	char *why = NULL;
	assert_int_equal(parse(GPLAN(G3, "[[0, 0, \"0000803e\"], [2, 8, \"41\"]]", "[[1, 0, 32, 16], [2, 8, 16, 0]]",
				     "[[8, 32, 4]]", "[[0, 8, 33, 0]]"),
			       &sp, &why),
			 0);
	assert_null(why);
	assert_int_equal(sp.plan.n_globals, 3);
	assert_string_equal(sp.plan.globals[0].name, "is_qscale");
	assert_int_equal(sp.plan.globals[0].bytes, 256);
	assert_int_equal(sp.plan.globals[2].step, 0);
	assert_int_equal(sp.plan.n_ginits, 2);
	assert_int_equal(sp.plan.ginits[0].scratch, 0);
	assert_int_equal(sp.plan.ginits[0].bytes, 4);
	assert_int_equal(sp.plan.ginits[0].data[3], 0x3e);
	assert_int_equal(sp.plan.ginits[1].off, 8);
	assert_int_equal(sp.plan.n_grelocs, 2);
	assert_int_equal(sp.plan.grelocs[0].scratch, 1);
	assert_int_equal(sp.plan.grelocs[0].buf, EVC_BUF_GLOBAL);
	assert_int_equal(sp.plan.grelocs[0].off, 16);
	assert_int_equal(sp.plan.grelocs[1].buf, EVC_BUF_SCRATCH);
	assert_int_equal(sp.plan.steps[0].relocs[0].buf, EVC_BUF_GLOBAL);
	assert_int_equal(sp.plan.srelocs[0].buf, EVC_BUF_GLOBAL + 1);
	seal_plan_release(&sp);
	/* a plan without globals is a plan as before */
	assert_int_equal(parse(SINIT("[]"), &sp, &why), 0);
	assert_int_equal(sp.plan.n_globals, 0);
	assert_int_equal(sp.plan.n_ginits, 0);
	assert_int_equal(sp.plan.n_grelocs, 0);
	seal_plan_release(&sp);
	static const char *bad[] = {
		/* names: not of a symbol's characters, empty, not a string (a NUL
		 * inside does not get this far: jansson refuses it) */
		GPLAN("[[0, \"a b\", 8]]", "[]", "[]", "[]", "[]"),
		GPLAN("[[0, \"../x\", 8]]", "[]", "[]", "[]", "[]"),
		GPLAN("[[0, \"\", 8]]", "[]", "[]", "[]", "[]"),
		GPLAN("[[0, 5, 8]]", "[]", "[]", "[]", "[]"),
		/* sizes: none, over 4 GiB, negative */
		GPLAN("[[0, \"g\", 0]]", "[]", "[]", "[]", "[]"),
		GPLAN("[[0, \"g\", 4294967297]]", "[]", "[]", "[]", "[]"),
		GPLAN("[[0, \"g\", -8]]", "[]", "[]", "[]", "[]"),
		/* the step: a memset, none such, negative; two fields; not a list */
		GPLAN("[[1, \"g\", 8]]", "[]", "[]", "[]", "[]"),
		GPLAN("[[2, \"g\", 8]]", "[]", "[]", "[]", "[]"),
		GPLAN("[[-1, \"g\", 8]]", "[]", "[]", "[]", "[]"),
		GPLAN("[[0, \"g\"]]", "[]", "[]", "[]", "[]"),
		GPLAN("{\"g\": 8}", "[]", "[]", "[]", "[]"),
		/* contents: no such global, past its end, not hex, no bytes */
		GPLAN(G3, "[[3, 0, \"01\"]]", "[]", "[]", "[]"),
		GPLAN(G3, "[[1, 6, \"010203\"]]", "[]", "[]", "[]"),
		GPLAN(G3, "[[1, 0, \"0G\"]]", "[]", "[]", "[]"),
		GPLAN(G3, "[[1, 0, \"\"]]", "[]", "[]", "[]"),
		/* pointers: unaligned, past its global, to a tensor, to no global,
		 * past the end of the global they point into */
		GPLAN(G3, "[]", "[[0, 4, 16, 0]]", "[]", "[]"),
		GPLAN(G3, "[]", "[[1, 8, 16, 0]]", "[]", "[]"),
		GPLAN(G3, "[]", "[[0, 0, 0, 0]]", "[]", "[]"),
		GPLAN(G3, "[]", "[[0, 0, 8, 0]]", "[]", "[]"),
		GPLAN(G3, "[]", "[[0, 0, 35, 0]]", "[]", "[]"),
		GPLAN(G3, "[]", "[[0, 0, 32, 257]]", "[]", "[]"),
		GPLAN(G3, "[]", "[[5, 0, 32, 0]]", "[]", "[]"),
		/* a parameter or scratch pointer past a global */
		GPLAN(G3, "[]", "[]", "[[8, 33, 9]]", "[]"),
		GPLAN(G3, "[]", "[]", "[]", "[[0, 0, 34, 17]]"),
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse(bad[i], &sp, &why) != -1)
			print_error("globals %zu were accepted: %s\n", i, bad[i]);
		assert_non_null(why);
		free(why);
		why = NULL;
		assert_null(sp.globals); /* released */
	}
	/* a name over the limit, more globals than a plan carries, more
	 * contents than it carries */
	size_t cap = 64 * 1024 + 16 * (EVC_PLAN_MAX_RUNS + 8);
	char *text = xmalloc(cap), *long_name = xmalloc(EVC_PLAN_MAX_GLOBAL_NAME + 2);
	memset(long_name, 'a', EVC_PLAN_MAX_GLOBAL_NAME + 1);
	long_name[EVC_PLAN_MAX_GLOBAL_NAME + 1] = 0;
	for (int variant = 0; variant < 4; variant++) {
		struct strbuf g = STRBUF_INIT, in = STRBUF_INIT;
		if (variant == 0)
			strbuf_addf(&g, "[[0, \"%s\", 8]]", long_name);
		else if (variant == 1)
			strbuf_addf(&g, "[[0, \"%s\", 8]]", long_name + 1); /* at the limit: accepted */
		else
			for (int k = 0; k < (variant == 2 ? EVC_PLAN_MAX_GLOBALS + 1 : 1); k++)
				strbuf_addf(&g, "%s[0, \"g%d\", %d]", k ? ", " : "[", k, 4096);
		if (variant >= 2)
			strbuf_addstr(&g, "]");
		strbuf_addstr(&in, "[");
		if (variant == 3) /* more runs than a plan carries (the bytes: test_plan_contents) */
			for (int k = 0; k <= EVC_PLAN_MAX_RUNS; k++)
				strbuf_addf(&in, "%s[0, 0, \"11\"]", k ? ", " : "");
		strbuf_addstr(&in, "]");
		snprintf(text, cap,
			 "{\"version\": 1, \"scratch\": [], \"steps\": [" PSTEP("0") "], \"globals\": %s, "
			 "\"global_init\": %s}",
			 g.buf, in.buf);
		int rc = parse(text, &sp, &why);
		if (variant == 1) {
			assert_int_equal(rc, 0);
			seal_plan_release(&sp);
		} else {
			assert_int_equal(rc, -1);
			assert_non_null(why);
			free(why);
			why = NULL;
		}
		strbuf_release(&g);
		strbuf_release(&in);
	}
	free(text);
	free(long_name);
}

/* A cubin-like ELF: sections .nv.global, .nv.constant3, .nv.constant0.k,
 * .nv.shared.k, .nv.global.init and a symbol table over them; *len. */
static unsigned char *write_cubin(size_t *len)
{
	static const char shstr[] = "\0.shstrtab\0.strtab\0.symtab\0.nv.global\0.nv.constant3\0.nv.constant0._Z1kPf"
				    "\0.nv.shared._Z1kPf\0.nv.global.init";
	static const char str[] = "\0g_counter\0c_table\0p0\0sh\0_Z1kPf\0bad name\0zero\0undef\0idx\0$str";
	/* offsets of the names above */
	enum { S_SHSTR = 1, S_STR = 11, S_SYM = 19, S_GLOBAL = 27, S_CONST3 = 38, S_CONST0 = 52, S_SHARED = 73,
	       S_GINIT = 91 };
	enum { N_G = 1, N_C = 11, N_P0 = 19, N_SH = 22, N_K = 25, N_BAD = 32, N_ZERO = 41, N_UNDEF = 46, N_IDX = 52,
	       N_STR = 56 };
	const struct { uint32_t name; unsigned char type; uint16_t shndx; uint64_t size; } syms[] = {
		{ 0, 0, 0, 0 },
		{ N_G, STT_OBJECT, 4, 4 },        /* .nv.global: in */
		{ N_C, STT_OBJECT, 5, 256 },      /* .nv.constant3: in */
		{ N_P0, STT_OBJECT, 6, 8 },       /* a kernel's parameters: out */
		{ N_SH, STT_OBJECT, 7, 4 },       /* shared memory: out */
		{ N_K, STT_FUNC, 5, 64 },         /* a function: out */
		{ N_BAD, STT_OBJECT, 4, 4 },      /* no symbol's name: out */
		{ N_G, STT_OBJECT, 8, 4 },        /* the same name again: once */
		{ 4000, STT_OBJECT, 4, 4 },       /* its name past the table: out */
		{ N_ZERO, STT_OBJECT, 4, 0 },     /* no bytes: out */
		{ N_UNDEF, STT_OBJECT, 0, 4 },    /* undefined: out */
		{ N_IDX, STT_OBJECT, 99, 4 },     /* no such section: out */
		{ N_STR, STT_OBJECT, 8, 16 },     /* .nv.global.init: in */
	};
	assert_string_equal(shstr + S_SHARED, ".nv.shared._Z1kPf");
	assert_string_equal(shstr + S_GINIT, ".nv.global.init");
	assert_string_equal(shstr + S_CONST0, ".nv.constant0._Z1kPf");
	assert_string_equal(str + N_IDX, "idx");
	assert_string_equal(str + N_STR, "$str");
	size_t nsym = sizeof(syms) / sizeof(syms[0]), at = sizeof(Elf64_Ehdr);
	size_t o_shstr = at, o_str = o_shstr + sizeof(shstr), o_sym = (o_str + sizeof(str) + 7) & ~(size_t)7;
	size_t o_sh = o_sym + nsym * sizeof(Elf64_Sym);
	*len = o_sh + 9 * sizeof(Elf64_Shdr);
	unsigned char *f = xcalloc(*len, 1);
	Elf64_Ehdr eh;
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_shoff = o_sh;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 9;
	eh.e_shstrndx = 1;
	memcpy(f, &eh, sizeof(eh));
	memcpy(f + o_shstr, shstr, sizeof(shstr));
	memcpy(f + o_str, str, sizeof(str));
	for (size_t k = 0; k < nsym; k++) {
		Elf64_Sym sy;
		memset(&sy, 0, sizeof(sy));
		sy.st_name = syms[k].name;
		sy.st_info = ELF64_ST_INFO(STB_LOCAL, syms[k].type);
		sy.st_shndx = syms[k].shndx;
		sy.st_size = syms[k].size;
		memcpy(f + o_sym + k * sizeof(sy), &sy, sizeof(sy));
	}
	Elf64_Shdr sh[9];
	memset(sh, 0, sizeof(sh));
	const uint32_t names[9] = { 0, S_SHSTR, S_STR, S_SYM, S_GLOBAL, S_CONST3, S_CONST0, S_SHARED, S_GINIT };
	for (int k = 0; k < 9; k++) {
		sh[k].sh_name = names[k];
		sh[k].sh_type = SHT_PROGBITS;
	}
	sh[1].sh_type = sh[2].sh_type = SHT_STRTAB;
	sh[1].sh_offset = o_shstr, sh[1].sh_size = sizeof(shstr);
	sh[2].sh_offset = o_str, sh[2].sh_size = sizeof(str);
	sh[3].sh_type = SHT_SYMTAB;
	sh[3].sh_offset = o_sym, sh[3].sh_size = nsym * sizeof(Elf64_Sym);
	sh[3].sh_entsize = sizeof(Elf64_Sym);
	sh[3].sh_link = 2;
	sh[4].sh_type = SHT_NOBITS;
	memcpy(f + o_sh, sh, sizeof(sh));
	return f;
}

/* One fatbin image of one entry of `kind` holding bytes, malloc'd; *len. */
static unsigned char *entry_image(uint16_t kind, const unsigned char *bytes, size_t n, size_t *len)
{
	uint64_t payload = (n + 7) & ~(size_t)7, fs = 64 + payload, flags = 0;
	uint32_t magic = 0xBA55ED50u, ehs = 64;
	uint16_t ver = 1, hs = 16;
	unsigned char *buf = xcalloc(16 + fs, 1);
	memcpy(buf, &magic, 4), memcpy(buf + 4, &ver, 2), memcpy(buf + 6, &hs, 2), memcpy(buf + 8, &fs, 8);
	memcpy(buf + 16, &kind, 2), memcpy(buf + 20, &ehs, 4), memcpy(buf + 24, &payload, 8);
	memcpy(buf + 16 + 40, &flags, 8);
	memcpy(buf + 16 + 64, bytes, n);
	*len = 16 + fs;
	return buf;
}

static size_t one_entry_image(unsigned char *buf, uint16_t kind, uint64_t flags, const char *text);

/* device code that calls the malloc heap is seen (red team 163's heap):
 * a cubin importing free or a name holding malloc, PTX naming malloc;
 * never a cubin's own (defined) symbol of such a name */
static void test_fatbin_device_heap(void **state)
{
	(void)state;
	size_t clen, ilen;
	unsigned char *cubin = write_cubin(&clen);
	unsigned char *im = entry_image(2, cubin, clen, &ilen);
	const void *ims[1] = { im };
	size_t ibs[1] = { ilen };
	const char *what = NULL;
	assert_int_equal(seal_fatbin_device_heap(ims, ibs, 1, &what), 0);
	assert_null(what);
	/* a defined global named like the allocator: its own, no import */
	unsigned char *bad = memmem(im, ilen, "bad name", 8);
	assert_non_null(bad);
	memcpy(bad, "xmalloc", 8);
	assert_int_equal(seal_fatbin_device_heap(ims, ibs, 1, &what), 0);
	/* the undefined symbol named free: an import of the heap */
	unsigned char *und = memmem(im, ilen, "undef", 6);
	assert_non_null(und);
	memcpy(und, "free", 5);
	assert_int_equal(seal_fatbin_device_heap(ims, ibs, 1, &what), 1);
	assert_string_equal(what, "free");
	free(im);
	free(cubin);
	/* PTX that declares malloc */
	unsigned char a[256];
	const void *pim[1] = { a };
	size_t pib[1];
	pib[0] = one_entry_image(a, 1, 0x11, ".extern .func (.param .b64 r) malloc (.param .b64 p)");
	assert_int_equal(seal_fatbin_device_heap(pim, pib, 1, &what), 1);
	assert_string_equal(what, "malloc");
	pib[0] = one_entry_image(a, 1, 0x11, ".visible .entry _Z1kPf (.param .u64 p)");
	assert_int_equal(seal_fatbin_device_heap(pim, pib, 1, &what), 0);
}

/* the globals a cubin names, and only those: objects of .nv.global* and
 * .nv.constant* (not a kernel's parameter bank), each once */
static void test_fatbin_globals(void **state)
{
	(void)state;
	size_t clen, ilen;
	unsigned char *cubin = write_cubin(&clen);
	unsigned char *im = entry_image(2, cubin, clen, &ilen);
	const void *ims[2] = { im, im };
	size_t ibs[2] = { ilen, ilen };
	char **names = NULL, *refused = NULL;
	int unreadable = -1;
	int n = seal_fatbin_globals(ims, ibs, 2, &names, 64, &unreadable, &refused);
	assert_int_equal(n, 3);
	assert_int_equal(unreadable, 0);
	assert_string_equal(names[0], "g_counter");
	assert_string_equal(names[1], "c_table");
	assert_string_equal(names[2], "$str");
	/* a global whose name a plan cannot carry is said, not dropped (red
	 * team 47's longname: what init() wrote there was lost in silence) */
	assert_non_null(refused);
	assert_string_equal(refused, "'bad?name' (8 characters)");
	free(refused);
	seal_names_free(names, n);
	/* more than the caller takes: none */
	assert_int_equal(seal_fatbin_globals(ims, ibs, 1, &names, 2, &unreadable, &refused), -1);
	assert_null(names);
	free(refused);
	free(im);
	/* a PTX entry is not read; a cut cubin is counted, not read */
	im = entry_image(1, cubin, clen, &ilen);
	ims[0] = im, ibs[0] = ilen;
	assert_int_equal(seal_fatbin_globals(ims, ibs, 1, &names, 64, &unreadable, &refused), 0);
	assert_int_equal(unreadable, 0);
	seal_names_free(names, 0);
	free(refused);
	free(im);
	im = entry_image(2, cubin, clen - sizeof(Elf64_Shdr), &ilen);
	ims[0] = im, ibs[0] = ilen;
	assert_int_equal(seal_fatbin_globals(ims, ibs, 1, &names, 64, &unreadable, &refused), 0);
	assert_int_equal(unreadable, 1);
	seal_names_free(names, 0);
	free(refused);
	free(im);
	/* a symbol table running past the cubin is not read (the rest is) */
	Elf64_Ehdr eh;
	memcpy(&eh, cubin, sizeof(eh));
	Elf64_Shdr st;
	memcpy(&st, cubin + eh.e_shoff + 3 * sizeof(Elf64_Shdr), sizeof(st));
	st.sh_size = clen;
	memcpy(cubin + eh.e_shoff + 3 * sizeof(Elf64_Shdr), &st, sizeof(st));
	im = entry_image(2, cubin, clen, &ilen);
	ims[0] = im, ibs[0] = ilen;
	assert_int_equal(seal_fatbin_globals(ims, ibs, 1, &names, 64, &unreadable, &refused), 0);
	seal_names_free(names, 0);
	free(refused);
	free(im);
	free(cubin);
}

/* what nvcc makes: every kind of module global a kernel can have, found
 * in a real fatbin (skipped where there is no nvcc) */
static void test_fatbin_globals_nvcc(void **state)
{
	(void)state;
	const char *nvcc = getenv("NVCC");
	if (!nvcc || !*nvcc)
		nvcc = access("/usr/local/cuda/bin/nvcc", X_OK) ? "nvcc" : "/usr/local/cuda/bin/nvcc";
	char dir[] = "/tmp/evident-test-seal-nvcc-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *src = xstrfmt("%s/g.cu", dir), *out = xstrfmt("%s/g.fatbin", dir);
	FILE *f = fopen(src, "w");
	assert_non_null(f);
	fputs("__constant__ float cq[64];\n"
	      "__device__ int dev_counter;\n"
	      "__device__ float dinit[4] = {1, 2, 3, 4};\n"
	      "__device__ float *dptr = dinit;\n"
	      "static __constant__ int scst[3] = {7, 8, 9};\n"
	      "namespace ns { __device__ double nd; }\n"
	      "__global__ void k(float *o) { o[threadIdx.x] = cq[threadIdx.x] + dev_counter + dinit[0] + *dptr + "
	      "scst[1] + ns::nd; }\n",
	      f);
	fclose(f);
	const char *argv[] = { nvcc, "-fatbin", "-arch=sm_90", "-o", out, src, NULL };
	struct run_opts o;
	memset(&o, 0, sizeof(o));
	o.argv = argv;
	o.timeout_s = 300;
	o.merge_stderr = 1;
	struct strbuf log = STRBUF_INIT, fat = STRBUF_INIT;
	o.out = &log;
	struct run_result r;
	run_command(&o, &r);
	int built = r.started && r.exited && !r.exit_code && read_file(out, &fat) >= 0;
	unlink(src);
	unlink(out);
	rmdir(dir);
	free(src);
	free(out);
	strbuf_release(&log);
	if (!built) {
		strbuf_release(&fat);
		skip(); /* no nvcc here */
	}
	const void *ims[1] = { fat.buf };
	size_t ibs[1] = { fat.len };
	char **names = NULL, *refused = NULL;
	int unreadable = -1;
	int n = seal_fatbin_globals(ims, ibs, 1, &names, 64, &unreadable, &refused);
	assert_null(refused);
	static const char *const want[] = { "cq", "dev_counter", "dinit", "dptr", "scst", "_ZN2ns2ndE" };
	assert_int_equal(n, 6);
	assert_int_equal(unreadable, 0);
	for (size_t w = 0; w < 6; w++) {
		int found = 0;
		for (int k = 0; k < n; k++)
			found |= !strcmp(names[k], want[w]);
		if (!found)
			print_error("nvcc's cubin has no global '%s'\n", want[w]);
		assert_true(found);
	}
	seal_names_free(names, n);
	strbuf_release(&fat);
}

/* red team 60: the bytes no named global covers, head, between and tail */
static void test_section_gaps(void **state)
{
	(void)state;
	uint64_t gap[8];
	/* rt60's layout: two 4-byte globals at 0x0 and 0x100 of 0x104 */
	const uint64_t at[2] = { 0, 0x100 }, sz[2] = { 4, 4 };
	assert_int_equal(seal_section_gaps(0x104, at, sz, 2, 1 << 20, gap, 4), 1);
	assert_int_equal(gap[0], 4);
	assert_int_equal(gap[1], 0x100);
	/* a head and a tail; an overlap is no gap */
	const uint64_t at2[3] = { 8, 8, 16 }, sz2[3] = { 8, 4, 4 };
	assert_int_equal(seal_section_gaps(32, at2, sz2, 3, 1 << 20, gap, 4), 2);
	assert_int_equal(gap[0], 0);
	assert_int_equal(gap[1], 8);
	assert_int_equal(gap[2], 20);
	assert_int_equal(gap[3], 32);
	/* the byte cap cuts the gaps */
	assert_int_equal(seal_section_gaps(32, at2, sz2, 3, 10, gap, 4), 2);
	assert_int_equal(gap[2], 20);
	assert_int_equal(gap[3], 22);
	/* no gap: symbols cover the section */
	const uint64_t at3[1] = { 0 }, sz3[1] = { 32 };
	assert_int_equal(seal_section_gaps(32, at3, sz3, 1, 1 << 20, gap, 4), 0);
}

/*
 * seal_fatbin_sections over a cubin whose sizes the kernel's author chose
 * (every offset in it is the author's): a NOBITS .nv.global of 2^40 bytes
 * whose last global lies 2^39 in has more gap bytes than
 * EVC_SECTION_MAX_GAP_BYTES: none of them listed and gap_over says how
 * many (the caller refuses the plan; red team 157's gapcap had its gaps
 * cut at the cap and its knob past it); a PROGBITS .nv.constant3 that runs past the
 * cubin has its gaps, and their load-time bytes, cut where the file ends;
 * one that starts past the cubin has none; and a caller's max_sections
 * keeps the first ones (-1 - n).  Under make SAN=1 any read past the
 * cubin is an error.
 */
static unsigned char *write_hostile_cubin(size_t *len)
{
	static const char shstr[] = "\0.shstrtab\0.strtab\0.symtab\0.nv.global\0.nv.constant3\0.nv.constant4";
	static const char str[] = "\0g0\0g1\0g2\0c0\0c1\0d0";
	enum { S_SHSTR = 1, S_STR = 11, S_SYM = 19, S_GLOBAL = 27, S_CONST3 = 38, S_CONST4 = 52 };
	enum { N_G0 = 1, N_G1 = 4, N_G2 = 7, N_C0 = 10, N_C1 = 13, N_D0 = 16 };
	const struct { uint32_t name; uint16_t shndx; uint64_t value, size; } syms[] = {
		{ 0, 0, 0, 0 },
		{ N_G0, 4, 0, 4 },
		{ N_G1, 4, 0x100, 4 },
		{ N_G2, 4, (uint64_t)1 << 39, 8 },
		{ N_C0, 5, 0, 4 },
		{ N_C1, 5, 64, 4 },
		{ N_D0, 6, 0, 4 },
	};
	assert_string_equal(shstr + S_CONST4, ".nv.constant4");
	assert_string_equal(str + N_D0, "d0");
	size_t nsym = sizeof(syms) / sizeof(syms[0]);
	size_t o_shstr = sizeof(Elf64_Ehdr), o_str = o_shstr + sizeof(shstr);
	size_t o_sym = (o_str + sizeof(str) + 7) & ~(size_t)7, o_sh = o_sym + nsym * sizeof(Elf64_Sym);
	size_t o_c3 = o_sh + 7 * sizeof(Elf64_Shdr); /* .nv.constant3's 32 bytes in the file, of its 128 */
	*len = o_c3 + 32;
	unsigned char *f = xcalloc(*len, 1);
	Elf64_Ehdr eh;
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_shoff = o_sh;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 7;
	eh.e_shstrndx = 1;
	memcpy(f, &eh, sizeof(eh));
	memcpy(f + o_shstr, shstr, sizeof(shstr));
	memcpy(f + o_str, str, sizeof(str));
	for (size_t k = 0; k < nsym; k++) {
		Elf64_Sym sy;
		memset(&sy, 0, sizeof(sy));
		sy.st_name = syms[k].name;
		sy.st_info = ELF64_ST_INFO(STB_GLOBAL, k ? STT_OBJECT : STT_NOTYPE);
		sy.st_shndx = syms[k].shndx;
		sy.st_value = syms[k].value;
		sy.st_size = syms[k].size;
		memcpy(f + o_sym + k * sizeof(sy), &sy, sizeof(sy));
	}
	for (size_t k = 0; k < 32; k++)
		f[o_c3 + k] = (unsigned char)(0xa0 + k);
	Elf64_Shdr sh[7];
	memset(sh, 0, sizeof(sh));
	const uint32_t names[7] = { 0, S_SHSTR, S_STR, S_SYM, S_GLOBAL, S_CONST3, S_CONST4 };
	for (int k = 0; k < 7; k++) {
		sh[k].sh_name = names[k];
		sh[k].sh_type = SHT_PROGBITS;
	}
	sh[1].sh_type = sh[2].sh_type = SHT_STRTAB;
	sh[1].sh_offset = o_shstr, sh[1].sh_size = sizeof(shstr);
	sh[2].sh_offset = o_str, sh[2].sh_size = sizeof(str);
	sh[3].sh_type = SHT_SYMTAB;
	sh[3].sh_offset = o_sym, sh[3].sh_size = nsym * sizeof(Elf64_Sym);
	sh[3].sh_entsize = sizeof(Elf64_Sym);
	sh[3].sh_link = 2;
	sh[4].sh_type = SHT_NOBITS, sh[4].sh_size = (uint64_t)1 << 40;
	sh[5].sh_offset = o_c3, sh[5].sh_size = 128;
	sh[6].sh_offset = UINT64_MAX - 8, sh[6].sh_size = 64; /* past the cubin, and past 2^64 */
	memcpy(f + o_sh, sh, sizeof(sh));
	return f;
}

static void test_fatbin_sections_hostile(void **state)
{
	(void)state;
	size_t clen, ilen;
	unsigned char *cubin = write_hostile_cubin(&clen);
	unsigned char *im = entry_image(2, cubin, clen, &ilen);
	/* the image holds the cubin exactly: nothing past it to read */
	unsigned char *tight = xmalloc(ilen);
	memcpy(tight, im, ilen);
	const void *ims[1] = { tight };
	size_t ibs[1] = { ilen };
	struct evc_section *secs = NULL;
	uint64_t over = 1;
	int n = seal_fatbin_sections(ims, ibs, 1, &secs, 16, &over);
	assert_int_equal(n, 3);
	/* .nv.global: 2^40 bytes less its globals' 16 are gaps, over the cap:
	 * none listed, and over says how many */
	assert_string_equal(secs[0].name, ".nv.global");
	assert_int_equal(secs[0].size, (uint64_t)1 << 40);
	assert_int_equal(secs[0].n_syms, 3);
	assert_string_equal(secs[0].sym_name[2], "g2");
	assert_int_equal(secs[0].n_gaps, 0);
	assert_int_equal(over, ((uint64_t)1 << 40) - 16);
	assert_null(secs[0].gap_init);
	/* .nv.constant3: [4, 64) cut at the file's 32 bytes, [68, 128) gone */
	assert_string_equal(secs[1].name, ".nv.constant3");
	assert_int_equal(secs[1].n_gaps, 1);
	assert_int_equal(secs[1].gap[0], 4);
	assert_int_equal(secs[1].gap[1], 32);
	assert_non_null(secs[1].gap_init);
	for (int k = 0; k < 28; k++)
		assert_int_equal(secs[1].gap_init[k], 0xa0 + 4 + k);
	/* .nv.constant4 starts past the cubin: its symbol named, no gap read */
	assert_string_equal(secs[2].name, ".nv.constant4");
	assert_int_equal(secs[2].n_syms, 1);
	assert_int_equal(secs[2].n_gaps, 0);
	seal_sections_free(secs, n);
	/* more sections than the caller takes: the first, and -1 - 1 */
	n = seal_fatbin_sections(ims, ibs, 1, &secs, 1, NULL);
	assert_int_equal(n, -2);
	assert_string_equal(secs[0].name, ".nv.global");
	seal_sections_free(secs, 1);
	seal_sections_free(NULL, 0);
	free(tight);
	free(im);
	free(cubin);
}

/* red team 60's fixture, built by nvcc: the gaps of .nv.global (NOBITS:
 * zeros) and .nv.constant3 (their load-time bytes, zeros) between two
 * 256-aligned globals (skipped where there is no nvcc) */
/* src built by nvcc as an sm_90 fatbin with -DMODE=2 into fat: 1, or 0
 * where it could not be (no nvcc here; fat is then empty) */
static int nvcc_fatbin_mode2(const char *src, struct strbuf *fat)
{
	const char *nvcc = getenv("NVCC");
	if (!nvcc || !*nvcc)
		nvcc = access("/usr/local/cuda/bin/nvcc", X_OK) ? "nvcc" : "/usr/local/cuda/bin/nvcc";
	char dir[] = "/tmp/evident-test-seal-nvcc-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *out = xstrfmt("%s/p.fatbin", dir);
	const char *argv[] = { nvcc, "-fatbin", "-arch=sm_90", "-DMODE=2", "-o", out, src, NULL };
	struct run_opts o;
	memset(&o, 0, sizeof(o));
	o.argv = argv;
	o.timeout_s = 300;
	o.merge_stderr = 1;
	struct strbuf log = STRBUF_INIT;
	o.out = &log;
	struct run_result r;
	run_command(&o, &r);
	int built = r.started && r.exited && !r.exit_code && read_file(out, fat) >= 0;
	unlink(out);
	rmdir(dir);
	free(out);
	strbuf_release(&log);
	if (!built)
		strbuf_release(fat);
	return built;
}

static void test_fatbin_sections_nvcc(void **state)
{
	(void)state;
	struct strbuf fat = STRBUF_INIT;
	if (!nvcc_fatbin_mode2("tests/fixtures/adversary/cuda/rt60_pad.cu", &fat))
		skip(); /* no nvcc here */
	const void *ims[1] = { fat.buf };
	size_t ibs[1] = { fat.len };
	struct evc_section *secs = NULL;
	int n = seal_fatbin_sections(ims, ibs, 1, &secs, 16, NULL);
	assert_int_equal(n, 2);
	int seen_g = 0, seen_c = 0;
	for (int i = 0; i < n; i++) {
		const struct evc_section *s = &secs[i];
		int g = !strcmp(s->name, ".nv.global"), c = !strcmp(s->name, ".nv.constant3");
		if (!g && !c)
			print_error("unexpected section '%s'\n", s->name);
		assert_true(g || c);
		seen_g += g, seen_c += c;
		assert_int_equal(s->size, 0x104);
		assert_int_equal(s->n_syms, 2);
		assert_string_equal(s->sym_name[0], g ? "rt60_knob" : "rt60_cknob");
		assert_string_equal(s->sym_name[1], g ? "rt60_next" : "rt60_cnext");
		assert_int_equal(s->sym_at[0], 0);
		assert_int_equal(s->sym_at[1], 0x100);
		assert_int_equal(s->sym_size[0], 4);
		assert_int_equal(s->sym_size[1], 4);
		/* the 252 bytes init() wrote at PAD 128 in MODE 2 and 4 */
		assert_int_equal(s->n_gaps, 1);
		assert_int_equal(s->gap[0], 4);
		assert_int_equal(s->gap[1], 0x100);
		if (g) {
			assert_null(s->gap_init); /* NOBITS: zeros */
		} else {
			assert_non_null(s->gap_init);
			for (int k = 0; k < 252; k++)
				assert_int_equal(s->gap_init[k], 0);
		}
	}
	assert_int_equal(seen_g, 1);
	assert_int_equal(seen_c, 1);
	seal_sections_free(secs, n);
	/* more sections than taken: the first kept, said */
	assert_int_equal(seal_fatbin_sections(ims, ibs, 1, &secs, 1, NULL), -2);
	seal_sections_free(secs, 1);
	strbuf_release(&fat);
}

/* red team 157's gapcap, built by nvcc: two globals 2 MiB apart, so the
 * gap of .nv.global is 2 MiB less their 4 bytes each, less the knob's:
 * listed whole (it was cut at 1 MiB, and init()'s knob at 1.5 MiB was
 * never read), not over the cap (skipped where there is no nvcc) */
static void test_fatbin_sections_gapcap(void **state)
{
	(void)state;
	struct strbuf fat = STRBUF_INIT;
	if (!nvcc_fatbin_mode2("tests/fixtures/adversary/cuda/redteam157/rt157_gap.cu", &fat))
		skip(); /* no nvcc here */
	const void *ims[1] = { fat.buf };
	size_t ibs[1] = { fat.len };
	struct evc_section *secs = NULL;
	uint64_t over = 1;
	int n = seal_fatbin_sections(ims, ibs, 1, &secs, 16, &over);
	assert_true(n >= 1);
	assert_int_equal(over, 0);
	int seen = 0;
	for (int i = 0; i < n; i++) {
		if (strcmp(secs[i].name, ".nv.global"))
			continue;
		seen = 1;
		uint64_t bytes = 0;
		for (uint32_t k = 0; k < secs[i].n_gaps; k++)
			bytes += secs[i].gap[2 * k + 1] - secs[i].gap[2 * k];
		assert_int_equal(secs[i].size, bytes + 12);
		assert_true(bytes > ((uint64_t)3 << 19)); /* the knob's 1.5 MiB lies inside */
	}
	assert_true(seen);
	seal_sections_free(secs, n);
	strbuf_release(&fat);
}

/* One fatbin image of one entry of `kind` with `flags` whose payload
 * holds text, into buf (at least 128 + strlen(text) bytes); its size. */
static size_t one_entry_image(unsigned char *buf, uint16_t kind, uint64_t flags, const char *text)
{
	uint64_t payload = (strlen(text) + 7) & ~(size_t)7, fs = 64 + payload;
	uint32_t magic = 0xBA55ED50u, ehs = 64;
	uint16_t ver = 1, hs = 16;
	memset(buf, 0, 16 + fs);
	memcpy(buf, &magic, 4), memcpy(buf + 4, &ver, 2), memcpy(buf + 6, &hs, 2), memcpy(buf + 8, &fs, 8);
	memcpy(buf + 16, &kind, 2), memcpy(buf + 20, &ehs, 4), memcpy(buf + 24, &payload, 8);
	memcpy(buf + 16 + 40, &flags, 8);
	memcpy(buf + 16 + 64, text, strlen(text));
	return 16 + fs;
}

/* device code that launches from the device is seen (rt3_cdp_tail): the
 * CDP2 syscall in a cubin, the runtime's name in PTX; not in device code
 * without it, and not where the entry is compressed (nothing to read) */
static void test_fatbin_device_launch(void **state)
{
	(void)state;
	unsigned char a[256], b[256];
	const void *im[2] = { a, b };
	size_t ib[2];
	const char *what = NULL;
	ib[0] = one_entry_image(a, 2, 0x11, "\x7f" "ELF .text._Z6kernelPf");
	ib[1] = one_entry_image(b, 2, 0x11, "__cuda_syscall_cnpv2LaunchDeviceV2");
	assert_int_equal(seal_fatbin_device_launch(im, ib, 1, &what), 0);
	assert_null(what);
	assert_int_equal(seal_fatbin_device_launch(im, ib, 2, &what), 1);
	assert_string_equal(what, "cnpv2LaunchDevice");
	ib[1] = one_entry_image(b, 1, 0x11, ".extern .func (.param .b32 r) cudaLaunchDeviceV2");
	assert_int_equal(seal_fatbin_device_launch(im, ib, 2, &what), 1);
	assert_string_equal(what, "cudaLaunchDevice");
	/* a graph launched from the device (red team 22) */
	ib[1] = one_entry_image(b, 1, 0x11, ".extern .func (.param .b32 r) cudaGraphLaunch");
	assert_int_equal(seal_fatbin_device_launch(im, ib, 2, &what), 1);
	assert_string_equal(what, "cudaGraphLaunch");
	/* a later driver's syscalls under another version's names (red team
	 * 81's forward risk): refused by their stems */
	ib[1] = one_entry_image(b, 2, 0x11, "__cuda_syscall_cnpv3LaunchDeviceV3");
	assert_int_equal(seal_fatbin_device_launch(im, ib, 2, &what), 1);
	assert_string_equal(what, "LaunchDevice");
	ib[1] = one_entry_image(b, 2, 0x11, "__cuda_syscall_cnpv3GetParameterBufferV3");
	assert_int_equal(seal_fatbin_device_launch(im, ib, 2, &what), 1);
	assert_string_equal(what, "GetParameterBuffer");
	/* compressed: not readable here */
	ib[1] = one_entry_image(b, 2, 0x8011, "__cuda_syscall_cnpv2LaunchDeviceV2");
	assert_int_equal(seal_fatbin_device_launch(im, ib, 2, &what), 0);
	/* an entry whose sizes run past the image ends the scan */
	ib[1] = one_entry_image(b, 2, 0x11, "__cuda_syscall_cnpv2LaunchDeviceV2");
	uint64_t huge = 1ull << 40;
	memcpy(b + 24, &huge, 8);
	assert_int_equal(seal_fatbin_device_launch(im, ib, 2, &what), 0);
}

/*
 * What the sealed worker loads is what the device-launch search read (red
 * team 4, rt4_cdp_packed): entries it cannot read - compressed beyond
 * the decompressors here, of another kind, or past an entry whose sizes
 * run off the image - are left out of the images, and an image left
 * empty is left out whole.
 */
static void test_fatbin_readable(void **state)
{
	(void)state;
	unsigned char a[512], b[256], *data = NULL;
	/* image a: an ELF entry, a "compressed" one that is no compressed
	 * stream, an entry of kind 4, then another ELF entry */
	size_t n0 = one_entry_image(a, 2, 0x11, "\x7f" "ELF first entry");
	unsigned char e[256];
	size_t ne = one_entry_image(e, 2, 0x8011, "this is no zstd frame at all");
	uint32_t packed = 16;
	uint64_t full = 64;
	memcpy(e + 16 + 16, &packed, 4), memcpy(e + 16 + 56, &full, 8);
	memcpy(a + n0, e + 16, ne - 16);
	size_t n1 = n0 + ne - 16;
	ne = one_entry_image(e, 4, 0x11, "some other kind");
	memcpy(a + n1, e + 16, ne - 16);
	size_t n2 = n1 + ne - 16;
	ne = one_entry_image(e, 1, 0x11, ".version 8.0 second entry");
	memcpy(a + n2, e + 16, ne - 16);
	size_t n3 = n2 + ne - 16;
	uint64_t fs = n3 - 16;
	memcpy(a + 8, &fs, 8);
	/* image b: only a compressed entry nothing here undoes */
	size_t nb = one_entry_image(b, 2, 0x8011, "__cuda_syscall_cnpv2LaunchDeviceV2");
	memcpy(b + 16 + 16, &packed, 4), memcpy(b + 16 + 56, &full, 8);

	const void *im[2] = { a, b }, *out[2];
	size_t ib[2] = { n3, nb }, ob[2];
	int dropped = -1;
	int k = seal_fatbin_readable(im, ib, 2, &data, out, ob, &dropped);
	assert_int_equal(k, 1);
	assert_int_equal(dropped, 3);
	/* the first and the last entry, in order, behind a's header */
	assert_int_equal(ob[0], 16 + (n0 - 16) + (n3 - n2));
	const unsigned char *o = out[0];
	uint64_t got;
	memcpy(&got, o + 8, 8);
	assert_int_equal(got, ob[0] - 16);
	assert_memory_equal(o + 16, a + 16, n0 - 16);
	assert_memory_equal(o + n0, a + n2, n3 - n2);
	free(data);

	/* every entry readable: the images as they were */
	ib[0] = one_entry_image(a, 2, 0x11, "\x7f" "ELF plain");
	k = seal_fatbin_readable(im, ib, 1, &data, out, ob, &dropped);
	assert_int_equal(k, 1);
	assert_int_equal(dropped, 0);
	assert_int_equal(ob[0], ib[0]);
	assert_memory_equal(out[0], a, ib[0]);
	free(data);

	/* an entry whose sizes run past the image: it and the rest left out */
	n0 = one_entry_image(a, 2, 0x11, "\x7f" "ELF kept");
	ne = one_entry_image(e, 2, 0x11, "__cuda_syscall_cnpv2LaunchDeviceV2");
	uint64_t huge = 1ull << 40;
	memcpy(e + 24, &huge, 8);
	memcpy(a + n0, e + 16, ne - 16);
	fs = n0 + ne - 32;
	memcpy(a + 8, &fs, 8);
	ib[0] = n0 + ne - 16;
	k = seal_fatbin_readable(im, ib, 1, &data, out, ob, &dropped);
	assert_int_equal(k, 1);
	assert_int_equal(dropped, 1);
	assert_int_equal(ob[0], n0);
	free(data);
}

/* grids no plan step names: a device launch, or an entry not readable
 * here; plain device code has none (a sanitized replay filters by name
 * only then) */
static void test_fatbin_unnamed_grids(void **state)
{
	(void)state;
	unsigned char a[256], b[256];
	const void *im[2] = { a, b };
	size_t ib[2];
	ib[0] = one_entry_image(a, 2, 0x11, "\x7f" "ELF .text._Z6kernelPf");
	ib[1] = one_entry_image(b, 1, 0x11, ".version 8.0 .entry _Z6kernelPf");
	assert_int_equal(seal_fatbin_unnamed_grids(im, ib, 2), 0);
	ib[1] = one_entry_image(b, 2, 0x11, "__cuda_syscall_cnpv2LaunchDeviceV2");
	assert_int_equal(seal_fatbin_unnamed_grids(im, ib, 2), 1);
	/* compressed beyond the decompressors here: it could */
	ib[1] = one_entry_image(b, 2, 0x8011, "this is no zstd frame at all");
	uint32_t packed = 16;
	uint64_t full = 64;
	memcpy(b + 16 + 16, &packed, 4), memcpy(b + 16 + 56, &full, 8);
	assert_int_equal(seal_fatbin_unnamed_grids(im, ib, 2), 1);
	assert_int_equal(seal_fatbin_unnamed_grids(im, ib, 1), 0);
}

/* rt4_cdp_packed.h's image (its quads, read from the fixture): one zstd-
 * compressed cubin that launches a grid from the device.  Where libzstd
 * loads, the search reads it and finds the launch; where not, the image
 * is not loaded at all - never loaded unsearched. */
static void test_fatbin_packed_device_launch(void **state)
{
	(void)state;
	FILE *f = fopen("tests/fixtures/adversary/cuda/rt4_cdp_packed.h", "r");
	assert_non_null(f);
	size_t cap = 1 << 16, n = 0;
	uint64_t *q = malloc(cap * 8);
	char line[512];
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, ".quad ");
		if (!p)
			continue;
		for (p += 6; (p = strstr(p, "0x")); p += 2) {
			assert_true(n < cap);
			q[n++] = strtoull(p, NULL, 16);
		}
	}
	fclose(f);
	assert_true(n > 1000);
	const void *im[1] = { q }, *out[1];
	size_t ib[1] = { n * 8 }, ob[1];
	const char *what = NULL;
	int found = seal_fatbin_device_launch(im, ib, 1, &what);
	unsigned char *data = NULL;
	int dropped = -1;
	int k = seal_fatbin_readable(im, ib, 1, &data, out, ob, &dropped);
	if (found) {
		assert_string_equal(what, "cnpv2LaunchDevice");
		assert_int_equal(k, 1);
		assert_int_equal(dropped, 0);
	} else {
		print_message("libzstd did not load: the packed image is left out instead\n");
		assert_int_equal(k, 0);
		assert_int_equal(dropped, 1);
	}
	free(data);
	free(q);
}

/* one_entry_image with the entry's arch (at 28: 90 for sm_90) */
static size_t arch_image(unsigned char *buf, uint16_t kind, uint64_t flags, uint32_t arch, const char *text)
{
	size_t n = one_entry_image(buf, kind, flags, text);
	memcpy(buf + 16 + 28, &arch, 4);
	return n;
}

/* which cubin runs on which device without the JIT: its major, a minor
 * at most the device's, an arch-specific one (sm_90a) its own alone */
static void test_cubin_runs_on(void **state)
{
	(void)state;
	assert_true(seal_cubin_runs_on(90, 0, 9, 0));
	assert_true(seal_cubin_runs_on(90, 1, 9, 0));
	assert_true(seal_cubin_runs_on(80, 0, 8, 6));
	assert_true(seal_cubin_runs_on(80, 0, 8, 9));
	assert_false(seal_cubin_runs_on(86, 0, 8, 0));
	assert_false(seal_cubin_runs_on(80, 0, 9, 0));
	assert_false(seal_cubin_runs_on(90, 0, 10, 0));
	assert_false(seal_cubin_runs_on(100, 0, 9, 0));
	assert_true(seal_cubin_runs_on(100, 0, 10, 3));
	assert_false(seal_cubin_runs_on(100, 1, 10, 3));
	assert_true(seal_cubin_runs_on(120, 0, 12, 1));
	assert_false(seal_cubin_runs_on(90, 0, 0, 0));
}

/*
 * Red team 58: a sealed object must hold machine code its GPU runs.  What
 * the worker loads is the cubins of the device's arch alone: a PTX entry
 * is left out (the driver would compile it, and no cubin names its
 * module globals, so the plan dropped what init() wrote there), and an
 * object of PTX alone, or of SASS for another arch, gives none, said.
 */
static void test_fatbin_machine_code(void **state)
{
	(void)state;
	unsigned char a[512], e[256], *data = NULL;
	const void *im[1] = { a }, *out[1];
	size_t ib[1], ob[1];
	char held[256];
	/* PTX alone (-arch=compute_90 -code=compute_90): none */
	ib[0] = arch_image(a, 1, 0x11, 90, ".version 9.0 .target sm_90 .entry k");
	assert_int_equal(seal_fatbin_machine_code(im, ib, 1, 9, 0, &data, out, ob, held, sizeof(held)), 0);
	assert_string_equal(held, "PTX compute_90");
	free(data);
	/* SASS sm_90 and PTX (the backend's default): the cubin alone */
	size_t n0 = arch_image(a, 2, 0x11, 90, "\x7f" "ELF sm_90 cubin");
	size_t ne = arch_image(e, 1, 0x11, 90, ".version 9.0 .target sm_90 .entry k");
	memcpy(a + n0, e + 16, ne - 16);
	uint64_t fs = n0 + ne - 32, got;
	memcpy(a + 8, &fs, 8);
	ib[0] = n0 + ne - 16;
	assert_int_equal(seal_fatbin_machine_code(im, ib, 1, 9, 0, &data, out, ob, held, sizeof(held)), 1);
	assert_string_equal(held, "SASS sm_90, PTX compute_90");
	assert_int_equal(ob[0], n0);
	memcpy(&got, (const unsigned char *)out[0] + 8, 8);
	assert_int_equal(got, n0 - 16);
	assert_memory_equal((const unsigned char *)out[0] + 16, a + 16, n0 - 16);
	free(data);
	/* the same object on a GPU of another major: none */
	assert_int_equal(seal_fatbin_machine_code(im, ib, 1, 10, 0, &data, out, ob, held, sizeof(held)), 0);
	free(data);
	/* SASS sm_80: an 8.6 runs it, a 9.0 does not */
	ib[0] = arch_image(a, 2, 0x11, 80, "\x7f" "ELF sm_80 cubin");
	assert_int_equal(seal_fatbin_machine_code(im, ib, 1, 8, 6, &data, out, ob, NULL, 0), 1);
	free(data);
	assert_int_equal(seal_fatbin_machine_code(im, ib, 1, 9, 0, &data, out, ob, held, sizeof(held)), 0);
	assert_string_equal(held, "SASS sm_80");
	free(data);
	/* sm_90a runs on 9.0; sm_100a not on 10.3 */
	ib[0] = arch_image(a, 2, 0x100011, 90, "\x7f" "ELF sm_90a cubin");
	assert_int_equal(seal_fatbin_machine_code(im, ib, 1, 9, 0, &data, out, ob, held, sizeof(held)), 1);
	assert_string_equal(held, "SASS sm_90a");
	free(data);
	ib[0] = arch_image(a, 2, 0x100011, 100, "\x7f" "ELF sm_100a cubin");
	assert_int_equal(seal_fatbin_machine_code(im, ib, 1, 10, 3, &data, out, ob, NULL, 0), 0);
	free(data);
	/* a cubin of the device's arch compressed beyond the decompressors
	 * here: the runtime could run it, the worker cannot read it: refused
	 * (-1), never dropped beside a readable twin (red team 72) */
	ib[0] = arch_image(a, 2, 0x8011, 90, "this is no zstd frame at all");
	uint32_t packed = 16;
	uint64_t full = 64;
	memcpy(a + 16 + 16, &packed, 4), memcpy(a + 16 + 56, &full, 8);
	assert_int_equal(seal_fatbin_machine_code(im, ib, 1, 9, 0, &data, out, ob, held, sizeof(held)), -1);
	assert_non_null(strstr(held, "SASS sm_90 (compressed"));
	free(data);
	/* an entry of a kind the worker does not load (red team 72's cover
	 * hid nvcc's own image as one): refused, beside a cubin it runs */
	n0 = arch_image(a, 2, 0x11, 90, "\x7f" "ELF sm_90 cubin");
	ne = arch_image(e, 0x40, 0x11, 90, "whatever the runtime might load");
	memcpy(a + n0, e + 16, ne - 16);
	fs = n0 + ne - 32;
	memcpy(a + 8, &fs, 8);
	ib[0] = n0 + ne - 16;
	assert_int_equal(seal_fatbin_machine_code(im, ib, 1, 9, 0, &data, out, ob, held, sizeof(held)), -1);
	assert_non_null(strstr(held, "an entry of kind 64"));
	free(data);
}

/* the nvcc to run: $NVCC, else the toolkit's, else the PATH's */
static const char *nvcc_path(void)
{
	const char *nvcc = getenv("NVCC");
	if (!nvcc || !*nvcc)
		nvcc = access("/usr/local/cuda/bin/nvcc", X_OK) ? "nvcc" : "/usr/local/cuda/bin/nvcc";
	return nvcc;
}

/* run argv (its output kept from the test's), 1 when it exited 0 */
static int ran_ok(const char *const *argv)
{
	struct run_opts o;
	memset(&o, 0, sizeof(o));
	o.argv = argv;
	o.timeout_s = 300;
	o.merge_stderr = 1;
	struct strbuf log = STRBUF_INIT;
	o.out = &log;
	struct run_result r;
	run_command(&o, &r);
	strbuf_release(&log);
	return r.started && r.exited && !r.exit_code;
}

/*
 * nvcc's outputs kept by what they are made of, in build/test-cache/nvcc
 * (or $EVIDENT_TEST_CACHE/nvcc): make test runs this binary twice, plain
 * and sanitized, and each run's nvcc calls compiled the same seven files
 * (about 10 s of CPU a run on the project's VM; a make test after the
 * first now compiles none).  The key is the sha256 of nvcc's path and
 * `--version`, the host compiler's `--version` (nvcc runs PATH's g++), the
 * arguments but the output's path (the source's path too, which may be a
 * fresh temporary file's: its bytes are hashed instead) and the bytes of
 * the source and of every file it includes by "..." (found beside the
 * including file, as nvcc's preprocessor finds it; a <...> include is
 * the toolkit's or the system's, which the versions stand for).  A hit
 * copies the kept output to out; a miss runs nvcc as before and keeps
 * its output (renamed into place whole).  What each test checks of the
 * output is unchanged: the same bytes.
 */
static const char *nvcc_cache_dir(void)
{
	static char dir[4096];
	if (!dir[0]) {
		const char *c = getenv("EVIDENT_TEST_CACHE");
		snprintf(dir, sizeof(dir), "%s/nvcc", c && *c ? c : "build/test-cache");
	}
	return dir;
}

/* "--version"'s output of prog into the key; 0, or -1 when it did not run */
static int key_version(struct sha256_ctx *k, const char *prog)
{
	const char *argv[] = { prog, "--version", NULL };
	struct run_opts o;
	memset(&o, 0, sizeof(o));
	o.argv = argv;
	o.timeout_s = 60;
	o.merge_stderr = 1;
	struct strbuf out = STRBUF_INIT;
	o.out = &out;
	struct run_result r;
	run_command(&o, &r);
	int ok = r.started && r.exited && !r.exit_code;
	sha256_update_field(k, prog, out.buf ? out.buf : "", out.len);
	strbuf_release(&out);
	return ok ? 0 : -1;
}

/* path's bytes into the key, then those of each file it includes by
 * "...", found beside it (depth-limited; each once: seen) */
static int key_source(struct sha256_ctx *k, const char *path, int depth, struct strbuf *seen)
{
	struct strbuf text = STRBUF_INIT;
	if (depth > 16 || read_file(path, &text) < 0) {
		strbuf_release(&text);
		return -1;
	}
	/* the source by its bytes alone (its path may be a temporary file's) */
	sha256_update_field(k, depth ? path : "<src>", text.buf, text.len);
	int rc = 0;
	const char *slash = strrchr(path, '/');
	for (const char *p = strbuf_str(&text); rc == 0 && (p = strstr(p, "#include")); p++) {
		const char *q = p + 8;
		q += strspn(q, " \t");
		if (*q != '"')
			continue;
		size_t n = strcspn(q + 1, "\"\n");
		if (q[1 + n] != '"')
			continue;
		char *inc = xstrfmt("%.*s%.*s", slash ? (int)(slash - path + 1) : 0, path, (int)n, q + 1);
		char *mark = xstrfmt("\n%s\n", inc);
		if (access(inc, R_OK) == 0 && !strstr(strbuf_str(seen), mark)) {
			strbuf_addstr(seen, mark + 1);
			rc = key_source(k, inc, depth + 1, seen);
		}
		free(mark);
		free(inc);
	}
	strbuf_release(&text);
	return rc;
}

/* nvcc argv (argv[0] nvcc) of the source src making out: run, or its
 * output taken from the cache (above); 1 when out was made */
static int ran_nvcc(const char *const *argv, const char *src, const char *out)
{
	struct sha256_ctx *k = sha256_begin();
	char key[SHA256_HEX_LEN + 1];
	int keyed = key_version(k, argv[0]) == 0 && key_version(k, "g++") == 0;
	sha256_update_field(k, "nvcc", argv[0], strlen(argv[0]));
	for (int i = 1; argv[i]; i++) {
		if (!strcmp(argv[i], out) || !strcmp(argv[i], src))
			sha256_update_field(k, "arg", !strcmp(argv[i], out) ? "<out>" : "<src>", 5);
		else
			sha256_update_field(k, "arg", argv[i], strlen(argv[i]));
	}
	struct strbuf seen = STRBUF_INIT;
	strbuf_addstr(&seen, "\n");
	keyed = keyed && key_source(k, src, 0, &seen) == 0;
	strbuf_release(&seen);
	sha256_end(k, key);
	if (!keyed)
		return ran_ok(argv);
	char *kept = xstrfmt("%s/%s", nvcc_cache_dir(), key);
	struct strbuf bytes = STRBUF_INIT;
	int made = 0;
	if (path_exists(kept) && read_file(kept, &bytes) == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
		made = fd >= 0 && write_all(fd, bytes.buf, bytes.len) == 0;
		if (fd >= 0)
			close(fd);
	} else if (ran_ok(argv)) {
		made = 1;
		char *tmp = xstrfmt("%s.tmp.%ld", kept, (long)getpid());
		int fd = -1;
		if (mkdir_p(nvcc_cache_dir(), 0755) == 0 && read_file(out, &bytes) == 0 &&
		    (fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) >= 0 &&
		    write_all(fd, bytes.buf, bytes.len) == 0 && close(fd) == 0) {
			fd = -1;
			if (rename(tmp, kept) < 0)
				unlink(tmp);
		} else {
			if (fd >= 0)
				close(fd);
			unlink(tmp);
		}
		free(tmp);
	}
	strbuf_release(&bytes);
	free(kept);
	return made;
}

/* nvcc's fatbin of src built with flags (NULL-terminated), into *fat;
 * 0 built, -1 no nvcc here */
static int nvcc_fatbin(const char *src_text, const char *const *flags, struct strbuf *fat)
{
	const char *nvcc = nvcc_path();
	char dir[] = "/tmp/evident-test-seal-mc-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *src = xstrfmt("%s/g.cu", dir), *out = xstrfmt("%s/g.fatbin", dir);
	FILE *f = fopen(src, "w");
	assert_non_null(f);
	fputs(src_text, f);
	fclose(f);
	const char *argv[16] = { nvcc, "-fatbin" };
	int k = 2;
	for (; *flags && k < 12; flags++)
		argv[k++] = *flags;
	argv[k++] = "-o", argv[k++] = out, argv[k++] = src, argv[k] = NULL;
	int built = ran_nvcc(argv, src, out) && read_file(out, fat) >= 0;
	unlink(src);
	unlink(out);
	rmdir(dir);
	free(src);
	free(out);
	return built ? 0 : -1;
}

/*
 * The same over what nvcc makes (red team 58's builds; skipped where
 * there is no nvcc): the backend's default -arch=sm_90 holds a cubin for
 * a 9.0, whose globals are named from what is loaded; the spec's
 * `-arch=compute_90 -code=compute_90` after it holds PTX alone and gives
 * none (the planner and the worker refuse it); two cubins keep the one
 * the device runs.
 */
static void test_fatbin_machine_code_nvcc(void **state)
{
	(void)state;
	const char *src = "__constant__ float rt58_scale;\n"
			  "__global__ void k(float *o) { o[threadIdx.x] = rt58_scale; }\n";
	const char *sass[] = { "-arch=sm_90", NULL };
	const char *ptx[] = { "-arch=sm_90", "-arch=compute_90", "-code=compute_90", NULL };
	const char *two[] = { "-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90,code=sm_90",
			      NULL };
	struct strbuf fat = STRBUF_INIT;
	if (nvcc_fatbin(src, sass, &fat) < 0) {
		strbuf_release(&fat);
		skip(); /* no nvcc here */
	}
	const void *im[1] = { fat.buf }, *out[1];
	size_t ib[1] = { fat.len }, ob[1];
	unsigned char *data = NULL;
	char held[256], **names = NULL, *refused = NULL;
	int unreadable = -1;
	assert_int_equal(seal_fatbin_machine_code(im, ib, 1, 9, 0, &data, out, ob, held, sizeof(held)), 1);
	assert_string_equal(held, "SASS sm_90, PTX compute_90");
	assert_true(ob[0] < ib[0]); /* the PTX left out */
	assert_int_equal(seal_fatbin_globals(out, ob, 1, &names, 64, &unreadable, &refused), 1);
	assert_string_equal(names[0], "rt58_scale");
	seal_names_free(names, 1);
	free(data);
	strbuf_release(&fat);

	assert_int_equal(nvcc_fatbin(src, ptx, &fat), 0);
	im[0] = fat.buf, ib[0] = fat.len;
	/* the hole: no cubin, no global named */
	assert_int_equal(seal_fatbin_globals(im, ib, 1, &names, 64, &unreadable, &refused), 0);
	seal_names_free(names, 0);
	assert_int_equal(seal_fatbin_machine_code(im, ib, 1, 9, 0, &data, out, ob, held, sizeof(held)), 0);
	assert_string_equal(held, "PTX compute_90");
	free(data);
	strbuf_release(&fat);

	assert_int_equal(nvcc_fatbin(src, two, &fat), 0);
	im[0] = fat.buf, ib[0] = fat.len;
	assert_int_equal(seal_fatbin_machine_code(im, ib, 1, 9, 0, &data, out, ob, held, sizeof(held)), 1);
	assert_string_equal(held, "SASS sm_80, SASS sm_90");
	size_t on_90 = ob[0];
	free(data);
	assert_int_equal(seal_fatbin_machine_code(im, ib, 1, 8, 9, &data, out, ob, NULL, 0), 1);
	assert_true(ob[0] + on_90 < ib[0] + 16 + 16); /* one cubin each, the header twice */
	free(data);
	strbuf_release(&fat);
}

/* the mixing bit: the same for the same (key, tensor, element), about half
 * ones, and another key or tensor gives another pattern */
static void test_mix_bit(void **state)
{
	(void)state;
	long ones = 0, same_key = 0, same_t = 0;
	for (uint64_t k = 0; k < 100000; k++) {
		int b = evs_mix_bit(0x1234, 0, k);
		assert_int_equal(b, evs_mix_bit(0x1234, 0, k));
		ones += b;
		same_key += b == evs_mix_bit(0x1235, 0, k);
		same_t += b == evs_mix_bit(0x1234, 1, k);
	}
	assert_true(ones > 49000 && ones < 51000);
	assert_true(same_key > 49000 && same_key < 51000);
	assert_true(same_t > 49000 && same_t < 51000);
}

static int keep_none(void *ctx, long long i, int last)
{
	(void)ctx, (void)i, (void)last;
	return 0;
}

/* a CUDA worker whose samples repeat a key (a hooked getrandom handing out
 * one key, so that inputs repeat and a memo answers) or carry none */
static void test_fresh_keys(void **state)
{
	(void)state;
	for (int variant = 0; variant < 2; variant++) {
		int fds[2];
		assert_int_equal(pipe(fds), 0);
		struct proto p;
		proto_init(&p);
		p.phase = "main";
		p.timed = 1;
		p.n_sets = 1;
		p.batch = 1;
		p.keep = keep_none;
		p.fresh_keys = 1;
		char hello[80];
		snprintf(hello, sizeof(hello), "{\"msg\":\"hello\",\"protocol\":%d,\"pid\":1}\n", PROTOCOL_VERSION);
		const char *pre[] = { hello, "{\"msg\":\"device\",\"info\":{}}\n", "{\"msg\":\"kernel\",\"name\":\"k\"}\n",
				      "{\"msg\":\"warmup\",\"samples\":0}\n",
				      "{\"msg\":\"sample\",\"i\":0,\"set\":0,\"us\":5.0,\"key\":77}\n" };
		for (size_t i = 0; i < 5; i++)
			assert_int_equal(proto_feed(&p, pre[i], strlen(pre[i]), fds[1]), 0);
		const char *out0 = "{\"msg\":\"output\",\"phase\":\"timed\",\"index\":0,\"bytes\":0}\n";
		assert_int_equal(proto_feed(&p, out0, strlen(out0), fds[1]), 0);
		const char *next = variant ? "{\"msg\":\"sample\",\"i\":1,\"set\":0,\"us\":5.0}\n"
					   : "{\"msg\":\"sample\",\"i\":1,\"set\":0,\"us\":5.0,\"key\":77}\n";
		assert_int_equal(proto_feed(&p, next, strlen(next), fds[1]), -1);
		assert_non_null(strstr(p.violation, variant ? "no fresh-input key" : "repeats the fresh-input key"));
		proto_release(&p);
		close(fds[0]);
		close(fds[1]);
	}
}


/* nvcc's shared object of the fixture src (a path) with -DMODE=mode, the
 * backend's way (-shared -cudart shared -arch=sm_90), into out; 0 built,
 * -1 no nvcc here */
static int nvcc_so_flags(const char *src, int mode, const char *extra, const char *out)
{
	char *def = xstrfmt("-DMODE=%d", mode);
	const char *argv[] = { nvcc_path(), "-O3", "-shared", "-Xcompiler", "-fPIC", "-cudart", "shared", "-arch=sm_90",
			       def, "-o", out, src, extra, NULL };
	int ok = ran_nvcc(argv, src, out);
	free(def);
	return ok ? 0 : -1;
}

static int nvcc_so(const char *src, int mode, const char *out)
{
	return nvcc_so_flags(src, mode, NULL, out);
}

/*
 * Red team 73's alias: one line naming nvcc's stub's fatbinData by an asm
 * label points the CUDA runtime's wrapper (.nvFatBinSegment) at an image
 * in .rodata while .nv_fatbin holds the honest one the worker would
 * replay: refused, naming the wrapper; the same file without the alias
 * (MODE 3) reads (skipped where there is no nvcc).
 */
static void test_fatbin_wrapper_targets(void **state)
{
	(void)state;
	char dir[] = "/tmp/evident-test-seal-wrap-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *alias = xstrfmt("%s/alias.so", dir), *plain = xstrfmt("%s/plain.so", dir);
	const char *src = "tests/fixtures/adversary/cuda/rt73_alias.cu";
	if (nvcc_so(src, 1, alias) < 0) {
		rmdir(dir);
		free(alias);
		free(plain);
		skip(); /* no nvcc here */
	}
	unsigned char *data = NULL;
	const void *im[16];
	size_t ib[16];
	char *why = NULL;
	assert_int_equal(seal_fatbin_images(alias, &data, im, ib, 16, &why), -1);
	assert_non_null(strstr(why, "fatbin wrapper 0 (.nvFatBinSegment) points at"));
	free(why);
	assert_int_equal(nvcc_so(src, 3, plain), 0);
	why = NULL;
	assert_true(seal_fatbin_images(plain, &data, im, ib, 16, &why) > 0);
	assert_null(why);
	free(data);
	/* a wrapper into a section named __nv_relfatbin is -rdc's relocatable
	 * code only where the image there is relocatable cubins or PTX (red
	 * team 74's relfat_slow: an executable image so placed without
	 * -rdc); a real -rdc object reads */
	assert_int_equal(nvcc_so("tests/fixtures/adversary/cuda/rt74_reg.cu", 4, alias), 0);
	assert_int_equal(seal_fatbin_images(alias, &data, im, ib, 16, &why), -1);
	assert_non_null(strstr(why, "__nv_relfatbin"));
	free(why);
	/* __nv_relfatbin is walked whole: red team 75's cover (a
	 * relocatable-looking image whose entry's payload is another image,
	 * the wrapper pointed inside it) is refused whatever the knob is (a
	 * relocatable cubin, an executable one marked ET_REL, PTX); its
	 * control reads */
	for (int mode = 1; mode <= 1; mode++) { /* (MODEs 2 and 3, the same cover: CPU-measured) */
		assert_int_equal(nvcc_so("tests/fixtures/adversary/cuda/rt75_relfat.cu", mode, alias), 0);
		why = NULL;
		assert_int_equal(seal_fatbin_images(alias, &data, im, ib, 16, &why), -1);
		assert_non_null(strstr(why, "__nv_relfatbin"));
		free(why);
	}
	/* red team 76: a slow cubin past the declared size of the image
	 * nvcc's wrapper is pointed at (MODEs 1-3), after an entry whose
	 * size is 4 mod 8 (6), inside a header size that swallows the entry
	 * (7): refused; its controls (0, and 5: the slow code in the file's
	 * own image) read */
	static const int rt76_refused[] = { 1, 7 }; /* (2, 3 and 6 alike: CPU-measured, docs/redteam76-cuda.md) */
	for (size_t i = 0; i < sizeof(rt76_refused) / sizeof(rt76_refused[0]); i++) {
		assert_int_equal(nvcc_so("tests/fixtures/adversary/cuda/rt76_trunc.cu", rt76_refused[i], alias), 0);
		why = NULL;
		assert_int_equal(seal_fatbin_images(alias, &data, im, ib, 16, &why), -1);
		free(why);
	}
	for (int mode = 5; mode <= 5; mode += 5) {
		assert_int_equal(nvcc_so("tests/fixtures/adversary/cuda/rt76_trunc.cu", mode, plain), 0);
		why = NULL;
		assert_true(seal_fatbin_images(plain, &data, im, ib, 16, &why) > 0);
		assert_null(why);
		free(data);
	}
	assert_int_equal(nvcc_so_flags("tests/fixtures/cuda/correct.cu", 0, "-rdc=true", plain), 0);
	why = NULL;
	assert_true(seal_fatbin_images(plain, &data, im, ib, 16, &why) > 0);
	assert_null(why);
	free(data);
	unlink(alias);
	unlink(plain);
	rmdir(dir);
	free(alias);
	free(plain);
}

/*
 * Red team 276: the moved capture's placement (seal_move.h).  For the
 * planner's own layouts (inputs then outputs, each PLAN_GUARD into its
 * allocation, as cuda_worker.c alloc_all makes them, and layouts chosen
 * to collide), every pair of tensors lies at another signed distance,
 * each tensor keeps its address's offset within 2 MiB, the slots do not
 * overlap and one past each tensor's end is at least 1 KiB before the
 * next tensor's start.
 */
static void check_move(const uint64_t *base, const uint64_t *bytes, size_t n)
{
	uint64_t at[SEAL_MOVE_MAX], total = 0;
	assert_int_equal(seal_move_layout(base, bytes, n, at, &total), 0);
	for (size_t i = 0; i < n; i++) {
		assert_true(at[i] % SEAL_MOVE_ALIGN == base[i] % SEAL_MOVE_ALIGN);
		assert_true(at[i] + bytes[i] + SEAL_MOVE_TAIL <= total);
		for (size_t j = 0; j < n; j++) {
			if (i == j)
				continue;
			assert_true(at[i] - at[j] != base[i] - base[j]);
			/* [at[i], at[i] + bytes[i] + tail) and j's are apart */
			assert_true(at[i] + bytes[i] + SEAL_MOVE_TAIL <= at[j] || at[j] + bytes[j] + SEAL_MOVE_TAIL <= at[i]);
		}
	}
}

static void test_move_layout(void **state)
{
	(void)state;
	const uint64_t MiB = 1 << 20;
	/* rowsum: X 16 MiB, Y 8 KiB, cudaMalloc'd in order at 2 MiB units */
	uint64_t b1[2] = { 0x7f0000000000ull + 512, 0x7f0000000000ull + 18 * MiB + 512 }, s1[2] = { 16 * MiB, 8192 };
	check_move(b1, s1, 2);
	/* attention: Q K V O, 2 MiB each, exactly a unit (the end at the next
	 * slot's start unless the tail is kept) */
	uint64_t b2[4], s2[4];
	for (int k = 0; k < 4; k++) {
		b2[k] = 0x7f1000000000ull + (uint64_t)k * 4 * MiB;
		s2[k] = 2 * MiB;
	}
	check_move(b2, s2, 4);
	/* a planner's layout that is the moved placement's first try itself
	 * (every pair alike): the gaps must part them.  at0 is that try for
	 * unit-aligned bases (all at 0: every pair 0 apart, none alike) */
	uint64_t s3[3] = { 3 * MiB, 3 * MiB, 3 * MiB }, at0[3], tot0;
	uint64_t b3[3] = { 0, 0, 0 };
	assert_int_equal(seal_move_layout(b3, s3, 3, at0, &tot0), 0);
	for (int k = 0; k < 3; k++)
		b3[k] = 0x7f2000000000ull + at0[k];
	uint64_t b4[3];
	for (int k = 0; k < 3; k++)
		b4[k] = 0x7f2000000000ull + (uint64_t)(2 - k) * 4 * MiB; /* reverse order, 4 MiB slots */
	check_move(b3, s3, 3);
	check_move(b4, s3, 3);
	/* six tensors at odd offsets, sizes from a byte to 100 MiB */
	uint64_t b5[6] = { 0x7f3000000200ull, 0x7f3000400000ull, 0x7f3006400300ull, 0x7f3000200100ull,
			   0x7f3010000000ull, 0x7f300fe00000ull };
	uint64_t s5[6] = { 1, 4 * MiB, 100 * MiB, 256, 7 * MiB + 3, 2 * MiB - 1024 };
	check_move(b5, s5, 6);
	/* over the limit */
	uint64_t b6[SEAL_MOVE_MAX + 1] = { 0 }, s6[SEAL_MOVE_MAX + 1] = { 0 }, at6[SEAL_MOVE_MAX + 1], t6;
	assert_int_equal(seal_move_layout(b6, s6, SEAL_MOVE_MAX + 1, at6, &t6), -1);
}

/*
 * t0342 (a unit test): red team 290, rows 1 and 1b.  The worker runs
 * SASS, so the parameter mask (seal_param_reads) is read only from a PTX
 * entry that is its cubin's twin: one image, the same arch, the same
 * arch-specific build.  `field`: sm_90a SASS beside compute_80 PTX, and
 * `feat`: sm_90a SASS beside compute_90 PTX, whose loads leave a struct's
 * last 8 bytes out while the SASS reads them: every byte counts.  nvcc's
 * own pairs (sm_90 + compute_90, sm_90a + compute_90a) keep the mask, so
 * an honest struct's padding stays out (red teams 53 and 54).
 */
static size_t twin_image(unsigned char *buf, uint32_t sass_arch, uint64_t sass_flags, const char *sass,
			 uint32_t ptx_arch, uint64_t ptx_flags, const char *ptx)
{
	unsigned char e[1024];
	size_t n0 = arch_image(buf, 2, sass_flags, sass_arch, sass);
	size_t ne = arch_image(e, 1, ptx_flags, ptx_arch, ptx);
	memcpy(buf + n0, e + 16, ne - 16);
	uint64_t fs = n0 + ne - 32;
	memcpy(buf + 8, &fs, 8);
	return n0 + ne - 16;
}

static void test_param_reads_twin(void **state)
{
	(void)state;
	/* a 32-byte struct {X, Y, R, C, t}: the PTX loads bytes 0..23 */
	static const char ptx[] = ".visible .entry _Z1f6args(\n"
				  "\t.param .align 8 .b8 _Z1f6args_param_0[32]\n"
				  ")\n{\n"
				  "\tld.param.v2.u32 \t{%r1, %r2}, [_Z1f6args_param_0+16];\n"
				  "\tld.param.u64 \t%rd2, [_Z1f6args_param_0+8];\n"
				  "\tld.param.u64 \t%rd1, [_Z1f6args_param_0];\n"
				  "\tret;\n}\n";
	static const char cubin[] = "\x7f" "ELF .text._Z1f6args _Z1f6args";
	unsigned char a[1024], b[1024], m[32];
	const void *im[2] = { a, b };
	size_t ib[2], off[1] = { 0 };
	const struct {
		uint32_t sass_arch;
		uint64_t sass_flags;
		uint32_t ptx_arch;
		uint64_t ptx_flags;
		int masked;
	} cases[] = {
		{ 90, 0x11, 90, 0x11, 1 },             /* -arch=sm_90: nvcc's pair */
		{ 90, 0x100011, 90, 0x100011, 1 },     /* sm_90a + compute_90a */
		{ 90, 0x100011, 80, 0x11, 0 },         /* field: sm_90a + compute_80 */
		{ 90, 0x100011, 90, 0x11, 0 },         /* feat: sm_90a + compute_90 */
		{ 90, 0x11, 80, 0x11, 0 },             /* sm_90 + compute_80 */
		{ 90, 0x11, 90, 0x100011, 0 },         /* the other way round */
		{ 100, 0x11 | 0x200000, 100, 0x11, 0 }, /* a variant bit this code does not know */
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		ib[0] = twin_image(a, cases[c].sass_arch, cases[c].sass_flags, cubin, cases[c].ptx_arch,
				   cases[c].ptx_flags, ptx);
		assert_int_equal(seal_param_reads(im, ib, 1, "_Z1f6args", 32, off, 1, m), cases[c].masked);
		for (size_t k = 0; k < 32; k++) {
			int want = !cases[c].masked || k < 24;
			if (m[k] != want)
				print_error("case %zu byte %zu: %d, want %d\n", c, k, m[k], want);
			assert_int_equal(m[k], want);
		}
	}
	/* the twin in another image than its cubin: no twin */
	ib[0] = arch_image(a, 2, 0x11, 90, cubin);
	ib[1] = arch_image(b, 1, 0x11, 90, ptx);
	assert_int_equal(seal_param_reads(im, ib, 2, "_Z1f6args", 32, off, 1, m), 0);
	for (size_t k = 0; k < 32; k++)
		assert_int_equal(m[k], 1);
	/* a second image whose cubin does not name the kernel is no matter;
	 * one that names it without a twin counts every byte */
	ib[0] = twin_image(a, 90, 0x11, cubin, 90, 0x11, ptx);
	ib[1] = arch_image(b, 2, 0x100011, 90, "\x7f" "ELF .text._Z5otherv");
	assert_int_equal(seal_param_reads(im, ib, 2, "_Z1f6args", 32, off, 1, m), 1);
	assert_int_equal(m[24], 0);
	ib[1] = arch_image(b, 2, 0x100011, 90, cubin);
	assert_int_equal(seal_param_reads(im, ib, 2, "_Z1f6args", 32, off, 1, m), 0);
	assert_int_equal(m[24], 1);
	/* PTX alone, no cubin: nothing the worker runs was read */
	ib[0] = arch_image(a, 1, 0x11, 90, ptx);
	assert_int_equal(seal_param_reads(im, ib, 1, "_Z1f6args", 32, off, 1, m), 0);
	assert_int_equal(m[24], 1);
}

/* the same over what nvcc makes (skipped where there is no nvcc): red
 * team 290's field (t read only where __CUDA_ARCH__ >= 900) and feat (t
 * read only under __CUDA_ARCH_FEAT_SM90_ALL), and an honest struct with a
 * hole built -arch=sm_90, whose hole stays out */
static void test_param_reads_twin_nvcc(void **state)
{
	(void)state;
	const char *src = "struct args { const float *x; float *y; int r, c; unsigned long long t; };\n"
			  "struct hole { const float *x; int r; float *y; };\n"
			  "__global__ void f(const args a) {\n"
			  "  float s = a.x[threadIdx.x] * a.r + a.c;\n"
			  "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && !defined(FEAT)\n"
			  "  s += (float)(a.t >> 20);\n"
			  "#endif\n"
			  "#if defined(FEAT) && defined(__CUDA_ARCH_FEAT_SM90_ALL)\n"
			  "  s += (float)(a.t >> 20);\n"
			  "#endif\n"
			  "  a.y[threadIdx.x] = s;\n"
			  "}\n"
			  "__global__ void h(const hole a) { a.y[threadIdx.x] = a.x[threadIdx.x] * a.r; }\n";
	const char *field[] = { "-gencode", "arch=compute_90a,code=sm_90a", "-gencode",
				"arch=compute_80,code=compute_80", NULL };
	const char *feat[] = { "-DFEAT", "-gencode", "arch=compute_90a,code=sm_90a", "-gencode",
			       "arch=compute_90,code=compute_90", NULL };
	const char *plain[] = { "-arch=sm_90", NULL };
	const char *const *builds[3] = { field, feat, plain };
	size_t off[1] = { 0 };
	unsigned char m[32];
	for (int k = 0; k < 3; k++) {
		struct strbuf fat = STRBUF_INIT;
		if (nvcc_fatbin(src, builds[k], &fat) < 0) {
			strbuf_release(&fat);
			skip(); /* no nvcc here */
		}
		const void *im[1] = { fat.buf };
		size_t ib[1] = { fat.len };
		assert_int_equal(seal_param_reads(im, ib, 1, "_Z1f4args", 32, off, 1, m), k == 2);
		for (size_t b = 0; b < 32; b++)
			assert_int_equal(m[b], 1); /* t counted: -arch=sm_90's PTX reads it too */
		if (k == 2) {
			/* the honest hole (bytes 12..15) left out */
			assert_int_equal(seal_param_reads(im, ib, 1, "_Z1h4hole", 24, off, 1, m), 1);
			for (size_t b = 0; b < 24; b++)
				assert_int_equal(m[b], b < 12 || b >= 16);
		}
		strbuf_release(&fat);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_accepted),
		cmocka_unit_test(test_plan_refused),
		cmocka_unit_test(test_plan_scratch_init),
		cmocka_unit_test(test_plan_contents),
		cmocka_unit_test(test_plan_data_frame),
		cmocka_unit_test(test_plan_scratch_layout),
		cmocka_unit_test(test_plan_scratch_relocs),
		cmocka_unit_test(test_plan_identity),
		cmocka_unit_test(test_ptx_param_reads),
		cmocka_unit_test(test_plan_globals),
		cmocka_unit_test(test_section_gaps),
		cmocka_unit_test(test_fatbin_sections_nvcc),
		cmocka_unit_test(test_fatbin_sections_hostile),
		cmocka_unit_test(test_fatbin_sections_gapcap),
		cmocka_unit_test(test_fatbin_globals),
		cmocka_unit_test(test_fatbin_globals_nvcc),
		cmocka_unit_test(test_fatbin_images),
		cmocka_unit_test(test_fatbin_device_launch),
		cmocka_unit_test(test_fatbin_device_heap),
		cmocka_unit_test(test_fatbin_readable),
		cmocka_unit_test(test_fatbin_unnamed_grids),
		cmocka_unit_test(test_fatbin_packed_device_launch),
		cmocka_unit_test(test_cubin_runs_on),
		cmocka_unit_test(test_fatbin_machine_code),
		cmocka_unit_test(test_fatbin_machine_code_nvcc),
		cmocka_unit_test(test_param_reads_twin),
		cmocka_unit_test(test_param_reads_twin_nvcc),
		cmocka_unit_test(test_fatbin_wrapper_targets),
		cmocka_unit_test(test_mix_bit),
		cmocka_unit_test(test_fresh_keys),
		cmocka_unit_test(test_move_layout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
