/*
 * knobs.h - every numeric and enumerated setting of an experiment, once:
 * its section and key in the spec, its type, its one default, its range
 * and its meaning.  The list is expanded into struct knobs (what the spec
 * holds and the typed job carries to the worker and the checker), into
 * the spec parser's key tables and range checks, into JOB.json both ways,
 * and into `evident help spec`, which README's spec reference is
 * (tests/cli/t0082 compares them), so a knob travels from YAML to the
 * harness without a hand-written hop and its default is written exactly
 * here.
 *
 * Adding a knob: one X() line; use k->NAME where it acts; regenerate
 * README's table (scripts/readme-generated.sh).
 *
 * X(SECTION, NAME, TYPE, DEFAULT, MIN, MAX, DOC)
 *   SECTION  the spec mapping it lives in (correctness, timing, limits) or
 *            top for a top-level key
 *   TYPE     KNOB_INT, KNOB_DOUBLE, or KNOB_ENUM (DEFAULT is then the
 *            default's index in the NAME's value list knob_values_NAME)
 *   DEFAULT  NAN for "derived": the tolerance knobs default to the
 *            problem's rule for the dtype, timeout_s to 60 + 2 max_seconds,
 *            repeats to the backend's (3 on both: stats.h, rule 0)
 *   DOC      one line; a derived knob's ends with "(default: HOW)", which
 *            help prints as the default (test_spec checks the form)
 */
#ifndef EVIDENT_KNOBS_H
#define EVIDENT_KNOBS_H

#include <jansson.h>
#include <math.h>

enum knob_type { KNOB_INT, KNOB_DOUBLE, KNOB_ENUM };

#define KNOB_LIST(X)                                                                                       \
	X(top, repeats, KNOB_INT, NAN, 1, 1000,                                                            \
	  "worker processes per variant, interleaved with the other variants (default: the backend's, 3 on cuda and host)") \
	X(correctness, seeds, KNOB_INT, 5, 1, 1000,                                                        \
	  "fresh inputs checked before timing; seed i uses the problem's distribution i mod its count")      \
	X(correctness, atol, KNOB_DOUBLE, NAN, 0, 1e6,                                                     \
	  "element gate |out - ref| <= atol * max|ref| + rtol * |ref| (default: the problem's, by dtype)")   \
	X(correctness, rtol, KNOB_DOUBLE, NAN, 0, 1e6, "see atol (default: the problem's, by dtype)")                                         \
	X(correctness, rel_l2, KNOB_DOUBLE, NAN, 0, 1e6,                                                   \
	  "output gate ||out - ref|| / ||ref|| <= rel_l2 (default: the problem's, by dtype)")                \
	X(correctness, timed_checks, KNOB_INT, 10, 0, 1000000,                                             \
	  "timed launches checked at least, drawn after they ran (plus the last, each sample's floor, and at the end one of any input distribution the draw missed; below 10 the batch notes how few that is)")                          \
	X(timing, warmup_ms, KNOB_DOUBLE, 25, 0, 600000, "launches before timing, by time")                \
	X(timing, samples, KNOB_INT, 100, 0, 10000000,                                                     \
	  "timed samples per repeat, of every input distribution (the time is the timing ones', 3 in 4); "   \
	  "0 = adaptive: stop when stdev/mean <= stdrel after min_seconds")                                   \
	X(timing, cache, KNOB_ENUM, 0, 0, 0,                                                               \
	  "cold: flush L2 (GPU) / the sample's input and output cache lines (CPU: clflush, the "         \
	  "record's `flush_bytes`) before every sample, outside the timed region")                        \
	X(timing, clock, KNOB_ENUM, 0, 0, 0,                                                               \
	  "auto: CUPTI's kernel clock where it loads, else CUDA events; events; cupti (required)")          \
	X(timing, max_seconds, KNOB_DOUBLE, 15, 0.001, 86400, "never sample longer (per repeat)")           \
	X(timing, min_seconds, KNOB_DOUBLE, 0.5, 0, 86400, "adaptive: sample at least this long")          \
	X(timing, stdrel, KNOB_DOUBLE, 0.005, 1e-6, 1, "adaptive: the relative standard deviation to reach") \
	X(timing, batch, KNOB_INT, 1, 1, 100000,                                                           \
	  "launches per sample (a CUDA graph of batch launches on rotating inputs; time / batch; trust: host variants only)")          \
	X(limits, timeout_s, KNOB_DOUBLE, NAN, 0.1, 86400,                                                 \
	  "per worker process, wall clock (default: 60 + 2 max_seconds)")

/* Values of the enumerated knobs, NULL-terminated; index 0 is the default. */
extern const char *const knob_values_cache[];
extern const char *const knob_values_clock[];

#define KNOB_FIELD_KNOB_INT int
#define KNOB_FIELD_KNOB_DOUBLE double
#define KNOB_FIELD_KNOB_ENUM int
#define KNOB_FIELD_(section, name, type, def, lo, hi, doc) KNOB_FIELD_##type name;
struct knobs {
	KNOB_LIST(KNOB_FIELD_)
};
#undef KNOB_FIELD_

/* One knob's description, for the parser, JOB.json and help. */
struct knob_def {
	const char *section, *name;
	enum knob_type type;
	double def, lo, hi;
	const char *doc;
	const char *const *values;   /* KNOB_ENUM */
	size_t offset;               /* in struct knobs */
};
extern const struct knob_def knob_defs[];
extern const size_t knob_count;

/* Every knob at its default (derived ones NAN / -1 until knobs_derive). */
void knobs_init(struct knobs *k);
/*
 * Fill the derived defaults the spec left open: repeats (the backend's
 * default_repeats), timeout_s from max_seconds; tolerances stay NAN here
 * (the problem's rule fills them in the plan).
 */
void knobs_derive(struct knobs *k, int default_repeats);
/* The knob called section.name, or NULL. */
const struct knob_def *knob_find(const char *section, const char *name);
/* Set / get by description (value checked against lo/hi by the caller). */
void knob_set(struct knobs *k, const struct knob_def *d, double v);
double knob_get(const struct knobs *k, const struct knob_def *d);
/* Name of enum knob d's value in k. */
const char *knob_enum_name(const struct knobs *k, const struct knob_def *d);
/* The keys of one section, NULL-terminated (static storage). */
const char *const *knob_section_keys(const char *section);

/* JSON both ways ({"seeds": 5, "cache": "cold", ...}); knobs_from_json
 * returns 0, or -1 after error() naming the bad field. */
json_t *knobs_to_json(const struct knobs *k);
int knobs_from_json(json_t *o, struct knobs *k);

#endif /* EVIDENT_KNOBS_H */
