/*
 * problem_plugin.h - loading a built problem plug-in (problems/NAME.c, ABI
 * in problems/evident_problem.h) into a process, and the few generic
 * things every process does with one: tensor sizes from a shape, inputs
 * drawn and rounded to the dtype, and the judgement of one output against
 * its reference under the tolerance rule.  The worker uses the first two,
 * the checker all three; the parent builds the plug-in (plan.c).
 */
#ifndef EVIDENT_PROBLEM_PLUGIN_H
#define EVIDENT_PROBLEM_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "../../problems/evident_problem.h"
#include "backends/problem.h"

struct plugin {
	void *handle;
	const struct ev_problem_desc *d;
	int n_inputs, n_outputs;
};

/* dlopen so_path and check its descriptor (ABI, name, tensors, functions).
 * 0, or -1 with a one-line reason in err.  The handle is never closed. */
int plugin_open(const char *so_path, const char *name, struct plugin *p, char *err, size_t errlen);

/* dims of tensor t at shape (ndim of them), and its element count */
void plugin_dims(const struct ev_problem_desc *d, int t, const long long *shape, int64_t dims[4]);
size_t plugin_numel(const struct ev_problem_desc *d, int t, const long long *shape);
/* bytes of all outputs of one launch at elem_bytes per element */
size_t plugin_output_bytes(const struct plugin *p, const long long *shape, size_t elem_bytes);

/* Fill the inputs (floats, in tensor order, plugin_numel each) of
 * distribution dist from seed, rounded to dtype as the kernel will see them. */
void plugin_fill_rounded(const struct plugin *p, const long long *shape, int dist, uint64_t seed,
			 int dtype, float *const *inputs);

/*
 * Judge one output (numel elements of dtype as the kernel left them)
 * against ref with the tolerance rule of evident_problem.h; scramble (may
 * be NULL) holds the bits written before the launch: an element still
 * bit-equal to them and out of tolerance is counted as unwritten.
 */
struct judged {
	double max_abs_err, rel_l2, ref_scale;
	long long nan_count, unwritten, mismatches, first_mismatch;
	int pass;
};
void plugin_judge(const void *out, int dtype, const double *ref, const void *scramble, size_t numel,
		  const struct ev_tolerance *tol, struct judged *res);

#endif /* EVIDENT_PROBLEM_PLUGIN_H */
