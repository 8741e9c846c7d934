/*
 * seal.c - the runner's half of the sealed path (seal.h): a plan from the
 * planner checked before anything replays it, and a kernel object's
 * device code read from its file as data.
 *
 * The plan is the planner's word, and the planner ran the kernel's host
 * code, so every field is bounded here: buffer ids name a tensor of the
 * launch or a scratch buffer of the plan, a relocation lies inside its
 * kernel's parameter buffer and points inside its buffer, a memset or a
 * copy stays inside the buffers it names, scratch contents stay inside
 * their buffer and inside the plan's contents (EVC_PLAN_MAX_CONTENTS
 * bytes in all, carried beside the plan's line: protocol.h
 * proto_w_plan_data), a pointer among them points inside scratch, a module
 * global has a symbol's name, a size and a kernel step, and its contents
 * and pointers stay inside it (the worker checks the name and size
 * against the loaded module), a programmatic launch follows a kernel.
 * The names of the module globals come from the object's cubins' symbol
 * tables (seal_fatbin_globals), for the planner.  What the device code does with
 * its pointers is the device's business, as it is for any kernel; the
 * replay itself never writes outside the worker's buffers.
 *
 * The device code is searched for launches from the device (which the
 * kernel clock cannot see), compressed entries decompressed through
 * libzstd or liblz4 where they load, and the worker loads only what the
 * search read (seal_fatbin_readable), and of that only the cubins its
 * device runs (seal_fatbin_machine_code): never PTX for the driver to
 * compile, whose module globals no cubin names (red team 58).
 */
#include "backends/seal.h"

#include <dlfcn.h>
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define FATBIN_MAGIC 0xBA55ED50u
/* A fatbin image's entries (after its 16-byte header): kind (1 PTX, 2
 * ELF) at 0, header size at 4, payload size at 8, flags at 40; flags
 * 0x2000 (LZ4) or 0x8000 (newer nvcc) mark a compressed payload. */
#define FATBIN_ENTRY_MIN 48
#define FATBIN_COMPRESSED (0x2000ull | 0x8000ull)

void seal_plan_release(struct seal_plan *p)
{
	if (p->names)
		for (int i = 0; i < p->plan.n_steps; i++)
			free(p->names[i]);
	free(p->names);
	free(p->steps);
	free(p->scratch);
	free(p->scratch_at);
	free(p->arena);
	free(p->kernel_name);
	free(p->compiled_params);
	free(p->problem);
	free(p->inits);
	free(p->init_data);
	free(p->srelocs);
	if (p->gnames)
		for (int i = 0; i < p->plan.n_globals; i++)
			free(p->gnames[i]);
	free(p->gnames);
	free(p->globals);
	free(p->ginits);
	free(p->ginit_data);
	free(p->grelocs);
	free(p->span_inits);
	free(p->span_init_data);
	free(p->contents);
	memset(p, 0, sizeof(*p));
}

/* Size of buffer id, or 0 when no such buffer. */
static size_t buf_bytes(uint32_t id, const size_t *in_bytes, int n_in, const size_t *out_bytes, int n_out,
			const struct seal_plan *p)
{
	if (id < EVC_BUF_OUT)
		return (int)id < n_in ? in_bytes[id] : 0;
	if (id < EVC_BUF_SCRATCH)
		return (int)(id - EVC_BUF_OUT) < n_out ? out_bytes[id - EVC_BUF_OUT] : 0;
	if (id >= EVC_BUF_GLOBAL)
		return (int)(id - EVC_BUF_GLOBAL) < p->plan.n_globals ? p->globals[id - EVC_BUF_GLOBAL].bytes : 0;
	return (int)(id - EVC_BUF_SCRATCH) < p->plan.n_scratch ? p->scratch[id - EVC_BUF_SCRATCH] : 0;
}

static int get_uint(json_t *v, unsigned long long max, unsigned long long *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < 0 || (unsigned long long)json_integer_value(v) > max)
		return -1;
	*out = (unsigned long long)json_integer_value(v);
	return 0;
}

static int get_dim3(json_t *a, unsigned out[3], int allow_zero)
{
	if (!json_is_array(a) || json_array_size(a) != 3)
		return -1;
	for (int k = 0; k < 3; k++) {
		unsigned long long x;
		if (get_uint(json_array_get(a, (size_t)k), 0x7fffffffull, &x) || (!allow_zero && !x))
			return -1;
		out[k] = (unsigned)x;
	}
	return 0;
}

/* A [buffer id, offset] pair naming a range of `len` bytes inside its buffer. */
static int get_ref(json_t *a, size_t len, const size_t *in_bytes, int n_in, const size_t *out_bytes, int n_out,
		   const struct seal_plan *p, uint32_t *buf, uint64_t *off)
{
	unsigned long long id, o;
	if (!json_is_array(a) || json_array_size(a) != 2 || get_uint(json_array_get(a, 0), 255, &id) ||
	    get_uint(json_array_get(a, 1), ~0ull, &o))
		return -1;
	size_t n = buf_bytes((uint32_t)id, in_bytes, n_in, out_bytes, n_out, p);
	if (!n || o > n || len > n - o)
		return -1;
	*buf = (uint32_t)id;
	*off = o;
	return 0;
}

int seal_global_name_ok(const char *name, size_t len)
{
	if (!len || len > EVC_PLAN_MAX_GLOBAL_NAME)
		return 0;
	for (size_t i = 0; i < len; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
		      c == '$' || c == '.'))
			return 0;
	}
	return 1;
}

/*
 * The plan's module globals: a list of at most EVC_PLAN_MAX_GLOBALS
 * [step, name, bytes], each name seal_global_name_ok, each size 1 to
 * EVC_PLAN_MAX_GLOBAL_BYTES (the worker's module must agree on it
 * exactly).  Absent is none (a plan of before globals were carried).
 * NULL, or the reason (malloc'd; the caller frees it and releases p).
 */
static char *parse_globals(json_t *gs, struct seal_plan *p)
{
	if (!gs)
		return NULL;
	if (!json_is_array(gs) || json_array_size(gs) > EVC_PLAN_MAX_GLOBALS)
		return xstrfmt("the plan's globals are not a list of at most %d [step, name, bytes]",
			       EVC_PLAN_MAX_GLOBALS);
	size_t n = json_array_size(gs), chars = 0;
	p->globals = xcalloc(n ? n : 1, sizeof(*p->globals));
	p->gnames = xcalloc(n ? n : 1, sizeof(char *));
	p->plan.globals = p->globals;
	for (size_t g = 0; g < n; g++) {
		json_t *e = json_array_get(gs, g), *nm = json_array_get(e, 1);
		unsigned long long step, bytes;
		if (!json_is_array(e) || json_array_size(e) != 3 || get_uint(json_array_get(e, 0), EVC_PLAN_MAX_STEPS, &step) ||
		    !json_is_string(nm) || get_uint(json_array_get(e, 2), EVC_PLAN_MAX_GLOBAL_BYTES, &bytes) || !bytes)
			return xstrfmt("module global %zu is not [step, name, bytes] with 1 to %zu bytes", g,
				       (size_t)EVC_PLAN_MAX_GLOBAL_BYTES);
		if (!seal_global_name_ok(json_string_value(nm), json_string_length(nm)) ||
		    strlen(json_string_value(nm)) != json_string_length(nm))
			return xstrfmt("module global %zu has no name of 1 to %d characters of A-Z, a-z, 0-9, _, $ "
				       "and .", g, EVC_PLAN_MAX_GLOBAL_NAME);
		if ((chars += json_string_length(nm)) > EVC_PLAN_MAX_GLOBAL_NAMES_BYTES)
			return xstrfmt("the plan's global names run to more than %zu characters in all",
				       (size_t)EVC_PLAN_MAX_GLOBAL_NAMES_BYTES);
		p->gnames[g] = xstrdup(json_string_value(nm));
		p->globals[g] = (struct evc_global){ (uint32_t)step, p->gnames[g], (size_t)bytes };
		p->plan.n_globals = (int)g + 1; /* the names so far, for seal_plan_release */
	}
	return NULL;
}

/*
 * The plan's "contents" (optional): lower-case hex of at most
 * EVC_PLAN_MAX_CONTENTS bytes, the bytes its [k, offset, bytes, at] runs
 * point into (the parent put them there from the planner's plan_data
 * frame: protocol.h).  Into p->contents.  NULL, or the reason (malloc'd).
 */
static char *parse_contents(json_t *c, struct seal_plan *p)
{
	if (!c)
		return NULL;
	const char *hx = json_string_value(c);
	size_t n = hx ? json_string_length(c) : 0;
	if (!hx || !n || n % 2 || n / 2 > EVC_PLAN_MAX_CONTENTS)
		return xstrfmt("the plan's contents are not hex of 1 to %zu bytes", (size_t)EVC_PLAN_MAX_CONTENTS);
	p->contents = xmalloc(n / 2);
	if (hex_decode(hx, n / 2, p->contents) < 0)
		return xstrdup("the plan's contents are not lower-case hex");
	p->contents_bytes = n / 2;
	return NULL;
}

/*
 * Contents runs of scratch buffer k (global 0: scratch_init), module
 * global k (global 1: global_init) or, k 0, the kept layout's span
 * (global 2: span_init, the bytes between its buffers; none without a
 * kept layout), each inside its buffer, at most
 * EVC_PLAN_MAX_RUNS of them: [k, offset, bytes, at], the bytes at `at` of
 * the plan's contents (p->contents, parse_contents), or [k, offset, hex]
 * with the bytes in the line (a plan of before the contents travelled
 * beside it).  *total counts the bytes of every run of the plan, at most
 * EVC_PLAN_MAX_CONTENTS with both lists: what the worker writes to the
 * device.  *runs and *data (the inline runs' bytes) are the caller's (in
 * p) to free; a contents run's data points into p->contents.  NULL, or
 * the reason (malloc'd).
 */
static char *parse_runs(json_t *si, int global, struct seal_plan *p, struct evc_init **runs, unsigned char **data,
			int *n_runs, size_t *total)
{
	const char *key = global == 2 ? "span_init" : global ? "global_init" : "scratch_init",
		   *what = global == 2 ? "scratch span" : global ? "module global" : "scratch buffer";
	const size_t max = EVC_PLAN_MAX_CONTENTS;
	*runs = NULL;
	*data = NULL;
	*n_runs = 0;
	if (si && (!json_is_array(si) || json_array_size(si) > EVC_PLAN_MAX_RUNS))
		return xstrfmt("the plan's %s is not a list of at most %d [%s, offset, bytes, at]", key,
			       EVC_PLAN_MAX_RUNS, what);
	size_t n_si = si ? json_array_size(si) : 0, inline_total = 0;
	for (size_t k = 0; k < n_si; k++) {
		const char *hx = json_string_value(json_array_get(json_array_get(si, k), 2));
		inline_total += hx ? strlen(hx) / 2 : 0;
	}
	if (inline_total > max)
		return xstrfmt("the plan carries more than %zu bytes of contents (%s)", max, key);
	*runs = xcalloc(n_si ? n_si : 1, sizeof(**runs));
	*data = xmalloc(inline_total ? inline_total : 1);
	unsigned char *id = *data;
	for (size_t k = 0; k < n_si; k++) {
		json_t *r = json_array_get(si, k);
		unsigned long long sk, off, len = 0, at = 0;
		const char *hx = json_string_value(json_array_get(r, 2));
		size_t n = hx ? strlen(hx) : 0;
		int in_line = json_is_array(r) && json_array_size(r) == 3;
		if (!json_is_array(r) || (json_array_size(r) != 3 && json_array_size(r) != 4) ||
		    get_uint(json_array_get(r, 0), 255, &sk) || get_uint(json_array_get(r, 1), ~0ull, &off) ||
		    (in_line && (!hx || !n || n % 2)) ||
		    (!in_line && (get_uint(json_array_get(r, 2), max, &len) || !len ||
				  get_uint(json_array_get(r, 3), ~0ull, &at))))
			return xstrfmt("%s %zu is not [%s, offset, bytes, at in the contents]", key, k, what);
		if (in_line)
			len = n / 2;
		size_t cap = global == 2 ? (sk ? 0 : p->span_bytes)
			     : global	 ? ((int)sk < p->plan.n_globals ? p->globals[sk].bytes : 0)
					 : ((int)sk < p->plan.n_scratch ? p->scratch[sk] : 0);
		if ((global == 2 ? sk != 0 || !p->span_bytes
		     : global	 ? (int)sk >= p->plan.n_globals
				 : (int)sk >= p->plan.n_scratch) ||
		    off > cap || len > cap - off)
			return xstrfmt("%s %zu names no %s of the plan, or runs past its end", key, k, what);
		if (len > max - *total)
			return xstrfmt("the plan's runs write more than %zu bytes of contents (%s %zu)", max, key, k);
		*total += (size_t)len;
		const unsigned char *src;
		if (in_line) {
			if (hex_decode(hx, n / 2, id) < 0)
				return xstrfmt("%s %zu: the bytes are not lower-case hex", key, k);
			src = id;
			id += n / 2;
		} else {
			if (at > p->contents_bytes || len > p->contents_bytes - at)
				return xstrfmt("%s %zu runs past the plan's contents (%zu bytes at %llu of %zu)", key, k,
					       (size_t)len, at, p->contents_bytes);
			src = p->contents + at;
		}
		(*runs)[k] = (struct evc_init){ (uint32_t)sk, off, (size_t)len, src };
		*n_runs = (int)k + 1;
	}
	return NULL;
}

