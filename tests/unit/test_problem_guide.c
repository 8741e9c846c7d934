/*
 * test_problem_guide.c - follows docs/writing-a-problem.md literally: takes
 * every fenced block marked `file=PATH` out of the guide, writes it to PATH
 * in a scratch repository (with only the two ABI headers besides), and
 * checks that problem_load builds and validates the example problem, that
 * `evident help problems` (problem_list_help) lists it, that the example
 * kernel builds through the host backend and passes every distribution at
 * the experiment's shape and at the problem's extra shape, and that the
 * example experiment's shape names exactly the problem's keys.  If the guide
 * drifts from the ABI, this fails.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "backends/backend.h"
#include "backends/problem.h"
#include "run/provenance.h"

#define GUIDE "docs/writing-a-problem.md"

struct block {
	char *path, *text;
};

/* The guide's `file=` blocks (at most max); returns how many. */
static int guide_blocks(struct block *b, int max)
{
	struct strbuf md = STRBUF_INIT;
	assert_int_equal(read_file(GUIDE, &md), 0);
	int n = 0;
	char *text = strbuf_detach(&md, NULL);
	struct strbuf cur = STRBUF_INIT;
	char *path = NULL;
	/* line by line, keeping empty lines (strtok would drop them) */
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (!path && !strncmp(line, "```", 3) && strstr(line, " file=")) {
			path = xstrdup(strstr(line, " file=") + 6);
			rtrim(path);
			strbuf_reset(&cur);
		} else if (path && !strcmp(line, "```")) {
			assert_true(n < max);
			b[n].path = path;
			b[n].text = xstrdup(strbuf_str(&cur));
			n++;
			path = NULL;
		} else if (path) {
			strbuf_addstr(&cur, line);
			strbuf_addch(&cur, '\n');
		}
		line = nl ? nl + 1 : NULL;
	}
	assert_null(path); /* every block is closed */
	strbuf_release(&cur);
	free(text);
	return n;
}

static void write_at(const char *root, const char *rel, const char *text)
{
	char *path = xstrfmt("%s/%s", root, rel), *dir = xstrdup(path);
	*strrchr(dir, '/') = '\0';
	assert_int_equal(mkdir_p(dir, 0755), 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
	free(dir);
	free(path);
}

static void copy_into(const char *root, const char *rel)
{
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(read_file(rel, &sb), 0);
	write_at(root, rel, strbuf_str(&sb));
	strbuf_release(&sb);
}

/* The experiment's shape: {KEY: value, ...} as parallel arrays. */
static size_t spec_shape(const char *yaml_text, char **keys, long long *vals, size_t max)
{
	yaml_parser_t p;
	yaml_document_t d;
	size_t n = 0;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)yaml_text, strlen(yaml_text));
	assert_true(yaml_parser_load(&p, &d));
	yaml_node_t *root = yaml_document_get_root_node(&d);
	assert_int_equal(root->type, YAML_MAPPING_NODE);
	for (yaml_node_pair_t *kv = root->data.mapping.pairs.start; kv < root->data.mapping.pairs.top; kv++) {
		yaml_node_t *k = yaml_document_get_node(&d, kv->key), *v = yaml_document_get_node(&d, kv->value);
		if (strcmp((char *)k->data.scalar.value, "shape"))
			continue;
		assert_int_equal(v->type, YAML_MAPPING_NODE);
		for (yaml_node_pair_t *s = v->data.mapping.pairs.start; s < v->data.mapping.pairs.top; s++) {
			assert_true(n < max);
			keys[n] = xstrdup((char *)yaml_document_get_node(&d, s->key)->data.scalar.value);
			vals[n] = atoll((char *)yaml_document_get_node(&d, s->value)->data.scalar.value);
			n++;
		}
	}
	yaml_document_delete(&d);
	yaml_parser_delete(&p);
	return n;
}

