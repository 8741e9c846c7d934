/*
 * cost.c - prices and costs of runs (contract in cost.h).  The price table
 * is YAML (data/gpu-prices.yaml), read with libyaml's document API.  The
 * estimate before a batch reads the store through the query module, the
 * one read path of every reader.
 */
#include "run/cost.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "base/util.h"
#include "store/query.h"

static const char *yscalar(yaml_document_t *d, yaml_node_t *map, const char *key)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(d, p->key);
		yaml_node_t *v = yaml_document_get_node(d, p->value);
		if (k->type == YAML_SCALAR_NODE && !strcmp((char *)k->data.scalar.value, key))
			return v->type == YAML_SCALAR_NODE ? (const char *)v->data.scalar.value : NULL;
	}
	return NULL;
}

static yaml_node_t *ynode(yaml_document_t *d, yaml_node_t *map, const char *key)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(d, p->key);
		if (k->type == YAML_SCALAR_NODE && !strcmp((char *)k->data.scalar.value, key))
			return yaml_document_get_node(d, p->value);
	}
	return NULL;
}

static json_t *from_table(const char *path, const char *gpu)
{
	struct strbuf text = STRBUF_INIT;
	int saved = util_quiet;
	util_quiet = 1;
	int rc = read_file(path, &text);
	util_quiet = saved;
	if (rc < 0)
		return json_pack("{s:s, s:n, s:s}", "gpu", gpu, "price_usd_per_h", "reason",
				 "no price table (data/gpu-prices.yaml missing)");
	yaml_parser_t p;
	yaml_document_t d;
	json_t *res = NULL;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (unsigned char *)strbuf_str(&text), text.len);
	if (!yaml_parser_load(&p, &d)) {
		res = json_pack("{s:s, s:n, s:s}", "gpu", gpu, "price_usd_per_h", "reason",
				"price table is not valid YAML");
		yaml_parser_delete(&p);
		strbuf_release(&text);
		return res;
	}
	yaml_node_t *root = yaml_document_get_root_node(&d);
	yaml_node_t *list = root && root->type == YAML_MAPPING_NODE ? ynode(&d, root, "gpus") : NULL;
	if (list && list->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++) {
			yaml_node_t *e = yaml_document_get_node(&d, *it);
			if (e->type != YAML_MAPPING_NODE)
				continue;
			const char *m = yscalar(&d, e, "match"), *pr = yscalar(&d, e, "price_usd_per_h");
			if (!m || !pr || !strcasestr(gpu, m))
				continue;
			const char *src = yscalar(&d, e, "source"), *date = yscalar(&d, e, "date");
			res = json_pack("{s:s, s:f, s:s, s:s?, s:s}", "gpu", gpu, "price_usd_per_h",
					atof(pr), "source", src ? src : "data/gpu-prices.yaml", "date", date,
					"from", "data/gpu-prices.yaml");
			break;
		}
	}
	if (!res)
		res = json_pack("{s:s, s:n, s:s}", "gpu", gpu, "price_usd_per_h", "reason",
				"GPU not in data/gpu-prices.yaml; add it with its source, or set cost.price_usd_per_h in the spec");
	yaml_document_delete(&d);
	yaml_parser_delete(&p);
	strbuf_release(&text);
	return res;
}

json_t *cost_price(const char *table_path, const char *gpu_name, double spec_price,
		   const char *spec_source)
{
	if (!gpu_name)
		return json_pack("{s:n, s:n, s:s}", "gpu", "price_usd_per_h", "reason",
				 "host backend: no GPU time was used");
	if (spec_price >= 0)
		return json_pack("{s:s, s:f, s:s, s:s}", "gpu", gpu_name, "price_usd_per_h", spec_price,
				 "source", spec_source ? spec_source : "the experiment spec (cost.price_usd_per_h)",
				 "from", "spec");
	const char *env = getenv("EVIDENT_PRICE_USD_PER_H");
	if (env && *env) {
		char *end;
		double v = strtod(env, &end);
		if (end != env && !*end && v >= 0)
			return json_pack("{s:s, s:f, s:s, s:s}", "gpu", gpu_name, "price_usd_per_h", v,
					 "source", "EVIDENT_PRICE_USD_PER_H", "from", "environment");
		warning("EVIDENT_PRICE_USD_PER_H='%s' is not a price; using the table", env);
	}
	return from_table(table_path, gpu_name);
}