/*
 * The pointers init() left in scratch buffer k (global 0: scratch_relocs)
 * or module global k (global 1: global_relocs): [k, offset, buffer id,
 * offset in it], each an aligned word inside its buffer, pointing inside
 * a scratch buffer or module global of the plan (never at a tensor: those
 * move every sample).  NULL, or the reason (malloc'd).
 */
static char *parse_relocs(json_t *sr, int global, const size_t *in_bytes, int n_in, const size_t *out_bytes,
			  int n_out, struct seal_plan *p, struct evc_sreloc **xs, int *n_xs)
{
	const char *key = global ? "global_relocs" : "scratch_relocs", *what = global ? "module global" : "scratch buffer";
	size_t max = EVC_PLAN_MAX_RELOCS;
	*xs = NULL;
	*n_xs = 0;
	if (sr && (!json_is_array(sr) || json_array_size(sr) > max))
		return xstrfmt("the plan's %s is not a list of at most %zu [%s, offset, buffer, offset]", key, max,
			       what);
	size_t n_sr = sr ? json_array_size(sr) : 0;
	*xs = xcalloc(n_sr ? n_sr : 1, sizeof(**xs));
	for (size_t k = 0; k < n_sr; k++) {
		json_t *r = json_array_get(sr, k);
		unsigned long long sk, at, id;
		uint64_t off;
		uint32_t buf;
		if (!json_is_array(r) || json_array_size(r) != 4 || get_uint(json_array_get(r, 0), 255, &sk) ||
		    get_uint(json_array_get(r, 1), ~0ull, &at) || get_uint(json_array_get(r, 2), 255, &id))
			return xstrfmt("%s %zu is not [%s, offset, buffer, offset]", key, k, what);
		size_t cap = global ? ((int)sk < p->plan.n_globals ? p->globals[sk].bytes : 0)
				    : ((int)sk < p->plan.n_scratch ? p->scratch[sk] : 0);
		if (!cap || at % 8 || at > cap || cap - at < 8)
			return xstrfmt("%s %zu is not an aligned word inside a %s of the plan", key, k, what);
		json_t *ref = json_pack("[O, O]", json_array_get(r, 2), json_array_get(r, 3));
		int bad = id < EVC_BUF_SCRATCH || get_ref(ref, 0, in_bytes, n_in, out_bytes, n_out, p, &buf, &off);
		json_decref(ref);
		if (bad)
			return xstrfmt("%s %zu points at no scratch buffer or module global of the plan, or past "
				       "its end", key, k);
		(*xs)[k] = (struct evc_sreloc){ (uint32_t)sk, at, buf, off };
		*n_xs = (int)k + 1;
	}
	return NULL;
}

#define BAD(...)                                       \
	do {                                           \
		*why = xstrfmt(__VA_ARGS__);           \
		seal_plan_release(out);                \
		return -1;                             \
	} while (0)

int seal_plan_parse(json_t *j, const size_t *in_bytes, int n_in, const size_t *out_bytes, int n_out,
		    struct seal_plan *out, char **why)
{
	memset(out, 0, sizeof(*out));
	*why = NULL;
	json_t *steps = json_object_get(j, "steps"), *scratch = json_object_get(j, "scratch");
	if (!json_is_object(j) || json_integer_value(json_object_get(j, "version")) != 1)
		BAD("the plan is not a version 1 plan object");
	if (!json_is_array(steps) || !json_array_size(steps) || json_array_size(steps) > EVC_PLAN_MAX_STEPS)
		BAD("the plan has %zu steps (1 to %d)", json_is_array(steps) ? json_array_size(steps) : 0,
		    EVC_PLAN_MAX_STEPS);
	if (!json_is_array(scratch) || json_array_size(scratch) > EVC_PLAN_MAX_SCRATCH)
		BAD("the plan's scratch is not a list of at most %d sizes", EVC_PLAN_MAX_SCRATCH);
	size_t ns = json_array_size(steps), nsc = json_array_size(scratch);
	out->scratch = xcalloc(nsc ? nsc : 1, sizeof(size_t));
	unsigned long long total_scratch = 0;
	for (size_t k = 0; k < nsc; k++) {
		unsigned long long b;
		if (get_uint(json_array_get(scratch, k), 1ull << 36, &b) || (total_scratch += b) > (1ull << 36))
			BAD("scratch buffer %zu has no size up to 64 GiB in all", k);
		out->scratch[k] = (size_t)b;
	}
	out->plan.n_scratch = (int)nsc;
	out->plan.scratch_bytes = out->scratch;
	/* the per-thread stack the planner's context had (optional) */
	json_t *stk = json_object_get(j, "stack_bytes");
	if (stk) {
		unsigned long long sb;
		if (get_uint(stk, SEAL_STACK_MAX, &sb))
			BAD("the plan's stack_bytes is no size up to %llu bytes a thread", (unsigned long long)SEAL_STACK_MAX);
		out->plan.stack_bytes = (size_t)sb;
	}
	/* where the scratch buffers lay in the planner (optional): inside a
	 * span of at most SEAL_SCRATCH_SPAN_MAX bytes and twice their sizes,
	 * none overlapping another (the worker allocates the span as one
	 * block) */
	json_t *sat = json_object_get(j, "scratch_at");
	if (sat && !json_is_null(sat)) {
		if (!json_is_array(sat) || json_array_size(sat) != nsc)
			BAD("the plan's scratch_at is not a list of %zu offsets", nsc);
		out->scratch_at = xcalloc(nsc ? nsc : 1, sizeof(size_t));
		unsigned long long span = 0;
		for (size_t k = 0; k < nsc; k++) {
			unsigned long long at;
			if (get_uint(json_array_get(sat, k), SEAL_SCRATCH_SPAN_MAX, &at) ||
			    at + out->scratch[k] > SEAL_SCRATCH_SPAN_MAX)
				BAD("scratch buffer %zu lies past %llu bytes of the plan's scratch span", k,
				    (unsigned long long)SEAL_SCRATCH_SPAN_MAX);
			out->scratch_at[k] = (size_t)at;
			if (at + out->scratch[k] > span)
				span = at + out->scratch[k];
		}
		if (span > 2 * total_scratch + (64ull << 20))
			BAD("the plan's scratch span (%llu bytes) is more than twice its buffers (%llu bytes) and 64 MiB",
			    span, total_scratch);
		for (size_t k = 0; k < nsc; k++)
			for (size_t m = k + 1; m < nsc; m++)
				if (out->scratch_at[k] < out->scratch_at[m] + out->scratch[m] &&
				    out->scratch_at[m] < out->scratch_at[k] + out->scratch[k])
					BAD("scratch buffers %zu and %zu overlap in the plan's layout", k, m);
		out->plan.scratch_at = out->scratch_at;
		out->span_bytes = (size_t)span;
	}
	/* the module globals, before the steps: a parameter may point into
	 * one; the step each names is checked after the steps */
	char *gbad = parse_globals(json_object_get(j, "globals"), out);
	if (gbad) {
		seal_plan_release(out);
		*why = gbad;
		return -1;
	}
	out->steps = xcalloc(ns, sizeof(*out->steps));
	out->names = xcalloc(ns, sizeof(char *));
	out->plan.steps = out->steps;
	out->plan.n_steps = (int)ns;
	/* one arena for every step's args, offsets and relocations */
	size_t need = 0;
	for (size_t i = 0; i < ns; i++) {
		json_t *s = json_array_get(steps, i);
		const char *a = json_string_value(json_object_get(s, "args"));
		need += (a ? strlen(a) / 2 + 8 : 0) + json_array_size(json_object_get(s, "params")) * sizeof(size_t) +
			json_array_size(json_object_get(s, "relocs")) * sizeof(struct evc_reloc) + 16;
	}
	out->arena = xcalloc(need ? need : 1, 1);
	unsigned char *at = out->arena;
	for (size_t i = 0; i < ns; i++) {
		json_t *s = json_array_get(steps, i);
		struct evc_step *st = &out->steps[i];
		const char *kind = json_string_value(json_object_get(s, "kind"));
		if (!kind)
			BAD("step %zu has no kind", i);
		if (!strcmp(kind, "kernel")) {
			st->kind = EVC_STEP_KERNEL;
			const char *name = json_string_value(json_object_get(s, "name"));
			const char *args = json_string_value(json_object_get(s, "args"));
			json_t *params = json_object_get(s, "params"), *relocs = json_object_get(s, "relocs"),
			       *attrs = json_object_get(s, "attrs");
			unsigned long long smem;
			if (!name || !*name || strlen(name) > 4096)
				BAD("step %zu: a kernel without a function name", i);
			if (get_dim3(json_object_get(s, "grid"), st->grid, 0) ||
			    get_dim3(json_object_get(s, "block"), st->block, 0) ||
			    get_dim3(json_object_get(s, "cluster"), st->cluster, 1))
				BAD("step %zu (%s): grid, block and cluster must be three whole numbers", i, name);
			if (get_uint(json_object_get(s, "smem"), 1u << 20, &smem))
				BAD("step %zu (%s): no valid dynamic shared memory size", i, name);
			st->smem = (unsigned)smem;
			if (!args || strlen(args) % 2 || strlen(args) / 2 > EVC_PLAN_MAX_ARGS)
				BAD("step %zu (%s): the parameter bytes are not hex of at most %d bytes", i, name,
				    EVC_PLAN_MAX_ARGS);
			st->args_bytes = strlen(args) / 2;
			unsigned char *ab = at;
			if (hex_decode(args, st->args_bytes, ab) < 0)
				BAD("step %zu (%s): the parameter bytes are not lower-case hex", i, name);
			st->args = ab;
			at += (st->args_bytes + 7) & ~(size_t)7;
			if (!json_is_array(params) || json_array_size(params) > EVC_PLAN_MAX_PARAMS)
				BAD("step %zu (%s): params is not a list of offsets", i, name);
			size_t *po = (size_t *)(void *)at;
			for (size_t k = 0; k < json_array_size(params); k++) {
				unsigned long long o;
				if (get_uint(json_array_get(params, k), st->args_bytes, &o) ||
				    (st->args_bytes && o >= st->args_bytes))
					BAD("step %zu (%s): parameter %zu lies outside the parameter bytes", i, name, k);
				po[k] = (size_t)o;
			}
			st->param_off = po;
			st->n_params = (unsigned)json_array_size(params);
			at += json_array_size(params) * sizeof(size_t);
			if (!json_is_array(relocs) || json_array_size(relocs) > st->args_bytes / 8)
				BAD("step %zu (%s): relocs is not a list of pointers in the parameters", i, name);
			struct evc_reloc *rl = (struct evc_reloc *)(void *)at;
			for (size_t k = 0; k < json_array_size(relocs); k++) {
				json_t *r = json_array_get(relocs, k);
				unsigned long long pos;
				if (!json_is_array(r) || json_array_size(r) != 3 ||
				    get_uint(json_array_get(r, 0), st->args_bytes, &pos) || pos % 8 ||
				    pos + 8 > st->args_bytes)
					BAD("step %zu (%s): relocation %zu is not at an aligned pointer in the "
					    "parameters", i, name, k);
				json_t *ref = json_pack("[O, O]", json_array_get(r, 1), json_array_get(r, 2));
				int bad = get_ref(ref, 0, in_bytes, n_in, out_bytes, n_out, out, &rl[k].buf, &rl[k].off);
				json_decref(ref);
				if (bad)
					BAD("step %zu (%s): relocation %zu names no buffer of the launch, or points "
					    "past its end", i, name, k);
				rl[k].at = (uint32_t)pos;
			}
			st->relocs = rl;
			st->n_relocs = (unsigned)json_array_size(relocs);
			at += json_array_size(relocs) * sizeof(struct evc_reloc);
			json_t *v;
			st->max_dynamic_smem = (v = json_object_get(attrs, "max_dynamic_smem")) && json_is_integer(v) &&
							       json_integer_value(v) >= 0 && json_integer_value(v) <= (1 << 20)
						       ? (int)json_integer_value(v)
						       : -1;
			st->carveout = (v = json_object_get(attrs, "carveout")) && json_is_integer(v) &&
						       json_integer_value(v) >= -1 && json_integer_value(v) <= 100
					       ? (int)json_integer_value(v)
					       : -1;
			st->cache_config = (v = json_object_get(attrs, "cache_config")) && json_is_integer(v) &&
							   json_integer_value(v) >= 0 && json_integer_value(v) <= 3
						   ? (int)json_integer_value(v)
						   : -1;
			st->cluster_policy = (v = json_object_get(attrs, "cluster_policy")) && json_is_integer(v) &&
							     json_integer_value(v) >= 1 && json_integer_value(v) <= 2
						     ? (int)json_integer_value(v)
						     : 0;
			st->nonportable_cluster = json_integer_value(json_object_get(attrs, "nonportable_cluster")) > 0;
			json_t *rc = json_object_get(attrs, "required_cluster");
			for (int d = 0; d < 3; d++) {
				json_t *x = json_array_get(rc, (size_t)d);
				if (rc && (!json_is_integer(x) || json_integer_value(x) < 0 || json_integer_value(x) > 64))
					BAD("step %zu (%s): the required cluster is not three sizes of 0 to 64", i, name);
				st->required_cluster[d] = rc ? (unsigned)json_integer_value(x) : 0;
			}
			st->cooperative = json_integer_value(json_object_get(attrs, "cooperative")) > 0;
			/* PDL only on the kernel step just before: the first step must
			 * not overlap the harness's own work before the start event */
			st->programmatic = json_integer_value(json_object_get(attrs, "programmatic")) > 0;
			if (st->programmatic && (i == 0 || out->steps[i - 1].kind != EVC_STEP_KERNEL))
				BAD("step %zu (%s): a programmatic dependent launch on a step that is not a kernel "
				    "of the plan", i, name);
			out->names[i] = xstrdup(name);
			st->name = out->names[i];
		} else if (!strcmp(kind, "memset")) {
			unsigned long long val, elem, w, h, pitch;
			st->kind = EVC_STEP_MEMSET;
			if (get_uint(json_object_get(s, "value"), 0xffffffffull, &val) ||
			    get_uint(json_object_get(s, "elem"), 4, &elem) || (elem != 1 && elem != 2 && elem != 4) ||
			    get_uint(json_object_get(s, "width"), 1ull << 40, &w) ||
			    get_uint(json_object_get(s, "height"), 1ull << 40, &h) ||
			    get_uint(json_object_get(s, "pitch"), 1ull << 40, &pitch))
				BAD("step %zu: a memset without a valid value, element size, width, height or pitch", i);
			if (!h)
				h = 1;
			if (h > 1 && pitch < w * elem)
				BAD("step %zu: a memset whose pitch is narrower than its rows", i);
			/* in 64 bits (h - 1) * pitch wraps: height 2^24 + 1 at pitch
			 * 2^40 measured as one row, and the replay wrote rows a TiB
			 * apart (red team 5, rt5_memset_wrap); no buffer holds 2^40
			 * rows past its first, so a product above that is refused */
			unsigned long long rows_span = 0;
			if (h > 1 && __builtin_mul_overflow(h - 1, pitch, &rows_span))
				BAD("step %zu: a memset whose rows span more than 64 bits of addresses", i);
			if (rows_span > (1ull << 40))
				BAD("step %zu: a memset whose rows span more than 1 TiB", i);
			size_t span = (size_t)(rows_span + w * elem);
			if (get_ref(json_object_get(s, "dst"), span, in_bytes, n_in, out_bytes, n_out, out, &st->dst_buf,
				    &st->dst_off))
				BAD("step %zu: a memset that names no buffer of the launch or runs past its end", i);
			st->value = (unsigned)val;
			st->elem_size = (unsigned)elem;
			st->width = (size_t)w;
			st->height = (size_t)h;
			st->pitch = (size_t)pitch;
		} else if (!strcmp(kind, "copy")) {
			unsigned long long b;
			st->kind = EVC_STEP_COPY;
			if (get_uint(json_object_get(s, "bytes"), 1ull << 40, &b))
				BAD("step %zu: a copy without a valid size", i);
			st->bytes = (size_t)b;
			if (get_ref(json_object_get(s, "dst"), st->bytes, in_bytes, n_in, out_bytes, n_out, out,
				    &st->dst_buf, &st->dst_off) ||
			    get_ref(json_object_get(s, "src"), st->bytes, in_bytes, n_in, out_bytes, n_out, out,
				    &st->src_buf, &st->src_off))
				BAD("step %zu: a copy that names no buffer of the launch or runs past its end", i);
		} else {
			BAD("step %zu: unknown kind '%s'", i, kind);
		}
	}
	/* what init() left in scratch and in the module globals, and the
	 * pointers among them */
	size_t contents_total = 0;
	char *bad = parse_contents(json_object_get(j, "contents"), out);
	if (!bad)
		bad = parse_runs(json_object_get(j, "scratch_init"), 0, out, &out->inits, &out->init_data,
				 &out->plan.n_inits, &contents_total);
	if (!bad)
		bad = parse_runs(json_object_get(j, "global_init"), 1, out, &out->ginits, &out->ginit_data,
				 &out->plan.n_ginits, &contents_total);
	if (!bad)
		bad = parse_runs(json_object_get(j, "span_init"), 2, out, &out->span_inits, &out->span_init_data,
				 &out->plan.n_span_inits, &contents_total);
	if (!bad)
		bad = parse_relocs(json_object_get(j, "scratch_relocs"), 0, in_bytes, n_in, out_bytes, n_out, out,
				   &out->srelocs, &out->plan.n_srelocs);
	if (!bad)
		bad = parse_relocs(json_object_get(j, "global_relocs"), 1, in_bytes, n_in, out_bytes, n_out, out,
				   &out->grelocs, &out->plan.n_grelocs);
	out->plan.inits = out->inits;
	out->plan.ginits = out->ginits;
	out->plan.span_inits = out->span_inits;
	out->plan.srelocs = out->srelocs;
	out->plan.grelocs = out->grelocs;
	if (bad) {
		seal_plan_release(out);
		*why = bad;
		return -1;
	}
	/* a global lives in the module of a kernel step's function */
	for (int g = 0; g < out->plan.n_globals; g++)
		if ((int)out->globals[g].step >= out->plan.n_steps ||
		    out->steps[out->globals[g].step].kind != EVC_STEP_KERNEL)
			BAD("module global %d ('%s') names step %u, which is no kernel step of the plan", g,
			    out->globals[g].name, out->globals[g].step);
	const char *s;
	out->kernel_name = xstrdup((s = json_string_value(json_object_get(j, "kernel"))) ? s : "");
	out->compiled_params = xstrdup((s = json_string_value(json_object_get(j, "compiled_params"))) ? s : "");
	out->problem = xstrdup((s = json_string_value(json_object_get(j, "problem"))) ? s : "");
	out->plan.kernel_name = out->kernel_name;
	out->plan.compiled_params = out->compiled_params;
	out->plan.problem = out->problem;
	return 0;
}
#undef BAD