/* Builds the kernel from root, runs it on every distribution at shape. */
static void run_kernel(const char *root, struct problem *p, const char *kernel_rel, const long long *shape,
		       const char *cache)
{
	char *kpath = xstrfmt("%s/%s", root, kernel_rel);
	struct build_request rq = { .kernel_path = kpath, .repo_root = root, .cache_dir = cache };
	struct build_result br = BUILD_RESULT_INIT;
	assert_int_equal(backend_host.build(&rq, &br), 0);
	if (!br.ok)
		fprintf(stderr, "%s", br.log);
	assert_true(br.ok);
	void *h = dlopen(br.so_path, RTLD_NOW | RTLD_LOCAL);
	assert_non_null(h);
	const struct ev_kernel_desc *k = ((ev_kernel_fn)(uintptr_t)dlsym(h, EVIDENT_KERNEL_SYMBOL))();
	assert_string_equal(k->problem, p->name);

	struct ev_launch l;
	memset(&l, 0, sizeof(l));
	l.abi_version = EVIDENT_ABI_VERSION;
	l.struct_size = sizeof(l);
	l.problem = p->name;
	l.n_inputs = p->n_inputs;
	l.n_outputs = p->n_outputs;
	l.scale = problem_scalar(p, shape);
	float **in = problem_inputs_new(p, shape);
	double **ref = problem_outputs_new(p, shape);
	size_t on = problem_tensor_numel(p, p->n_inputs, shape);
	float *out = malloc(on * sizeof(float)), *before = malloc(on * sizeof(float));
	for (int t = 0; t < p->desc->n_tensors; t++) {
		struct ev_tensor *x = t < p->n_inputs ? &l.inputs[t] : &l.outputs[t - p->n_inputs];
		x->data = t < p->n_inputs ? (void *)in[t] : (void *)out;
		x->dtype = EV_F32;
		x->ndim = problem_tensor_dims(p, t, shape, (long long *)x->dims);
	}
	char err[256] = "";
	assert_int_equal(k->init ? k->init(&l, err, sizeof(err)) : 0, 0);
	struct ev_tolerance tol;
	problem_tolerance(p, EV_F32, shape, &tol);
	for (int dist = 0; dist < p->desc->n_dists; dist++) {
		struct check_result r;
		assert_int_equal(problem_fill_rounded(p, shape, dist, 77, EV_F32, in), 0);
		problem_reference(p, shape, (const float *const *)in, ref);
		problem_scramble(out, on * sizeof(float), 3);
		memcpy(before, out, on * sizeof(float));
		assert_int_equal(k->launch(&l), 0);
		problem_check_output(out, before, EV_F32, ref[0], NULL, on, &tol, &r);
		assert_true(r.pass);
	}
	dlclose(h);
	free(out);
	free(before);
	free(kpath);
	problem_buffers_free(in, p->n_inputs);
	problem_buffers_free(ref, p->n_outputs);
	build_result_release(&br);
}

static void test_guide_literally(void **state)
{
	(void)state;
	struct block b[8];
	int n = guide_blocks(b, 8);
	assert_int_equal(n, 3);
	assert_string_equal(b[0].path, "problems/axpy.c");
	assert_string_equal(b[1].path, "kernels/axpy/naive.c");
	assert_string_equal(b[2].path, "experiments/axpy-demo.yaml");

	char tmpl[] = "/tmp/evident-guide-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	char *cache = xstrfmt("%s/cache", tmpl);
	copy_into(tmpl, "problems/evident_problem.h");
	copy_into(tmpl, "kernels/evident_kernel.h");
	for (int i = 0; i < n; i++)
		write_at(tmpl, b[i].path, b[i].text);

	/* evident builds, validates and lists the problem */
	struct problem p = PROBLEM_INIT;
	struct strbuf why = STRBUF_INIT, help = STRBUF_INIT;
	if (problem_load_at(tmpl, "axpy", cache, &p, &why) < 0)
		fprintf(stderr, "the guide's problem does not load: %s\n", strbuf_str(&why));
	assert_non_null(p.desc);
	assert_int_equal(problem_list_help(tmpl, cache, &help), 0);
	assert_non_null(strstr(strbuf_str(&help), "axpy - Y = alpha X + Z"));
	assert_non_null(strstr(strbuf_str(&help), "  shape keys     N\n"));
	assert_non_null(strstr(strbuf_str(&help), "  tensors        in X[N] Z[N]; out Y[N]\n"));
	assert_non_null(strstr(strbuf_str(&help), "cancel"));

	/* the experiment's shape is exactly the problem's keys */
	char *keys[8];
	long long vals[8], shape[EV_PROBLEM_MAX_KEYS], extra[EV_PROBLEM_MAX_KEYS];
	size_t nk = spec_shape(b[2].text, keys, vals, 8);
	assert_int_equal(nk, 1);
	assert_int_equal(problem_shape_from_keys(&p, (const char *const *)keys, vals, nk, shape, &why), 0);
	assert_non_null(strstr(b[2].text, "problem: axpy\n"));
	assert_non_null(strstr(b[2].text, "kernel: kernels/axpy/naive.c\n"));

	/* the kernel passes every distribution, at the spec's and the extra shape */
	run_kernel(tmpl, &p, b[1].path, shape, cache);
	assert_int_equal(p.desc->extra_shape(shape, extra), 0);
	assert_true(extra[0] % 2 == 1);
	run_kernel(tmpl, &p, b[1].path, extra, cache);

	for (size_t i = 0; i < nk; i++)
		free(keys[i]);
	for (int i = 0; i < n; i++) {
		free(b[i].path);
		free(b[i].text);
	}
	problem_release(&p);
	strbuf_release(&why);
	strbuf_release(&help);
	char *cmd = xstrfmt("rm -rf '%s'", tmpl);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(cache);
}

int main(void)
{
	/* problem plug-ins built as the CLI builds them: boxed, two passes */
	problem_build_setup(&prov_view_ops, 0);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guide_literally),
	};
	return cmocka_run_group_tests_name("problem_guide", tests, NULL, NULL);
}
