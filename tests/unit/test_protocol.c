/*
 * test_protocol.c - the parent's end of the worker protocol
 * (backends/protocol.h): what a sample's clocks may be, and what of the
 * worker's own text reaches a record (escaped).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/protocol.h"

static int keep_none(void *ctx, long long i, int last)
{
	(void)ctx, (void)i, (void)last;
	return 0;
}

static void feed(struct proto *p, const char *text, int reply_fd)
{
	assert_int_equal(proto_feed(p, text, strlen(text), reply_fd), 0);
}

/* p set up for a timed main job of one set, fed up to its warm-up (0
 * samples): hello in this protocol, device, kernel.  Answers go to reply_fd. */
static void timed_to_warmup(struct proto *p, int reply_fd)
{
	p->phase = "main";
	p->timed = 1;
	p->n_sets = 1;
	p->batch = 1;
	char hello[80];
	snprintf(hello, sizeof(hello), "{\"msg\":\"hello\",\"protocol\":%d,\"pid\":1}\n", PROTOCOL_VERSION);
	feed(p, hello, reply_fd);
	feed(p, "{\"msg\":\"device\",\"info\":{}}\n{\"msg\":\"kernel\",\"name\":\"k\"}\n", reply_fd);
	feed(p, "{\"msg\":\"warmup\",\"samples\":0}\n", reply_fd);
}

/* a worker without CUPTI sends kernel_us -1: a missing clock, never a
 * time (issue 23: the parent took it as one, and the kernel clock won) */
static void test_missing_kernel_clock_is_not_a_time(void **state)
{
	(void)state;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	struct proto p;
	proto_init(&p);
	p.keep = keep_none;
	timed_to_warmup(&p, fds[1]);
	feed(&p, "{\"msg\":\"sample\",\"i\":0,\"set\":0,\"us\":5.0,\"event_us\":5.0,\"kernel_us\":-1,\"host_us\":-3}\n",
	     fds[1]);
	assert_null(p.violation);
	assert_int_equal(p.n_samples, 1);
	assert_true(isnan(p.samples[0].kernel_us));
	assert_true(isnan(p.samples[0].host_us));
	assert_true(p.samples[0].event_us == 5.0);
	proto_release(&p);
	close(fds[0]);
	close(fds[1]);
}

/* the line a worker would write is measured as written, and the parent
 * takes a line of PROTO_LINE_MAX bytes but not one byte more (red team
 * 36: an honest plan at its contents' limits was 1049178 bytes, a
 * protocol_violation; the planner now refuses it with its size) */
static void test_line_limit(void **state)
{
	(void)state;
	json_t *m = json_pack("{s:s}", "plan", "x");
	/* {"msg":"plan","plan":"x"} and the newline */
	assert_int_equal(proto_w_line_bytes("plan", m), strlen("{\"msg\":\"plan\",\"plan\":\"x\"}") + 1);
	assert_null(json_object_get(m, "msg")); /* the caller's object is left as it was */
	json_decref(m);
	for (int over = 0; over < 2; over++) {
		int fds[2];
		assert_int_equal(pipe(fds), 0);
		struct proto p;
		proto_init(&p);
		size_t n = PROTO_LINE_MAX + over;
		char *line = xmalloc(n + 1);
		memset(line, ' ', n);
		line[n] = '\n';
		/* fed in pieces, as a pipe delivers it */
		for (size_t at = 0; at <= n && !p.violation; at += 65536)
			proto_feed(&p, line + at, at + 65536 <= n + 1 ? 65536 : n + 1 - at, fds[1]);
		if (over)
			assert_non_null(p.violation);
		else
			assert_true(!p.violation || !strstr(p.violation, "longer than 1 MiB"));
		free(line);
		proto_release(&p);
		close(fds[0]);
		close(fds[1]);
	}
}

/* a fixed count is a bound: the parent draws its checks among the
 * samples it asked for, and a flood past them (red team sample_flood:
 * 2000 samples timed around nothing after 59 honest ones) is a violation */