/* Feed n bytes of data that lie at [base, base + n) of a buffer whose
 * relocation sites (8 bytes each at at[i], of buffer `buf` where given)
 * are zeroed first: the planner's addresses are no part of the identity. */
static void feed_zeroed(struct sha256_ctx *h, const char *label, const unsigned char *data, size_t n,
			uint64_t base, const uint64_t *at, const uint32_t *in, uint32_t buf, size_t n_at)
{
	unsigned char *copy = xmalloc(n ? n : 1);
	memcpy(copy, data, n);
	for (size_t i = 0; i < n_at; i++) {
		if (in && in[i] != buf)
			continue;
		uint64_t lo = at[i] > base ? at[i] : base, hi = at[i] + 8 < base + n ? at[i] + 8 : base + n;
		if (lo < hi)
			memset(copy + (lo - base), 0, (size_t)(hi - lo));
	}
	sha256_update_field(h, label, copy, n);
	free(copy);
}

static void feed_u64(struct sha256_ctx *h, const char *label, uint64_t v)
{
	sha256_update_field(h, label, &v, sizeof(v));
}

static void feed_inits(struct sha256_ctx *h, const char *label, const struct evc_init *runs, int n_runs,
		       const struct evc_sreloc *rel, int n_rel, int contents)
{
	uint64_t *at = xcalloc((size_t)n_rel + 1, sizeof(uint64_t));
	uint32_t *in = xcalloc((size_t)n_rel + 1, sizeof(uint32_t));
	for (int i = 0; i < n_rel; i++) {
		at[i] = rel[i].at;
		in[i] = rel[i].scratch;
	}
	for (int r = 0; r < n_runs; r++) {
		feed_u64(h, "run.buffer", runs[r].scratch);
		feed_u64(h, "run.off", runs[r].off);
		feed_u64(h, "run.bytes", runs[r].bytes);
		if (contents)
			feed_zeroed(h, label, runs[r].data, runs[r].bytes, runs[r].off, at, in, runs[r].scratch,
				    (size_t)n_rel);
	}
	for (int i = 0; i < n_rel; i++) {
		feed_u64(h, "reloc.in", rel[i].scratch);
		feed_u64(h, "reloc.at", rel[i].at);
		feed_u64(h, "reloc.buf", rel[i].buf);
		feed_u64(h, "reloc.off", rel[i].off);
	}
	free(at);
	free(in);
}

static void plan_hash(const struct seal_plan *sp, int contents, const unsigned char *const *arg_masks,
		      char out[SHA256_HEX_LEN + 1])
{
	const struct evc_plan *p = &sp->plan;
	struct sha256_ctx *h = sha256_begin();
	sha256_update_field(h, "identity", contents ? "evident-plan/1" : "evident-launches/1", contents ? 14 : 18);
	sha256_update_field(h, "kernel", p->kernel_name, strlen(p->kernel_name));
	sha256_update_field(h, "compiled_params", p->compiled_params, strlen(p->compiled_params));
	sha256_update_field(h, "problem", p->problem, strlen(p->problem));
	feed_u64(h, "stack", p->stack_bytes);
	feed_u64(h, "scratch", (uint64_t)p->n_scratch);
	for (int k = 0; k < p->n_scratch; k++) {
		feed_u64(h, "scratch.bytes", p->scratch_bytes[k]);
		feed_u64(h, "scratch.at", p->scratch_at ? p->scratch_at[k] : UINT64_MAX);
	}
	feed_u64(h, "steps", (uint64_t)p->n_steps);
	for (int i = 0; i < p->n_steps; i++) {
		const struct evc_step *st = &p->steps[i];
		feed_u64(h, "kind", (uint64_t)st->kind);
		if (st->kind == EVC_STEP_KERNEL) {
			unsigned dims[] = { st->grid[0], st->grid[1], st->grid[2], st->block[0], st->block[1],
					    st->block[2], st->cluster[0], st->cluster[1], st->cluster[2],
					    st->required_cluster[0], st->required_cluster[1], st->required_cluster[2],
					    st->smem };
			int attrs[] = { st->max_dynamic_smem, st->carveout, st->cache_config, st->cluster_policy,
					st->nonportable_cluster, st->cooperative, st->programmatic };
			sha256_update_field(h, "name", st->name, strlen(st->name));
			sha256_update_field(h, "dims", dims, sizeof(dims));
			sha256_update_field(h, "attrs", attrs, sizeof(attrs));
			uint64_t *at = xcalloc((size_t)st->n_relocs + 1, sizeof(uint64_t));
			for (unsigned r = 0; r < st->n_relocs; r++)
				at[r] = st->relocs[r].at;
			const unsigned char *mask = arg_masks ? arg_masks[i] : NULL;
			if (mask) { /* bytes no device code reads: zeroed too */
				unsigned char *args = xmalloc(st->args_bytes ? st->args_bytes : 1);
				for (size_t b = 0; b < st->args_bytes; b++)
					args[b] = mask[b] ? st->args[b] : 0;
				feed_zeroed(h, "args", args, st->args_bytes, 0, at, NULL, 0, st->n_relocs);
				free(args);
			} else {
				feed_zeroed(h, "args", st->args, st->args_bytes, 0, at, NULL, 0, st->n_relocs);
			}
			free(at);
			for (unsigned k = 0; k < st->n_params; k++)
				feed_u64(h, "param", st->param_off[k]);
			for (unsigned r = 0; r < st->n_relocs; r++) {
				feed_u64(h, "arg.reloc.at", st->relocs[r].at);
				feed_u64(h, "arg.reloc.buf", st->relocs[r].buf);
				feed_u64(h, "arg.reloc.off", st->relocs[r].off);
			}
		} else {
			uint64_t v[] = { st->dst_buf, st->dst_off, st->src_buf, st->src_off, st->value, st->elem_size,
					 st->width, st->height, st->pitch, st->bytes };
			sha256_update_field(h, "transfer", v, sizeof(v));
		}
	}
	feed_inits(h, "scratch.init", p->inits, p->n_inits, p->srelocs, p->n_srelocs, contents);
	if (p->n_span_inits)
		feed_inits(h, "span.init", p->span_inits, p->n_span_inits, NULL, 0, contents);
	feed_u64(h, "globals", (uint64_t)p->n_globals);
	for (int g = 0; g < p->n_globals; g++) {
		feed_u64(h, "global.step", p->globals[g].step);
		sha256_update_field(h, "global.name", p->globals[g].name, strlen(p->globals[g].name));
		feed_u64(h, "global.bytes", p->globals[g].bytes);
	}
	feed_inits(h, "global.init", p->ginits, p->n_ginits, p->grelocs, p->n_grelocs, contents);
	sha256_end(h, out);
}

