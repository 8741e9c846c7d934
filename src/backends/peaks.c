/*
 * peaks.c - GPU peaks from data/gpu-peaks.yaml (contract in peaks.h), read
 * with libyaml's document API as cost.c reads the price table.  The table
 * peak_lookup() uses is loaded once and kept for the life of the process,
 * so that the source strings it hands out stay valid.
 */
#include "backends/peaks.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <strings.h>
#include <yaml.h>

#include "base/util.h"

const char *const peak_dtype_names[PEAK_NDTYPES] = { "fp32", "tf32", "fp16", "bf16", "fp8" };

int peak_dtype_index(const char *name)
{
	static const struct {
		const char *alias;
		int idx;
	} aliases[] = { { "float32", PEAK_FP32 }, { "float16", PEAK_FP16 }, { "bfloat16", PEAK_BF16 } };
	for (int i = 0; i < PEAK_NDTYPES; i++)
		if (!strcasecmp(name, peak_dtype_names[i]))
			return i;
	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++)
		if (!strcasecmp(name, aliases[i].alias))
			return aliases[i].idx;
	return -1;
}

static void free_list(char **l)
{
	for (size_t i = 0; l && l[i]; i++)
		free(l[i]);
	free(l);
}

void peak_table_release(struct peak_table *t)
{
	for (size_t i = 0; t && i < t->n; i++) {
		struct peak_entry *e = &t->e[i];
		free(e->model);
		free_list(e->match);
		free_list(e->exclude);
		free(e->source);
		free(e->read_via);
		free(e->date);
	}
	if (t) {
		free(t->e);
		*t = (struct peak_table)PEAK_TABLE_INIT;
	}
}

static yaml_node_t *get(yaml_document_t *d, yaml_node_t *map, const char *key)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(d, p->key);
		if (k->type == YAML_SCALAR_NODE && !strcmp((char *)k->data.scalar.value, key))
			return yaml_document_get_node(d, p->value);
	}
	return NULL;
}

static const char *scalar(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* A string or a list of strings -> NULL-terminated list; NULL if neither. */
static char **string_list(yaml_document_t *d, yaml_node_t *n)
{
	char **l;
	size_t k = 0;
	if (!n)
		return NULL;
	if (n->type == YAML_SCALAR_NODE) {
		l = xcalloc(2, sizeof(char *));
		l[0] = xstrdup(scalar(n));
		return l;
	}
	if (n->type != YAML_SEQUENCE_NODE)
		return NULL;
	l = xcalloc((size_t)(n->data.sequence.items.top - n->data.sequence.items.start) + 1, sizeof(char *));
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
		const char *s = scalar(yaml_document_get_node(d, *it));
		if (!s || !*s) {
			free_list(l);
			return NULL;
		}
		l[k++] = xstrdup(s);
	}
	return l;
}

static int positive_number(const char *s, double *v)
{
	char *end;
	if (!s)
		return 0;
	*v = strtod(s, &end);
	return end != s && !*end && isfinite(*v) && *v > 0;
}