static void test_samples_past_the_count(void **state)
{
	(void)state;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	struct proto p;
	proto_init(&p);
	p.keep = keep_none;
	p.max_samples = 2;
	timed_to_warmup(&p, fds[1]);
	for (int i = 0; i < 2; i++) {
		char line[256];
		snprintf(line, sizeof(line),
			 "{\"msg\":\"sample\",\"i\":%d,\"set\":0,\"us\":5.0}\n"
			 "{\"msg\":\"output\",\"phase\":\"timed\",\"index\":%d,\"bytes\":0}\n",
			 i, i);
		feed(&p, line, fds[1]);
	}
	const char *third = "{\"msg\":\"sample\",\"i\":2,\"set\":0,\"us\":5.0}\n";
	assert_int_equal(proto_feed(&p, third, strlen(third), fds[1]), -1);
	assert_non_null(strstr(p.violation, "past the 2"));
	proto_release(&p);
	close(fds[0]);
	close(fds[1]);
}

/* what the worker writes reaches the record escaped: a message named with
 * control bytes (the violation quotes it), a failure whose every field
 * is the kernel's (red team 4, ctl_bytes) */
static void test_worker_text_escaped(void **state)
{
	(void)state;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	struct proto p;
	proto_init(&p);
	p.phase = "main";
	const char *forged = "{\"msg\":\"\\u001b[2J\\r\\nok\"}\n";
	assert_int_equal(proto_feed(&p, forged, strlen(forged), fds[1]), -1);
	assert_string_equal(p.violation, "unknown message '\\x1b[2J\\x0d\\x0aok'");
	proto_release(&p);

	proto_init(&p);
	p.phase = "main";
	feed(&p, "{\"msg\":\"failure\",\"outcome\":\"init_failed\",\"error\":\"e\\u001b]0;x\\u0007\\n\","
		 "\"reason\":\"line 1\\nline \\u001b2\",\"phase\":\"in\\tit\"}\n",
	     fds[1]);
	assert_non_null(p.failure);
	assert_string_equal(json_string_value(json_object_get(p.failure, "error")), "e\\x1b]0;x\\x07\\x0a");
	assert_string_equal(json_string_value(json_object_get(p.failure, "reason")), "line 1\nline \\x1b2");
	assert_string_equal(json_string_value(json_object_get(p.failure, "phase")), "in\\x09it");
	assert_string_equal(json_string_value(json_object_get(p.failure, "outcome")), "init_failed");
	proto_release(&p);
	close(fds[0]);
	close(fds[1]);
}

/* which samples the parent checks: its keep function's choice */
struct keeper {
	int mode;           /* 0: none, 1: every sample, 2: samples 1 and 3 (and the last) */
	long long kept[16];
	int n;
};

static int keep_by(void *ctx, long long i, int last)
{
	struct keeper *k = ctx;
	int keep = k->mode == 1 || (k->mode == 2 && (i == 1 || i == 3 || last));
	if (keep)
		k->kept[k->n++] = i;
	return keep;
}

/* Six timed samples of 8-byte outputs through the parent's end; the
 * parent's answers and what reached the capture file before and after
 * the timing message. */