void seal_plan_identity(const struct seal_plan *sp, char out[SHA256_HEX_LEN + 1], char launches[SHA256_HEX_LEN + 1],
			const unsigned char *const *arg_masks)
{
	plan_hash(sp, 1, arg_masks, out);
	if (launches)
		plan_hash(sp, 0, arg_masks, launches);
}

static int relfat_runnable(const unsigned char *im, size_t len);

/* Does address a (a wrapper's target, -1: unresolved) lie in section s? */
static int in_section(long long a, const Elf64_Shdr *s)
{
	return a >= 0 && s->sh_size && (uint64_t)a >= s->sh_addr && (uint64_t)a - s->sh_addr < s->sh_size;
}

/*
 * The addresses the CUDA runtime's fatbin wrappers in .nvFatBinSegment
 * (seg) point at: each wrapper is 24 bytes (magic 0x466243b1, version,
 * the image's address, a name), its address field relocated in a shared
 * object (R_X86_64_RELATIVE: the addend; R_X86_64_64 or GLOB_DAT: a
 * defined dynamic symbol's value plus the addend) or, unrelocated, the
 * field itself.  Into *out (malloc'd, the caller frees; -1 for one that
 * does not resolve); the count, or -1 with *why set when the segment is
 * not a table of wrappers.
 */
static int wrapper_targets(const unsigned char *f, size_t n, const Elf64_Ehdr *eh, const Elf64_Shdr *sh,
			   const Elf64_Shdr *seg, long long **out, char **why)
{
	*out = NULL;
	if (seg->sh_type == SHT_NOBITS || seg->sh_offset > n || seg->sh_size > n - seg->sh_offset ||
	    seg->sh_size % 24) {
		*why = xstrdup("its .nvFatBinSegment is not a table of the CUDA runtime's fatbin wrappers");
		return -1;
	}
	int m = (int)(seg->sh_size / 24);
	long long *t = xcalloc((size_t)m + 1, sizeof(*t));
	for (int w = 0; w < m; w++) {
		uint32_t magic;
		uint64_t field;
		memcpy(&magic, f + seg->sh_offset + 24 * (size_t)w, 4);
		memcpy(&field, f + seg->sh_offset + 24 * (size_t)w + 8, 8);
		if (magic != 0x466243b1u) {
			free(t);
			*why = xstrfmt("its .nvFatBinSegment holds an entry (%d) that is not a fatbin wrapper", w);
			return -1;
		}
		t[w] = (long long)field;
		uint64_t at = seg->sh_addr + 24 * (uint64_t)w + 8;
		for (int i = 0; i < eh->e_shnum; i++) {
			if (sh[i].sh_type != SHT_RELA || sh[i].sh_entsize != sizeof(Elf64_Rela) ||
			    sh[i].sh_offset > n || sh[i].sh_size > n - sh[i].sh_offset)
				continue;
			const Elf64_Shdr *sym = sh[i].sh_link < eh->e_shnum ? &sh[sh[i].sh_link] : NULL;
			for (size_t r = 0; r < sh[i].sh_size / sizeof(Elf64_Rela); r++) {
				Elf64_Rela rel;
				memcpy(&rel, f + sh[i].sh_offset + r * sizeof(rel), sizeof(rel));
				if (rel.r_offset != at)
					continue;
				uint32_t type = ELF64_R_TYPE(rel.r_info), si = ELF64_R_SYM(rel.r_info);
				if (type == R_X86_64_RELATIVE) {
					t[w] = (long long)rel.r_addend;
				} else if ((type == R_X86_64_64 || type == R_X86_64_GLOB_DAT) && sym &&
					   sym->sh_entsize == sizeof(Elf64_Sym) && sym->sh_offset <= n &&
					   sym->sh_size <= n - sym->sh_offset && si < sym->sh_size / sizeof(Elf64_Sym)) {
					Elf64_Sym es;
					memcpy(&es, f + sym->sh_offset + si * sizeof(es), sizeof(es));
					t[w] = es.st_shndx == SHN_UNDEF ? -1 : (long long)(es.st_value + (uint64_t)rel.r_addend);
				} else {
					t[w] = -1; /* a relocation this reading does not resolve */
				}
			}
		}
	}
	*out = t;
	return m;
}

/*
 * The images of a fatbin section (sec, len bytes; named secname in what
 * is said), as the runtime's images are laid out: 8-byte steps over
 * padding, each image's declared size to the next.  Their starts and
 * sizes into starts/sizes (max at most); the count, or -1 with *why set
 * (malloc'd, the caller frees): an image past the section, more than max,
 * or a fatbin magic at a 4-byte boundary that is not a start the walk
 * found (red team 72's cover, red team 73's edge and inside; red team
 * 75's cover inside __nv_relfatbin, which no walk read).
 */
struct fat_entry;
static int fat_entry_at(const unsigned char *im, size_t len, size_t at, struct fat_entry *e);
static int fat_tiles(const unsigned char *im, size_t hsize, size_t end);

static int fat_walk(const char *path, const char *secname, const unsigned char *sec, size_t len,
		    const void **starts, size_t *sizes, int max, char **why)
{
	int k = 0;
	size_t at = 0;
	while (at < len) {
		uint32_t magic = 0;
		uint16_t hsize;
		uint64_t fsize;
		if (at + 16 <= len)
			memcpy(&magic, sec + at, 4);
		if (magic != FATBIN_MAGIC) {
			/* padding between images, and after the last: zeros, as
			 * nvcc writes it (red team 76 hid a cubin there, past an
			 * image's declared size, where the runtime's loader may
			 * read on) */
			size_t step = len - at < 8 ? len - at : 8;
			for (size_t i = 0; i < step; i++)
				if (sec[at + i]) {
					*why = xstrfmt("'%s': byte %zu of %s, between or after its fatbin images, is not "
						       "padding (non-zero): code there is read by no walk of the runner's, "
						       "and which code the runtime loads is not for a sealed replay to "
						       "guess: run the variant with trust: host",
						       path, at + i, secname);
					return -1;
				}
			at += step;
			continue;
		}
		/* all or nothing: images left unread could hold the function the
		 * runtime runs for a name the replay takes from another image
		 * (red team 3's rt3_fatbin_shadow behind a crowd of images) */
		if (k == max) {
			*why = xstrfmt("'%s' holds more than %d fatbin images in %s (another at byte %zu), more than a "
				       "sealed worker reads: run the variant with trust: host",
				       path, max, secname, at);
			return -1;
		}
		memcpy(&hsize, sec + at + 6, 2);
		memcpy(&fsize, sec + at + 8, 8);
		if (hsize < 16 || fsize > len || hsize + fsize > len - at) {
			*why = xstrfmt("'%s': fatbin image %d at byte %zu of %s runs past the section", path, k, at,
				       secname);
			return -1;
		}
		/* nvcc's layout exactly: a 16-byte header, then entries that end
		 * at the image's declared end (red team 76: a declared size that
		 * stops short of an entry, or a header size that swallows one,
		 * left a slow cubin no walk here reads) */
		if (hsize != 16 || !fat_tiles(sec + at, hsize, hsize + fsize)) {
			*why = xstrfmt("'%s': fatbin image %d at byte %zu of %s is not laid out as nvcc lays one "
				       "out (a %u-byte header, and entries that %s its declared %llu bytes): what the "
				       "runtime loads from it is not for a sealed replay to guess: run the variant with "
				       "trust: host",
				       path, k, at, secname, (unsigned)hsize,
				       hsize != 16 ? "fill" : "do not fill exactly", (unsigned long long)fsize);
			return -1;
		}
		starts[k] = sec + at;
		sizes[k] = hsize + fsize;
		k++;
		at += (hsize + fsize + 7) & ~(uint64_t)7;
	}
	/* every fatbin magic in the section, at any 4-byte boundary, is the
	 * start of an image the walk found: an image inside another's
	 * declared size (red team 72's cover over nvcc's own image, the code
	 * the kernel's process runs), one whose start the cover's end
	 * straddles (red team 73's edge: a span ending 1-3 bytes into it), or
	 * one at 4 mod 8 the walk's 8-byte steps never meet (red team 73's
	 * inside) is an image the runtime may load and this walk would not:
	 * refused, with where */
	for (size_t in = 0; in + 4 <= len; in += 4) {
		uint32_t m2;
		memcpy(&m2, sec + in, 4);
		if (m2 != FATBIN_MAGIC)
			continue;
		int found = 0;
		for (int i = 0; i < k && !found; i++)
			found = (const unsigned char *)starts[i] == sec + in;
		if (!found) {
			*why = xstrfmt("'%s': a fatbin image starts at byte %zu of %s where the images' walk "
				       "does not reach it (inside another image's declared size, or off its 8-byte "
				       "steps): which one the runtime loads is not for a sealed replay to guess: run the "
				       "variant with trust: host",
				       path, in, secname);
			return -1;
		}
	}
	return k;
}