int peak_table_load(const char *path, struct peak_table *t)
{
	struct strbuf text = STRBUF_INIT;
	yaml_parser_t p;
	yaml_document_t d;
	int rc = -1, have_doc = 0;

	*t = (struct peak_table)PEAK_TABLE_INIT;
	if (read_file(path, &text) < 0)
		return -1;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)strbuf_str(&text), text.len);
	if (!yaml_parser_load(&p, &d)) {
		error("%s:%zu: not valid YAML: %s", path, p.problem_mark.line + 1,
		      p.problem ? p.problem : "parse error");
		goto out;
	}
	have_doc = 1;
	yaml_node_t *root = yaml_document_get_root_node(&d);
	yaml_node_t *list = root && root->type == YAML_MAPPING_NODE ? get(&d, root, "gpus") : NULL;
	if (!list || list->type != YAML_SEQUENCE_NODE) {
		error("%s: expected a list under 'gpus:'", path);
		goto out;
	}
	size_t cap = (size_t)(list->data.sequence.items.top - list->data.sequence.items.start);
	t->e = xcalloc(cap ? cap : 1, sizeof(struct peak_entry));
	for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++) {
		yaml_node_t *n = yaml_document_get_node(&d, *it);
		size_t line = n->start_mark.line + 1;
		if (n->type != YAML_MAPPING_NODE) {
			error("%s:%zu: each entry under 'gpus:' must be a mapping", path, line);
			goto out;
		}
		struct peak_entry *e = &t->e[t->n++];
		const char *model = scalar(get(&d, n, "model"));
		e->model = xstrdup(model ? model : "?");
		for (int i = 0; i < PEAK_NDTYPES; i++)
			e->tflops[i] = NAN;
		if (!model || !*model) {
			error("%s:%zu: entry without 'model'", path, line);
			goto out;
		}
		e->match = string_list(&d, get(&d, n, "match"));
		if (!e->match || !e->match[0]) {
			error("%s:%zu: entry '%s' needs 'match' (a string or a list of strings)", path, line, model);
			goto out;
		}
		yaml_node_t *ex = get(&d, n, "exclude");
		if (ex && !(e->exclude = string_list(&d, ex))) {
			error("%s:%zu: entry '%s': 'exclude' must be a string or a list of strings", path, line, model);
			goto out;
		}
		yaml_node_t *tf = get(&d, n, "tflops");
		if (!tf || tf->type != YAML_MAPPING_NODE) {
			error("%s:%zu: entry '%s' needs 'tflops' ({fp32: ..., fp16: ...})", path, line, model);
			goto out;
		}
		for (yaml_node_pair_t *kv = tf->data.mapping.pairs.start; kv < tf->data.mapping.pairs.top; kv++) {
			const char *k = scalar(yaml_document_get_node(&d, kv->key));
			const char *v = scalar(yaml_document_get_node(&d, kv->value));
			int di = k ? peak_dtype_index(k) : -1;
			if (di < 0) {
				error("%s:%zu: entry '%s': unknown dtype '%s' in tflops (known: fp32 tf32 fp16 bf16 fp8)",
				      path, line, model, k ? k : "?");
				goto out;
			}
			if (!positive_number(v, &e->tflops[di])) {
				error("%s:%zu: entry '%s': tflops.%s must be a positive number", path, line, model, k);
				goto out;
			}
		}
		if (!positive_number(scalar(get(&d, n, "bandwidth_gbps")), &e->gbps)) {
			error("%s:%zu: entry '%s' needs 'bandwidth_gbps', a positive number", path, line, model);
			goto out;
		}
		const char *src = scalar(get(&d, n, "source")), *date = scalar(get(&d, n, "date"));
		const char *via = scalar(get(&d, n, "read_via"));
		if (!src || !*src || !date || !*date) {
			error("%s:%zu: entry '%s' needs 'source' and 'date' (where the figures come from, when read)",
			      path, line, model);
			goto out;
		}
		e->date = xstrdup(date);
		e->read_via = via ? xstrdup(via) : NULL;
		e->source = xstrfmt("%s (read %s)", src, date);
	}
	rc = 0;
out:
	if (have_doc)
		yaml_document_delete(&d);
	yaml_parser_delete(&p);
	strbuf_release(&text);
	if (rc < 0)
		peak_table_release(t);
	return rc;
}

const struct peak_entry *peak_table_find(const struct peak_table *t, const char *gpu_name)
{
	for (size_t i = 0; gpu_name && i < t->n; i++) {
		const struct peak_entry *e = &t->e[i];
		int ok = 1;
		for (size_t k = 0; ok && e->match[k]; k++)
			ok = strcasestr(gpu_name, e->match[k]) != NULL;
		for (size_t k = 0; ok && e->exclude && e->exclude[k]; k++)
			ok = strcasestr(gpu_name, e->exclude[k]) == NULL;
		if (ok)
			return e;
	}
	return NULL;
}

/* The process's table: loaded on first use, kept until exit; a table that
 * failed to load is not read again (its error was printed once). */
static struct peak_table process_table = PEAK_TABLE_INIT;
static int process_table_state; /* 0 not tried, 1 loaded, -1 failed */
static char *process_table_path;
static char *process_table_origin; /* "PATH (real path), sha256 HEX[, named by EVIDENT_PEAKS]" */