static void six_samples(struct keeper *k, char *replies, size_t *stored_early, struct strbuf *cap,
			size_t *grew, int *moved)
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	int cap_fd = memfd_create("cap", 0);
	assert_true(cap_fd >= 0);
	struct proto p;
	proto_init(&p);
	p.phase = "main";
	p.timed = 1;
	p.n_sets = 1;
	p.batch = 1;
	p.output_bytes = 8;
	p.max_samples = 6;
	p.keep = keep_by;
	p.keep_ctx = k;
	p.capture_fd = cap_fd;
	p.room_slots = proto_room_slots(6, 2, 1);
	assert_int_equal(p.room_slots, 5); /* 2 checks, the last, 2 for the memoryless draw */
	feed(&p, "{\"msg\":\"hello\",\"protocol\":6,\"pid\":1}\n", fds[1]);
	feed(&p, "{\"msg\":\"device\",\"info\":{}}\n{\"msg\":\"kernel\",\"name\":\"k\"}\n", fds[1]);
	feed(&p, "{\"msg\":\"warmup\",\"samples\":0}\n", fds[1]);
	size_t room = p.kept.alloc;
	assert_true(room >= 3 * 8);
	for (int i = 0; i < 6; i++) {
		char line[256], frame[9];
		snprintf(line, sizeof(line),
			 "{\"msg\":\"sample\",\"i\":%d,\"set\":0,\"us\":5.0,\"last\":%s}\n"
			 "{\"msg\":\"output\",\"phase\":\"timed\",\"index\":%d,\"bytes\":8}\n",
			 i, i == 5 ? "true" : "false", i);
		feed(&p, line, fds[1]);
		/* where the frame is received: the same place whatever was drawn */
		static const char *first_to;
		if (i == 0)
			first_to = p.frame_to;
		else if (p.frame_to != first_to)
			*moved = 1;
		snprintf(frame, sizeof(frame), "frame%03u", (unsigned)i % 1000u); /* 3 digits: gcc -O1 knows */
		/* no answer until the whole frame is in */
		assert_int_equal(proto_feed(&p, frame, 3, fds[1]), 0);
		assert_int_equal(p.wait_output, i);
		assert_int_equal(proto_feed(&p, frame + 3, 5, fds[1]), 0);
		assert_int_equal(read(fds[0], &replies[i], 1), 1);
	}
	replies[6] = 0;
	struct stat st;
	assert_int_equal(fstat(cap_fd, &st), 0);
	*stored_early = (size_t)st.st_size;
	*grew = p.kept.alloc != room;
	feed(&p, "{\"msg\":\"timing\",\"n\":6,\"method\":{}}\n", fds[1]);
	assert_null(p.violation);
	assert_int_equal(p.n_caps, (size_t)k->n);
	for (int c = 0; c < k->n; c++) {
		assert_int_equal(p.caps[c].index, k->kept[c]);
		assert_int_equal(p.caps[c].offset, 8 * c);
		assert_int_equal(p.caps[c].bytes, 8);
		assert_int_equal(p.caps[c].timed, 1);
	}
	assert_int_equal(fstat(cap_fd, &st), 0);
	strbuf_reset(cap);
	strbuf_grow(cap, (size_t)st.st_size);
	assert_int_equal(pread(cap_fd, cap->buf, (size_t)st.st_size, 0), st.st_size);
	cap->len = (size_t)st.st_size;
	cap->buf[cap->len] = 0;
	proto_release(&p);
	close(cap_fd);
	close(fds[0]);
	close(fds[1]);
}

/* Nothing the worker can see depends on which samples are checked (red
 * team 5, rt5_check_count: device code timed the downloads of checked
 * samples alone): every timed sample's outputs come the same way and are
 * received into the same memory (red team 6, rt6_slot_count), the
 * answer to each is the same byte, nothing reaches the capture file
 * before the samples end, and with no more checks than reserved the
 * room never grows. */
static void test_draw_unseen(void **state)
{
	(void)state;
	struct strbuf cap = STRBUF_INIT;
	char replies[3][8];
	for (int mode = 0; mode < 3; mode++) {
		struct keeper k = { .mode = mode };
		size_t early, grew;
		int moved = 0;
		six_samples(&k, replies[mode], &early, &cap, &grew, &moved);
		assert_string_equal(replies[mode], "gggggg");
		/* red team 6, rt6_slot_count: a frame received into the room's
		 * next free slot went to fresh memory after a kept sample and to
		 * the slot just written after a skipped one, which the worker saw
		 * two samples later */
		assert_int_equal(moved, 0);
		assert_int_equal(early, 0);
		if (mode == 0)
			assert_int_equal(cap.len, 0);
		if (mode == 1)
			assert_string_equal(strbuf_str(&cap), "frame000frame001frame002frame003frame004frame005");
		if (mode == 2) {
			assert_string_equal(strbuf_str(&cap), "frame001frame003frame005");
			assert_int_equal(grew, 0); /* three checks in five slots */
		}
	}
	strbuf_release(&cap);
}

/* the outputs of a sample are due before the next sample, and a sample
 * said to be the last is the last */
static void test_sample_order(void **state)
{
	(void)state;
	const char *bad[] = {
		"{\"msg\":\"sample\",\"i\":0,\"set\":0,\"us\":5.0}\n{\"msg\":\"sample\",\"i\":1,\"set\":0,\"us\":5.0}\n",
		"{\"msg\":\"sample\",\"i\":0,\"set\":0,\"us\":5.0,\"last\":true}\n"
		"{\"msg\":\"output\",\"phase\":\"timed\",\"index\":0,\"bytes\":0}\n"
		"{\"msg\":\"sample\",\"i\":1,\"set\":0,\"us\":5.0}\n",
	};
	const char *why[] = { "the output of the sample just asked for", "said was its last" };
	for (int b = 0; b < 2; b++) {
		int fds[2];
		assert_int_equal(pipe(fds), 0);
		struct proto p;
		proto_init(&p);
		p.keep = keep_none;
		timed_to_warmup(&p, fds[1]);
		assert_int_equal(proto_feed(&p, bad[b], strlen(bad[b]), fds[1]), -1);
		assert_non_null(strstr(p.violation, why[b]));
		proto_release(&p);
		close(fds[0]);
		close(fds[1]);
	}
}