int seal_fatbin_images(const char *path, unsigned char **data, const void **images, size_t *image_bytes,
		       int max_images, char **why)
{
	struct strbuf sb = STRBUF_INIT;
	*data = NULL;
	*why = NULL;
	if (read_file(path, &sb) < 0) {
		*why = xstrfmt("cannot read the kernel object '%s'", path);
		strbuf_release(&sb);
		return -1;
	}
	const unsigned char *f = (const unsigned char *)sb.buf;
	size_t n = sb.len;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)f;
	if (n < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > n ||
	    (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > n - eh->e_shoff || eh->e_shstrndx >= eh->e_shnum) {
		*why = xstrfmt("'%s' is not a 64-bit ELF object with section headers", path);
		strbuf_release(&sb);
		return -1;
	}
	/* copied out: a file's section table need not be aligned */
	Elf64_Shdr *sh = xmalloc((size_t)eh->e_shnum * sizeof(Elf64_Shdr) + 1);
	memcpy(sh, f + eh->e_shoff, (size_t)eh->e_shnum * sizeof(Elf64_Shdr));
	const Elf64_Shdr *strs = &sh[eh->e_shstrndx];
	if (strs->sh_offset > n || strs->sh_size > n - strs->sh_offset) {
		*why = xstrfmt("'%s' has a broken section name table", path);
		free(sh);
		strbuf_release(&sb);
		return -1;
	}
	Elf64_Shdr fat_copy, *fat = NULL, seg = { 0 }, rel = { 0 };
	int have_seg = 0;
	for (int i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_name >= strs->sh_size)
			continue;
		const char *nm = (const char *)f + strs->sh_offset + sh[i].sh_name;
		size_t left = strs->sh_size - sh[i].sh_name;
		if (strnlen(nm, left) < left && !strcmp(nm, ".nv_fatbin")) {
			fat_copy = sh[i];
			fat = &fat_copy;
		}
		if (strnlen(nm, left) < left && !strcmp(nm, ".nvFatBinSegment")) {
			seg = sh[i];
			have_seg = 1;
		}
		if (strnlen(nm, left) < left && !strcmp(nm, "__nv_relfatbin"))
			rel = sh[i];
	}
	/* where the CUDA runtime's wrappers point (red team 73) */
	long long *targets = NULL;
	int n_targets = have_seg && fat ? wrapper_targets(f, n, eh, sh, &seg, &targets, why) : 0;
	/* __nv_relfatbin (-rdc's relocatable device code, which the host
	 * link's device link consumes) is walked whole as .nv_fatbin is, and
	 * every image there must be relocatable device code alone (cubins of
	 * type ET_REL, which no module load runs, or PTX): red team 74's
	 * relfat_slow put an executable image in a section so named in an
	 * object built without -rdc, and red team 75's cover hid one inside a
	 * relocatable-looking image there; a wrapper into the section must
	 * point at an image the walk found */
	if (n_targets > 0 && rel.sh_size && rel.sh_type != SHT_NOBITS) {
		const void *rs[64];
		size_t rz[64];
		int rk = -1;
		if (rel.sh_offset > n || rel.sh_size > n - rel.sh_offset)
			*why = xstrfmt("'%s': its __nv_relfatbin section runs past the file", path);
		else
			rk = fat_walk(path, "__nv_relfatbin", f + rel.sh_offset, rel.sh_size, rs, rz, 64, why);
		for (int i = 0; rk >= 0 && i < rk; i++)
			if (relfat_runnable((const unsigned char *)rs[i], rz[i])) {
				*why = xstrfmt("'%s': image %d of __nv_relfatbin (at byte %zu) is not relocatable device "
					       "code alone (a cubin a module load would run, or one this reading cannot "
					       "read): the runtime could run code the sealed worker does not load: run the "
					       "variant with trust: host",
					       path, i, (size_t)((const unsigned char *)rs[i] - (f + rel.sh_offset)));
				rk = -1;
			}
		for (int t = 0; rk >= 0 && t < n_targets; t++) {
			if (!in_section(targets[t], &rel))
				continue;
			int found = 0;
			for (int i = 0; i < rk && !found; i++)
				found = (uint64_t)targets[t] - rel.sh_addr ==
					(uint64_t)((const unsigned char *)rs[i] - (f + rel.sh_offset));
			if (!found) {
				*why = xstrfmt("'%s': the CUDA runtime's fatbin wrapper %d points into __nv_relfatbin "
					       "at address 0x%llx, not at an image the section's walk found: the runtime "
					       "could run code the sealed worker does not load: run the variant with "
					       "trust: host",
					       path, t, (unsigned long long)targets[t]);
				rk = -1;
			}
		}
		if (rk < 0) {
			free(sh);
			free(targets);
			strbuf_release(&sb);
			return -1;
		}
	}
	free(sh);
	if (n_targets < 0) {
		char *w = *why;
		*why = xstrfmt("'%s': %s", path, w);
		free(w);
		free(targets);
		strbuf_release(&sb);
		return -1;
	}
	if (!fat || fat->sh_type == SHT_NOBITS || fat->sh_offset > n || fat->sh_size > n - fat->sh_offset) {
		*why = xstrfmt("'%s' has no .nv_fatbin section (no device code)", path);
		free(targets);
		strbuf_release(&sb);
		return -1;
	}
	uint64_t fat_addr = fat->sh_addr;
	/* keep the section alone, 8-aligned (malloc's alignment) */
	unsigned char *sec = xmalloc(fat->sh_size ? fat->sh_size : 1);
	memcpy(sec, f + fat->sh_offset, fat->sh_size);
	size_t len = fat->sh_size;
	strbuf_release(&sb);
	int k = fat_walk(path, ".nv_fatbin", sec, len, images, image_bytes, max_images, why);
	if (k < 0) {
		free(sec);
		free(targets);
		return -1;
	}
	/* every image the runtime's wrappers register is an image the walk
	 * found in .nv_fatbin: red team 73's alias (nvcc's stub's
	 * fatbinData named by an asm label) pointed the runtime at an image
	 * in .rodata, slow, while the worker replayed .nv_fatbin's honest
	 * one */
	for (int t = 0; t < n_targets; t++) {
		/* (-rdc: a wrapper of the relocatable device code, which the
		 * host link's device link step consumes; what runs is the
		 * linked image in .nv_fatbin) */
		if (in_section(targets[t], &rel))
			continue;
		int found = 0;
		for (int i = 0; i < k && !found; i++)
			found = targets[t] >= 0 && (uint64_t)targets[t] >= fat_addr &&
				(uint64_t)targets[t] - fat_addr == (uint64_t)((const unsigned char *)images[i] - sec);
		if (!found) {
			*why = xstrfmt("'%s': the CUDA runtime's fatbin wrapper %d (.nvFatBinSegment) points at "
				       "address 0x%llx, not at an image of .nv_fatbin (at 0x%llx, %zu bytes): the runtime "
				       "would load code the sealed worker does not: run the variant with trust: host",
				       path, t, (unsigned long long)targets[t], (unsigned long long)fat_addr, len);
			free(sec);
			free(targets);
			return -1;
		}
	}
	free(targets);
	*data = sec;
	return k;
}

/* Is needle in hay[0..n)? */
static int has_bytes(const unsigned char *hay, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	for (size_t i = 0; k && i + k <= n; i++)
		if (hay[i] == (unsigned char)needle[0] && !memcmp(hay + i, needle, k))
			return 1;
	return 0;
}

/*
 * The decompressors of compressed fatbin entries, loaded at run time (the
 * runner has no build-time dependency on them; both are in every common
 * distribution's base system): libzstd for flag 0x8000 (nvcc 12.8 and
 * later), liblz4 for 0x2000.  A compressed entry no loaded decompressor
 * reads is unreadable, and seal_fatbin_readable leaves it out.
 */
static struct {
	int tried;
	size_t (*zstd)(void *dst, size_t cap, const void *src, size_t n);
	unsigned (*zstd_is_error)(size_t code);
	int (*lz4)(const char *src, char *dst, int n, int cap);
} unpack;

static void unpack_load(void)
{
	if (unpack.tried)
		return;
	unpack.tried = 1;
	void *z = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
	if (z) {
		*(void **)&unpack.zstd = dlsym(z, "ZSTD_decompress");
		*(void **)&unpack.zstd_is_error = dlsym(z, "ZSTD_isError");
		if (!unpack.zstd || !unpack.zstd_is_error)
			unpack.zstd = NULL;
	}
	void *l = dlopen("liblz4.so.1", RTLD_NOW | RTLD_LOCAL);
	if (l)
		*(void **)&unpack.lz4 = dlsym(l, "LZ4_decompress_safe");
}

/* One entry of a fatbin image: its kind, header, payload, flags and
 * arch (at 28: 10 major + minor, 90 for sm_90 and compute_90). */
struct fat_entry {
	size_t at;        /* offset in the image */
	uint16_t kind;
	uint32_t ehs;     /* header bytes */
	uint64_t size;    /* payload bytes */
	uint64_t flags;
	uint32_t arch;
};

/* The entry at `at` of im[0..len): 1 with *e, 0 when none or when the
 * entry's sizes run past the image (the walk stops: nothing after it is
 * read, nor loaded from what seal_fatbin_readable returns). */
static int fat_entry_at(const unsigned char *im, size_t len, size_t at, struct fat_entry *e)
{
	if (at > len || len - at < FATBIN_ENTRY_MIN)
		return 0;
	e->at = at;
	memcpy(&e->kind, im + at, 2);
	memcpy(&e->ehs, im + at + 4, 4);
	memcpy(&e->size, im + at + 8, 8);
	memcpy(&e->flags, im + at + 40, 8);
	memcpy(&e->arch, im + at + 28, 4);
	return e->ehs >= FATBIN_ENTRY_MIN && e->ehs <= len - at && e->size <= len - at - e->ehs;
}

/* Do the entries of the image at im, from its header's end (hsize) on,
 * fill it to end exactly (each within it, the last ending there)? */
static int fat_tiles(const unsigned char *im, size_t hsize, size_t end)
{
	size_t at = hsize;
	struct fat_entry e;
	while (at < end) {
		if (!fat_entry_at(im, end, at, &e))
			return 0;
		at += e.ehs + e.size;
	}
	return at == end;
}

/*
 * The bytes of entry e that the driver would load, to search: the
 * payload of an uncompressed entry (*owned 0), or a compressed one
 * decompressed into a malloc'd buffer (*owned 1: the caller frees).
 * NULL when there is nothing to read: not PTX (kind 1) or ELF (kind 2),
 * or compressed in a way no loaded decompressor undoes.  A compressed
 * entry's header gives its compressed bytes (4 at offset 16) and the
 * uncompressed size (8 at offset 56); more than FATBIN_MAX_UNPACKED is
 * refused.
 */
#define FATBIN_MAX_UNPACKED ((uint64_t)1 << 30)
static const unsigned char *fat_entry_text(const unsigned char *im, const struct fat_entry *e, size_t *n,
					   int *owned)
{
	const unsigned char *pay = im + e->at + e->ehs;
	*owned = 0;
	*n = 0;
	if (e->kind != 1 && e->kind != 2)
		return NULL;
	if (!(e->flags & FATBIN_COMPRESSED)) {
		*n = (size_t)e->size;
		return pay;
	}
	uint32_t packed = 0;
	uint64_t full = 0;
	if (e->ehs < 64)
		return NULL;
	memcpy(&packed, im + e->at + 16, 4);
	memcpy(&full, im + e->at + 56, 8);
	if (!packed || packed > e->size || !full || full > FATBIN_MAX_UNPACKED)
		return NULL;
	unpack_load();
	unsigned char *out = malloc((size_t)full);
	if (!out)
		return NULL;
	size_t got = 0;
	if ((e->flags & 0x8000ull) && unpack.zstd) {
		size_t r = unpack.zstd(out, (size_t)full, pay, packed);
		got = unpack.zstd_is_error(r) ? 0 : r;
	} else if ((e->flags & 0x2000ull) && unpack.lz4 && packed <= INT32_MAX && full <= INT32_MAX) {
		int r = unpack.lz4((const char *)pay, (char *)out, (int)packed, (int)full);
		got = r > 0 ? (size_t)r : 0;
	}
	if (got != full) {
		free(out);
		return NULL;
	}
	*owned = 1;
	*n = got;
	return out;
}

/* 1 when the image at im (len bytes at most) holds an entry a module
 * load could run: an ELF entry whose payload is not a relocatable cubin
 * (ET_REL), or one this reading cannot undo, or entries it cannot walk
 * to the image's end; 0 when every entry is PTX or a relocatable cubin. */
static int relfat_runnable(const unsigned char *im, size_t len)
{
	uint32_t magic;
	uint16_t hsize;
	uint64_t fsize;
	memcpy(&magic, im, 4);
	memcpy(&hsize, im + 6, 2);
	memcpy(&fsize, im + 8, 8);
	if (magic != FATBIN_MAGIC || hsize < 16 || fsize > len || hsize + fsize > len)
		return 1;
	size_t ilen = hsize + (size_t)fsize, at = hsize;
	struct fat_entry e;
	while (at < ilen) {
		if (!fat_entry_at(im, ilen, at, &e))
			return 1;
		if (e.kind == 2) {
			/* (nvcc compresses -rdc's relocatable cubins: read as the
			 * driver would, fat_entry_text) */
			size_t tn = 0;
			int owned = 0;
			const unsigned char *text = fat_entry_text(im, &e, &tn, &owned);
			uint16_t type = 0;
			int reloc = text && tn >= 18 && !memcmp(text, ELFMAG, SELFMAG);
			if (reloc) {
				memcpy(&type, text + 16, 2);
				reloc = type == ET_REL;
			}
			if (owned)
				free((void *)text);
			if (!reloc)
				return 1;
		} else if (e.kind != 1) {
			return 1;
		}
		at += e.ehs + e.size;
	}
	return 0;
}

/*
 * The walk both searches make: every entry of kind `kind` (1 PTX, 2 ELF;
 * 0 both) of every image, in order, its text as the driver would load it
 * (fat_entry_text), handed to fn(text, n, ctx) until fn returns nonzero,
 * which ends the walk and is returned (0 when it ran to the end).  An
 * entry of that kind with no readable text counts in *unreadable (when
 * not NULL) and is skipped.
 */