static int load_process_table(struct strbuf *why)
{
	const char *env = getenv("EVIDENT_PEAKS");
	const char *path = env && *env ? env : "data/gpu-peaks.yaml";
	if (process_table_state == 0) {
		process_table_path = xstrdup(path);
		if (!path_exists(path)) {
			process_table_state = -2;
		} else {
			process_table_state = peak_table_load(path, &process_table) < 0 ? -1 : 1;
			/* the table is the file the runner's environment names:
			 * the record says which (red team 131) */
			char hex[SHA256_HEX_LEN + 1], *real = realpath(path, NULL);
			process_table_origin = xstrfmt("the table %s, sha256 %s%s", real ? real : path,
						       sha256_file_hex(path, hex) == 0 ? hex : "unknown",
						       env && *env ? ", named by EVIDENT_PEAKS" : "");
			free(real);
		}
	}
	if (process_table_state == -2 && why)
		strbuf_addf(why, "no GPU peak table '%s' here (run from the repository, or set EVIDENT_PEAKS)",
			    process_table_path);
	else if (process_table_state == -1 && why)
		strbuf_addf(why, "the GPU peak table '%s' is not valid (the error above says where)", process_table_path);
	return process_table_state == 1 ? 0 : -1;
}

const char *peak_table_origin(void)
{
	load_process_table(NULL);
	return process_table_origin;
}

const struct peak_entry *peak_find(const char *gpu_name, struct strbuf *why)
{
	if (load_process_table(why) < 0)
		return NULL;
	const struct peak_entry *e = peak_table_find(&process_table, gpu_name);
	if (!e && why)
		strbuf_addf(why, "GPU '%s' is not in '%s'", gpu_name ? gpu_name : "(unnamed)", process_table_path);
	return e;
}

int peak_lookup(const char *gpu_name, const char *dtype, double *tflops, double *gbps,
		const char **source)
{
	int di = dtype ? peak_dtype_index(dtype) : -1;
	if (tflops)
		*tflops = NAN;
	if (gbps)
		*gbps = NAN;
	if (source)
		*source = NULL;
	if (di < 0)
		return error("unknown dtype '%s' for a GPU peak (known: fp32 tf32 fp16 bf16 fp8)",
			     dtype ? dtype : "");
	if (load_process_table(NULL) < 0)
		/* no table here (a run outside the repository): no peak, which the
		 * record says (record_peak_lookup); a table that is there but bad
		 * was reported when it was loaded */
		return process_table_state == -2 ? 1 : -1;
	const struct peak_entry *e = peak_table_find(&process_table, gpu_name);
	if (!e)
		return 1;
	if (tflops)
		*tflops = e->tflops[di];
	if (gbps)
		*gbps = e->gbps;
	if (source)
		*source = e->source;
	return 0;
}

double peak_host_gflops(char *source, size_t n)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return NAN;
	char line[8192];
	double mhz = 0;
	int avx512 = 0, avx2 = 0, fma = 0, avx = 0;
	while (fgets(line, sizeof(line), f)) {
		double m;
		if (sscanf(line, "cpu MHz : %lf", &m) == 1 || sscanf(line, "cpu MHz\t: %lf", &m) == 1)
			mhz = m > mhz ? m : mhz;
		if (!strncmp(line, "flags", 5)) {
			avx512 |= strstr(line, " avx512f") != NULL;
			avx2 |= strstr(line, " avx2") != NULL;
			fma |= strstr(line, " fma") != NULL;
			avx |= strstr(line, " avx") != NULL;
		}
	}
	fclose(f);
	FILE *cf = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
	long khz = 0;
	if (cf) {
		if (fscanf(cf, "%ld", &khz) == 1 && khz / 1000.0 > mhz)
			mhz = khz / 1000.0;
		fclose(cf);
	}
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (mhz <= 0 || cpus <= 0)
		return NAN;
	int fpc = avx512 ? 64 : avx2 && fma ? 32 : avx ? 16 : 8;
	double g = (double)cpus * mhz * 1e-3 * 2.0 * fpc;
	snprintf(source, n, "%ld CPUs x %.0f MHz x 2 (boost margin) x %d fp32 FLOP/cycle (%s), from /proc/cpuinfo",
		 cpus, mhz, fpc, avx512 ? "avx512f" : avx2 && fma ? "avx2+fma" : avx ? "avx" : "sse");
	return g;
}
