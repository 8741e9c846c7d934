/*
 * worker.c - what every backend's worker does the same way (worker.h):
 * load the kernel object and check its description, count the process's
 * threads, and describe the launch tensors from the problem plug-in.
 * Everything here runs in the process that holds the kernel under test,
 * so nothing here judges anything: it only reports (protocol.h).
 */
#include "backends/worker.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backends/protocol.h"
#include "base/sandbox.h"

const struct ev_kernel_desc *worker_load_kernel(const struct job *job, const char *backend)
{
	void *h = dlopen(job->kernel_so, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		proto_w_failure("launch_failed", "dlopen", dlerror(), "load");
		return NULL;
	}
	ev_kernel_fn fn = (ev_kernel_fn)(uintptr_t)dlsym(h, EVIDENT_KERNEL_SYMBOL);
	if (!fn) {
		proto_w_failure("launch_failed", "no_symbol",
				"the kernel object does not export evident_kernel(); use EVIDENT_DEFINE_KERNEL",
				"load");
		return NULL;
	}
	const struct ev_kernel_desc *k = fn();
	if (!k || k->abi_version != EVIDENT_ABI_VERSION ||
	    k->struct_size < offsetof(struct ev_kernel_desc, compiled_params)) {
		char *r = xstrfmt("kernel ABI version %u, runner expects %d: rebuild against kernels/evident_kernel.h",
				  k ? k->abi_version : 0, EVIDENT_ABI_VERSION);
		proto_w_failure("launch_failed", "abi_mismatch", r, "load");
		free(r);
		return NULL;
	}
	if (!k->launch || (k->backend && strcmp(k->backend, backend)) ||
	    (k->problem && strcmp(k->problem, job->problem))) {
		char *r = xstrfmt("kernel '%s' is for backend '%s', problem '%s'; the spec asks for '%s', '%s'",
				  k->name ? k->name : "?", k->backend ? k->backend : "?",
				  k->problem ? k->problem : "?", backend, job->problem);
		proto_w_failure("launch_failed", "kernel_mismatch", r, "load");
		free(r);
		return NULL;
	}
	proto_w_send("kernel", json_pack("{s:s, s:s, s:i}", "name", k->name ? k->name : "",
					 "compiled_params", k->compiled_params ? k->compiled_params : "",
					 "threads", worker_thread_count()));
	return k;
}

int worker_no_exec(void)
{
	if (sandbox_no_exec() == 0)
		return 0;
	if (getpid() != 1) {
		fprintf(stderr, "evident worker: unboxed, and without the exec filter\n");
		return 0;
	}
	proto_w_failure("crashed", "exec_filter", "the worker could not refuse execve to itself (seccomp)", "load");
	return -1;
}

json_t *worker_box_seen(int processes)
{
	struct sandbox_seen s;
	sandbox_self_seen(&s);
	json_t *b = json_pack("{s:i, s:i, s:i, s:i, s:I}", "seccomp", s.seccomp, "seccomp_filters", s.filters,
			      "no_new_privs", s.nnp, "pid_depth", s.pid_depth, "pid", (json_int_t)s.pid);
	/* and what the filter does (sandbox_probe.c): where there is one, so
	 * that an unboxed process (--unsandboxed) makes no child */
	if (b && s.seccomp == 2) {
		json_object_set_new(b, "probes", sandbox_probes_json(processes));
		/* and what it mounts (sandbox_mounts.c, red team 132 hole 1b) */
		json_t *m = sandbox_mounts_seen();
		if (m)
			json_object_set_new(b, "mounts", m);
	}
	return b;
}

int worker_thread_count(void)
{
	DIR *d = opendir("/proc/self/task");
	int n = 0;
	if (!d)
		return -1;
	struct dirent *e;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

int worker_dtype(const struct job *job)
{
	return dtype_from_name(job->dtype);
}

void worker_launch_setup(struct ev_launch *l, const struct problem *p, const struct job *job,
			 const long long *shape, int dtype)
{
	memset(l, 0, sizeof(*l));
	l->abi_version = EVIDENT_ABI_VERSION;
	l->struct_size = sizeof(*l);
	l->problem = job->problem;
	l->n_inputs = p->n_inputs;
	l->n_outputs = p->n_outputs;
	for (int t = 0; t < p->desc->n_tensors; t++) {
		struct ev_tensor *x = t < p->n_inputs ? &l->inputs[t] : &l->outputs[t - p->n_inputs];
		x->dtype = dtype;
		x->ndim = p->desc->tensors[t].ndim;
		long long dims[4];
		problem_tensor_dims(p, t, shape, dims);
		for (int k = 0; k < 4; k++)
			x->dims[k] = dims[k];
	}
	l->scale = p->desc->scalar ? p->desc->scalar(shape) : 0;
}

size_t worker_shm_layout(const struct problem *p, const long long *shape, size_t *off)
{
	size_t at = 0;
	for (int t = 0; t < p->desc->n_tensors && t < 8; t++) {
		off[t] = at;
		at += (problem_tensor_numel(p, t, shape) * sizeof(float) + 63) & ~(size_t)63;
	}
	return at ? at : 64;
}