json_t *cost_of_run(json_t *price, double wall_s, double gpu_s)
{
	json_t *p = json_object_get(price, "price_usd_per_h");
	json_object_set_new(price, "wall_s", json_real(wall_s));
	json_object_set_new(price, "gpu_s", json_real(gpu_s));
	if (json_is_number(p))
		json_object_set_new(price, "usd", json_real(json_number_value(p) * gpu_s / 3600.0));
	else
		json_object_set_new(price, "usd", json_null());
	return price;
}

void cost_estimate(const char *store_root, const char *experiment, size_t n_runs, struct cost_estimate *e)
{
	struct query q = QUERY_INIT;
	memset(e, 0, sizeof(*e));
	e->usd = NAN;
	int saved = util_quiet;
	util_quiet = 1; /* a store that cannot be read gives no estimate, not an error */
	int rc = query_open(&q, store_root);
	util_quiet = saved;
	if (rc < 0 || !n_runs)
		goto out;
	size_t pos = q.n;
	const struct batch_record *b;
	while ((b = query_next_batch(&q, experiment, NULL, &pos))) {
		size_t runs = 0;
		for (size_t i = 0; i < b->n_rows; i++)
			runs += b->rows[i].n_runs ? b->rows[i].n_runs : 1;
		if (!runs || !(b->t_wall_s > 0))
			continue;
		double k = (double)n_runs / (double)runs;
		e->have = 1;
		e->per_run_s = b->t_wall_s / (double)runs;
		e->wall_s = b->t_wall_s * k;
		e->gpu_s = isfinite(b->t_gpu_s) ? b->t_gpu_s * k : 0;
		if (b->t_have_usd)
			e->usd = b->t_usd * k;
		snprintf(e->from_batch, sizeof(e->from_batch), "%s", b->run_id ? b->run_id : "?");
		break;
	}
out:
	query_release(&q);
}

/* 95 s -> "1 min 35 s" */
static void add_duration(struct strbuf *out, double s)
{
	if (s < 60)
		strbuf_addf(out, "%.0f s", s < 1 ? 1 : s);
	else if (s < 3600)
		strbuf_addf(out, "%d min %d s", (int)(s / 60), (int)fmod(s, 60));
	else
		strbuf_addf(out, "%d h %d min", (int)(s / 3600), (int)fmod(s / 60, 60));
}

void cost_plan_line(struct strbuf *out, const char *experiment, size_t n_variants, int repeats,
		    const struct cost_estimate *e)
{
	size_t runs = n_variants * (size_t)repeats;
	strbuf_addf(out, "plan: %zu variant%s x %d repeat%s = %zu run%s, interleaved; ", n_variants,
		    n_variants == 1 ? "" : "s", repeats, repeats == 1 ? "" : "s", runs, runs == 1 ? "" : "s");
	if (!e->have) {
		strbuf_addf(out, "no estimate yet: no earlier batch of %s in this store", experiment);
		return;
	}
	strbuf_addstr(out, "estimated ");
	add_duration(out, e->wall_s);
	if (e->gpu_s > 0) {
		strbuf_addf(out, ", %.0f GPU-s", e->gpu_s);
		if (isfinite(e->usd))
			strbuf_addf(out, ", $%.4f", e->usd);
	}
	strbuf_addf(out, " (%.1f s a run in batch %s)", e->per_run_s, e->from_batch);
}