/* Where a frame's copy goes once the draw is known (proto_stash_slot):
 * kept, the room's next free slot; skipped, a ring of touched memory at
 * least PROTO_SPILL_BYTES long, never the slot just written, so that the
 * copy of a skipped frame is no cheaper than a kept one's (red team 6,
 * rt6_slot_count). */
static void test_stash_cold(void **state)
{
	(void)state;
	size_t frames[] = { 8, 128 << 10, (size_t)48 << 20 };
	for (int f = 0; f < 3; f++) {
		struct proto p;
		proto_init(&p);
		size_t fb = frames[f];
		proto_reserve_kept(&p, fb, 3);
		size_t stride = fb > 4096 ? fb : 4096;
		assert_true(p.spill_slots >= 2);
		assert_true(p.spill_slots * stride >= PROTO_SPILL_BYTES);
		char *room = p.kept.buf, *prev = NULL;
		size_t n = p.spill_slots < 64 ? p.spill_slots : 64;
		for (size_t k = 0; k < n; k++) {
			char *d = proto_stash_slot(&p, fb, 0, NULL);
			assert_true(d != prev);
			assert_true(d < room || d >= room + p.kept.alloc); /* never the room */
			assert_true(d >= p.spill && d + fb <= p.spill + p.spill_bytes);
			if (k)
				assert_true(d == prev + stride); /* the next slot, not the one just written */
			prev = d;
		}
		char *k1 = proto_stash_slot(&p, fb, 1, NULL);
		assert_ptr_equal(k1, p.kept.buf + p.kept.len);
		proto_keep_slot(&p, fb);
		assert_ptr_equal(proto_stash_slot(&p, fb, 1, NULL), p.kept.buf + fb);
		proto_release(&p);
	}
}

/* The ring is exactly its slots (no more memory touched than that), and
 * the next proto of the process that reserves one of the same size takes
 * the released one's pages back, touched again: every byte the last run's
 * frames left there is zero before the first frame of the next. */
static void test_ring_reused(void **state)
{
	(void)state;
	size_t fb = 8192;
	struct proto p;
	proto_init(&p);
	proto_reserve_kept(&p, fb, 3);
	assert_int_equal(p.spill_bytes, p.spill_slots * fb);
	char *ring = p.spill;
	for (size_t k = 0; k < p.spill_slots; k++)
		memset(proto_stash_slot(&p, fb, 0, NULL), 0xa5, fb);
	proto_release(&p);
	proto_init(&p);
	struct rusage r0, r1;
	getrusage(RUSAGE_SELF, &r0);
	proto_reserve_kept(&p, fb, 3);
	getrusage(RUSAGE_SELF, &r1);
	assert_ptr_equal(p.spill, ring);
	/* the same pages, mapped already: a fresh ring faults every page in
	 * (the same address comes back from a new mapping too) */
	size_t pages = p.spill_bytes / 4096;
	if ((size_t)(r1.ru_minflt - r0.ru_minflt) > pages / 2)
		fail_msg("%ld page faults touching a ring of %zu pages taken back", r1.ru_minflt - r0.ru_minflt, pages);
	for (size_t i = 0; i < p.spill_bytes; i++)
		if (p.spill[i])
			fail_msg("byte %zu of a ring taken back is %d, not touched again", i, p.spill[i]);
	proto_release(&p);
	/* a ring of another size is newly made, never a part of the spare */
	proto_init(&p);
	proto_reserve_kept(&p, 3 * fb, 3);
	assert_int_equal(p.spill_bytes, p.spill_slots * 3 * fb);
	proto_release(&p);
}