static int fat_each_text(const void *const *images, const size_t *image_bytes, int n_images, uint16_t kind,
			 int (*fn)(const unsigned char *text, size_t n, void *ctx), void *ctx, int *unreadable)
{
	for (int i = 0; i < n_images; i++) {
		const unsigned char *im = images[i];
		size_t len = image_bytes[i];
		uint16_t hsize;
		if (len < 16)
			continue;
		memcpy(&hsize, im + 6, 2);
		struct fat_entry e;
		for (size_t at = hsize; fat_entry_at(im, len, at, &e); at += e.ehs + e.size) {
			if (kind && e.kind != kind)
				continue;
			size_t n;
			int owned;
			const unsigned char *text = fat_entry_text(im, &e, &n, &owned);
			if (!text) {
				if (unreadable)
					(*unreadable)++;
				continue;
			}
			int r = fn(text, n, ctx);
			if (owned)
				free((void *)text);
			if (r)
				return r;
		}
	}
	return 0;
}

/* fat_each_text's fn for seal_fatbin_device_launch: *ctx is the name found.
 * Every device runtime entry that starts work from the device: a grid
 * (CDP2's syscall, the runtime's launch) or a graph (device-side
 * cudaGraphLaunch, red team 22: it compiles without the grid names; a
 * sealed worker never has the device-launchable graph exec it needs, but
 * the refusal does not rest on that alone). */
static int find_device_launch(const unsigned char *text, size_t n, void *ctx)
{
	/* the names known, then their stems: a later driver's syscall under
	 * another version (cnpv3...) is refused too (red team 81: the list
	 * was of names; device malloc/free/printf/assert leave none of these) */
	static const char *const names[] = { "cnpv2LaunchDevice", "CDP2LaunchDevice", "cudaLaunchDevice",
					     "cudaGraphLaunch", "LaunchDevice", "GetParameterBuffer", NULL };
	const char **what = ctx;
	for (int k = 0; names[k]; k++)
		if (has_bytes(text, n, names[k])) {
			*what = names[k];
			return 1;
		}
	return 0;
}

int seal_fatbin_device_launch(const void *const *images, const size_t *image_bytes, int n_images,
			      const char **what)
{
	*what = NULL;
	/* unreadable entries: seal_fatbin_readable leaves them out */
	return fat_each_text(images, image_bytes, n_images, 0, find_device_launch, (void *)what, NULL);
}

/* The end of the parameter byte range of parameter k (the next one's
 * offset, or the buffer's end). */
static size_t param_end(const size_t *param_off, unsigned n_params, unsigned k, size_t args_bytes)
{
	size_t end = args_bytes;
	for (unsigned j = 0; j < n_params; j++)
		if (param_off[j] > param_off[k] && param_off[j] < end)
			end = param_off[j];
	return end;
}

/* Mark bytes [from, to) of mask (clipped to args_bytes). */
static void mark(unsigned char *mask, size_t args_bytes, size_t from, size_t to)
{
	for (size_t b = from; b < to && b < args_bytes; b++)
		mask[b] = 1;
}

/* The width in bytes of an ld.param's type at p ("u32", "v2.b64", ...),
 * 0 when it is none of PTX's. */
static size_t ld_width(const char *p, const char *end)
{
	size_t vec = 1;
	if (end - p > 3 && p[0] == 'v' && (p[1] == '2' || p[1] == '4') && p[2] == '.') {
		vec = (size_t)(p[1] - '0');
		p += 3;
	}
	if (p >= end || !strchr("usbf", *p))
		return 0;
	size_t bits = 0;
	for (p++; p < end && *p >= '0' && *p <= '9'; p++)
		bits = bits * 10 + (size_t)(*p - '0');
	return bits == 8 || bits == 16 || bits == 32 || bits == 64 ? vec * bits / 8 : 0;
}

/* Does text[0..n) hold `what` at p as a whole word (not inside a longer
 * identifier)? */
static int word_at(const char *p, const char *end, const char *what)
{
	size_t k = strlen(what);
	if ((size_t)(end - p) < k || memcmp(p, what, k))
		return 0;
	char c = p + k < end ? p[k] : ' ';
	return !(c == '_' || c == '$' || c == '.' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		 (c >= 'A' && c <= 'Z'));
}

int seal_ptx_param_reads(const char *ptx, size_t n, const char *name, size_t args_bytes, const size_t *param_off,
			 unsigned n_params, unsigned char *mask)
{
	memset(mask, 0, args_bytes);
	const char *end = ptx + n;
	/* the entry: ".entry NAME" exactly once in the whole text (red team
	 * 55's fake: a `.pragma ".entry NAME( {"` before it made an empty
	 * body of a decoy the first match) */
	char *entry = xstrfmt(".entry %s", name);
	const char *at = NULL;
	int seen = 0;
	for (const char *p = ptx; p < end; p++)
		if (*p == '.' && word_at(p, end, entry)) {
			seen++;
			at = p;
		}
	free(entry);
	if (seen != 1)
		return 0;
	/* its body: the braces from the first '{' after it, matched (a
	 * string's braces skipped) */
	const char *body = memchr(at, '{', (size_t)(end - at)), *stop = NULL;
	int depth = 0, in_str = 0;
	for (const char *p = body; p && p < end && !stop; p++) {
		if (*p == '"')
			in_str = !in_str;
		else if (!in_str && *p == '{')
			depth++;
		else if (!in_str && *p == '}' && --depth == 0)
			stop = p;
	}
	if (!body || !stop)
		return 0;
	char *tag = xstrfmt("%s_param_", name);
	size_t tl = strlen(tag);
	int ok = 1;
	for (const char *p = body; ok && p < stop; p++) {
		/* every ld.param must read a parameter by name and a constant
		 * offset: one through a register (the parameter's address
		 * taken, red team 55's reg and oob) could read any byte */
		if (p + 9 <= stop && !memcmp(p, "ld.param.", 9)) {
			const char *br = memchr(p, '[', (size_t)(stop - p)), *semi = memchr(p, ';', (size_t)(stop - p));
			if (!br || !semi || br > semi || (size_t)(stop - br) <= tl || memcmp(br + 1, tag, tl))
				ok = 0;
			continue;
		}
		if (*p != name[0] || (size_t)(stop - p) <= tl || memcmp(p, tag, tl))
			continue;
		const char *d = p + tl;
		unsigned k = 0;
		int digits = 0;
		while (d < stop && *d >= '0' && *d <= '9' && digits < 6) {
			k = k * 10 + (unsigned)(*d++ - '0');
			digits++;
		}
		if (!digits || k >= n_params) {
			ok = 0;
			break;
		}
		size_t lo = param_off[k], hi = param_end(param_off, n_params, k, args_bytes);
		/* the instruction this use is in: from its line's start */
		const char *line = p;
		while (line > body + 1 && line[-1] != '\n' && line[-1] != ';')
			line--;
		while (line < p && (*line == ' ' || *line == '\t' || *line == '{'))
			line++;
		size_t width = 0, off = 0;
		int load = line + 9 <= p && !memcmp(line, "ld.param.", 9) && p[-1] == '[';
		if (load) {
			const char *t = line + 9, *te = t;
			while (te < p && *te != ' ' && *te != '\t')
				te++;
			width = ld_width(t, te);
			if (*d == '+') {
				int od = 0;
				for (d++; d < stop && *d >= '0' && *d <= '9' && od < 12; d++, od++)
					off = off * 10 + (size_t)(*d - '0');
				load = od > 0;
			}
			/* an offset inside the parameter, as written (red team 55's
			 * wrap: +2^32+40, which ptxas takes as +40) */
			load = load && width && *d == ']' && off + width <= hi - lo;
		}
		if (!load) { /* its address taken, or a use not read here */
			ok = 0;
			break;
		}
		mark(mask, args_bytes, lo + off, lo + off + width);
		p = d;
	}
	free(tag);
	if (!ok)
		return 0;
	/* a parameter no load names is counted whole: only the holes and
	 * unread parts of one that is read are left out (red team 55's split:
	 * the PTX of one arch may not read what another arch's SASS does) */
	for (unsigned k = 0; k < n_params; k++) {
		size_t lo = param_off[k], hi = param_end(param_off, n_params, k, args_bytes);
		int any = 0;
		for (size_t b = lo; b < hi && b < args_bytes && !any; b++)
			any = mask[b];
		if (!any)
			mark(mask, args_bytes, lo, hi);
	}
	return 1;
}

/*
 * seal_param_reads' walk (red team 290, rows 1 and 1b).  The worker runs
 * SASS only (seal_fatbin_machine_code), never the PTX read here, so a
 * PTX text says what the device reads only of the SASS compiled from it:
 * nvcc puts the two in one image, the PTX entry of the same arch and the
 * same arch-specific build (compute_90 beside sm_90, compute_90a beside
 * sm_90a).  Red team 290 hid a host word in a struct field that only the
 * SASS reads: `field`, sm_90a SASS beside compute_80 PTX (red team 55's
 * split1 inside a struct); `feat`, sm_90a SASS beside compute_90 PTX
 * with the field read under __CUDA_ARCH_FEAT_SM90_ALL, which only the
 * sm_90a compile defines: the OR of every PTX entry left the field out,
 * and three plans with three words (93 to 108 us on an H100) had one
 * identity.  So a mask is used only where every cubin that names the
 * kernel has such a twin PTX entry in its own image, and then it is the
 * OR of the twins' masks; a cubin without one (or one that cannot be
 * read) counts every byte.  Kept, not dropped: the mask exists for red
 * teams 53 and 54 (pad1, deep1: an honest struct's padding held what the
 * driver had left on the stack, and was flaky), and an `-arch=sm_NN`
 * build, nvcc's own pairing, keeps it.  Any flag bit besides compression
 * that differs between the two (an arch variant this code does not know)
 * is no twin.  What this does not read: an image whose SASS and PTX are
 * of different compiles under one arch (a crafted object operand, red
 * team 55's note): only reading the SASS itself would.
 */
struct twin_ptx {
	uint32_t arch;
	uint64_t flags;
	unsigned char *mask;
};

#define FATBIN_TWIN_IGNORED FATBIN_COMPRESSED

int seal_param_reads(const void *const *images, const size_t *image_bytes, int n_images, const char *name,
		     size_t args_bytes, const size_t *param_off, unsigned n_params, unsigned char *mask)
{
	char *entry = xstrfmt(".entry %s", name);
	size_t mb = args_bytes ? args_bytes : 1;
	int cubins = 0, ok = 1;
	memset(mask, 0, args_bytes);
	for (int i = 0; ok && i < n_images; i++) {
		const unsigned char *im = images[i];
		size_t len = image_bytes[i];
		uint16_t hsize;
		struct twin_ptx *ptx = NULL;
		int n_ptx = 0;
		struct fat_entry e;
		if (len < 16)
			continue;
		memcpy(&hsize, im + 6, 2);
		/* the image's PTX entries of the kernel, each read (55's
		 * checks: a bad or unreadable one counts every byte) */
		for (size_t at = hsize; ok && fat_entry_at(im, len, at, &e); at += e.ehs + e.size) {
			if (e.kind != 1)
				continue;
			size_t n;
			int owned;
			const unsigned char *text = fat_entry_text(im, &e, &n, &owned);
			if (!text) {
				ok = 0;
				break;
			}
			if (has_bytes(text, n, entry)) {
				unsigned char *m = xcalloc(mb, 1);
				if (seal_ptx_param_reads((const char *)text, n, name, args_bytes, param_off, n_params,
							 m)) {
					ptx = xrealloc(ptx, (size_t)(n_ptx + 1) * sizeof(*ptx));
					ptx[n_ptx++] = (struct twin_ptx){ e.arch, e.flags, m };
				} else {
					free(m);
					ok = 0;
				}
			}
			if (owned)
				free((void *)text);
		}
		/* the image's cubins that name it (or cannot be read: then
		 * they might), each with its twin's mask or every byte */
		for (size_t at = hsize; ok && fat_entry_at(im, len, at, &e); at += e.ehs + e.size) {
			if (e.kind != 2)
				continue;
			size_t n;
			int owned, twin = -1;
			const unsigned char *text = fat_entry_text(im, &e, &n, &owned);
			int names = !text || has_bytes(text, n, name);
			if (owned)
				free((void *)text);
			if (!names)
				continue;
			cubins++;
			for (int k = 0; k < n_ptx && twin < 0; k++)
				if (ptx[k].arch == e.arch && !((ptx[k].flags ^ e.flags) & ~FATBIN_TWIN_IGNORED))
					twin = k;
			if (!text || twin < 0) {
				ok = 0;
				break;
			}
			for (size_t b = 0; b < args_bytes; b++)
				mask[b] |= ptx[twin].mask[b];
		}
		for (int k = 0; k < n_ptx; k++)
			free(ptx[k].mask);
		free(ptx);
	}
	free(entry);
	if (!ok || !cubins) {
		memset(mask, 1, args_bytes);
		return 0;
	}
	return 1;
}

