/*
 * problem_plugin.c - load a problem plug-in and the generic operations on
 * one (contract in problem_plugin.h).
 */
#include "backends/problem_plugin.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

int plugin_open(const char *so_path, const char *name, struct plugin *p, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->handle = dlopen(so_path, RTLD_NOW | RTLD_LOCAL);
	if (!p->handle) {
		snprintf(err, errlen, "cannot load problem '%s': %s", name, dlerror());
		return -1;
	}
	ev_problem_fn fn = (ev_problem_fn)(uintptr_t)dlsym(p->handle, EVIDENT_PROBLEM_SYMBOL);
	const struct ev_problem_desc *d = fn ? fn() : NULL;
	if (!d) {
		snprintf(err, errlen, "problem object '%s' does not export evident_problem()", so_path);
		return -1;
	}
	if (d->abi_version != EVIDENT_PROBLEM_ABI_VERSION || d->struct_size < sizeof(*d)) {
		snprintf(err, errlen, "problem '%s' was built for problem ABI %u (this evident: %d)", name,
			 d->abi_version, EVIDENT_PROBLEM_ABI_VERSION);
		return -1;
	}
	if (!d->name || strcmp(d->name, name)) {
		snprintf(err, errlen, "problems/%s.c defines a problem called '%s'", name, d->name ? d->name : "");
		return -1;
	}
	if (d->n_keys < 1 || d->n_keys > EV_PROBLEM_MAX_KEYS || d->n_tensors < 2 ||
	    d->n_tensors > EV_PROBLEM_MAX_TENSORS || d->n_dists < 1 || d->n_dists > EV_PROBLEM_MAX_DISTS ||
	    !d->fill || !d->reference || !d->tolerance || !d->flops || !d->min_bytes) {
		snprintf(err, errlen, "problem '%s' has an incomplete descriptor (keys, tensors, "
				      "distributions and every function but scalar are required)", name);
		return -1;
	}
	for (int t = 0; t < d->n_tensors; t++) {
		const struct ev_problem_tensor *x = &d->tensors[t];
		if (x->ndim < 1 || x->ndim > 4) {
			snprintf(err, errlen, "problem '%s': tensor %d has %d dimensions", name, t, x->ndim);
			return -1;
		}
		for (int k = 0; k < x->ndim; k++)
			if (x->dims[k] < 0 || x->dims[k] >= d->n_keys) {
				snprintf(err, errlen, "problem '%s': tensor %s names shape key %d of %d", name,
					 x->name, x->dims[k], d->n_keys);
				return -1;
			}
		if (x->is_output)
			p->n_outputs++;
		else if (p->n_outputs) {
			snprintf(err, errlen, "problem '%s': inputs must come before outputs", name);
			return -1;
		} else
			p->n_inputs++;
	}
	if (p->n_inputs < 1 || p->n_inputs > 4 || p->n_outputs < 1 || p->n_outputs > 2) {
		snprintf(err, errlen, "problem '%s': 1-4 inputs and 1-2 outputs fit the kernel ABI", name);
		return -1;
	}
	p->d = d;
	return 0;
}

void plugin_dims(const struct ev_problem_desc *d, int t, const long long *shape, int64_t dims[4])
{
	const struct ev_problem_tensor *x = &d->tensors[t];
	for (int k = 0; k < 4; k++)
		dims[k] = k < x->ndim ? shape[x->dims[k]] : 1;
}

size_t plugin_numel(const struct ev_problem_desc *d, int t, const long long *shape)
{
	int64_t dims[4];
	plugin_dims(d, t, shape, dims);
	return (size_t)(dims[0] * dims[1] * dims[2] * dims[3]);
}

size_t plugin_output_bytes(const struct plugin *p, const long long *shape, size_t elem_bytes)
{
	size_t b = 0;
	for (int t = p->n_inputs; t < p->d->n_tensors; t++)
		b += plugin_numel(p->d, t, shape) * elem_bytes;
	return b;
}

void plugin_fill_rounded(const struct plugin *p, const long long *shape, int dist, uint64_t seed,
			 int dtype, float *const *inputs)
{
	p->d->fill(shape, dist, seed, inputs);
	for (int t = 0; t < p->n_inputs; t++) {
		size_t n = plugin_numel(p->d, t, shape);
		float *x = inputs[t];
		if (dtype == EV_F16)
			for (size_t i = 0; i < n; i++)
				x[i] = f16_to_f32(f32_to_f16(x[i]));
		else if (dtype == EV_BF16)
			for (size_t i = 0; i < n; i++)
				x[i] = bf16_to_f32(f32_to_bf16(x[i]));
	}
}

static double elem(const void *out, int dtype, size_t i)
{
	if (dtype == EV_F16)
		return f16_to_f32(((const uint16_t *)out)[i]);
	if (dtype == EV_BF16)
		return bf16_to_f32(((const uint16_t *)out)[i]);
	return ((const float *)out)[i];
}

static int same_bits(const void *a, const void *b, int dtype, size_t i)
{
	if (dtype == EV_F16 || dtype == EV_BF16)
		return ((const uint16_t *)a)[i] == ((const uint16_t *)b)[i];
	return ((const uint32_t *)a)[i] == ((const uint32_t *)b)[i];
}

void plugin_judge(const void *out, int dtype, const double *ref, const void *scramble, size_t numel,
		  const struct ev_tolerance *tol, struct judged *res)
{
	memset(res, 0, sizeof(*res));
	res->first_mismatch = -1;
	double scale = 0, num = 0, den = 0;
	for (size_t i = 0; i < numel; i++)
		if (fabs(ref[i]) > scale)
			scale = fabs(ref[i]);
	if (!(scale > 0))
		scale = 1;
	res->ref_scale = scale;
	for (size_t i = 0; i < numel; i++) {
		double o = elem(out, dtype, i), r = ref[i];
		den += r * r;
		double e = fabs(o - r);
		int bad = !isfinite(o) || e > tol->atol * scale + tol->rtol * fabs(r);
		if (bad && scramble && same_bits(out, scramble, dtype, i)) {
			res->unwritten++;
		} else if (!isfinite(o)) {
			res->nan_count++;
		} else {
			num += e * e;
			if (e > res->max_abs_err)
				res->max_abs_err = e;
			if (bad)
				res->mismatches++;
		}
		if (bad && res->first_mismatch < 0)
			res->first_mismatch = (long long)i;
	}
	res->rel_l2 = den > 0 ? sqrt(num / den) : sqrt(num);
	res->pass = !res->nan_count && !res->unwritten && !res->mismatches && res->rel_l2 <= tol->rel_l2;
}