/* the late pick: the skipped samples still held, and sample 2 of them */
static long long late_seen[8];
static size_t late_n;
static void late_two(void *ctx, const long long *idx, size_t n, char *pick)
{
	(void)ctx;
	late_n = n;
	for (size_t k = 0; k < n && k < 8; k++) {
		late_seen[k] = idx[k];
		pick[k] = idx[k] == 2;
	}
}

/* A fixed count that ends early (the worker says its sixth sample of 20
 * was its last: the time cap, which a kernel can reach when it likes; red
 * team 7, rt7_cap_truncate): at the timing message the parent hands its
 * late draw the skipped samples it still holds, and a late pick reaches
 * the capture file after the samples kept on the way, with its index. */
static void test_late_checks(void **state)
{
	(void)state;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	int cap_fd = memfd_create("cap", 0);
	assert_true(cap_fd >= 0);
	struct keeper k = { .mode = 2 };
	struct proto p;
	proto_init(&p);
	p.output_bytes = 8;
	p.max_samples = 20;
	p.keep = keep_by;
	p.late = late_two;
	p.keep_ctx = &k;
	p.capture_fd = cap_fd;
	p.room_slots = proto_room_slots(20, 2, 1);
	timed_to_warmup(&p, fds[1]);
	assert_true(p.spill_slots >= 20); /* a fixed count: every skipped frame held */
	for (int i = 0; i < 6; i++) {
		char line[256], frame[9], g;
		snprintf(line, sizeof(line),
			 "{\"msg\":\"sample\",\"i\":%d,\"set\":0,\"us\":5.0,\"last\":%s}\n"
			 "{\"msg\":\"output\",\"phase\":\"timed\",\"index\":%d,\"bytes\":8}\n",
			 i, i == 5 ? "true" : "false", i);
		feed(&p, line, fds[1]);
		snprintf(frame, sizeof(frame), "frame%03u", (unsigned)i % 1000u); /* 3 digits: gcc -O1 knows */
		feed(&p, frame, fds[1]);
		assert_int_equal(read(fds[0], &g, 1), 1);
	}
	feed(&p, "{\"msg\":\"timing\",\"n\":6,\"method\":{}}\n", fds[1]);
	assert_null(p.violation);
	assert_int_equal(late_n, 3);
	assert_int_equal(late_seen[0], 0);
	assert_int_equal(late_seen[1], 2);
	assert_int_equal(late_seen[2], 4);
	assert_int_equal(p.late_checks, 1);
	assert_int_equal(p.n_caps, 4);
	assert_int_equal(p.caps[3].index, 2);
	assert_int_equal(p.caps[3].offset, 24);
	char buf[64] = { 0 };
	assert_int_equal(pread(cap_fd, buf, sizeof(buf) - 1, 0), 32);
	assert_string_equal(buf, "frame001frame003frame005frame002");
	proto_release(&p);
	close(cap_fd);
	close(fds[0]);
	close(fds[1]);
}

/* A skipped timed frame about to leave the spill ring (a new frame takes
 * its slot) is offered to p->evict (job.c evict_check: red team 9,
 * ring_outrun, 80 wrong frames pushed out of a 64-frame ring); one it
 * picks moves into the room with its index and bytes (evict_checks
 * counts it), the others are lost.  An adaptive count's ring (16 slots of
 * 1 MiB) wraps after 16 frames. */
static long long evict_seen[64];
static size_t evict_n;
static int evict_third(void *ctx, long long i, size_t ring)
{
	(void)ctx;
	assert_int_equal(ring, 16);
	if (evict_n < 64)
		evict_seen[evict_n++] = i;
	return i == 3;
}

static void test_evicted_frame_kept(void **state)
{
	(void)state;
	size_t fb = (size_t)1 << 20;
	struct proto p;
	proto_init(&p);
	p.evict = evict_third;
	evict_n = 0;
	for (int k = 0; k < 20; k++) {
		struct proto_capture *meta;
		char *d = proto_stash_slot(&p, fb, 0, &meta);
		assert_non_null(meta);
		memset(d, 'a' + k, fb);
		meta->timed = 1;
		meta->index = k;
		meta->bytes = fb;
	}
	assert_int_equal(p.spill_slots, 16);
	/* frames 0..3 left the ring as 16..19 came: each offered once, 3 kept */
	assert_int_equal(evict_n, 4);
	for (int k = 0; k < 4; k++)
		assert_int_equal(evict_seen[k], k);
	assert_int_equal(p.evict_checks, 1);
	assert_int_equal(p.n_caps, 1);
	assert_int_equal(p.caps[0].index, 3);
	assert_int_equal(p.caps[0].bytes, fb);
	assert_int_equal(p.caps[0].offset, 0);
	assert_int_equal(p.kept.len, fb);
	assert_int_equal(p.kept.buf[0], 'a' + 3);
	assert_int_equal(p.kept.buf[fb - 1], 'a' + 3);
	proto_release(&p);
}

