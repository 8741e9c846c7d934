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
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "backends/protocol.h"
#include "base/runcmd.h"
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

int worker_no_exec(int host)
{
	if (sandbox_no_exec(host) == 0)
		return 0;
	if (getpid() != 1) {
		fprintf(stderr, "evident worker: unboxed, and without the exec filter\n");
		return 0;
	}
	proto_w_failure("crashed", "exec_filter", "the worker could not refuse execve to itself (seccomp)", "load");
	return -1;
}

/* Append file path's lines that start with one of keys (all lines where
 * keys is NULL) to sb, prefixed by tag. */
static void self_file(struct strbuf *sb, const char *tag, const char *path, const char *const *keys)
{
	FILE *f = fopen(path, "r");
	char line[512];
	if (!f) {
		strbuf_addf(sb, "%s -\n", tag);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		int take = !keys;
		for (size_t k = 0; keys && keys[k] && !take; k++)
			take = !strncmp(line, keys[k], strlen(keys[k]));
		if (take)
			strbuf_addf(sb, "%s %s", tag, line);
	}
	fclose(f);
}

static int cmp_cstr(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The files of a process's /proc (proc: "/proc/self", "/proc/PID") that
 * worker_self_hash takes, appended to sb. */
static void self_files(struct strbuf *sb, const char *proc);

/*
 * What the worker's own process is, as a kernel loaded into it could read
 * it, before any kernel code loads: the hash the record keeps as
 * settings.box_self_sha256 and the job's identity compares (report/
 * code_identity.c job_hash).  Red teams 182, 185, 187 and 188 each found
 * more of the runner's process state that reaches the box (umask, limits,
 * scheduling class, THP, a memory policy, a core dump filter, groups, KSM
 * merging, MDWE, a time namespace, a login uid...) and made a fast side
 * batch of an incumbent's exact object under one job hash; so the worker
 * reports what it sees rather than the runner guessing: the stable lines
 * of its /proc/self/status, its limits, personality, core dump filter,
 * KSM state, time namespace offsets, login uid, its environment, current
 * directory and executable, nice value, scheduling class, timer slack,
 * THP and MDWE flags, memory policy, its UTS names and scheduling
 * attributes (a custom slice, clamps).  Whatever the box's filter refuses to
 * read it reads as refused, as the kernel would.  hex gets the hash.
 */
static void self_files(struct strbuf *sb, const char *proc)
{
	static const char *const status_keys[] = { "Umask:", "Uid:", "Gid:", "Groups:", "SigBlk:", "SigIgn:",
						    "CapInh:", "CapPrm:", "CapEff:", "CapBnd:", "CapAmb:",
						    "NoNewPrivs:", "Seccomp:", "Seccomp_filters:",
						    "Speculation", "Cpus_allowed_list:", "Mems_allowed_list:",
						    "THP_enabled:", "untag_mask:", "x86_Thread_features", NULL };
	static const char *const ksm_keys[] = { "ksm_merge_any", "ksm_mergeable", NULL };
	static const struct {
		const char *tag, *leaf;
		const char *const *keys;
	} files[] = { { "status", "status", status_keys },
		      { "limits", "limits", NULL },
		      { "personality", "personality", NULL },
		      { "coredump_filter", "coredump_filter", NULL },
		      { "ksm", "ksm_stat", ksm_keys },
		      { "timens", "timens_offsets", NULL },
		      { "loginuid", "loginuid", NULL },
		      { NULL, NULL, NULL } };
	for (int i = 0; files[i].tag; i++) {
		char path[128];
		snprintf(path, sizeof(path), "%s/%s", proc, files[i].leaf);
		self_file(sb, files[i].tag, path, files[i].keys);
	}
}

void worker_self_outside(int pid, char hex[SHA256_HEX_LEN + 1])
{
	struct strbuf sb = STRBUF_INIT;
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/%d", pid);
	self_files(&sb, proc);
	sha256_hex(sb.buf ? sb.buf : "", sb.len, hex);
	strbuf_release(&sb);
}

static void worker_self_hash(char hex[SHA256_HEX_LEN + 1])
{
	struct strbuf sb = STRBUF_INIT;
	self_files(&sb, "/proc/self");
	size_t n = 0;
	while (environ[n])
		n++;
	const char **env = xcalloc(n + 1, sizeof(*env));
	for (size_t i = 0; i < n; i++)
		env[i] = environ[i];
	qsort(env, n, sizeof(*env), cmp_cstr);
	/* (not the GPU a slot is pinned to: the machine's, as in the
	 * runner's own hash, job.c env_pinned) */
	for (size_t i = 0; i < n; i++)
		if (strncmp(env[i], "CUDA_VISIBLE_DEVICES=", 21) && strncmp(env[i], "CUDA_DEVICE_ORDER=", 18))
			strbuf_addf(&sb, "env %s\n", env[i]);
	free(env);
	char buf[4096];
	strbuf_addf(&sb, "cwd %s\n", getcwd(buf, sizeof(buf)) ? buf : "?");
	ssize_t k = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	buf[k > 0 ? k : 0] = 0;
	strbuf_addf(&sb, "exe %s\n", buf);
	errno = 0;
	int nv = getpriority(PRIO_PROCESS, 0);
	strbuf_addf(&sb, "nice %d %d\n", nv, errno);
	strbuf_addf(&sb, "sched %d\n", sched_getscheduler(0));
	strbuf_addf(&sb, "timerslack %d\n", prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0));
	strbuf_addf(&sb, "thp %d\n", prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0));
	strbuf_addf(&sb, "mdwe %d\n", prctl(66 /* PR_GET_MDWE */, 0, 0, 0, 0));
	int mode = -1;
	long mp = syscall(SYS_get_mempolicy, &mode, NULL, 0UL, NULL, 0UL);
	strbuf_addf(&sb, "mempolicy %ld %d\n", mp, mode);
	/* (red team 189) the UTS names (the box sets the host name, not the
	 * NIS domain name) and the whole of sched_getattr: a custom time
	 * slice (runtime), utilization clamps, flags */
	struct utsname u;
	if (uname(&u) == 0)
		strbuf_addf(&sb, "uname %s|%s|%s|%s|%s|%s\n", u.sysname, u.nodename, u.release, u.version, u.machine,
			    u.domainname);
	struct run_sched_attr sa;
	memset(&sa, 0, sizeof(sa));
#ifdef SYS_sched_getattr
	long sr = syscall(SYS_sched_getattr, 0, &sa, (unsigned int)sizeof(sa), 0U);
#else
	long sr = -1;
#endif
	strbuf_addf(&sb, "sched_attr %ld %u %llu %d %u %llu %llu %llu %u %u\n", sr, sa.policy, sa.flags, sa.nice,
		    sa.priority, sa.runtime, sa.deadline, sa.period, sa.util_min, sa.util_max);
	sha256_hex(sb.buf ? sb.buf : "", sb.len, hex);
	strbuf_release(&sb);
}

json_t *worker_box_seen(int processes)
{
	struct sandbox_seen s;
	sandbox_self_seen(&s);
	char self[SHA256_HEX_LEN + 1];
	worker_self_hash(self);
	json_t *b = json_pack("{s:i, s:i, s:i, s:i, s:I, s:s}", "seccomp", s.seccomp, "seccomp_filters", s.filters,
			      "no_new_privs", s.nnp, "pid_depth", s.pid_depth, "pid", (json_int_t)s.pid, "self_sha256",
			      self);
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
