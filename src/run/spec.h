/*
 * spec.h - the declarative experiment spec (experiments/NAME.yaml).
 *
 * spec_load() parses YAML with libyaml's document API and validates every
 * key, reporting the first problem as one line
 *   error: experiments/x.yaml:7:3: unknown key 'warmpu' (did you mean 'warmup_ms'?)
 * A spec that fails to load has run nothing and written nothing.  The keys
 * and their defaults are documented in README.md ("Spec reference"); the
 * table keys[] in spec.c is the single source of truth for what is allowed.
 */
#ifndef EVIDENT_SPEC_H
#define EVIDENT_SPEC_H

#include "backends/backend.h"

struct spec_variant {
	char *name;
	char *kernel;            /* path relative to the repository root */
	struct param *params;    /* in the order written (grid: grid order) */
	size_t n_params;
	char *expect;            /* expected outcome ("crashed", ...) or NULL */
	int is_reference;        /* from references: */
};

struct spec {
	char *path;              /* as given */
	char *text;              /* the YAML source, byte for byte */
	char *name, *question, *problem, *backend, *kernel, *dtype, *baseline, *arch;
	long long B, H, S, D;
	struct spec_variant *variants;
	size_t n_variants;
	/* correctness */
	int seeds;
	int seed_given;          /* 1: seed fixed by the spec; 0: fresh random per run */
	unsigned long long seed;
	double atol, rtol;
	/* timing */
	double warmup_ms;
	int samples;             /* 0 = adaptive */
	char *cache;             /* "cold" | "hot" */
	double max_seconds, min_seconds, stdrel;
	int batch;
	/* limits */
	double timeout_s;        /* per variant, wall clock */
	/* extras */
	char **sanitize;         /* NULL-terminated tool names, or NULL */
	char **flags;            /* NULL-terminated extra compiler flags, or NULL */
	double price_usd_per_h;  /* < 0: not overridden by the spec */
	char *price_source;
};

/*
 * Load and validate the spec at path into s (which the caller releases
 * with spec_release even on failure).  check_files: also require kernel
 * files to exist (relative to the current directory, the repository
 * root).  Returns 0, or -1 after printing one error line.
 */
int spec_load(const char *path, int check_files, struct spec *s);
void spec_release(struct spec *s);

/* The variant called name, or NULL. */
const struct spec_variant *spec_variant(const struct spec *s, const char *name);
/* Value of param `name` in v, or NULL. */
const char *spec_param(const struct spec_variant *v, const char *name);

#endif /* EVIDENT_SPEC_H */
