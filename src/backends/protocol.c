/*
 * protocol.c - both ends of the worker protocol (contract and the message
 * sequence in protocol.h).  The worker's end writes JSON lines and raw
 * output frames on fd 3 and reads one-byte answers on fd 4; the parent's
 * end is a strict state machine fed with whatever bytes arrive.
 */
#include "backends/protocol.h"
#include "backends/scramble.h"
#include "base/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* ---- worker -------------------------------------------------------------- */

int proto_w_open(void)
{
	if (fcntl(PROTO_OUT_FD, F_GETFD) < 0 || fcntl(PROTO_IN_FD, F_GETFD) < 0) {
		fprintf(stderr, "evident worker: fds 3 and 4 are not open; the worker is started by "
				"'evident run', not by hand\n");
		return -1;
	}
	/* the kernel's code must not inherit them into processes it starts */
	fcntl(PROTO_OUT_FD, F_SETFD, FD_CLOEXEC);
	fcntl(PROTO_IN_FD, F_SETFD, FD_CLOEXEC);
	return 0;
}

size_t proto_w_line_bytes(const char *name, json_t *msg)
{
	json_t *m = json_copy(msg);
	if (!m)
		return 0;
	json_object_set_new(m, "msg", json_string(name));
	char *s = json_dumps(m, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	json_decref(m);
	size_t n = s ? strlen(s) + 1 : 0;
	free(s);
	return n;
}

void proto_w_send(const char *name, json_t *msg)
{
	if (!msg)
		msg = json_object();
	json_object_set_new(msg, "msg", json_string(name));
	char *s = json_dumps(msg, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	json_decref(msg);
	if (!s)
		return;
	size_t n = strlen(s);
	s[n] = '\n';
	/* one write per message: the line is never interleaved with a frame */
	if (write_all(PROTO_OUT_FD, s, n + 1) < 0) {
		free(s);
		_exit(3); /* the parent is gone */
	}
	free(s);
}

void proto_w_output(const char *phase, long long index, const void *data, size_t bytes)
{
	proto_w_send("output", json_pack("{s:s, s:I, s:I}", "phase", phase, "index", (json_int_t)index,
					 "bytes", (json_int_t)bytes));
	if (write_all(PROTO_OUT_FD, data, bytes) < 0)
		_exit(3);
}

void proto_w_plan_data(const void *data, size_t bytes)
{
	proto_w_send("plan_data", json_pack("{s:I}", "bytes", (json_int_t)bytes));
	if (write_all(PROTO_OUT_FD, data, bytes) < 0)
		_exit(3);
}

void proto_w_failure(const char *outcome, const char *error_name, const char *reason,
		     const char *phase)
{
	fprintf(stderr, "evident worker: %s%s%s: %s\n", outcome, phase ? " during " : "",
		phase ? phase : "", reason ? reason : "");
	proto_w_send("failure", json_pack("{s:s, s:s?, s:s?, s:s?}", "outcome", outcome, "error",
					  error_name, "reason", reason, "phase", phase));
}

int proto_w_wait_go(void)
{
	char c;
	for (;;) {
		ssize_t r = read(PROTO_IN_FD, &c, 1);
		if (r == 1)
			return c == 'g' ? 0 : -1;
		if (r < 0 && errno == EINTR)
			continue;
		return -1;
	}
}

/* ---- parent ---------------------------------------------------------------- */

enum {
	ST_HELLO,
	ST_DEVICE,
	ST_KERNEL,
	ST_SEEDS,     /* seed outputs */
	ST_SAMPLES,   /* warmup / samples / timed outputs / timing */
	ST_FINI,
	ST_DONE,
	ST_END,       /* after done or failure: nothing more */
};

/*
 * The spill ring's memory outlives its proto: proto_release gives it back
 * here and the next reserve_spill of the same size takes it, in the same
 * process (a batch's runs, one after another).  A fresh ring costs a page
 * fault a page (4096 a 16 MiB ring; in the CI VMs, whose page faults are
 * dear, 70 ms of CPU, half of it system time, in every run); a ring taken
 * back is the same pages, already mapped, and reserve_spill touches every
 * byte of it again, as it does a fresh one.  One ring is kept, the last
 * given back (a larger one takes the room of a smaller); the lock is for
 * runners that drive protos from more than one thread.
 */
static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;
static char *ring_spare;
static size_t ring_spare_bytes;

/*
 * A new ring's pages mapped in one call (MADV_POPULATE_WRITE, Linux 5.14)
 * before reserve_spill's memset touches them: the same 4 KiB pages,
 * private and writable, as the memset's page faults would map one by one
 * (no huge page: the advice asks none), so the ring the samples meet is
 * the one it was; only the faults' cost differs: 16 MiB took 67 ms of CPU
 * on the project's VM, one exception a page, and 42 ms with the call
 * first (2026-12-02).  Where the call fails (an older kernel) the memset
 * faults the pages in as before.
 */
static void ring_prefault(char *buf, size_t bytes)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t p = pg > 0 ? (uintptr_t)pg : 4096;
	uintptr_t b = ((uintptr_t)buf + p - 1) & ~(p - 1), e = ((uintptr_t)buf + bytes) & ~(p - 1);
	if (e > b)
		(void)madvise((void *)b, e - b, MADV_POPULATE_WRITE);
}

/* ring_take: a buffer of exactly bytes, its contents undefined (the spare
 * when it is that size, else newly allocated, its pages mapped:
 * ring_prefault); the caller owns it and hands it to ring_give. */
static char *ring_take(size_t bytes)
{
	char *buf = NULL, *stale = NULL;
	pthread_mutex_lock(&ring_lock);
	if (ring_spare && ring_spare_bytes == bytes)
		buf = ring_spare;
	else
		stale = ring_spare;
	ring_spare = NULL;
	ring_spare_bytes = 0;
	pthread_mutex_unlock(&ring_lock);
	free(stale);
	if (!buf) {
		buf = xmalloc(bytes);
		ring_prefault(buf, bytes);
	}
	return buf;
}

/* ring_give: buf (from ring_take, or NULL) becomes the spare, or is freed
 * when a spare as large is kept already. */
static void ring_give(char *buf, size_t bytes)
{
	if (!buf)
		return;
	pthread_mutex_lock(&ring_lock);
	if (!ring_spare || ring_spare_bytes < bytes) {
		char *old = ring_spare;
		ring_spare = buf;
		ring_spare_bytes = bytes;
		buf = old;
	}
	pthread_mutex_unlock(&ring_lock);
	free(buf);
}

void proto_box_seen(json_t *box, struct sandbox_seen *seen)
{
	json_t *f;
	seen->seccomp = seen->filters = seen->nnp = seen->pid_depth = -1;
	seen->pid = -1;
	if (json_is_integer(f = json_object_get(box, "seccomp")))
		seen->seccomp = (int)json_integer_value(f);
	if (json_is_integer(f = json_object_get(box, "seccomp_filters")))
		seen->filters = (int)json_integer_value(f);
	if (json_is_integer(f = json_object_get(box, "no_new_privs")))
		seen->nnp = (int)json_integer_value(f);
	if (json_is_integer(f = json_object_get(box, "pid_depth")))
		seen->pid_depth = (int)json_integer_value(f);
	if (json_is_integer(f = json_object_get(box, "pid")))
		seen->pid = (long)json_integer_value(f);
}

void proto_init(struct proto *p)
{
	memset(p, 0, sizeof(*p));
	p->timing_n = -1;
	p->wait_output = -1;
	p->capture_fd = -1;
	p->line = (struct strbuf)STRBUF_INIT;
	p->kept = (struct strbuf)STRBUF_INIT;
	p->stage = (struct strbuf)STRBUF_INIT;
}

void proto_release(struct proto *p)
{
	json_decref(p->device);
	json_decref(p->kernel);
	json_decref(p->warmup);
	json_decref(p->method);
	json_decref(p->failure);
	free(p->box_refused);
	sandbox_mounts_free(p->box_mounts);
	json_decref(p->hello_box);
	json_decref(p->plan);
	free(p->plan_data);
	free(p->keys);
	free(p->samples);
	free(p->caps);
	strbuf_release(&p->kept);
	strbuf_release(&p->stage);
	ring_give(p->spill, p->spill_bytes);
	free(p->spill_meta);
	free(p->violation);
	free(p->judge_failed);
	strbuf_release(&p->line);
	memset(p, 0, sizeof(*p));
}

int proto_violate(struct proto *p, const char *fmt, ...)
{
	if (!p->violation) {
		struct strbuf sb = STRBUF_INIT;
		va_list ap;
		va_start(ap, fmt);
		strbuf_vaddf(&sb, fmt, ap);
		va_end(ap);
		/* it may quote the worker (a message's name, an output's
		 * phase): one line, its control bytes visible (red team 4,
		 * ctl_bytes) */
		p->violation = printable_line(strbuf_str(&sb));
		strbuf_release(&sb);
	}
	return -1;
}

static const char *state_wants(const struct proto *p)
{
	switch (p->state) {
	case ST_HELLO: return "hello";
	case ST_DEVICE: return "device";
	case ST_KERNEL: return "kernel";
	case ST_SEEDS: return "the output of seed launch";
	case ST_SAMPLES: return p->wait_output >= 0 ? "the output of the sample just asked for"
						     : "a sample or timing";
	case ST_FINI: return "fini";
	case ST_DONE: return "done";
	default: return "nothing (the worker had finished)";
	}
}

static double num_or_nan(json_t *m, const char *k)
{
	json_t *v = json_object_get(m, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

#define violate proto_violate

static double time_or_nan(json_t *m, const char *k)
{
	double v = num_or_nan(m, k);
	return isfinite(v) && v >= 0 ? v : NAN;
}

/* ---- the kept room (protocol.h) ---- */

size_t proto_room_slots(long long samples, long long checks, int strata)
{
	long long picks = checks > 0 ? checks : 0;
	if (strata > 1 && picks < strata)
		picks = strata; /* every class at least one (run/kexec.h check_draw_init) */
	if (samples > 1 && picks > samples - 1)
		picks = samples - 1;
	if (samples > 0) {
		/* and the last, and the memoryless draw's extra picks (about one
		 * a class: run/kexec.h check_draw_memoryless), twice that */
		long long room = picks + 1 + 2 * (strata > 1 ? strata : 1);
		return (size_t)(room < samples ? room : samples);
	}
	return (size_t)(4 * picks + 1);
}

/* Room for one more capture in caps (seed outputs, one at a time). */
static struct proto_capture *new_capture(struct proto *p)
{
	if (p->n_caps + 1 > p->caps_cap) {
		p->caps_cap = p->caps_cap ? 2 * p->caps_cap : 16;
		p->caps = xrealloc(p->caps, p->caps_cap * sizeof(*p->caps));
	}
	struct proto_capture *c = &p->caps[p->n_caps++];
	memset(c, 0, sizeof(*c));
	return c;
}

/* The spill ring for frames of frame_bytes (protocol.h), touched now;
 * nothing when it is there already.  Owned by p, freed by proto_release. */
/* A spill slot's stride: the frame, at least a page (so that tiny frames
 * still spread over PROTO_SPILL_BYTES in few slots, each on its own page). */
static size_t spill_stride(size_t frame_bytes)
{
	return frame_bytes > 4096 ? (frame_bytes + 63) / 64 * 64 : 4096;
}

static void reserve_spill(struct proto *p, size_t frame_bytes)
{
	if (p->spill_slots && p->spill_frame == frame_bytes)
		return;
	size_t f = spill_stride(frame_bytes);
	size_t slots = (PROTO_SPILL_BYTES + f - 1) / f;
	/* a fixed count: every skipped frame, as far as the cap allows */
	size_t all = p->max_samples > 0 ? (size_t)p->max_samples : 0, cap = PROTO_SPILL_MAX_BYTES / f;
	if (all > slots)
		slots = all < cap ? all : cap;
	if (slots < 2)
		slots = 2;
	ring_give(p->spill, p->spill_bytes);
	/* exactly the ring (strbuf_grow's doubling touched twice that) */
	p->spill_bytes = slots * f;
	p->spill = ring_take(p->spill_bytes);
	memset(p->spill, 0, p->spill_bytes);
	free(p->spill_meta);
	p->spill_meta = xcalloc(slots, sizeof(*p->spill_meta));
	p->spill_frame = frame_bytes;
	p->spill_slots = slots;
	p->spill_next = 0;
}

void proto_reserve_kept(struct proto *p, size_t frame_bytes, size_t slots)
{
	size_t had = p->kept.alloc;
	strbuf_grow(&p->kept, slots * frame_bytes);
	if (p->kept.alloc > had)
		memset(p->kept.buf + p->kept.len, 0, p->kept.alloc - p->kept.len);
	if (p->n_caps + slots > p->caps_cap) {
		p->caps_cap = p->n_caps + slots;
		p->caps = xrealloc(p->caps, p->caps_cap * sizeof(*p->caps));
		memset(p->caps + p->n_caps, 0, slots * sizeof(*p->caps));
	}
	reserve_spill(p, frame_bytes);
}

char *proto_stash_slot(struct proto *p, size_t frame_bytes, int keep, struct proto_capture **meta)
{
	if (meta)
		*meta = NULL;
	if (keep)
		return proto_kept_slot(p, frame_bytes);
	reserve_spill(p, frame_bytes);
	size_t slot = p->spill_next;
	char *d = p->spill + slot * spill_stride(frame_bytes);
	struct proto_capture *old = &p->spill_meta[slot];
	if (old->timed && old->bytes && p->evict && p->evict(p->keep_ctx, old->index, p->spill_slots)) {
		/* the frame the ring is about to lose: checked after all */
		struct proto_capture f = *old;
		memcpy(proto_kept_slot(p, f.bytes), d, f.bytes);
		struct proto_capture *c = proto_keep_slot(p, f.bytes);
		f.offset = c->offset;
		*c = f;
		p->evict_checks++;
	}
	old->bytes = 0; /* lost now (or kept): no late draw of it */
	p->spill_next = (p->spill_next + 1) % p->spill_slots;
	if (meta)
		*meta = &p->spill_meta[slot];
	return d;
}

void proto_late_checks(struct proto *p)
{
	if (!p->late || !p->spill_slots || p->late_done)
		return;
	p->late_done = 1;
	/* the ring's skipped samples, oldest first */
	size_t n = 0;
	long long *idx = xcalloc(p->spill_slots, sizeof(*idx));
	size_t *slot = xcalloc(p->spill_slots, sizeof(*slot));
	for (size_t k = 0; k < p->spill_slots; k++) {
		size_t s = (p->spill_next + k) % p->spill_slots;
		if (p->spill_meta[s].timed && p->spill_meta[s].bytes) {
			idx[n] = p->spill_meta[s].index;
			slot[n++] = s;
		}
	}
	char *pick = xcalloc(n ? n : 1, 1);
	if (n)
		p->late(p->keep_ctx, idx, n, pick);
	for (size_t k = 0; k < n; k++) {
		if (!pick[k])
			continue;
		struct proto_capture f = p->spill_meta[slot[k]];
		memcpy(proto_kept_slot(p, f.bytes), p->spill + slot[k] * spill_stride(p->spill_frame), f.bytes);
		struct proto_capture *c = proto_keep_slot(p, f.bytes);
		f.offset = c->offset;
		*c = f;
		p->spill_meta[slot[k]].bytes = 0;
		p->late_checks++;
	}
	free(pick);
	free(slot);
	free(idx);
}

char *proto_kept_slot(struct proto *p, size_t frame_bytes)
{
	if (p->kept.alloc < p->kept.len + frame_bytes + 1 || p->n_caps + 1 > p->caps_cap)
		proto_reserve_kept(p, frame_bytes, (p->n_caps + 1) * 2); /* more picks than reserved */
	return p->kept.buf + p->kept.len;
}

struct proto_capture *proto_keep_slot(struct proto *p, size_t frame_bytes)
{
	struct proto_capture *c = &p->caps[p->n_caps++]; /* room reserved by proto_kept_slot */
	memset(c, 0, sizeof(*c));
	c->timed = 1;
	c->offset = p->capture_size;
	c->bytes = frame_bytes;
	p->kept.len += frame_bytes;
	p->kept.buf[p->kept.len] = 0;
	p->capture_size += (long long)frame_bytes;
	return c;
}

/* The stage for a timed frame of `bytes` (protocol.h: stage), grown and
 * touched when it is too small (at the warmup message, before the first
 * sample); owned by p, freed by proto_release. */
static char *stage_for(struct proto *p, size_t bytes)
{
	size_t had = p->stage.alloc;
	strbuf_grow(&p->stage, bytes + 1);
	if (p->stage.alloc > had)
		memset(p->stage.buf, 0, p->stage.alloc);
	return p->stage.buf;
}

int proto_store_kept(struct proto *p)
{
	size_t n = p->kept.len - p->kept_stored;
	if (!n)
		return 0;
	if (p->capture_fd >= 0 && write_all(p->capture_fd, p->kept.buf + p->kept_stored, n) < 0)
		return violate(p, "the parent cannot store the worker's output (disk full?)");
	p->kept_stored = p->kept.len;
	return 0;
}

static int on_output(struct proto *p, json_t *m)
{
	const char *phase = json_string_value(json_object_get(m, "phase"));
	json_t *ix = json_object_get(m, "index"), *by = json_object_get(m, "bytes");
	if (!phase || !json_is_integer(ix) || !json_is_integer(by))
		return violate(p, "an output message without phase, index and bytes");
	long long index = json_integer_value(ix);
	long long bytes = json_integer_value(by);
	int timed = !strcmp(phase, "timed");
	size_t want = p->output_bytes * (size_t)(timed && p->batch > 1 ? p->batch : 1);
	if (bytes < 0 || (size_t)bytes != want)
		return violate(p, "an output of %lld bytes where the outputs hold %zu", bytes, want);
	if (!timed && strcmp(phase, "seed"))
		return violate(p, "an output of unknown phase '%s'", phase);
	struct proto_capture *c = &p->frame;
	memset(c, 0, sizeof(*c));
	p->frame_to = NULL;
	if (!timed) {
		if (p->state != ST_SEEDS || index != p->next_seed)
			return violate(p, "output of seed launch %lld where %s was due", index, state_wants(p));
		p->next_seed++;
		c->offset = p->capture_size;
		p->capture_size += bytes; /* seed frames go to the capture file as they come */
	} else {
		if (p->state != ST_SAMPLES || p->wait_output != index)
			return violate(p, "output of sample %lld, which the parent did not ask for", index);
		p->frame_to = stage_for(p, want);
	}
	c->timed = timed;
	c->index = index;
	c->global = timed ? p->warmup_samples + index : -1;
	c->set = timed && p->n_sets > 0 ? evs_sample_set(p->first_set, p->n_sets, p->batch, c->global, 0) : -1;
	c->batch = timed && p->batch > 1 ? p->batch : 1;
	c->mix_key = timed && index >= 0 && (size_t)index < p->n_samples ? p->samples[index].key : 0;
	c->bytes = (size_t)bytes;
	p->data_left = (size_t)bytes;
	return 0;
}

/*
 * A frame has arrived whole.  A seed output is a capture already (its
 * bytes are in the capture file).  A timed one: the go first, so nothing
 * the parent does next can lengthen the worker's gap, then the draw, with
 * randomness the worker never sees; the frame is copied from the stage
 * into the room's next slot when kept, into the spill ring when not
 * (proto_stash_slot: the same copy into memory as cold).
 * Every frame arrived in the same stage, so what the worker waits on (the
 * parent's copy of the frame before the 'g') does not depend on what was
 * drawn before (red team 6, rt6_slot_count).
 */
static int frame_done(struct proto *p, int reply_fd)
{
	if (p->frame_plan) {
		p->frame_plan = 0;
		p->frame_to = NULL;
		return 0;
	}
	if (!p->frame_to) {
		*new_capture(p) = p->frame;
		return 0;
	}
	long long i = p->wait_output;
	int last = p->wait_last;
	p->wait_output = -1;
	p->frame_to = NULL;
	if (write_all(reply_fd, "g", 1) < 0)
		return violate(p, "the worker stopped reading its answers");
	/* the same copy, kept or not, into memory as cold either way */
	int keep = p->keep && p->keep(p->keep_ctx, i, last);
	struct proto_capture f = p->frame, *meta;
	memcpy(proto_stash_slot(p, f.bytes, keep, &meta), p->stage.buf, f.bytes);
	if (meta)
		*meta = f; /* a skipped frame: proto_late_checks may still want it */
	if (keep) {
		struct proto_capture *c = proto_keep_slot(p, f.bytes);
		f.offset = c->offset;
		*c = f;
	}
	return 0;
}

/* 1 when key was seen before (then or now it is remembered): an open
 * addressing set kept at most half full. */
static int key_seen(struct proto *p, unsigned long long key)
{
	if (2 * (p->n_keys + 1) > p->keys_cap) {
		size_t cap = p->keys_cap ? 2 * p->keys_cap : 1024;
		unsigned long long *t = xcalloc(cap, sizeof(*t));
		for (size_t i = 0; i < p->keys_cap; i++)
			if (p->keys[i]) {
				size_t h = (size_t)(p->keys[i] * 0x9e3779b97f4a7c15ULL) & (cap - 1);
				while (t[h])
					h = (h + 1) & (cap - 1);
				t[h] = p->keys[i];
			}
		free(p->keys);
		p->keys = t;
		p->keys_cap = cap;
	}
	size_t h = (size_t)(key * 0x9e3779b97f4a7c15ULL) & (p->keys_cap - 1);
	for (; p->keys[h]; h = (h + 1) & (p->keys_cap - 1))
		if (p->keys[h] == key)
			return 1;
	p->keys[h] = key;
	p->n_keys++;
	return 0;
}

static int on_sample(struct proto *p, json_t *m)
{
	json_t *iv = json_object_get(m, "i");
	if (p->state != ST_SAMPLES || p->wait_output >= 0)
		return violate(p, "a sample where %s was due", state_wants(p));
	if (p->got_last)
		return violate(p, "a sample after the one the worker said was its last");
	if (p->max_samples > 0 && (long long)p->n_samples >= p->max_samples)
		return violate(p, "a sample past the %lld the spec asked for (the parent picks checks among those)",
			       p->max_samples);
	if (!json_is_integer(iv) || json_integer_value(iv) != (json_int_t)p->n_samples)
		return violate(p, "sample %lld where sample %zu was due",
			       json_is_integer(iv) ? (long long)json_integer_value(iv) : -1LL, p->n_samples);
	json_t *set = json_object_get(m, "set");
	int want_set = evs_sample_set(p->first_set, p->n_sets, p->batch,
				      p->warmup_samples + (long long)p->n_samples, 0);
	if (!json_is_integer(set) || json_integer_value(set) != want_set)
		return violate(p, "sample %zu used input set %lld, not the scheduled %d", p->n_samples,
			       json_is_integer(set) ? (long long)json_integer_value(set) : -1LL, want_set);
	double us = num_or_nan(m, "us");
	if (!isfinite(us) || us < 0)
		return violate(p, "sample %zu has no valid time", p->n_samples);
	if (p->n_samples == p->alloc) {
		p->alloc = p->alloc ? 2 * p->alloc : 1024;
		p->samples = xrealloc(p->samples, p->alloc * sizeof(*p->samples));
	}
	struct proto_sample *s = &p->samples[p->n_samples];
	s->us = us;
	/* a clock the worker did not have (a harness without CUPTI says -1)
	 * is missing, never a time: only finite, non-negative values count */
	s->event_us = time_or_nan(m, "event_us");
	s->kernel_us = time_or_nan(m, "kernel_us");
	s->host_us = time_or_nan(m, "host_us");
	s->set = want_set;
	s->other_stream = (int)json_integer_value(json_object_get(m, "other_stream"));
	s->late = json_is_true(json_object_get(m, "late"));
	s->drain_us = time_or_nan(m, "drain_us");
	s->ruler_us = time_or_nan(m, "ruler_us");
	s->ruler_gt_us = time_or_nan(m, "ruler_gt_us");
	s->threads_delta = (int)json_integer_value(json_object_get(m, "threads_delta"));
	s->block_timeout = json_is_true(json_object_get(m, "block_timeout"));
	s->incomplete = json_is_true(json_object_get(m, "incomplete"));
	s->throttled = json_is_true(json_object_get(m, "throttled"));
	s->clock_mhz = num_or_nan(m, "clock_mhz");
	s->dist = -1;
	s->cpu_us = s->busy_us = s->work_us = s->work_hi_us = NAN;
	json_t *kv = json_object_get(m, "key");
	s->key = json_is_integer(kv) ? (unsigned long long)json_integer_value(kv) : 0;
	if (p->fresh_keys) {
		if (!s->key)
			return violate(p, "sample %zu has no fresh-input key", p->n_samples);
		/* a key seen before would repeat inputs a memo could answer */
		if (key_seen(p, s->key))
			return violate(p, "sample %zu repeats the fresh-input key of an earlier sample", p->n_samples);
		/* its inputs' distribution, as the harness and the checker draw
		 * it from the same key (scramble.h) */
		if (p->n_dists > 1)
			s->dist = evs_sample_dist(s->key, p->n_dists, p->dist_mask);
	}
	/* its outputs come next, whether the parent checks them or not */
	p->wait_output = (long long)p->n_samples++;
	p->wait_last = json_is_true(json_object_get(m, "last"));
	p->got_last = p->wait_last;
	return 0;
}

json_t *proto_failure_kept(json_t *m)
{
	const char *key;
	json_t *v;
	void *tmp;
	json_object_foreach_safe(m, tmp, key, v)
	{
		const char *t = json_string_value(v);
		if (!t)
			continue;
		/* the reason may run over lines (init's own text); every other
		 * field (outcome, error, phase) is one line */
		struct strbuf sb = STRBUF_INIT;
		if (!strcmp(key, "reason"))
			strbuf_add_printable(&sb, t, json_string_length(v));
		else
			strbuf_add_printable_line(&sb, t, json_string_length(v));
		if (sb.len != json_string_length(v) || memcmp(strbuf_str(&sb), t, sb.len))
			json_object_set_new(m, key, json_string(strbuf_str(&sb)));
		strbuf_release(&sb);
	}
	return json_incref(m);
}

static int on_message(struct proto *p, json_t *m, int reply_fd)
{
	const char *name = json_string_value(json_object_get(m, "msg"));
	if (!name)
		return violate(p, "a JSON line with no \"msg\"");
	if (p->state == ST_END)
		return violate(p, "message '%s' after the worker had finished", name);
	if (!strcmp(name, "failure")) {
		if (!p->failure)
			p->failure = proto_failure_kept(m);
		p->state = ST_END;
		return 0;
	}
	if (!strcmp(name, "hello")) {
		if (p->state != ST_HELLO)
			return violate(p, "a second hello");
		json_t *v = json_object_get(m, "protocol");
		if (!json_is_integer(v) || json_integer_value(v) != PROTOCOL_VERSION)
			return violate(p, "worker speaks protocol %lld, the parent %d (rebuild evident)",
				       json_is_integer(v) ? (long long)json_integer_value(v) : -1LL,
				       PROTOCOL_VERSION);
		p->got_hello = 1;
		json_t *hp = json_object_get(m, "pid");
		p->hello_pid = json_is_integer(hp) ? (long)json_integer_value(hp) : -1;
		if (p->box_tool) {
			json_t *b = json_object_get(m, "box");
			struct sandbox_seen seen;
			proto_box_seen(b, &seen);
			/* and what the filter did, beside what /proc says of it */
			struct strbuf why = STRBUF_INIT;
			if (!sandbox_seen_ok(&seen, p->box_tool, &why) ||
			    (p->box_expect && !sandbox_box_probes_ok(b, p->box_expect, p->box_tool, &why))) {
				p->box_refused = strbuf_detach(&why, NULL);
				p->state = ST_END;
				return -1;
			}
			strbuf_release(&why);
			/* its mounts: judged by the caller after its PID
			 * namespace (job.c on_chan; a box without one shows
			 * the host's /proc, and says why best as that) */
			json_decref(p->hello_box);
			p->hello_box = json_incref(b);
		}
		p->state = ST_DEVICE;
		return 0;
	}
	if (!strcmp(name, "device")) {
		if (p->state != ST_DEVICE)
			return violate(p, "device where %s was due", state_wants(p));
		p->device = json_incref(json_object_get(m, "info"));
		p->state = ST_KERNEL;
		return 0;
	}
	if (!strcmp(name, "kernel")) {
		if (p->state != ST_KERNEL)
			return violate(p, "kernel where %s was due", state_wants(p));
		p->kernel = json_incref(m);
		p->state = p->seeds > 0 ? ST_SEEDS : p->timed ? ST_SAMPLES : ST_FINI;
		if (p->progress)
			p->progress(p->keep_ctx, "checking");
		return 0;
	}
	if (!strcmp(name, "output")) {
		int rc = on_output(p, m);
		if (!rc && !p->data_left)
			rc = frame_done(p, reply_fd); /* an empty frame */
		if (!rc && p->state == ST_SEEDS && p->next_seed == p->seeds)
			p->state = p->timed ? ST_SAMPLES : ST_FINI;
		return rc;
	}
	/* where the parent keeps the clock, the worker's own timing messages
	 * are a forgery (red team downgrade: a worker that skipped
	 * timing_ready and timed itself was recorded at 12x) */
	if (p->drive && (!strcmp(name, "warmup") || !strcmp(name, "sample") || !strcmp(name, "timing")))
		return violate(p, "'%s' from a worker the parent times (timing_ready was due)", name);
	if (!strcmp(name, "warmup")) {
		if (p->state != ST_SAMPLES || p->warmup || p->n_samples)
			return violate(p, "warmup where %s was due", state_wants(p));
		p->warmup = json_incref(m);
		json_t *ws = json_object_get(m, "samples");
		p->warmup_samples = json_is_integer(ws) && json_integer_value(ws) >= 0 ? json_integer_value(ws) : 0;
		/* every kept frame's room, before the first sample */
		if (p->room_slots) {
			size_t frame = p->output_bytes * (size_t)(p->batch > 1 ? p->batch : 1);
			proto_reserve_kept(p, frame, p->room_slots);
			stage_for(p, frame);
		}
		if (p->progress)
			p->progress(p->keep_ctx, "timing");
		return 0;
	}
	if (!strcmp(name, "calibrate_ready")) {
		if (p->state != ST_DEVICE || !p->calibrate || p->calibrated)
			return violate(p, "calibrate_ready where %s was due", state_wants(p));
		p->calibrated = 1;
		if (p->calibrate(p, p->drive_ctx, reply_fd) < 0)
			return p->failure ? 0 : -1;
		return 0;
	}
	if (!strcmp(name, "timing_ready")) {
		/* an untimed job the parent drives (the host extra shape's: red
		 * team 282, run/kexec.c) says timing_ready after its seeds as a
		 * timed one does, once; its drive ends it with no sample */
		int untimed = !p->timed && p->drive && p->state == ST_FINI && !p->untimed_ready;
		if (!untimed && (p->state != ST_SAMPLES || p->warmup || p->n_samples || !p->drive))
			return violate(p, "timing_ready where %s was due", state_wants(p));
		p->untimed_ready |= untimed;
		/* the handshake measured before the kernel's code loaded (red
		 * team 168: a kernel that answered the null rounds late) */
		if (p->calibrate && !p->calibrated)
			return violate(p, "timing_ready from a worker that sent no calibrate_ready after its go");
		if (p->progress)
			p->progress(p->keep_ctx, "timing");
		if (p->drive(p, p->drive_ctx, reply_fd) < 0)
			return p->failure ? 0 : -1;
		p->state = ST_FINI;
		return 0;
	}
	if (!strcmp(name, "sample"))
		return on_sample(p, m);
	if (!strcmp(name, "timing")) {
		if (p->state != ST_SAMPLES || p->wait_output >= 0)
			return violate(p, "timing where %s was due", state_wants(p));
		json_t *n = json_object_get(m, "n");
		if (!json_is_integer(n) || json_integer_value(n) != (json_int_t)p->n_samples)
			return violate(p, "timing says %lld samples, %zu were sent",
				       json_is_integer(n) ? (long long)json_integer_value(n) : -1LL, p->n_samples);
		p->timing_n = json_integer_value(n);
		p->method = json_incref(json_object_get(m, "method"));
		p->state = ST_FINI;
		proto_late_checks(p);
		return proto_store_kept(p);
	}
	if (!strcmp(name, "plan_data")) {
		json_t *by = json_object_get(m, "bytes");
		if (p->state != ST_FINI || !p->phase || strcmp(p->phase, "plan") || p->plan || p->plan_data)
			return violate(p, "plan_data where %s was due", state_wants(p));
		if (!json_is_integer(by) || json_integer_value(by) <= 0 ||
		    (unsigned long long)json_integer_value(by) > PROTO_PLAN_DATA_MAX)
			return violate(p, "plan_data of no size from 1 to %zu bytes", PROTO_PLAN_DATA_MAX);
		memset(&p->frame, 0, sizeof(p->frame));
		p->plan_data_bytes = (size_t)json_integer_value(by);
		p->plan_data = xmalloc(p->plan_data_bytes);
		p->frame.bytes = p->plan_data_bytes;
		p->frame_to = (char *)p->plan_data;
		p->frame_plan = 1;
		p->data_left = p->plan_data_bytes;
		return 0;
	}
	if (!strcmp(name, "plan")) {
		json_t *pl = json_object_get(m, "plan");
		if (p->state != ST_FINI || !p->phase || strcmp(p->phase, "plan") || p->plan)
			return violate(p, "plan where %s was due", state_wants(p));
		/* the contents have one way in, the frame: what the worker
		 * replays and the record hashes is what it carried */
		if (!json_is_object(pl) || json_object_get(pl, "contents"))
			return violate(p, "a plan that is no object, or carries contents in its own line");
		p->plan = json_incref(pl);
		if (p->plan_data) {
			char *hex = xmalloc(2 * p->plan_data_bytes + 1);
			hex_encode(p->plan_data, p->plan_data_bytes, hex);
			json_t *h = json_stringn_nocheck(hex, 2 * p->plan_data_bytes);
			free(hex);
			free(p->plan_data);
			p->plan_data = NULL;
			if (!h || json_object_set_new(p->plan, "contents", h))
				return violate(p, "the parent cannot hold the plan's contents (out of memory?)");
		}
		return 0;
	}
	if (!strcmp(name, "fini")) {
		if (p->state != ST_FINI)
			return violate(p, "fini where %s was due", state_wants(p));
		p->got_fini = 1;
		p->state = ST_DONE;
		return 0;
	}
	if (!strcmp(name, "done")) {
		if (p->state != ST_DONE)
			return violate(p, "done where %s was due", state_wants(p));
		p->got_done = 1;
		p->state = ST_END;
		return 0;
	}
	return violate(p, "unknown message '%s'", name);
}

int proto_feed(struct proto *p, const char *buf, size_t n, int reply_fd)
{
	if (p->violation)
		return -1;
	while (n) {
		if (p->stop_at_fini && p->state >= ST_FINI && !p->data_left)
			break;
		if (p->data_left) {
			size_t k = n < p->data_left ? n : p->data_left;
			if (p->frame_to)
				memcpy(p->frame_to + (p->frame.bytes - p->data_left), buf, k);
			else if (p->capture_fd >= 0 && write_all(p->capture_fd, buf, k) < 0)
				return violate(p, "the parent cannot store the worker's output (disk full?)");
			p->data_left -= k;
			buf += k;
			n -= k;
			if (!p->data_left && frame_done(p, reply_fd) < 0)
				return -1;
			continue;
		}
		const char *nl = memchr(buf, '\n', n);
		size_t k = nl ? (size_t)(nl - buf) : n;
		if (p->line.len + k > PROTO_LINE_MAX)
			return violate(p, "a message line longer than 1 MiB");
		strbuf_add(&p->line, buf, k);
		buf += k;
		n -= k;
		if (!nl)
			break;
		buf++;
		n--;
		json_error_t je;
		json_t *m = json_loadb(p->line.buf, p->line.len, JSON_REJECT_DUPLICATES, &je);
		strbuf_reset(&p->line);
		if (!json_is_object(m)) {
			json_decref(m);
			return violate(p, "a line that is not one JSON object on the protocol channel");
		}
		int rc = on_message(p, m, reply_fd);
		json_decref(m);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int proto_samples_over(const struct proto *p)
{
	return p->state >= ST_FINI;
}

void proto_finish(struct proto *p, int exited_zero)
{
	if (p->violation)
		return;
	if (p->line.len)
		violate(p, "an unterminated line at the end of the protocol channel");
	else if (p->data_left)
		violate(p, "an output frame cut short (%zu bytes missing)", p->data_left);
	else if (exited_zero && !p->failure && !p->got_done)
		violate(p, "the worker exited with status 0 before 'done' (%s was due)", state_wants(p));
}