/*
 * The walk seal_fatbin_readable and seal_fatbin_machine_code make: every
 * image reduced to the entries keep(e, text, ctx) keeps (text: the entry
 * as fat_each_text reads it, NULL when not readable here), each image's
 * header kept with its size patched, an image left with no entry left
 * out.  *dropped counts the entries left out, and an entry whose sizes
 * run past its image (the walk stops there: it and the rest are left
 * out) counts once.  Returns how many images were written.
 */
static int fat_filter(const void *const *images, const size_t *image_bytes, int n_images,
		      int (*keep)(const struct fat_entry *e, const unsigned char *text, size_t n, void *ctx), void *ctx,
		      unsigned char **data, const void **out_images, size_t *out_bytes, int *dropped)
{
	size_t total = 0;
	*dropped = 0;
	for (int i = 0; i < n_images; i++)
		total += image_bytes[i] + 16;
	unsigned char *buf = xmalloc(total ? total : 1);
	size_t used = 0;
	int k = 0;
	for (int i = 0; i < n_images; i++) {
		const unsigned char *im = images[i];
		size_t len = image_bytes[i];
		uint16_t hsize;
		if (len < 16) {
			(*dropped)++;
			continue;
		}
		memcpy(&hsize, im + 6, 2);
		if (hsize < 16 || hsize > len) {
			(*dropped)++;
			continue;
		}
		unsigned char *o = buf + used;
		memcpy(o, im, hsize);
		uint64_t kept = 0;
		int entries = 0;
		struct fat_entry e;
		size_t at = hsize;
		for (; fat_entry_at(im, len, at, &e); at += e.ehs + e.size) {
			size_t n;
			int owned;
			const unsigned char *text = fat_entry_text(im, &e, &n, &owned);
			int kp = keep(&e, text, n, ctx);
			if (owned)
				free((void *)text);
			if (!kp) {
				(*dropped)++;
				continue;
			}
			memcpy(o + hsize + kept, im + e.at, e.ehs + e.size);
			kept += e.ehs + e.size;
			entries++;
		}
		if (at < len && len - at >= FATBIN_ENTRY_MIN)
			(*dropped)++; /* the walk stopped at an entry it cannot read: the rest is left out */
		if (!entries)
			continue;
		memcpy(o + 8, &kept, 8);
		out_images[k] = o;
		out_bytes[k] = hsize + kept;
		k++;
		used += (hsize + kept + 15) & ~(size_t)15;
	}
	*data = buf;
	return k;
}

static int keep_readable(const struct fat_entry *e, const unsigned char *text, size_t n, void *ctx)
{
	(void)e, (void)n, (void)ctx;
	return text != NULL;
}

int seal_fatbin_readable(const void *const *images, const size_t *image_bytes, int n_images, unsigned char **data,
			 const void **out_images, size_t *out_bytes, int *dropped)
{
	return fat_filter(images, image_bytes, n_images, keep_readable, NULL, data, out_images, out_bytes, dropped);
}

/* ---- machine code for the device (seal_fatbin_machine_code) ----------- */

/* An entry's flags bit for an arch-specific build (sm_90a: measured, nvcc
 * 13.0), whose cubin runs on its own compute capability alone. */
#define FATBIN_ARCH_SPECIFIC 0x100000ull

int seal_cubin_runs_on(unsigned arch, int arch_specific, int major, int minor)
{
	if (major <= 0 || minor < 0 || arch / 10 != (unsigned)major)
		return 0;
	return arch_specific ? (int)(arch % 10) == minor : (int)(arch % 10) <= minor;
}

struct machine_walk {
	int major, minor;
	char *held;       /* what the images hold, said (seal.h) */
	size_t held_len, held_used;
	int cubins;       /* cubins kept */
	int refused;      /* an entry the worker would not load that the runtime could run (red team 72) */
};

/* Add "what" to the walk's description once, ", "-separated, while it fits. */
static void held_add(struct machine_walk *m, const char *what)
{
	if (!m->held || !m->held_len)
		return;
	size_t n = strlen(what);
	for (const char *p = m->held; (p = strstr(p, what)); p += n)
		if ((p == m->held || p[-1] == ' ') && (p[n] == ',' || !p[n]))
			return;
	const char *sep = m->held_used ? ", " : "";
	if (m->held_used + strlen(sep) + n + 1 > m->held_len)
		return;
	m->held_used += (size_t)snprintf(m->held + m->held_used, m->held_len - m->held_used, "%s%s", sep, what);
}

static int keep_machine_code(const struct fat_entry *e, const unsigned char *text, size_t n, void *ctx)
{
	struct machine_walk *m = ctx;
	char what[160];
	int specific = !!(e->flags & FATBIN_ARCH_SPECIFIC);
	(void)n;
	if (e->kind == 1) {
		snprintf(what, sizeof(what), "PTX compute_%u%s", e->arch, specific ? "a" : "");
		held_add(m, what);
		return 0;
	}
	/* an entry left out here that the runtime could run is refused, not
	 * dropped: red team 72 hid nvcc's own image as the payload of an
	 * entry of an unknown kind inside a cover image, and paired a cubin
	 * compressed beyond the box's decompressors with a readable twin, so
	 * that the worker kept one definition of a name and replayed code
	 * the kernel's process never runs */
	if (e->kind != 2) {
		snprintf(what, sizeof(what), "an entry of kind %u, which a sealed worker does not load", e->kind);
		held_add(m, what);
		m->refused = 1;
		return 0;
	}
	int runs = seal_cubin_runs_on(e->arch, specific, m->major, m->minor);
	snprintf(what, sizeof(what), "SASS sm_%u%s%s", e->arch, specific ? "a" : "",
		 runs && !text ? " (compressed beyond libzstd and liblz4 here: its code and globals cannot be read)" : "");
	held_add(m, what);
	if (runs && !text)
		m->refused = 1;
	if (!runs || !text)
		return 0;
	m->cubins++;
	return 1;
}

int seal_fatbin_machine_code(const void *const *images, const size_t *image_bytes, int n_images, int major,
			     int minor, unsigned char **data, const void **out_images, size_t *out_bytes, char *held,
			     size_t held_len)
{
	struct machine_walk m = { major, minor, held, held_len, 0, 0, 0 };
	int dropped = 0;
	if (held && held_len)
		held[0] = 0;
	int k = fat_filter(images, image_bytes, n_images, keep_machine_code, &m, data, out_images, out_bytes,
			   &dropped);
	if (m.refused)
		return -1;
	return m.cubins ? k : 0;
}

int seal_fatbin_each_text(const void *const *images, const size_t *image_bytes, int n_images, int kind,
			  int (*fn)(const unsigned char *text, size_t n, void *ctx), void *ctx, int *unreadable)
{
	return fat_each_text(images, image_bytes, n_images, (uint16_t)kind, fn, ctx, unreadable);
}

int seal_fatbin_unnamed_grids(const void *const *images, const size_t *image_bytes, int n_images)
{
	const char *what = NULL;
	if (seal_fatbin_device_launch(images, image_bytes, n_images, &what))
		return 1;
	unsigned char *data = NULL;
	const void **out = xcalloc((size_t)n_images + 1, sizeof(*out));
	size_t *ob = xcalloc((size_t)n_images + 1, sizeof(*ob));
	int dropped = 0;
	seal_fatbin_readable(images, image_bytes, n_images, &data, out, ob, &dropped);
	free(data);
	free(out);
	free(ob);
	return dropped > 0;
}

/* ---- the module globals' names (seal_fatbin_globals) ----------------- */

struct name_list {
	char **v;
	int n, cap, max, over;
	char *refused; /* the first name a plan cannot carry, said printably (malloc'd), or NULL */
};

static void name_add(struct name_list *l, const char *s, size_t len)
{
	for (int i = 0; i < l->n; i++)
		if (strlen(l->v[i]) == len && !memcmp(l->v[i], s, len))
			return;
	if (l->n == l->max) {
		l->over = 1;
		return;
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = xrealloc(l->v, (size_t)l->cap * sizeof(char *));
	}
	l->v[l->n++] = xstrndup(s, len);
}

/* A NUL-terminated string at off of the section sh of f[0..n), or NULL. */
static const char *elf_str(const unsigned char *f, size_t n, const Elf64_Shdr *sh, uint64_t off, size_t *len)
{
	if (sh->sh_offset > n || sh->sh_size > n - sh->sh_offset || off >= sh->sh_size)
		return NULL;
	const char *s = (const char *)f + sh->sh_offset + off;
	size_t left = (size_t)(sh->sh_size - off);
	*len = strnlen(s, left);
	return *len < left ? s : NULL;
}

/* One module global of a cubin, as cubin_each_global finds it: its name
 * (NULL when its string does not read; nl bytes, not NUL-terminated), its
 * offset and size in its section, and the section's index. */
struct cubin_global {
	const char *name;
	size_t nl;
	uint64_t at, size;
	int sec;
};

/*
 * Each module global of the cubin (a 64-bit ELF) f[0..n) to fn: every
 * STT_OBJECT symbol of non-zero size defined in a .nv.global* or user
 * .nv.constantN section (not .nv.constant0, the parameters).  Every
 * offset and size is checked against the bytes: the object is the kernel
 * author's.  Returns the section headers (malloc'd: the caller frees)
 * with the ELF header in *eh, or NULL when it is no ELF this reads (then
 * fn was not called).  The one walk of cubin_globals and cubin_sections.
 */
static Elf64_Shdr *cubin_each_global(const unsigned char *f, size_t n, Elf64_Ehdr *eh,
				     void (*fn)(const struct cubin_global *g, void *ctx), void *ctx)
{
	if (n < sizeof(*eh))
		return NULL;
	memcpy(eh, f, sizeof(*eh));
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > n || !eh->e_shnum ||
	    (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > n - eh->e_shoff || eh->e_shstrndx >= eh->e_shnum)
		return NULL;
	Elf64_Shdr *sh = xmalloc((size_t)eh->e_shnum * sizeof(Elf64_Shdr));
	memcpy(sh, f + eh->e_shoff, (size_t)eh->e_shnum * sizeof(Elf64_Shdr));
	for (int s = 0; s < eh->e_shnum; s++) {
		if (sh[s].sh_type != SHT_SYMTAB || sh[s].sh_entsize != sizeof(Elf64_Sym) ||
		    sh[s].sh_link >= eh->e_shnum || sh[s].sh_offset > n || sh[s].sh_size > n - sh[s].sh_offset)
			continue;
		const Elf64_Shdr *strs = &sh[sh[s].sh_link];
		size_t nsym = (size_t)(sh[s].sh_size / sizeof(Elf64_Sym));
		for (size_t k = 0; k < nsym; k++) {
			Elf64_Sym sym;
			memcpy(&sym, f + sh[s].sh_offset + k * sizeof(Elf64_Sym), sizeof(sym));
			if (ELF64_ST_TYPE(sym.st_info) != STT_OBJECT || !sym.st_size || sym.st_shndx == SHN_UNDEF ||
			    sym.st_shndx >= SHN_LORESERVE || sym.st_shndx >= eh->e_shnum)
				continue;
			size_t sl;
			const char *sec = elf_str(f, n, &sh[eh->e_shstrndx], sh[sym.st_shndx].sh_name, &sl);
			if (!sec || !((sl >= 10 && !memcmp(sec, ".nv.global", 10)) ||
				      (sl >= 12 && !memcmp(sec, ".nv.constant", 12) && strncmp(sec, ".nv.constant0", 13))))
				continue;
			struct cubin_global g = { NULL, 0, sym.st_value, sym.st_size, sym.st_shndx };
			g.name = elf_str(f, n, strs, sym.st_name, &g.nl);
			fn(&g, ctx);
		}
	}
	return sh;
}

/*
 * fat_each_text's fn for seal_fatbin_device_heap: *ctx is the name found.
 * An ELF entry (a cubin) calls the device heap when its symbol table
 * imports (an undefined symbol) a name holding "malloc" (malloc, the
 * aligned allocator's syscall; C++'s new compiles to malloc) or "free";
 * a kernel's own function of such a name is defined, not imported.
 * Another entry (PTX) when its text names "malloc" at all.
 */