/* A worker killed at its last output (a boxed host worker: job.c
 * no_grace) is read no further: its last seed's frame ends its outputs,
 * and a line its fini() wrote into the same read is not the protocol's
 * (stop_at_fini).  Read as before it is a violation, and which one a run
 * got turned on where the reads fell. */
static void seed_frame_then_line(int stop, struct proto *p, int cap_fd, int reply_fd)
{
	proto_init(p);
	p->phase = "shape";
	p->seeds = 1;
	p->output_bytes = 4;
	p->capture_fd = cap_fd;
	p->stop_at_fini = stop;
	feed(p, "{\"msg\":\"hello\",\"protocol\":6,\"pid\":1}\n", reply_fd);
	feed(p, "{\"msg\":\"device\",\"info\":{}}\n{\"msg\":\"kernel\",\"name\":\"k\"}\n", reply_fd);
	feed(p, "{\"msg\":\"output\",\"phase\":\"seed\",\"index\":0,\"bytes\":4}\n", reply_fd);
	/* the seeds are over before the frame is in: the job is not */
	assert_true(proto_samples_over(p));
	assert_int_equal(p->data_left, 4);
}

static void test_stop_at_fini(void **state)
{
	(void)state;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	int cap_fd = memfd_create("cap", 0);
	assert_true(cap_fd >= 0);
	static const char tail[] = "abcd{\"msg\":\"timing\",\"n\":3,\"method\":{}}\n";
	struct proto p;
	seed_frame_then_line(1, &p, cap_fd, fds[1]);
	assert_int_equal(proto_feed(&p, tail, strlen(tail), fds[1]), 0);
	assert_null(p.violation);
	assert_int_equal(p.data_left, 0);
	proto_finish(&p, 0);
	assert_null(p.violation);
	proto_release(&p);
	seed_frame_then_line(0, &p, cap_fd, fds[1]);
	assert_int_equal(proto_feed(&p, tail, strlen(tail), fds[1]), -1);
	assert_non_null(p.violation);
	proto_release(&p);
	close(cap_fd);
	close(fds[0]);
	close(fds[1]);
}

static int calls_calibrate, calls_drive;
static int fake_calibrate(struct proto *p, void *ctx, int reply_fd)
{
	(void)p, (void)ctx, (void)reply_fd;
	calls_calibrate++;
	return 0;
}
static int fake_drive(struct proto *p, void *ctx, int reply_fd)
{
	(void)p, (void)ctx, (void)reply_fd;
	calls_drive++;
	return 0;
}

/* A parent-timed worker (the host backend) measures its handshake at
 * calibrate_ready, right after the go and before device: before any code
 * of the kernel's loads (red team 168's hsnap answered the null rounds
 * after init() 20 ms late, and rule 0e held every challenger of it
 * inconclusive).  A timing_ready without it, a calibrate_ready after
 * device or a second one, and one to a parent that does not keep the
 * clock, are violations. */
static void calib_proto(struct proto *p, int with_calibrate)
{
	proto_init(p);
	p->keep = keep_none;
	p->phase = "main";
	p->timed = 1;
	p->n_sets = 1;
	p->batch = 1;
	p->drive = fake_drive;
	p->calibrate = with_calibrate ? fake_calibrate : NULL;
	char hello[80];
	snprintf(hello, sizeof(hello), "{\"msg\":\"hello\",\"protocol\":%d,\"pid\":1}\n", PROTOCOL_VERSION);
	feed(p, hello, -1);
}