static int find_device_heap(const unsigned char *f, size_t n, void *ctx)
{
	const char **what = ctx;
	Elf64_Ehdr eh;
	if (n < sizeof(eh) || memcmp(f, ELFMAG, SELFMAG)) {
		if (has_bytes(f, n, "malloc"))
			return *what = "malloc", 1;
		return 0;
	}
	memcpy(&eh, f, sizeof(eh));
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > n ||
	    (size_t)eh.e_shnum * sizeof(Elf64_Shdr) > n - eh.e_shoff)
		return has_bytes(f, n, "malloc") ? (*what = "malloc", 1) : 0;
	for (int s = 0; s < eh.e_shnum; s++) {
		Elf64_Shdr sh, strs;
		memcpy(&sh, f + eh.e_shoff + (size_t)s * sizeof(sh), sizeof(sh));
		if (sh.sh_type != SHT_SYMTAB || sh.sh_entsize != sizeof(Elf64_Sym) || sh.sh_link >= eh.e_shnum ||
		    sh.sh_offset > n || sh.sh_size > n - sh.sh_offset)
			continue;
		memcpy(&strs, f + eh.e_shoff + (size_t)sh.sh_link * sizeof(strs), sizeof(strs));
		for (size_t k = 0; k < sh.sh_size / sizeof(Elf64_Sym); k++) {
			Elf64_Sym sym;
			memcpy(&sym, f + sh.sh_offset + k * sizeof(sym), sizeof(sym));
			size_t len;
			const char *name = sym.st_shndx == SHN_UNDEF ? elf_str(f, n, &strs, sym.st_name, &len) : NULL;
			if (!name || !len)
				continue;
			if (memmem(name, len, "malloc", 6))
				return *what = "malloc", 1;
			if (len == 4 && !memcmp(name, "free", 4))
				return *what = "free", 1;
		}
	}
	return 0;
}

int seal_fatbin_device_heap(const void *const *images, const size_t *image_bytes, int n_images, const char **what)
{
	*what = NULL;
	return fat_each_text(images, image_bytes, n_images, 0, find_device_heap, (void *)what, NULL);
}

/* cubin_each_global's fn for cubin_globals (ctx: struct name_list) */
static void name_global(const struct cubin_global *g, void *ctx)
{
	struct name_list *l = ctx;
	if (!g->name)
		return;
	if (seal_global_name_ok(g->name, g->nl)) {
		name_add(l, g->name, g->nl);
	} else if (!l->refused) {
		/* a global the plan cannot name would keep its load-time value
		 * in the replay, whatever init() wrote there (red team 47's
		 * longname: a variable template's 1243-character name, dropped
		 * without a word, wrong_output): refused, said so */
		char shown[81];
		size_t k = 0;
		for (; k < g->nl && k < 80; k++)
			shown[k] = g->name[k] > ' ' && g->name[k] < 127 ? g->name[k] : '?';
		shown[k] = 0;
		l->refused = xstrfmt("'%s%s' (%zu characters)", shown, g->nl > 80 ? "..." : "", g->nl);
	}
}

/* The globals of one cubin (a 64-bit ELF) into l.  0, or -1 when it is
 * no ELF this reads (then nothing of it is added). */
static int cubin_globals(const unsigned char *f, size_t n, struct name_list *l)
{
	Elf64_Ehdr eh;
	Elf64_Shdr *sh = cubin_each_global(f, n, &eh, name_global, l);
	if (!sh)
		return -1;
	free(sh);
	return 0;
}

/* fat_each_text's fn for seal_fatbin_globals: a cubin whose symbols do not
 * read counts as unreadable (ctx: struct globals_walk) */
struct globals_walk {
	struct name_list l;
	int *unreadable;
};
static int add_cubin_globals(const unsigned char *text, size_t n, void *ctx)
{
	struct globals_walk *w = ctx;
	if (cubin_globals(text, n, &w->l))
		(*w->unreadable)++;
	return 0;
}

int seal_fatbin_globals(const void *const *images, const size_t *image_bytes, int n_images, char ***names,
			int max_names, int *unreadable, char **refused)
{
	struct globals_walk w = { { NULL, 0, 0, max_names, 0, NULL }, unreadable };
	*unreadable = 0;
	/* ELF only: a sealed worker loads the cubins that run on its device
	 * and nothing else (seal_fatbin_machine_code), and a planner or worker
	 * whose object holds none refuses it (cuda_worker.c, red team 58: a
	 * PTX-only object named no global, and the replay dropped what
	 * init() wrote) */
	fat_each_text(images, image_bytes, n_images, 2, add_cubin_globals, &w, unreadable);
	*refused = w.l.refused;
	if (w.l.over) {
		seal_names_free(w.l.v, w.l.n);
		*names = NULL;
		return -1;
	}
	*names = w.l.v;
	return w.l.n;
}

void seal_names_free(char **names, int n)
{
	if (!names)
		return;
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* ---- the sections that hold them (seal_fatbin_sections) -------------- */

struct sections_walk {
	struct evc_section *v;
	int n, max, over;
	uint64_t gap_over; /* the most gap bytes of a section over EVC_SECTION_MAX_GAP_BYTES, or 0 */
};

struct sym_at {
	const char *name;
	size_t nl;
	uint64_t at, size;
};

static int sym_at_cmp(const void *a, const void *b)
{
	const struct sym_at *x = a, *y = b;
	return x->at < y->at ? -1 : x->at > y->at ? 1 : x->size < y->size ? -1 : x->size > y->size;
}

int seal_section_gaps(uint64_t size, const uint64_t *at, const uint64_t *sz, int n_syms, uint64_t max_bytes,
		      uint64_t *gap, int max_gaps)
{
	/* at[] sorted ascending; a gap is what no [at, at + sz) covers */
	uint64_t cur = 0, bytes = 0;
	int ng = 0;
	for (int k = 0; k <= n_syms && ng < max_gaps && bytes < max_bytes; k++) {
		uint64_t next = k < n_syms ? (at[k] < size ? at[k] : size) : size;
		if (next > cur) {
			uint64_t to = next - cur > max_bytes - bytes ? cur + (max_bytes - bytes) : next;
			gap[2 * ng] = cur, gap[2 * ng + 1] = to;
			bytes += to - cur;
			ng++;
		}
		if (k < n_syms) {
			uint64_t end = sz[k] > UINT64_MAX - at[k] ? UINT64_MAX : at[k] + sz[k];
			if (end > cur)
				cur = end;
		}
	}
	return ng;
}

/* One cubin's sections that hold a named global into w (the rules of
 * cubin_globals: STT_OBJECT, size > 0, a .nv.global* or user
 * .nv.constantN section, a name a plan carries).  0, or -1 when it is no
 * ELF this reads. */
/* cubin_each_global's fn for cubin_sections: the globals a plan can name,
 * with their sections (ctx: struct sec_syms) */
struct sec_sym {
	int sec;
	struct sym_at s;
};
struct sec_syms {
	struct sec_sym *v;
	size_t n, cap;
};
static void collect_global(const struct cubin_global *g, void *ctx)
{
	struct sec_syms *c = ctx;
	if (!g->name || !seal_global_name_ok(g->name, g->nl))
		return;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->v = xrealloc(c->v, c->cap * sizeof(*c->v));
	}
	c->v[c->n++] = (struct sec_sym){ g->sec, { g->name, g->nl, g->at, g->size } };
}

/* by section, then as sym_at_cmp: each section's globals one sorted run */
static int sec_sym_cmp(const void *a, const void *b)
{
	const struct sec_sym *x = a, *y = b;
	return x->sec != y->sec ? (x->sec < y->sec ? -1 : 1) : sym_at_cmp(&x->s, &y->s);
}

static int cubin_sections(const unsigned char *f, size_t n, struct sections_walk *w)
{
	Elf64_Ehdr eh;
	struct sec_syms c = { NULL, 0, 0 };
	Elf64_Shdr *sh = cubin_each_global(f, n, &eh, collect_global, &c);
	if (!sh)
		return -1;
	/* one sort, then each section's run (not sections x symbols: a cubin
	 * of 65535 sections and many symbols is the kernel author's) */
	if (c.n)
		qsort(c.v, c.n, sizeof(*c.v), sec_sym_cmp);
	for (size_t r = 0; r < c.n && !w->over;) {
		int s = c.v[r].sec;
		size_t m = 0;
		while (r + m < c.n && c.v[r + m].sec == s)
			m++;
		const struct sec_sym *in = c.v + r;
		r += m;
		if (w->n == w->max) {
			w->over = 1;
			break;
		}
		size_t sl = 0;
		const char *sec = elf_str(f, n, &sh[eh.e_shstrndx], sh[s].sh_name, &sl);
		char **names = xmalloc(m * sizeof(char *));
		uint64_t *at = xmalloc(m * sizeof(uint64_t)), *sz = xmalloc(m * sizeof(uint64_t));
		for (size_t k = 0; k < m; k++)
			names[k] = xstrndup(in[k].s.name, in[k].s.nl), at[k] = in[k].s.at, sz[k] = in[k].s.size;
		uint64_t *gap = xmalloc((2 * m + 2) * sizeof(uint64_t));
		/* every gap, uncut: a section with more gap bytes than the
		 * planner reads is refused (seal_fatbin_sections), not read
		 * in part (red team 157's gapcap: two globals 2 MiB apart,
		 * init()'s knob 1.5 MiB into the gap, past the first MiB that
		 * was listed and read) */
		int ng = seal_section_gaps(sh[s].sh_size, at, sz, (int)m, UINT64_MAX, gap, (int)m + 1);
		uint64_t all = 0;
		for (int g = 0; g < ng; g++)
			all += gap[2 * g + 1] - gap[2 * g];
		if (all > EVC_SECTION_MAX_GAP_BYTES) {
			if (all > w->gap_over)
				w->gap_over = all;
			ng = 0;
		}
		unsigned char *init = NULL;
		if (sh[s].sh_type != SHT_NOBITS) {
			/* the load-time bytes of each gap, from the file; a
			 * section running past the cubin has its gaps cut where
			 * the file ends (what lies past that is not checked) */
			uint64_t total = 0, have = sh[s].sh_offset > n ? 0 : n - sh[s].sh_offset;
			int keep = 0;
			for (int g = 0; g < ng; g++) {
				if (gap[2 * g] >= have)
					break;
				if (gap[2 * g + 1] > have)
					gap[2 * g + 1] = have;
				total += gap[2 * g + 1] - gap[2 * g];
				keep = g + 1;
			}
			ng = keep;
			init = xmalloc(total ? total : 1);
			uint64_t o = 0;
			for (int g = 0; g < ng; g++) {
				memcpy(init + o, f + sh[s].sh_offset + gap[2 * g], gap[2 * g + 1] - gap[2 * g]);
				o += gap[2 * g + 1] - gap[2 * g];
			}
		}
		struct evc_section *e = &w->v[w->n++];
		memset(e, 0, sizeof(*e));
		e->name = xstrndup(sec ? sec : "?", sec ? sl : 1);
		e->size = sh[s].sh_size;
		e->n_syms = (uint32_t)m;
		e->sym_name = (const char *const *)names;
		e->sym_at = at;
		e->sym_size = sz;
		e->n_gaps = (uint32_t)ng;
		e->gap = gap;
		e->gap_init = init;
	}
	free(c.v);
	free(sh);
	return 0;
}

static int add_cubin_sections(const unsigned char *text, size_t n, void *ctx)
{
	cubin_sections(text, n, ctx);
	return 0;
}

int seal_fatbin_sections(const void *const *images, const size_t *image_bytes, int n_images,
			 struct evc_section **sections, int max_sections, uint64_t *gap_over)
{
	struct sections_walk w = { xmalloc((size_t)(max_sections > 0 ? max_sections : 1) * sizeof(struct evc_section)),
				   0, max_sections, 0, 0 };
	int unreadable = 0;
	fat_each_text(images, image_bytes, n_images, 2, add_cubin_sections, &w, &unreadable);
	*sections = w.v;
	if (gap_over)
		*gap_over = w.gap_over;
	return w.over ? -1 - w.n : w.n;
}

void seal_sections_free(struct evc_section *s, int n)
{
	if (!s)
		return;
	for (int i = 0; i < n; i++) {
		for (uint32_t k = 0; k < s[i].n_syms; k++)
			free((char *)s[i].sym_name[k]);
		free((void *)s[i].sym_name);
		free((void *)s[i].sym_at);
		free((void *)s[i].sym_size);
		free((void *)s[i].gap);
		free((void *)s[i].gap_init);
		free((char *)s[i].name);
	}
	free(s);
}