static void test_calibrate_first(void **state)
{
	(void)state;
	static const char dev_kernel[] = "{\"msg\":\"device\",\"info\":{}}\n{\"msg\":\"kernel\",\"name\":\"k\"}\n";
	static const char cal[] = "{\"msg\":\"calibrate_ready\"}\n", ready[] = "{\"msg\":\"timing_ready\",\"bytes\":64}\n";
	struct proto p;
	/* in order: calibrated, then driven */
	calls_calibrate = calls_drive = 0;
	calib_proto(&p, 1);
	feed(&p, cal, -1);
	feed(&p, dev_kernel, -1);
	feed(&p, ready, -1);
	assert_null(p.violation);
	assert_int_equal(calls_calibrate, 1);
	assert_int_equal(calls_drive, 1);
	proto_release(&p);
	/* timing_ready with no calibrate_ready: a violation, not driven */
	calls_calibrate = calls_drive = 0;
	calib_proto(&p, 1);
	feed(&p, dev_kernel, -1);
	assert_int_equal(proto_feed(&p, ready, strlen(ready), -1), -1);
	assert_non_null(p.violation);
	assert_non_null(strstr(p.violation, "no calibrate_ready"));
	assert_int_equal(calls_drive, 0);
	proto_release(&p);
	/* calibrate_ready twice, or after device (with the kernel loaded) */
	calib_proto(&p, 1);
	feed(&p, cal, -1);
	assert_int_equal(proto_feed(&p, cal, strlen(cal), -1), -1);
	assert_non_null(p.violation);
	proto_release(&p);
	calls_calibrate = 0;
	calib_proto(&p, 1);
	feed(&p, dev_kernel, -1);
	assert_int_equal(proto_feed(&p, cal, strlen(cal), -1), -1);
	assert_non_null(p.violation);
	assert_int_equal(calls_calibrate, 0);
	proto_release(&p);
	/* to a parent that does not keep the clock (a CUDA worker's) */
	calib_proto(&p, 0);
	assert_int_equal(proto_feed(&p, cal, strlen(cal), -1), -1);
	assert_non_null(p.violation);
	proto_release(&p);
}

/* The host extra shape's worker (red team 282) is prepared as a timed
 * one and says timing_ready after its seeds (none here): with timed 0
 * the parent answers it once through drive (host_clock_end), and a
 * second one, or a sample after it, is a violation. */
static void test_untimed_ready(void **state)
{
	(void)state;
	static const char dev_kernel[] = "{\"msg\":\"device\",\"info\":{}}\n{\"msg\":\"kernel\",\"name\":\"k\"}\n";
	static const char cal[] = "{\"msg\":\"calibrate_ready\"}\n", ready[] = "{\"msg\":\"timing_ready\",\"bytes\":64}\n";
	struct proto p;
	calls_calibrate = calls_drive = 0;
	calib_proto(&p, 1);
	p.timed = 0;
	p.phase = "shape";
	feed(&p, cal, -1);
	feed(&p, dev_kernel, -1);
	feed(&p, ready, -1);
	assert_null(p.violation);
	assert_int_equal(calls_calibrate, 1);
	assert_int_equal(calls_drive, 1);
	assert_int_equal(proto_feed(&p, ready, strlen(ready), -1), -1);
	assert_non_null(p.violation);
	assert_int_equal(calls_drive, 1);
	proto_release(&p);
	/* no drive (an untimed CUDA job): timing_ready is a violation */
	calib_proto(&p, 1);
	p.timed = 0;
	feed(&p, cal, -1);
	p.drive = NULL;
	feed(&p, dev_kernel, -1);
	assert_int_equal(proto_feed(&p, ready, strlen(ready), -1), -1);
	assert_non_null(p.violation);
	proto_release(&p);
}

int main(void)
{
	assert_int_equal(PROTOCOL_VERSION, 6); /* the hellos above speak it */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_kernel_clock_is_not_a_time),
		cmocka_unit_test(test_line_limit),
		cmocka_unit_test(test_samples_past_the_count),
		cmocka_unit_test(test_worker_text_escaped),
		cmocka_unit_test(test_draw_unseen),
		cmocka_unit_test(test_sample_order),
		cmocka_unit_test(test_stash_cold),
		cmocka_unit_test(test_ring_reused),
		cmocka_unit_test(test_late_checks),
		cmocka_unit_test(test_evicted_frame_kept),
		cmocka_unit_test(test_stop_at_fini),
		cmocka_unit_test(test_calibrate_first),
		cmocka_unit_test(test_untimed_ready),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
