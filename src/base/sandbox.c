/*
 * sandbox.c - the box around processes that run kernel code (sandbox.h):
 * bubblewrap's argv for the namespaces and mounts, the files a box of
 * copies shows (the list of libraries is sandbox_libs.c's, the seccomp
 * programs sandbox_filter.c's), and one probe that proves the box works
 * on this machine.
 */
#include "base/sandbox.h"
#include "base/sandbox_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/elf.h"
#include "base/runcmd.h"

void sandbox_release(struct sandbox *sb)
{
	free(sb->bwrap);
	free(sb->bwrap_real);
	free(sb->bwrap_sha256);
	free(sb->version);
	free(sb->gpu_nodes_why);
	for (char **h = sb->hide; h && *h; h++)
		free(*h);
	free(sb->hide);
	for (char **h = sb->show; h && *h; h++)
		free(*h);
	free(sb->show);
	sandbox_argv_free(sb->loads);
	free(sb->readback_why);
	free(sb->bwrap_verified);
	free(sb->bwrap_unverified);
	for (int i = 0; i < SANDBOX_PROFILES; i++)
		if (sb->filter_fd[i] >= 0)
			close(sb->filter_fd[i]);
	struct sandbox z = SANDBOX_INIT;
	*sb = z;
}

char *sandbox_abs_path(const char *p)
{
	char *abs = realpath(p, NULL), cwd[PATH_MAX];
	if (abs)
		return abs;
	return p[0] == '/' || !getcwd(cwd, sizeof(cwd)) ? xstrdup(p) : xstrfmt("%s/%s", cwd, p);
}

/* prog made a path: itself with a slash, else the first executable of
 * that name in PATH; malloc'd, or NULL. */
static char *program_path(const char *prog)
{
	if (strchr(prog, '/'))
		return sandbox_abs_path(prog);
	const char *path = getenv("PATH");
	char *copy = xstrdup(path && *path ? path : "/usr/bin:/bin"), *save = NULL, *r = NULL;
	for (char *d = strtok_r(copy, ":", &save); d && !r; d = strtok_r(NULL, ":", &save)) {
		char *c = xstrfmt("%s/%s", d, prog);
		if (d[0] == '/' && access(c, X_OK) == 0)
			r = c;
		else
			free(c);
	}
	free(copy);
	return r;
}

/* The bubblewrap to use (malloc'd), or NULL: EVIDENT_BWRAP, else beside
 * this executable, else PATH's. */
static char *find_bwrap(void)
{
	const char *env = getenv("EVIDENT_BWRAP");
	if (env && *env)
		return access(env, X_OK) == 0 ? xstrdup(env) : NULL;
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = 0;
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = 0;
			char *beside = xstrfmt("%s/bwrap", self);
			if (access(beside, X_OK) == 0)
				return beside;
			free(beside);
		}
	}
	return program_path("bwrap");
}

static char **abs_list(const char *const *l)
{
	size_t n = 0;
	while (l && l[n])
		n++;
	char **v = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		v[i] = sandbox_abs_path(l[i]);
	return v;
}

/* what sandbox_fix_loginuid found and did ("": not called yet) */
static char said[512];

const char *sandbox_fix_loginuid(void)
{
	if (said[0])
		return said;
	char b[32] = { 0 };
	int fd = open("/proc/self/loginuid", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, b, sizeof(b) - 1);
	if (fd >= 0)
		close(fd);
	if (n <= 0) {
		snprintf(said, sizeof(said), "none: this kernel shows no /proc/self/loginuid (no audit), so there is no "
					     "session id for a box to take");
		return said;
	}
	unsigned long lu = strtoul(b, NULL, 10);
	if (lu != 4294967295ul) {
		snprintf(said, sizeof(said), "%lu, set before the runner started: no box can change it (no "
					     "CAP_AUDIT_CONTROL)", lu);
		return said;
	}
	char uid[32];
	int len = snprintf(uid, sizeof(uid), "%u", (unsigned)getuid());
	fd = open("/proc/self/loginuid", O_WRONLY | O_CLOEXEC);
	int ok = fd >= 0 && write(fd, uid, (size_t)len) == len, e = errno;
	if (fd >= 0)
		close(fd);
	if (ok)
		snprintf(said, sizeof(said), "%s, set by the runner (its uid) before its first box: it was unset, and a "
					     "box that can write its own /proc entries (a GPU box) could then set its own, taking "
					     "the host's next audit session id, a counter it reads (red team 80); once set, no box "
					     "can change it (no CAP_AUDIT_CONTROL)", uid);
	else
		snprintf(said, sizeof(said), "unset, and the runner could not set it (%s): a box that can write its own "
					     "/proc entries (a GPU box) may set its own, taking the host's next audit session id, "
					     "a counter it reads (red team 80)", strerror(e));
	return said;
}

static void proc_snapshot_prime(void);

int sandbox_init(struct sandbox *sb, int gpu, const char *const *show, const char *const *hide,
		 struct strbuf *why)
{
	struct sandbox z = SANDBOX_INIT;
	*sb = z;
	sb->gpu = gpu;
	proc_snapshot_prime(); /* before any box: the copies every box of this process shows */
	sb->bwrap = find_bwrap();
	if (!sb->bwrap) {
		strbuf_addstr(why, "bubblewrap (bwrap) is not installed: apt-get install bubblewrap, or set "
				   "EVIDENT_BWRAP, or pass --unsandboxed (the record will say so)");
		return -1;
	}
	/* which program it is, before it runs at all (sandbox_tool.c): what
	 * the record names is the binary itself, not its --version line (red
	 * team 131: any executable answers that) */
	sb->bwrap_real = realpath(sb->bwrap, NULL);
	char hex[SHA256_HEX_LEN + 1];
	if (sb->bwrap_real && sha256_file_hex(sb->bwrap_real, hex) == 0)
		sb->bwrap_sha256 = xstrdup(hex);
	struct strbuf tool_why = STRBUF_INIT;
	sb->bwrap_verified = sandbox_tool_known(sb->bwrap_real, sb->bwrap_sha256, &tool_why);
	/* a runner whose own process loads code of its environment's choosing
	 * cannot vouch for what it hashed (red team 134's rpshim: an
	 * LD_PRELOAD'd realpath answered /usr/bin/bwrap for a stand-in) */
	const char *pre = getenv("LD_PRELOAD"), *aud = getenv("LD_AUDIT");
	if (sb->bwrap_verified && ((pre && *pre) || (aud && *aud))) {
		free(sb->bwrap_verified);
		sb->bwrap_verified = NULL;
		strbuf_addf(&tool_why, "the runner itself runs with %s=%s, whose code can answer for what it hashes",
			    pre && *pre ? "LD_PRELOAD" : "LD_AUDIT", pre && *pre ? pre : aud);
	}
	if (!sb->bwrap_verified) {
		const char *anyway = getenv("EVIDENT_BWRAP_UNVERIFIED");
		if (!anyway || strcmp(anyway, "1")) {
			strbuf_addf(why, "bubblewrap '%s' is not one this runner can verify: %s; the boxes' maker is "
					 "part of the judge (red teams 131-133: stand-ins that exec the real one with one "
					 "thing changed): use the system's (apt-get install bubblewrap, and unset "
					 "EVIDENT_BWRAP) or the dist's; EVIDENT_BWRAP_UNVERIFIED=1 runs it anyway, and "
					 "no claim counts those records; or pass --unsandboxed (the record will say so)",
				    sb->bwrap, strbuf_str(&tool_why));
			strbuf_release(&tool_why);
			sandbox_release(sb);
			return -1;
		}
		sb->bwrap_unverified = strbuf_detach(&tool_why, NULL);
	}
	strbuf_release(&tool_why);
	sb->hide = abs_list(hide);
	sb->show = abs_list(show);
	/* before the first box (the proof below): every box inherits it */
	sandbox_fix_loginuid();
	for (int p = 0; p < SANDBOX_PROFILES; p++) {
		sb->filter_fd[p] = sandbox_filter_fd((enum sandbox_profile)p, gpu);
		if (sb->filter_fd[p] < 0) {
			strbuf_addstr(why, "libseccomp could not build the filter; pass --unsandboxed to time without it");
			sandbox_release(sb);
			return -1;
		}
	}
	/* what the programs refuse, learned from the programs themselves: the
	 * answers a worker's probes must match (sandbox_probe.c) */
	if (sandbox_probe_prepare(sb, why) < 0) {
		sandbox_release(sb);
		return -1;
	}
	/* and whether a box's filter can be read back from it (where it can,
	 * every worker's is, at its hello: sandbox_readback.c).  A root runner
	 * can, unless something of its environment stops it (a seccomp filter
	 * on the runner, a tracer, Yama's scope 3: red team 134's noptrace
	 * turned the read-back off, and a stand-in's filter passed the probes):
	 * then its boxes are not verified */
	sandbox_readback_prepare(sb);
	if (!sb->readback_ready && geteuid() == 0 && sb->bwrap_verified) {
		const char *anyway = getenv("EVIDENT_BWRAP_UNVERIFIED");
		if (!anyway || strcmp(anyway, "1")) {
			strbuf_addf(why, "this runner is root but cannot read its boxes' seccomp filters back (%s): something "
					 "of its environment stops it from tracing (a seccomp filter or tracer on the "
					 "runner, Yama's ptrace_scope 3); EVIDENT_BWRAP_UNVERIFIED=1 runs anyway, and no "
					 "claim counts those records; or pass --unsandboxed (the record will say so)",
				    sb->readback_why ? sb->readback_why : "no reason given");
			sandbox_release(sb);
			return -1;
		}
		free(sb->bwrap_verified);
		sb->bwrap_verified = NULL;
		free(sb->bwrap_unverified);
		sb->bwrap_unverified = xstrfmt("a root runner that could not read its boxes' filters back (%s)",
					       sb->readback_why ? sb->readback_why : "no reason given");
	}
	/* its version line, then the proof: `true` in the strict box.  The
	 * line is kept for the process by the binary's path and hash (above):
	 * a second box of the same bubblewrap (the plug-ins' build box, then
	 * the run's) takes it without running it again */
	static char *seen_bwrap, *seen_sha, *seen_version;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	if (seen_version && sb->bwrap_real && sb->bwrap_sha256 && !strcmp(seen_bwrap, sb->bwrap_real) &&
	    !strcmp(seen_sha, sb->bwrap_sha256)) {
		sb->version = xstrdup(seen_version);
	} else {
		const char *vargv[] = { sb->bwrap_real ? sb->bwrap_real : sb->bwrap, "--version", NULL };
		struct run_opts vo = { .argv = vargv, .timeout_s = 10, .out = &out, .err = &err };
		struct run_result vr;
		int ok = run_command(&vo, &vr) == 0 && vr.exited && vr.exit_code == 0;
		sb->version = xstrdup(ok ? strbuf_str(&out) : "unknown");
		sb->version[strcspn(sb->version, "\n")] = 0;
		if (ok && sb->bwrap_real && sb->bwrap_sha256) {
			free(seen_bwrap);
			free(seen_sha);
			free(seen_version);
			seen_bwrap = xstrdup(sb->bwrap_real);
			seen_sha = xstrdup(sb->bwrap_sha256);
			seen_version = xstrdup(sb->version);
		}
	}
	strbuf_reset(&out);
	sb->on = 1;
	/* the proof is kept for the process like the version line: a box of
	 * the same bubblewrap (path and hash) and the same kind (gpu or not)
	 * that already ran `true` here is not asked again (a failed proof is
	 * not kept: it is tried again) */
	static char *proved_bwrap, *proved_sha;
	static int proved_gpu = -1;
	if (proved_bwrap && sb->bwrap_real && sb->bwrap_sha256 && !strcmp(proved_bwrap, sb->bwrap_real) &&
	    !strcmp(proved_sha, sb->bwrap_sha256) && proved_gpu == !!gpu) {
		strbuf_release(&out);
		strbuf_release(&err);
		return 0;
	}
	const char *inner[] = { "true", NULL };
	int keep = -1;
	struct sandbox_files files;
	char **argv = sandbox_wrap(sb, SANDBOX_STRICT, inner, NULL, &files, &keep);
	struct run_opts po = { .argv = (const char *const *)argv, .timeout_s = 20, .out = &out, .err = &err,
			       .merge_stderr = 1, .pass_fd = { keep }, .pass_fd_at = { SANDBOX_SECCOMP_FD },
			       .env_keep = sandbox_env_keep(sb) };
	struct run_result pr;
	int rc = argv && sandbox_files_pass(&files, po.pass_fd, po.pass_fd_at, 1, RUN_MAX_PASS_FD) >= 0
			 ? run_command(&po, &pr)
			 : -1;
	sandbox_argv_free(argv);
	sandbox_files_close(&files);
	if (keep >= 0)
		close(keep);
	if (rc < 0 || !pr.exited || pr.exit_code != 0) {
		strbuf_addf(why, "bubblewrap '%s' cannot set up the sandbox here (%s); on a machine that forbids "
				 "namespaces pass --unsandboxed (the record will say so)",
			    sb->bwrap, out.len ? strbuf_str(&out) : "no reason given");
		while (why->len && why->buf[why->len - 1] == '\n')
			why->buf[--why->len] = 0;
		strbuf_release(&out);
		strbuf_release(&err);
		sandbox_release(sb);
		return -1;
	}
	if (sb->bwrap_real && sb->bwrap_sha256) {
		free(proved_bwrap);
		free(proved_sha);
		proved_bwrap = xstrdup(sb->bwrap_real);
		proved_sha = xstrdup(sb->bwrap_sha256);
		proved_gpu = !!gpu;
	}
	strbuf_release(&out);
	strbuf_release(&err);
	return 0;
}

int sandbox_self_seen(struct sandbox_seen *s)
{
	return sandbox_seen_of(0, s);
}

void sandbox_proc_path(char *buf, size_t n, int pid, const char *leaf)
{
	if (pid > 0)
		snprintf(buf, n, "/proc/%d/%s", pid, leaf);
	else
		snprintf(buf, n, "/proc/self/%s", leaf);
}

int sandbox_seen_of(int pid, struct sandbox_seen *s)
{
	s->seccomp = s->filters = s->nnp = s->pid_depth = -1;
	s->pid = -1;
	char path[64];
	sandbox_proc_path(path, sizeof(path), pid, "status");
	FILE *f = fopen(path, "re");
	if (!f && pid <= 0 && errno == ENOENT) {
		/* a box with no /proc (SANDBOX_VIEW_COPIES_NO_PROC): what
		 * prctl says of the filter and no_new_privs; the runner reads
		 * the rest from outside (run/job.c) */
		int sc = prctl(PR_GET_SECCOMP, 0, 0, 0, 0), nn = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
		s->seccomp = sc >= 0 ? sc : -1;
		s->nnp = nn >= 0 ? nn : -1;
		s->pid = getpid();
		return 0;
	}
	if (!f)
		return -1;
	char line[512];
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Seccomp:", 8))
			s->seccomp = atoi(line + 8);
		else if (!strncmp(line, "Seccomp_filters:", 16))
			s->filters = atoi(line + 16);
		else if (!strncmp(line, "NoNewPrivs:", 11))
			s->nnp = atoi(line + 11);
		else if (!strncmp(line, "NSpid:", 6)) {
			char *p = line + 6, *end;
			s->pid_depth = 0;
			for (;;) {
				long v = strtol(p, &end, 10);
				if (end == p)
					break;
				s->pid_depth++;
				s->pid = v;
				p = end;
			}
		}
	}
	fclose(f);
	return 0;
}

int sandbox_seen_ok(const struct sandbox_seen *w, const char *tool, struct strbuf *why)
{
	struct sandbox_seen me;
	sandbox_self_seen(&me);
	const char *miss = NULL;
	if (w->seccomp != 2)
		miss = "no seccomp filter (Seccomp: not 2)";
	else if (w->filters >= 0 && me.filters >= 0 && w->filters <= me.filters)
		miss = "no seccomp filter beyond the runner's own (Seccomp_filters: no more than the runner's)";
	else if (w->nnp != 1)
		miss = "no no_new_privs (NoNewPrivs: not 1)";
	if (!miss)
		return 1;
	strbuf_addf(why, "the box that bubblewrap '%s' made shows %s: the worker read its own /proc/self/status "
			 "before any kernel code loaded (or the runner its /proc/PID/status, where the box has no /proc) (Seccomp %d, Seccomp_filters %d against the runner's %d, "
			 "NoNewPrivs %d); nothing is timed in a box that is not the one asked for: use a bubblewrap "
			 "that applies --seccomp (unset EVIDENT_BWRAP), or pass --unsandboxed (the record will say so)",
		    tool ? tool : "?", miss, w->seccomp, w->filters, me.filters, w->nnp);
	return 0;
}

int sandbox_userns_ok(int pid, const char *tool, struct strbuf *why)
{
	char path[64], box[64], me[64];
	snprintf(path, sizeof(path), "/proc/%d/ns/user", pid);
	ssize_t nb = pid > 0 ? readlink(path, box, sizeof(box) - 1) : -1;
	ssize_t nm = readlink("/proc/self/ns/user", me, sizeof(me) - 1);
	if (nb < 0 && pid > 0 && kill(pid, 0) < 0)
		return 1; /* gone since it was found: nothing more to see of it */
	if (nb > 0 && nm > 0) {
		box[nb] = me[nm] = 0;
		if (strcmp(box, me))
			return 1;
	}
	strbuf_addf(why, "the box that bubblewrap '%s' made has no user namespace of its own (its first process, "
			 "host pid %d, shows %s, the runner %s): a box in the runner's reads the host's per-user counts "
			 "(SigQ: its neighbours' queued signals); nothing is timed in a box that is not the one asked "
			 "for: use a bubblewrap that applies --unshare-user (unset EVIDENT_BWRAP), or pass "
			 "--unsandboxed (the record will say so)",
		    tool ? tool : "?", pid, nb > 0 ? box : "nothing", nm > 0 ? me : "nothing");
	return 0;
}

int sandbox_pidns_ok(int pid, const char *tool, struct strbuf *why)
{
	struct sandbox_seen me, box;
	sandbox_self_seen(&me);
	if (pid <= 0 || (sandbox_seen_of(pid, &box) < 0 && kill(pid, 0) == 0)) {
		strbuf_addf(why, "the box that bubblewrap '%s' made could not be seen (no pid 1 of it in this /proc): "
				 "nothing is timed in a box that is not observed; pass --unsandboxed (the record will "
				 "say so)",
			    tool ? tool : "?");
		return 0;
	}
	/* gone since it was found (it ended): nothing more to see of it */
	if (box.pid_depth < 0 && kill(pid, 0) < 0)
		return 1;
	/* its innermost pid is 1, or 0 where the process is ending and its
	 * namespace is gone already (t0034's four runners at once, make test
	 * 2026-12-02: "NSpid depth 2, innermost pid 0" refused an honest box);
	 * the depth says it had a namespace of its own either way */
	if (box.pid_depth >= 1 && me.pid_depth >= 1 && box.pid_depth > me.pid_depth && (box.pid == 1 || box.pid == 0))
		return 1;
	strbuf_addf(why, "the box that bubblewrap '%s' made has no PID namespace of its own (its first process, "
			 "host pid %d, shows NSpid depth %d, innermost pid %ld, against the runner's depth %d): "
			 "nothing is timed in a box that is not the one asked for: use a bubblewrap that applies "
			 "--unshare-pid (unset EVIDENT_BWRAP), or pass --unsandboxed (the record will say so)",
		    tool ? tool : "?", pid, box.pid_depth, box.pid, me.pid_depth);
	return 0;
}

void argvb_push(struct argvb *a, const char *s)
{
	if (a->n + 2 > a->alloc) {
		a->alloc = a->alloc ? 2 * a->alloc : 64;
		a->v = xrealloc(a->v, a->alloc * sizeof(char *));
	}
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

int argvb_has(const struct argvb *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return 1;
	return 0;
}

static void push3(struct argvb *a, const char *x, const char *y, const char *z)
{
	argvb_push(a, x);
	argvb_push(a, y);
	if (z)
		argvb_push(a, z);
}

/* The namespaces every box gets, before its mounts. */
static void push_namespaces(struct argvb *a, const struct sandbox *sb)
{
	/* the file that was hashed and verified (sandbox_tool.c), not the
	 * name, which may be a link swapped since (red team 134's swaplink) */
	argvb_push(a, sb->bwrap_real ? sb->bwrap_real : sb->bwrap);
	argvb_push(a, "--die-with-parent");
	argvb_push(a, "--new-session");
	argvb_push(a, "--unshare-pid");
	/* the worker is the namespace's pid 1: no reaper beside it to see,
	 * and every process it may start (relaxed) dies with it */
	argvb_push(a, "--as-pid-1");
	argvb_push(a, "--unshare-ipc");
	argvb_push(a, "--unshare-net");
	argvb_push(a, "--unshare-uts");
	/* one host name in every box: the UTS namespace starts as a copy of
	 * the runner's, and red team 189's kernel read the name a root
	 * wrapper had set (`unshare -u`, hostname) by uname() and ran fast
	 * in a side batch that held honest challengers (2 of 2); the rest of
	 * uname (the NIS domain name, which bubblewrap does not set) is in
	 * the worker's own hash (backends/worker.c worker_self_hash) */
	push3(a, "--hostname", "evident", NULL);
	argvb_push(a, "--unshare-cgroup-try");
	/* A host box gets a user namespace of its own, so that the kernel's
	 * per-user counts it reads are its box's alone.  Every box is root
	 * where the runner is, and without it the `SigQ:` of a box's
	 * /proc/self/status was root's host-wide count of queued signals:
	 * the runner's SIGSTOPs pending on a pool neighbour showed there, and
	 * a box's kill() of standard signals to itself moved it by ~21 levels
	 * for its neighbour to read (red teams 158 and 160).  The kernel
	 * charges a queued signal to its receiver's namespace (and those
	 * above), and a box reads its own.  (An unprivileged runner's
	 * bubblewrap makes one anyway.)  A GPU box too: on an H200 (driver
	 * 580, 2026-12-04) the sealed suite, dynamic parallelism, red team
	 * 163's suite and iter1's trust: host variants (cuDNN, cuBLAS) ran
	 * with the outcomes and medians they have without it
	 * (data/gpu-evidence/h200-session-20261204-1210-rt163-uns.txt). */
	argvb_push(a, "--unshare-user");
	push3(a, "--cap-drop", "ALL", NULL);
}

/* /proc's global entries (not a process's, not a link such as self or
 * mounts), appended to *out as "/proc/NAME", and whether each is a
 * directory, to *is_dir (the caller's array of at least 256, or NULL).
 * The number appended. */
static int proc_globals(struct argvb *out, char *is_dir)
{
	int n = 0;
	DIR *d = opendir("/proc");
	struct dirent *e;
	while (d && n < 256 && (e = readdir(d))) {
		const char *name = e->d_name;
		if (!strcmp(name, ".") || !strcmp(name, "..") || name[strspn(name, "0123456789")] == 0)
			continue;
		char path[PATH_MAX];
		struct stat st;
		snprintf(path, sizeof(path), "/proc/%s", name);
		if (lstat(path, &st) < 0 || S_ISLNK(st.st_mode))
			continue;
		if (is_dir)
			is_dir[n] = S_ISDIR(st.st_mode);
		argvb_push(out, path);
		n++;
	}
	if (d)
		closedir(d);
	return n;
}

/*
 * /dev: bubblewrap's (null, zero, full, random, urandom, tty, a devpts of
 * its own), with that devpts hidden under an empty read-only tmpfs: a new
 * devpts instance still draws on the host's one pool of ptys beyond
 * kernel.pty.reserve, and red team 95's ptycount opened all of them (3071
 * in 62 ms), so every container on the host was refused a pty while the
 * box lived and the count told the box how many the rest held.  No
 * worker, compiler or tool of evident's opens a pty; /dev/ptmx (a link to
 * pts/ptmx) then names nothing.
 */
/* bounded (a host kernel's box): /dev/shm a tmpfs of 64 MiB, then /dev
 * itself read-only.  bubblewrap's --dev is a tmpfs of the default size,
 * half the RAM, and /dev/shm a directory in it: a box wrote 1 GiB to each
 * as memory no process holds, past the bounded scratch mounts (red team
 * 218).  The device nodes stay writable (they are binds of the host's). */
static void push_dev(struct argvb *a, int bounded)
{
	push3(a, "--dev", "/dev", NULL);
	push3(a, "--tmpfs", "/dev/pts", NULL);
	push3(a, "--remount-ro", "/dev/pts", NULL);
	if (!bounded)
		return;
	push3(a, "--size", "67108864", NULL);
	push3(a, "--tmpfs", "/dev/shm", NULL);
	push3(a, "--remount-ro", "/dev", NULL);
}

/*
 * The box's own /proc (its PID namespace's), read-only.  Where the runner
 * is root (the GPU hosts), so is the box's process: bubblewrap drops its
 * capabilities, but the host kernel checks the files of /proc/sys by
 * owner alone, and bubblewrap 0.8 covers /proc/sys only when the
 * directory itself answers access(W_OK), which /proc/sys never does.  So
 * from a writable /proc a kernel set the host's kernel.core_pattern,
 * which runs a command of its choice as root outside every box at the
 * next core dump (red team 3, sysctl_escape).
 *
 * A host box (gpu 0) gets the whole /proc read-only: nothing it runs
 * writes there, and its own process entries are no exception - through
 * /proc/self/oom_score_adj a kernel lowered the score that makes it the
 * OOM killer's first choice, wherever the runner lacks CAP_SYS_RESOURCE
 * (red team 4, oom_undo).
 *
 * A GPU box keeps its own processes' entries writable and binds every
 * other entry (sys, sysrq-trigger, irq, driver, ...: whatever this kernel
 * has, not a list of known knobs) read-only over itself: the CUDA driver
 * names its threads through /proc/self/task/N/comm, and a wholly
 * read-only /proc made cuInit fail with "OS call failed" (measured on the
 * H100).  There a kernel can lower its own oom_score_adj only where the
 * runner lacks CAP_SYS_RESOURCE (run as root, the runner's write of 1000
 * raised the floor too), and the parent makes that a protocol violation
 * (run/job.c note_oom); the record says what the worker had
 * (judge.sandbox.oom_score_adj).
 */
static void push_proc(struct argvb *a, int gpu)
{
	push3(a, "--proc", "/proc", NULL);
	if (!gpu) {
		push3(a, "--remount-ro", "/proc", NULL);
		return;
	}
	struct argvb g = { 0 };
	proc_globals(&g, NULL);
	for (size_t i = 0; i < g.n; i++)
		push3(a, "--ro-bind-try", g.v[i], g.v[i]);
	sandbox_argv_free(g.v);
}


/* What the CUDA driver, NVML and the C library read of /proc's global
 * entries as a worker starts (an strace of a sealed run on an H200,
 * 2026-11-30: the CPU and memory descriptions, the device majors, the
 * driver's params, the kernel's release, mmap_min_addr), shown to a box
 * of copies as copies (push_proc_copies, proc_copies); patterns glob(3)
 * expands. */
static const char *const proc_copied[] = {
	"/proc/cpuinfo", "/proc/meminfo", "/proc/devices", "/proc/version", "/proc/sys/kernel/osrelease",
	"/proc/sys/vm/mmap_min_addr", "/proc/sys/vm/overcommit_memory", "/proc/sys/kernel/pid_max",
	"/proc/driver/nvidia/params", "/proc/driver/nvidia/version", "/proc/driver/nvidia/gpus/*/information", NULL,
};

/*
 * The /proc of a box of copies (a host box, a sealed kernel's GPU box):
 * its own, and none of the host's global entries live: every global
 * directory an empty tmpfs (appended to *dirs, to be remounted read-only
 * once the copies are in), every global file /dev/null, read-only, but
 * the copies of proc_copied.  Binding the host's global entries over the
 * box's own (as a trust: host kernel's GPU box still does) left every
 * lookup a positive dentry in the host's /proc that outlived the box, a
 * run count (red team 32's procdent, through /proc/irq and /proc/bus/pci:
 * 39.9 to 189.9 us over six repeats on an H200); and the global files are
 * host-wide counters a box can move and the next one read (red team 33:
 * /proc/vmstat's unevictable_pgs_mlocked, moved by mlock; red team 57:
 * /proc/stat's processes, /proc/interrupts).  A host box's /proc is
 * read-only as a whole (gpu 0); a GPU box keeps its processes' entries
 * writable, the CUDA driver names its threads there.
 */
static void push_proc_copies(struct argvb *a, struct argvb *dirs, struct argvb *masks, int gpu)
{
	push3(a, "--proc", "/proc", NULL);
	if (!gpu)
		push3(a, "--remount-ro", "/proc", NULL);
	struct argvb g = { 0 };
	char is_dir[256];
	int n = proc_globals(&g, is_dir);
	for (int i = 0; i < n; i++) {
		int copied = 0;
		for (int k = 0; proc_copied[k] && !copied; k++)
			copied = !strcmp(proc_copied[k], g.v[i]);
		if (is_dir[i]) {
			push3(a, "--tmpfs", g.v[i], NULL);
			argvb_push(dirs, g.v[i]);
		} else if (!copied) {
			argvb_push(masks, g.v[i]);
		}
	}
	sandbox_argv_free(g.v);
}

/*
 * The /proc of a host kernel's box (SANDBOX_VIEW_COPIES_NO_PROC): no
 * procfs at all, a tmpfs (appended to *dirs, to be remounted read-only
 * once the copies of proc_copied are in) with the link /proc/self/exe to
 * the worker (the loader expands the worker's $ORIGIN through it).  In a
 * box's own procfs every lookup of a process's entry that is not in the
 * dentry cache makes an inode numbered by get_next_ino(), one counter of
 * the host's: a descriptor's /proc/self/fd/N looked up and dropped, a new
 * thread's /proc/self/task/TID.  A box moved it by ten thousands and the
 * next box read where it stood (a bit in which 64K of a 128K block): red
 * team 210's incumbent slowed itself 8x whenever a box of its own had run
 * before it, and eval promoted copies of its code 6 of 6 (descriptors'
 * entries) and 4 of 4 (threads' entries) in fresh stores.  What the worker
 * read of its own /proc (its status, limits, mounts), the runner reads
 * from outside before the kernel loads (run/job.c box_outside).
 */
static void push_no_proc(struct argvb *a, struct argvb *dirs, const char *prog)
{
	push3(a, "--tmpfs", "/proc", NULL);
	argvb_push(dirs, "/proc");
	char *path = prog ? program_path(prog) : NULL, *real = path ? realpath(path, NULL) : NULL;
	free(path);
	if (real)
		push3(a, "--symlink", real, "/proc/self/exe");
	free(real);
}

int sandbox_view_no_proc(const struct sandbox *sb, enum sandbox_view view)
{
	return sb->on && !sb->gpu && view == SANDBOX_VIEW_COPIES_NO_PROC;
}

/*
 * /proc's copies as this process first read them: every box it makes
 * shows the same bytes.  /proc/meminfo read as each box started was the
 * host's memory at that moment (MemFree, Cached, Dirty, Shmem): a box
 * that filled its stdout moved Cached by the ~4 MB the runner keeps of it
 * and the next box read the bit (red team 213's cachechan: eval promoted
 * copies of a self-slowing incumbent 7 of 8); cpuinfo's "cpu MHz" moves
 * with load the same way.  Read at sandbox_init (proc_snapshot_prime),
 * before any box of this runner, so a pool's slots share it.
 */
struct proc_snap {
	char *path; /* as proc_copied's glob found it */
	char *data;
	size_t len;
};
static struct proc_snap proc_snaps[48];
static size_t n_proc_snaps;

/* The whole of path (a /proc file: read to its end) in *len bytes, or
 * NULL; the caller frees it. */
static char *read_proc_whole(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size_t cap = 16384, n = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (n == cap)
			buf = xrealloc(buf, cap *= 2);
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r < 0) {
				free(buf);
				buf = NULL;
			}
			break;
		}
		n += (size_t)r;
	}
	close(fd);
	*len = n;
	return buf;
}

static void proc_snapshot_prime(void)
{
	static int primed;
	if (primed)
		return;
	primed = 1;
	for (int i = 0; proc_copied[i]; i++) {
		glob_t g;
		if (glob(proc_copied[i], 0, NULL, &g) != 0)
			continue;
		for (size_t k = 0; k < g.gl_pathc && k < 16 && n_proc_snaps < sizeof(proc_snaps) / sizeof(proc_snaps[0]);
		     k++) {
			size_t len;
			char *data = read_proc_whole(g.gl_pathv[k], &len);
			if (!data)
				continue;
			proc_snaps[n_proc_snaps++] = (struct proc_snap){ xstrdup(g.gl_pathv[k]), data, len };
		}
		globfree(&g);
	}
}

/* A descriptor of a fresh memfd holding path's bytes as this process
 * first read them (proc_snaps), its offset at 0; -1 where path has none
 * (errno ENOENT) or the memfd failed.  The caller closes it. */
static int proc_snapshot_fd(const char *path)
{
	proc_snapshot_prime();
	for (size_t i = 0; i < n_proc_snaps; i++) {
		if (strcmp(proc_snaps[i].path, path))
			continue;
		int fd = memfd_create("evident-proc-copy", MFD_CLOEXEC | MFD_ALLOW_SEALING);
		if (fd >= 0 && (write_all(fd, proc_snaps[i].data, proc_snaps[i].len) < 0 || lseek(fd, 0, SEEK_SET) < 0 ||
				sandbox_memfd_seal(fd) < 0)) {
			close(fd);
			fd = -1;
		}
		return fd;
	}
	errno = ENOENT;
	return -1;
}

/* proc_copied's files that exist, appended to roots (each once). */
static void proc_copies(struct argvb *roots)
{
	for (int i = 0; proc_copied[i]; i++) {
		glob_t g;
		if (glob(proc_copied[i], 0, NULL, &g) != 0)
			continue;
		for (size_t k = 0; k < g.gl_pathc && k < 16; k++)
			if (access(g.gl_pathv[k], R_OK) == 0 && !argvb_has(roots, g.gl_pathv[k]))
				argvb_push(roots, g.gl_pathv[k]);
		globfree(&g);
	}
}

/* The seccomp argument, the end of bwrap's options, and the child's own
 * descriptor of the profile's program in *filter_fd: bubblewrap reads
 * the program to its end, and a dup would share the offset with every
 * other spawn. */
static void push_seccomp(struct argvb *a, const struct sandbox *sb, enum sandbox_profile prof, int *filter_fd)
{
	char fdtxt[16];
	snprintf(fdtxt, sizeof(fdtxt), "%d", SANDBOX_SECCOMP_FD);
	push3(a, "--seccomp", fdtxt, NULL);
	argvb_push(a, "--");
	char self[64];
	snprintf(self, sizeof(self), "/proc/self/fd/%d", sb->filter_fd[prof]);
	*filter_fd = open(self, O_RDONLY | O_CLOEXEC);
}

/* The system's software: what gcc and nvcc (and the cicc, ptxas,
 * fatbinary, as and ld they start), the runner and a kernel's libraries
 * load.  /etc is not shown whole (on the GPU hosts the runner is root,
 * and /etc/shadow would be readable): only the dynamic loader's cache and
 * the alternatives that /usr/bin/cc points through. */
static const char *const toolchain[] = {
	"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
	"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives", NULL,
};

/* toolchain[] into an empty root, read-only; a symlink (merged /usr:
 * /bin -> usr/bin) as the same symlink. */
static void push_system(struct argvb *a)
{
	for (int i = 0; toolchain[i]; i++) {
		struct stat st;
		if (lstat(toolchain[i], &st) < 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			char to[PATH_MAX];
			ssize_t n = readlink(toolchain[i], to, sizeof(to) - 1);
			if (n > 0) {
				to[n] = 0;
				push3(a, "--symlink", to, toolchain[i]);
			}
		} else {
			push3(a, "--ro-bind", toolchain[i], toolchain[i]);
		}
	}
}

/* The directories of a path list ("a:b:c"), absolute and existing, read-only;
 * never the root itself (that would show the host's whole file system). */
static void push_path_list(struct argvb *a, const char *list)
{
	if (!list || !*list)
		return;
	char *copy = xstrdup(list), *save = NULL;
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
		if (d[0] == '/' && is_dir(d)) {
			char *r = sandbox_abs_path(d);
			if (strcmp(r, "/"))
				push3(a, "--ro-bind", r, r);
			free(r);
		}
	free(copy);
}

/* What a GPU worker may load from outside the system's directories: the
 * CUDA toolkit where CUDA_HOME or CUDA_PATH put it (libcupti), and the
 * harness that EVIDENT_CUDA_HARNESS names. */
static void push_gpu_software(struct argvb *a)
{
	static const char *const dirs[] = { "CUDA_HOME", "CUDA_PATH", NULL };
	for (int i = 0; dirs[i]; i++)
		push_path_list(a, getenv(dirs[i]));
	const char *h = getenv("EVIDENT_CUDA_HARNESS");
	if (h && *h && access(h, R_OK) == 0) {
		char *r = sandbox_abs_path(h);
		push3(a, "--ro-bind", r, r);
		free(r);
	}
}

/* Does name look like a shared object: "x.so" or "x.so.N..."? */
static int shared_object_name(const char *name)
{
	size_t n = strlen(name);
	if (n > 3 && !strcmp(name + n - 3, ".so"))
		return 1;
	for (const char *p = strstr(name, ".so."); p; p = strstr(p + 1, ".so."))
		if (p[4] >= '0' && p[4] <= '9')
			return 1;
	return 0;
}

int sandbox_lib_dir(const char *dir)
{
	char *abs = sandbox_abs_path(dir);
	int ok = strcmp(abs, "/") != 0;
	DIR *d = ok ? opendir(abs) : NULL;
	struct dirent *e;
	ok = 0;
	while (d && !ok && (e = readdir(d)))
		ok = shared_object_name(e->d_name);
	if (d)
		closedir(d);
	free(abs);
	return ok;
}

/* The variables of the runner's environment a boxed process gets (runcmd.h
 * env_keep): what the locale, the GPU's selection, a kernel's threading
 * libraries, the sanitized build and evident itself read (not TERM: no
 * boxed process writes to a terminal, and a kernel that read it told a
 * tmux shell's batch from another's: red team 182).  The rest
 * (tokens, credentials, a CI's secrets) never reaches kernel code, which
 * could print it into its stored log (red team 3, host_files).  Not the
 * loader's LD_LIBRARY_PATH: bubblewrap itself would load its libraries
 * (libselinux, libcap) by it, so whoever sets it could change what the
 * verified binary does (sandbox_tool.c); the box's processes get it from
 * inside, `--setenv` (push_library_path).  Not EVIDENT_STORE ("!": left
 * out whatever a later pattern admits): no boxed process reads it, and it
 * told a kernel the store's path and split the job hash by how the store
 * was spelled (red team 222: a search start that slowed with the clock,
 * held by the drift rule in its own store, was promoted against through a
 * symlink to it). */
static const char *const env_keep[] = {
	"PATH", "LANG", "LANGUAGE", "LC_*", "TZ",
	"CUDA_*", "NVIDIA_*",
	"OMP_*", "GOMP_*", "KMP_*", "MKL_*", "OPENBLAS_*",
	"ASAN_*", "UBSAN_*", "LSAN_*",
	"!EVIDENT_STORE", "EVIDENT_*", NULL,
};

const char *const *sandbox_env_keep(const struct sandbox *sb)
{
	return sb->on ? env_keep : NULL;
}


/* A coverage build's boxes (`make san-cover`: scripts/cli-coverage.sh
 * compiles with -DEVIDENT_COVERAGE) write their gcov counts under
 * EVIDENT_COV_PREFIX, bound writable and named in the box's own argv, so
 * the box's mount check finds the mount asked for (the bubblewrap
 * wrapper that added it before was refused by that check since red
 * team 132).  Any other build ignores the variable. */
static void push_coverage(struct argvb *a)
{
#ifdef EVIDENT_COVERAGE
	const char *p = getenv("EVIDENT_COV_PREFIX");
	if (p && p[0] == '/' && mkdir_p(p, 0755) == 0) {
		push3(a, "--bind", p, p);
		push3(a, "--setenv", "GCOV_PREFIX", p);
	}
#else
	(void)a;
#endif
}
/* the runner's LD_LIBRARY_PATH for the box's processes, set inside the box
 * (bubblewrap's own environment has none: env_keep) */
static void push_library_path(struct argvb *a)
{
	const char *llp = getenv("LD_LIBRARY_PATH");
	if (llp && *llp)
		push3(a, "--setenv", "LD_LIBRARY_PATH", llp);
}

/* "/dev/nvidiaN" with N digits: one GPU's own node (not nvidiactl,
 * nvidia-uvm, nvidia-modeset, nvidia-caps, nvidia-nvswitchN...).  Its N in
 * *minor. */
static int gpu_node(const char *path, int *minor)
{
	const char *n = strncmp(path, "/dev/nvidia", 11) ? NULL : path + 11;
	if (!n || !*n || n[strspn(n, "0123456789")] || strlen(n) > 6)
		return 0;
	*minor = atoi(n);
	return 1;
}

char **sandbox_gpu_binds(const char *const *nodes, int minor, int *one)
{
	struct argvb a = { 0 };
	int found = 0, m;
	for (int i = 0; minor >= 0 && nodes && nodes[i]; i++)
		found |= gpu_node(nodes[i], &m) && m == minor;
	for (int i = 0; nodes && nodes[i]; i++) {
		if (found && gpu_node(nodes[i], &m) && m != minor)
			continue;
		/* a directory of nodes (/dev/nvidia-caps) node by node: bound
		 * whole, it was the host's /dev directory, writable to the box
		 * (red team 33 made and removed a file there) */
		struct stat st;
		glob_t g;
		char *pat = NULL;
		if (stat(nodes[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			pat = xstrfmt("%s/*", nodes[i]);
			if (glob(pat, 0, NULL, &g) == 0) {
				for (size_t k = 0; k < g.gl_pathc; k++)
					if (stat(g.gl_pathv[k], &st) == 0 && S_ISCHR(st.st_mode))
						push3(&a, "--dev-bind", g.gl_pathv[k], g.gl_pathv[k]);
				globfree(&g);
			}
			free(pat);
			continue;
		}
		push3(&a, "--dev-bind", nodes[i], nodes[i]);
	}
	if (!a.v)
		a.v = xcalloc(1, sizeof(char *));
	if (one)
		*one = found;
	return a.v;
}

void sandbox_pin_gpu(struct sandbox *sb, int minor, const char *why)
{
	sb->gpu_minor = minor < 0 ? -1 : minor;
	free(sb->gpu_nodes_why);
	sb->gpu_nodes_why = minor < 0 && why ? xstrdup(why) : NULL;
}

/* Why the last box could not be set up (sandbox_wrap_fresh's why): a box
 * is set up by one thread of the runner at a time. */
static struct strbuf box_why = STRBUF_INIT;

int sandbox_box_fail(const char *fmt, ...)
{
	va_list ap;
	strbuf_reset(&box_why);
	va_start(ap, fmt);
	strbuf_vaddf(&box_why, fmt, ap);
	va_end(ap);
	return -1;
}

void sandbox_set_loads(struct sandbox *sb, const char *const *paths)
{
	struct argvb l = { 0 };
	for (int i = 0; paths && paths[i]; i++)
		if (paths[i][0] == '/' && access(paths[i], R_OK) == 0)
			argvb_push(&l, paths[i]);
	sandbox_argv_free(sb->loads);
	sb->loads = l.v;
}

/* Is path under dir (or dir itself)? */
static int path_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == 0);
}

/* The mounts of a box of copies that stay writable or are no tmpfs of
 * the box's: its scratch tmpfs, its /proc, its /dev. */
static const char *const scratch_dirs[] = { "/tmp", "/var/tmp", "/run", NULL };
static const char *const other_mounts[] = { "/proc", "/dev", NULL };

/*
 * May the copy at path be written as a plain file of the box's tmpfs
 * (bwrap --file) rather than bound over its place (--ro-bind-data)?  Only
 * where the mount that holds it is a tmpfs of the box's that is made
 * read-only before the box's program starts: the root (remounted
 * read-only last), a mask of the store or the build cache, a global
 * directory of /proc (ro_mounts: those the caller remounts), the
 * innermost such mount by its path.  Under /tmp, /var/tmp or /run (the
 * box's own, writable) a file could be rewritten by the box, and /proc's
 * files are procfs's: there the copy stays a read-only bind.  ro_mounts
 * NULL: never (a box that binds the host's directories, where a file
 * would be made in the host's).  A bind costs bubblewrap 0.8 a mount and
 * a read of the whole /proc/self/mountinfo (bind_mount), a file neither:
 * 18 of a host worker's 22 copies, about 6 of its 31 ms of setup CPU
 * (measured on this VM, 2026-12-01).
 */
static int copy_as_file(const char *path, const struct argvb *ro_mounts)
{
	if (!ro_mounts)
		return 0;
	const char *best = "/";
	int ro = 1;
	for (size_t i = 0; i < ro_mounts->n; i++)
		if (path_under(path, ro_mounts->v[i]) && strlen(ro_mounts->v[i]) > strlen(best))
			best = ro_mounts->v[i], ro = 1;
	for (int k = 0; k < 2; k++)
		for (const char *const *m = k ? other_mounts : scratch_dirs; *m; m++)
			if (path_under(path, *m) && strlen(*m) >= strlen(best))
				best = *m, ro = 0;
	return ro;
}

/*
 * The system libraries the next boxes' object was built against, with the
 * hashes its build recorded (sandbox_expect_files): a copy of one of them
 * that hashes otherwise fails the box.  A library of /usr swapped between
 * a build and a run (red team 205's midswap: `mv` of another build over
 * it mid-batch, 2 of 2 batches ran the other code under the build's
 * manifest) is the object's code changed under its record.  Hashed from
 * the descriptor the box reads, kept by its identity and times.
 */
static const json_t *expect_files;
static struct fd_memo {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtim, ctim;
	char sha[SHA256_HEX_LEN + 1];
} fd_memo[64];
static size_t n_fd_memo;

void sandbox_expect_files(const json_t *map)
{
	expect_files = map;
}

/* the sha256 of the open regular file fd (its stat st), read by pread */
static int fd_sha(int fd, const struct stat *st, char hex[SHA256_HEX_LEN + 1])
{
	for (size_t i = 0; i < n_fd_memo; i++) {
		const struct fd_memo *m = &fd_memo[i];
		if (m->dev == st->st_dev && m->ino == st->st_ino && m->size == st->st_size &&
		    m->mtim.tv_sec == st->st_mtim.tv_sec && m->mtim.tv_nsec == st->st_mtim.tv_nsec &&
		    m->ctim.tv_sec == st->st_ctim.tv_sec && m->ctim.tv_nsec == st->st_ctim.tv_nsec) {
			memcpy(hex, m->sha, SHA256_HEX_LEN + 1);
			return 0;
		}
	}
	struct sha256_ctx *c = sha256_begin();
	char buf[1 << 16];
	off_t at = 0;
	for (;;) {
		ssize_t k = pread(fd, buf, sizeof(buf), at);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			sha256_end(c, hex);
			if (k < 0)
				return -1;
			break;
		}
		sha256_update(c, buf, (size_t)k);
		at += k;
	}
	struct stat after;
	if (fstat(fd, &after) < 0 || after.st_ctim.tv_sec != st->st_ctim.tv_sec ||
	    after.st_ctim.tv_nsec != st->st_ctim.tv_nsec)
		return -1;
	struct fd_memo *m = &fd_memo[n_fd_memo < ARRAY_SIZE(fd_memo) ? n_fd_memo++ : 0];
	*m = (struct fd_memo){ st->st_dev, st->st_ino, st->st_size, st->st_mtim, st->st_ctim, "" };
	memcpy(m->sha, hex, SHA256_HEX_LEN + 1);
	return 0;
}

/* path into the box as a copy at its real path, each symbolic link on the
 * way made in the box as the same link (done keeps what is made: a path
 * twice is one copy), a file of its tmpfs where copy_as_file says so (with
 * ro_mounts), else bound read-only; 0, or -1 with the error printed. */
static int push_copy(struct argvb *a, struct argvb *done, struct sandbox_files *f, const char *path, int depth,
		     const struct argvb *ro_mounts)
{
	char real[PATH_MAX] = "", next[PATH_MAX];
	const char *p = path;
	if (depth > 32)
		return sandbox_box_fail("cannot show '%s' in the box: too many symbolic links", path);
	while (*p) {
		p += strspn(p, "/");
		size_t n = strcspn(p, "/");
		if (n == 0)
			break;
		if (n == 1 && p[0] == '.') {
			p += n;
			continue;
		}
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *slash = strrchr(real, '/');
			if (slash)
				*slash = 0;
			p += n;
			continue;
		}
		if ((size_t)snprintf(next, sizeof(next), "%s/%.*s", real, (int)n, p) >= sizeof(next))
			return sandbox_box_fail("cannot show '%s' in the box: the path is too long", path);
		p += n;
		struct stat st;
		if (lstat(next, &st) < 0)
			return sandbox_box_fail("cannot show '%s' in the box: %s: %s", path, next, strerror(errno));
		if (!S_ISLNK(st.st_mode)) {
			memcpy(real, next, strlen(next) + 1);
			continue;
		}
		char to[PATH_MAX], rest[PATH_MAX * 2 + 2];
		ssize_t k = readlink(next, to, sizeof(to) - 1);
		if (k <= 0)
			return sandbox_box_fail("cannot show '%s' in the box: cannot read the link %s", path, next);
		to[k] = 0;
		if (!argvb_has(done, next)) {
			argvb_push(done, next);
			push3(a, "--symlink", to, next);
		}
		snprintf(rest, sizeof(rest), "%s%s%s%s", to[0] == '/' ? "" : real, to[0] == '/' ? "" : "/", to, p);
		return push_copy(a, done, f, rest, depth + 1, ro_mounts);
	}
	if (!real[0] || argvb_has(done, real))
		return 0;
	if (f->n >= SANDBOX_MAX_FRESH)
		return sandbox_box_fail("cannot show '%s' in the box: a box shows at most %d files", real, SANDBOX_MAX_FRESH);
	/* /proc's copies as this runner first read them (proc_snaps) */
	int fd = !strncmp(real, "/proc/", 6) ? proc_snapshot_fd(real) : open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return sandbox_box_fail("cannot show '%s' in the box: %s", real, strerror(errno));
	struct stat fst;
	if (fstat(fd, &fst) < 0 || !S_ISREG(fst.st_mode)) {
		close(fd);
		return sandbox_box_fail("cannot show '%s' in the box: not a regular file", real);
	}
	const char *want = json_string_value(json_object_get(expect_files, real));
	char now[SHA256_HEX_LEN + 1];
	if (want && (fd_sha(fd, &fst, now) < 0 || strcmp(now, want))) {
		close(fd);
		return sandbox_box_fail("'%s' is not the library the kernel's build recorded (sha256 %.12s then, %.12s "
					"now): the object would run other code than its record names; run again (the "
					"build is redone against the library as it is)",
					real, want, now);
	}
	sandbox_note_box_copy(real, fd);
	argvb_push(done, real);
	f->fd[f->n] = fd;
	char at[16];
	snprintf(at, sizeof(at), "%d", SANDBOX_FRESH_FD + f->n++);
	push3(a, "--perms", "0555", NULL);
	push3(a, copy_as_file(real, ro_mounts) ? "--file" : "--ro-bind-data", at, real);
	return 0;
}

/* Of /sys, what the CUDA driver reads as a worker starts (an strace of a
 * sealed run on an H200 with driver 580, 2026-11-30: each GPU's PCI
 * numa_node, the NUMA nodes' CPU maps, the memory block size, the clock
 * source, whether the driver's modules are loaded), for copies: a /sys
 * bound whole is the host's dentry cache (red team 52's dentry_count, and
 * red team 31's on a GPU box).  Appended to roots. */
static void push_gpu_sys(struct argvb *roots)
{
	static const char *const fixed[] = {
		"/sys/module/nvidia/initstate", "/sys/module/nvidia_uvm/initstate",
		"/sys/devices/system/memory/block_size_bytes",
		"/sys/devices/system/clocksource/clocksource0/current_clocksource", NULL,
	};
	for (int i = 0; fixed[i]; i++)
		if (access(fixed[i], R_OK) == 0 && !argvb_has(roots, fixed[i]))
			argvb_push(roots, fixed[i]);
	glob_t g;
	if (glob("/sys/devices/system/node/node*/cpumap", 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc && i < 16; i++)
			if (!argvb_has(roots, g.gl_pathv[i]))
				argvb_push(roots, g.gl_pathv[i]);
		globfree(&g);
	}
	/* the GPUs the driver knows, by PCI address (/proc/driver/nvidia/gpus/BDF) */
	if (glob("/proc/driver/nvidia/gpus/*", 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc && i < 16; i++) {
			char *n = xstrfmt("/sys/bus/pci/devices/%s/numa_node", strrchr(g.gl_pathv[i], '/') + 1);
			if (access(n, R_OK) == 0 && !argvb_has(roots, n))
				argvb_push(roots, n);
			free(n);
		}
		globfree(&g);
	}
}

/* Every file a box of copies shows (sandbox.h sandbox_wrap_fresh): the
 * program, the objects, what a GPU worker dlopen()s (loads), LD_PRELOAD's
 * files, the libraries the objects' and loads' dynamic sections name
 * (sandbox_object_deps) and the loader maps for the program (sandbox_loader_list),
 * libgcc_s beside libc, the loader and its cache, /sys's CPU lists and,
 * in a GPU box (gpu), what the driver reads of /sys.  0 or -1. */
static int push_host_files(struct argvb *a, struct sandbox_files *f, const char *prog,
			   const char *const *ro_files, const char *fresh, char *const *hide, char *const *loads,
			   int gpu, const struct argvb *ro_mounts)
{
	struct argvb roots = { 0 }, done = { 0 };
	int rc = 0;
	char *exe = program_path(prog), *interp = exe ? elf_interp(exe) : NULL;
	if (!exe) {
		return sandbox_box_fail("cannot show '%s' in the box: not found in PATH", prog);
	}
	argvb_push(&roots, exe);
	for (int i = 0; ro_files && ro_files[i]; i++) {
		char *r = sandbox_abs_path(ro_files[i]);
		argvb_push(&roots, r);
		free(r);
	}
	if (fresh) {
		char *r = sandbox_abs_path(fresh);
		argvb_push(&roots, r);
		free(r);
	}
	/* what a GPU worker dlopen()s (sandbox_set_loads), with the libraries
	 * they name: the harness, libcuda, NVML, CUPTI */
	for (char *const *l = loads; l && *l; l++)
		if (!argvb_has(&roots, *l))
			argvb_push(&roots, *l);
	const char *pre = getenv("LD_PRELOAD");
	if (pre && *pre) {
		char *copy = xstrdup(pre), *save = NULL;
		for (char *t = strtok_r(copy, ": ", &save); t; t = strtok_r(NULL, ": ", &save))
			if (t[0] == '/' && access(t, R_OK) == 0)
				argvb_push(&roots, t);
		free(copy);
	}
	/* the objects' libraries from their dynamic sections (never the
	 * loader: see sandbox_loader_list), then the program's from the loader */
	struct elf_dyn pd;
	char *pwhy = NULL;
	int machine = elf_dyn_read(exe, &pd, &pwhy) == 0 ? pd.machine : -1;
	if (!pwhy)
		elf_dyn_release(&pd);
	free(pwhy);
	char **deps = interp ? sandbox_loader_list(interp, exe) : NULL;
	/* the worker's own libraries are in the process before any object:
	 * their sonames are never searched for again */
	struct argvb provided = { 0 };
	for (char **dp = deps; dp && *dp; dp++) {
		struct elf_dyn wd;
		char *wwhy = NULL;
		if (elf_dyn_read(*dp, &wd, &wwhy) == 0) {
			if (wd.soname)
				argvb_push(&provided, wd.soname);
			elf_dyn_release(&wd);
		}
		free(wwhy);
	}
	int orc = sandbox_object_deps(&roots, 1, machine, hide, sandbox_loader_subdirs(interp, exe), &provided);
	sandbox_argv_free(provided.v);
	if (orc < 0) {
		sandbox_argv_free(roots.v);
		free(exe);
		free(interp);
		return -1;
	}
	for (char **d = deps; d && *d; d++) {
		if (!argvb_has(&roots, *d))
			argvb_push(&roots, *d);
		size_t n = strlen(*d);
		if (n >= 10 && !strcmp(*d + n - 10, "/libc.so.6")) {
			char *g = xstrfmt("%.*s/libgcc_s.so.1", (int)(n - 10), *d);
			if (access(g, R_OK) == 0 && !argvb_has(&roots, g))
				argvb_push(&roots, g);
			free(g);
		}
	}
	if (interp && !argvb_has(&roots, interp))
		argvb_push(&roots, interp);
	if (interp && access("/etc/ld.so.cache", R_OK) == 0)
		argvb_push(&roots, "/etc/ld.so.cache");
	/* of /sys, the CPU lists glibc and OpenMP read (get_nprocs), copied:
	 * a host /sys bound whole held the host's dentry cache, where a
	 * lookup of a name that is not there leaves a negative entry every
	 * later box can test (/proc/sys/fs/dentry-state counts them, and a
	 * lookup's time tells them apart): red team 52's dentry_count kept
	 * its run count there and an incumbent slow from its first batch on
	 * lost eval 9 times in 12 */
	static const char *const sys_cpu[] = { "/sys/devices/system/cpu/online", "/sys/devices/system/cpu/possible",
					       "/sys/devices/system/cpu/present", NULL };
	for (int i = 0; sys_cpu[i]; i++)
		if (access(sys_cpu[i], R_OK) == 0)
			argvb_push(&roots, sys_cpu[i]);
	if (gpu)
		push_gpu_sys(&roots);
	proc_copies(&roots);
	for (size_t i = 0; rc == 0 && i < roots.n; i++)
		rc = push_copy(a, &done, f, roots.v[i], 0, ro_mounts);
	sandbox_argv_free(roots.v);
	sandbox_argv_free(done.v);
	free(exe);
	free(interp);
	return rc;
}

int sandbox_files_pass(const struct sandbox_files *files, int *pass_fd, int *pass_fd_at, int from, int max)
{
	if (from + files->n > max)
		return error("a box's %d files do not fit the %d descriptors a spawn passes", files->n, max - from);
	for (int i = 0; i < files->n; i++) {
		pass_fd[from + i] = files->fd[i];
		pass_fd_at[from + i] = SANDBOX_FRESH_FD + i;
	}
	return files->n;
}

void sandbox_files_close(struct sandbox_files *files)
{
	for (int i = 0; i < files->n; i++)
		if (files->fd[i] >= 0)
			close(files->fd[i]);
	files->n = 0;
}

char **sandbox_wrap(const struct sandbox *sb, enum sandbox_profile prof, const char *const *inner,
		    const char *const *ro_files, struct sandbox_files *files, int *filter_fd)
{
	return sandbox_wrap_fresh(sb, prof, SANDBOX_VIEW_SYSTEM, inner, ro_files, NULL, files, filter_fd, NULL);
}

char **sandbox_wrap_fresh(const struct sandbox *sb, enum sandbox_profile prof, enum sandbox_view view,
			  const char *const *inner, const char *const *ro_files, const char *fresh,
			  struct sandbox_files *files, int *filter_fd, struct strbuf *why)
{
	strbuf_reset(&box_why);
	struct argvb a = { 0 };
	*filter_fd = -1;
	files->n = 0;
	/* a GPU box binds the system's software only when asked: a sealed
	 * kernel's boxes show copies, as every host box does */
	int bound = sb->gpu && view != SANDBOX_VIEW_COPIES && view != SANDBOX_VIEW_COPIES_NO_PROC;
	int no_proc = sandbox_view_no_proc(sb, view);
	if (sb->on) {
		push_namespaces(&a, sb);
		/* an empty root: the system's software, the machine's description
		 * (/sys) and what the worker loads (show), nothing of the host's
		 * data - no home directory, no /root, no /etc/shadow (red team 3,
		 * host_files read them as root and printed them into its log) */
		push3(&a, "--tmpfs", "/", NULL);
		if (bound) {
			push_system(&a);
			/* the loader's own search path, and the spec's library
			 * directories (sandbox_init's show) */
			push_path_list(&a, getenv("LD_LIBRARY_PATH"));
			push_gpu_software(&a);
		}
		if (bound && is_dir("/sys"))
			push3(&a, "--ro-bind", "/sys", "/sys");
		struct argvb proc_dirs = { 0 }, proc_masks = { 0 }, ro_mounts = { 0 };
		if (no_proc)
			push_no_proc(&a, &proc_dirs, inner[0]);
		else if (!bound)
			push_proc_copies(&a, &proc_dirs, &proc_masks, sb->gpu);
		else
			push_proc(&a, sb->gpu);
		push_dev(&a, !sb->gpu);
		if (sb->gpu) {
			glob_t g;
			if (glob("/dev/nvidia*", 0, NULL, &g) == 0) {
				char **binds = sandbox_gpu_binds((const char *const *)g.gl_pathv, sb->gpu_minor, NULL);
				for (char **b = binds; *b; b++)
					argvb_push(&a, *b);
				sandbox_argv_free(binds);
				globfree(&g);
			}
		}
		/* each bounded (a tmpfs is half the RAM by default, three of
		 * them more than all of it; what a box writes there is no
		 * process's memory the OOM score can answer for): /tmp a
		 * quarter of the RAM, the others 64 MiB (red team 215's lead) */
		for (int i = 0; scratch_dirs[i]; i++)
			if (is_dir(scratch_dirs[i])) {
				long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
				unsigned long long ram = pages > 0 && page > 0 ? (unsigned long long)pages * (unsigned long long)page
									       : 0;
				unsigned long long cap = !strcmp(scratch_dirs[i], "/tmp") && ram ? ram / 4 : 64ULL << 20;
				char size[32];
				snprintf(size, sizeof(size), "%llu", cap);
				push3(&a, "--size", size, NULL);
				push3(&a, "--tmpfs", scratch_dirs[i], NULL);
			}
		for (char **h = sb->show; bound && h && *h; h++)
			if (strcmp(*h, "/") && access(*h, F_OK) == 0)
				push3(&a, "--ro-bind", *h, *h);
		for (char **h = sb->hide; h && *h; h++)
			if (is_dir(*h)) {
				push3(&a, "--tmpfs", *h, NULL);
				argvb_push(&ro_mounts, *h);
			}
		/* a host box's files, after the scratch mounts and the masks: an
		 * object may lie under /tmp or the store; a file of the box's
		 * tmpfs where that is read-only by the time the box runs (the
		 * root, a mask, a global directory of /proc: push_copy) */
		for (size_t i = 0; i < proc_dirs.n; i++)
			argvb_push(&ro_mounts, proc_dirs.v[i]);
		int hrc = bound ? 0
				: push_host_files(&a, files, inner[0], ro_files, fresh, sb->hide, sb->loads, sb->gpu,
						  &ro_mounts);
		sandbox_argv_free(ro_mounts.v);
		/* the job's objects bound, or (SANDBOX_VIEW_SYSTEM_COPIES) copies;
		 * fresh a copy (a box of copies has them from push_host_files) */
		struct argvb done = { 0 };
		int rc = hrc;
		for (int i = 0; bound && rc == 0 && ro_files && ro_files[i]; i++) {
			char *f = sandbox_abs_path(ro_files[i]);
			if (view == SANDBOX_VIEW_SYSTEM_COPIES)
				rc = push_copy(&a, &done, files, f, 0, NULL);
			else
				push3(&a, "--ro-bind", f, f);
			free(f);
		}
		if (bound && rc == 0 && fresh) {
			char *f = sandbox_abs_path(fresh);
			rc = push_copy(&a, &done, files, f, 0, NULL);
			free(f);
		}
		sandbox_argv_free(done.v);
		if (rc < 0) {
			if (why)
				strbuf_addstr(why, strbuf_str(&box_why));
			else
				error("%s", strbuf_str(&box_why));
			sandbox_files_close(files);
			sandbox_argv_free(a.v);
			sandbox_argv_free(proc_dirs.v);
			sandbox_argv_free(proc_masks.v);
			return NULL;
		}
		/* the current directory, where the job's relative paths start
		 * (empty but for what is bound under it) */
		char cwd[PATH_MAX];
		if (getcwd(cwd, sizeof(cwd))) {
			push3(&a, "--dir", cwd, NULL);
			push3(&a, "--chdir", cwd, NULL);
		}
		/* then the masks become read-only (their mount points made) */
		for (char **h = sb->hide; h && *h; h++)
			if (is_dir(*h))
				push3(&a, "--remount-ro", *h, NULL);
		for (size_t i = 0; i < proc_dirs.n; i++)
			push3(&a, "--remount-ro", proc_dirs.v[i], NULL);
		sandbox_argv_free(proc_dirs.v);
		/* the runner's home is not in the box: caches go to its own /tmp */
		push3(&a, "--setenv", "HOME", "/tmp");
		push_library_path(&a);
		/* which starts empty in every box, so the CUDA driver's compute
		 * cache there never hits: off, and with it the driver's only file
		 * locks (sandbox_filter.c gpu_fcntl refuses locks in a GPU box) */
		if (sb->gpu)
			push3(&a, "--setenv", "CUDA_CACHE_DISABLE", "1");
		push_coverage(&a);
		/* the root's tmpfs, read-only once its mount points are made */
		push3(&a, "--remount-ro", "/", NULL);
		/* /dev/null over /proc's global files (push_proc_copies), last:
		 * bubblewrap 0.8 reads the whole /proc/self/mountinfo for every
		 * bind and every remount, and a remount made before these 30-odd
		 * binds reads 30-odd lines fewer */
		for (size_t i = 0; i < proc_masks.n; i++)
			push3(&a, "--ro-bind", "/dev/null", proc_masks.v[i]);
		sandbox_argv_free(proc_masks.v);
		push_seccomp(&a, sb, prof, filter_fd);
	}
	for (int i = 0; inner[i]; i++)
		argvb_push(&a, inner[i]);
	return a.v;
}

/* 1 when path lies strictly under /usr/local. */
static int in_local(const char *path)
{
	return !strncmp(path, "/usr/local/", 11) && path[11];
}

/*
 * The build box's /usr/local: an empty tmpfs over what push_system and the
 * caller's directories showed (remounted read-only at the end), then again
 * each of ro_dirs that lies in it (a CUDA home, a copy shown there) and
 * each link of /usr/local whose target lies in one of those (/usr/local/cuda
 * -> cuda-13.0).  The host compiler's tree is /usr, which holds /usr/local
 * and shows nothing of it now.  No package of the system's owns
 * /usr/local: `pip install` and `make install` write there, gcc searches
 * /usr/local/include before /usr/include and ld /usr/local/lib, and a
 * kernel chose its code by a file there, in no dependency list and under
 * one build key: whether a path existed (`__has_include`), a header's
 * content, an archive linked by -l (red team 200: 8 passes or 1, 2 of 2
 * pairs of builds each; a cache hit served the stale object).  1 when it
 * was masked (a directory here), 0 when there is none.
 */
static int push_no_local(struct argvb *a, const char *const *ro_dirs)
{
	struct stat st;
	if (lstat("/usr/local", &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	push3(a, "--tmpfs", "/usr/local", NULL);
	struct argvb shown = { 0 };
	for (int i = 0; ro_dirs && ro_dirs[i]; i++) {
		if (ro_dirs[i][0] == '>') { /* ">SRC\nDEST" */
			const char *nl = strchr(ro_dirs[i], '\n');
			if (nl && in_local(nl + 1)) {
				char *src = xstrndup(ro_dirs[i] + 1, (size_t)(nl - ro_dirs[i] - 1));
				push3(a, "--ro-bind", src, nl + 1);
				free(src);
			}
			continue;
		}
		char *d = sandbox_abs_path(ro_dirs[i]);
		if (in_local(d) && access(d, F_OK) == 0) {
			push3(a, "--ro-bind", d, d);
			argvb_push(&shown, d);
		}
		free(d);
	}
	DIR *dir = opendir("/usr/local");
	struct dirent *e;
	while (dir && (e = readdir(dir))) {
		char path[PATH_MAX], to[PATH_MAX];
		snprintf(path, sizeof(path), "/usr/local/%s", e->d_name);
		if (lstat(path, &st) < 0 || !S_ISLNK(st.st_mode))
			continue;
		ssize_t n = readlink(path, to, sizeof(to) - 1);
		char *real = realpath(path, NULL);
		int keep = 0;
		for (size_t i = 0; real && n > 0 && i < shown.n && !keep; i++) {
			char *r = realpath(shown.v[i], NULL);
			size_t k = r ? strlen(r) : 0;
			keep = r && !strncmp(real, r, k) && (real[k] == '/' || real[k] == '\0');
			free(r);
		}
		if (keep) {
			to[n] = 0;
			push3(a, "--symlink", to, path);
		}
		free(real);
	}
	if (dir)
		closedir(dir);
	sandbox_argv_free(shown.v);
	return 1;
}

char **sandbox_wrap_build(const struct sandbox *sb, const char *const *inner, const char *const *ro_dirs,
			  const char *const *hide_dirs, const char *rw_dir, int *filter_fd)
{
	struct argvb a = { 0 };
	*filter_fd = -1;
	if (sb->on) {
		push_namespaces(&a, sb);
		/* an empty root: only what is bound below exists */
		push3(&a, "--tmpfs", "/", NULL);
		push_system(&a);
		/* no /proc: an empty read-only directory.  gcc, gas, ld and
		 * nvcc with cicc and ptxas build without one (this VM, CUDA
		 * 13.0, 2026-12-05), and the assembler read whatever a pasted
		 * `.include` named, in no dependency list: the host's live
		 * /proc/stat (red team 191: the fork count in the object, one
		 * build key for three objects, a build clock that made eval
		 * promote 12 of 12), then, with the global entries masked,
		 * /proc/self/mounts (the store's and the cache's paths) and
		 * /proc/self/net/sockstat (the host's TCP socket count), each
		 * behind a link (red team 192, 3 of 3 and 4 of 4) */
		push3(&a, "--tmpfs", "/proc", NULL);
		push_dev(&a, 0);
		push3(&a, "--tmpfs", "/tmp", NULL);
		for (int i = 0; ro_dirs && ro_dirs[i]; i++) {
			if (ro_dirs[i][0] == '>') { /* ">SRC\nDEST": SRC (a copy) shown at DEST */
				const char *nl = strchr(ro_dirs[i], '\n');
				if (nl && nl[1] == '/') {
					char *src = xstrndup(ro_dirs[i] + 1, (size_t)(nl - ro_dirs[i] - 1));
					push3(&a, "--ro-bind", src, nl + 1);
					free(src);
				}
				continue;
			}
			char *d = sandbox_abs_path(ro_dirs[i]);
			if (access(d, F_OK) == 0)
				push3(&a, "--ro-bind", d, d);
			free(d);
		}
		int local = push_no_local(&a, ro_dirs);
		/* the store (sb->hide) and the caller's masks, under what is shown */
		struct argvb masks = { 0 };
		for (char **h = sb->hide; h && *h; h++)
			argvb_push(&masks, *h);
		for (int i = 0; hide_dirs && hide_dirs[i]; i++) {
			char *d = sandbox_abs_path(hide_dirs[i]);
			argvb_push(&masks, d);
			free(d);
		}
		for (size_t i = 0; i < masks.n; i++)
			if (is_dir(masks.v[i]))
				push3(&a, "--tmpfs", masks.v[i], NULL);
		char *rw = sandbox_abs_path(rw_dir);
		push3(&a, "--bind", rw, rw);
		for (size_t i = 0; i < masks.n; i++)
			if (is_dir(masks.v[i]))
				push3(&a, "--remount-ro", masks.v[i], NULL);
		sandbox_argv_free(masks.v);
		char cwd[PATH_MAX];
		if (getcwd(cwd, sizeof(cwd))) {
			/* there even when only some of its files are shown */
			push3(&a, "--dir", cwd, NULL);
			push3(&a, "--chdir", cwd, NULL);
		}
		push_coverage(&a);
		/* the root's tmpfs, read-only once its mount points are made */
		push3(&a, "--remount-ro", "/", NULL);
		free(rw);
		push3(&a, "--remount-ro", "/proc", NULL);
		if (local)
			push3(&a, "--remount-ro", "/usr/local", NULL);
		push_library_path(&a);
		push_seccomp(&a, sb, SANDBOX_RELAXED, filter_fd);
	}
	for (int i = 0; inner[i]; i++)
		argvb_push(&a, inner[i]);
	return a.v;
}

void sandbox_argv_free(char **argv)
{
	for (char **p = argv; p && *p; p++)
		free(*p);
	free(argv);
}

json_t *sandbox_describe(const struct sandbox *sb)
{
	if (!sb->on)
		return json_pack("{s:s, s:s}", "tool", "none", "reason",
				 "--unsandboxed: the kernel's code, and the problem plug-in's (its answers, fill "
				 "and checker), ran with the runner's rights");
	json_t *hidden = json_array();
	for (char **h = sb->hide; h && *h; h++)
		json_array_append_new(hidden, json_string(*h));
	json_t *env_list = json_array();
	for (int i = 0; env_keep[i]; i++)
		json_array_append_new(env_list, json_string(env_keep[i]));
	json_t *d = json_pack("{s:s, s:s, s:s, s:b, s:o, s:s, s:s, s:s, s:o, s:s, s:s}", "tool", "bubblewrap", "version", sb->version,
			 "seccomp",
			 sb->gpu ? (SANDBOX_GPU_REFUSES_SYSINFO
					    ? "libseccomp: where the kernel's code runs (strict), an allow list (a host box's "
					      "and the CUDA stack's measured calls: the driver's ioctls, AF_UNIX sockets, "
					      "symlink; every other call refused: inotify, sysinfo, perf, pidfd, IPC, "
					      "io_uring, xattrs, times, modes, new processes...), parent-death signal kept; "
					      "compute-sanitizer's a deny list: no ptrace/process_vm/mount/"
					      "namespaces/modules/bpf/keys/clock/inotify/perf/file times, modes, owners, "
					      "xattrs/device nodes, processes in the PID namespace"
					    : "libseccomp: where the kernel's code runs (strict), an allow list (a host box's "
					      "and the CUDA stack's measured calls: the driver's ioctls, AF_UNIX sockets, "
					      "symlink, sysinfo; every other call refused: inotify, perf, pidfd, IPC, "
					      "io_uring, xattrs, times, modes, new processes...), parent-death signal kept; "
					      "compute-sanitizer's a deny list: no ptrace/process_vm/mount/"
					      "namespaces/modules/bpf/keys/clock/inotify/perf/file times, modes, owners, "
					      "xattrs/device nodes, processes in the PID namespace")
				 : "libseccomp: where the kernel's code runs (strict), an allow list (memory, the files "
				   "the box shows and the descriptors it is given, threads only, futexes, signals to itself, "
				   "clocks; every other call refused: inotify, sysinfo, perf, pidfd, IPC, sockets, io_uring, "
				   "xattrs, times, modes, new processes...), parent-death signal kept; the compiler's "
				   "(relaxed) a deny list: no ptrace/process_vm/mount/namespaces/modules/bpf/keys/clock/"
				   "inotify/SysV IPC/POSIX message queues/sockets, processes in the PID namespace",
			 "gpu_devices", sb->gpu, "hidden", hidden, "namespaces", "pid ipc net uts cgroup user", "proc",
			 sb->gpu ? "the box's own; every entry but its processes' read-only"
				 : "the box's own, read-only",
			 "root",
			 sb->gpu ? "a sealed kernel's planner and timing worker: empty but for copies made as the box "
				   "starts of what the worker loads (the worker, the loader and its cache, the harness, "
				   "libcuda, NVML, CUPTI and the libraries they map, the kernel's and the problem's "
				   "objects) and of what the driver reads of /sys: no file or directory shared with the "
				   "host; a trust: host kernel's: the system's software (/usr, /lib*, the loader's /etc "
				   "files), /sys, what the worker loads (the kernel's object a copy); its own /tmp, "
				   "/run, /dev"
				 : "empty but for copies made as the box starts of what the worker loads (the worker, "
				   "the loader and its cache, the libraries the loader maps, its kernel's and its "
				   "problem's objects) and of /sys's CPU lists: no file or directory shared with the "
				   "host; its own /tmp, /run, /dev",
			 "environment", env_list, "core",
			 "RLIMIT_CORE 1, soft and hard: no core dump, to a file or a core_pattern pipe handler, and none the kernel can ask for", "exec",
			 "refused once the worker's runtime is up, before a kernel's code loads: execve and "
			 "execveat end the worker with SIGSYS");
	if (d)
		json_object_set_new(d, "nofile",
				    json_pack("{s:i, s:s}", "limit", sb->gpu ? RUN_BOX_NOFILE : RUN_HOST_BOX_NOFILE, "why",
					      "RLIMIT_NOFILE, soft and hard, in every box that runs a kernel's or a "
					      "problem's code (a host box's 256, a GPU box's and the checker's of a "
					      "GPU problem 1024; builds 1024): too "
					      "few pipes to read the host's pipe pages as a gauge (red team 134's "
					      "pipecount: 976 pipes unlimited, 248 at 256, where a shrunk pipe needs over "
					      "460)"));
	if (d) {
		char **sh = sandbox_shadowed_libraries();
		json_t *shj = json_array();
		for (char **x = sh; x && *x; x++)
			json_array_append_new(shj, json_string(*x));
		sandbox_argv_free(sh);
		json_object_set_new(d, "shadowed_libraries", shj);
	}
	if (d) {
		json_object_set_new(d, "binary", json_string(sb->bwrap_real ? sb->bwrap_real : sb->bwrap));
		json_object_set_new(d, "binary_sha256", json_string(sb->bwrap_sha256 ? sb->bwrap_sha256 : "unknown"));
		/* which program it is: verified, or let run unverified by
		 * EVIDENT_BWRAP_UNVERIFIED=1 (store/query.c: no claim counts it) */
		char *unv = sb->bwrap_verified ? NULL
					       : xstrfmt("EVIDENT_BWRAP_UNVERIFIED=1 let it make the boxes: %s; no claim "
							 "counts this record",
							 sb->bwrap_unverified ? sb->bwrap_unverified : "not verified");
		json_object_set_new(d, "binary_verified",
				    sb->bwrap_verified ? json_string(sb->bwrap_verified)
						       : json_pack("{s:s, s:s}", "done", "no", "why", unv));
		free(unv);
		json_object_set_new(d, "observed",
				    json_string("every worker read its own /proc/self/status before its kernel loaded, "
						"and the checker before the problem's code loaded (Seccomp: 2 with a filter "
						"more than the runner's, NoNewPrivs: 1), and each made calls its box's program "
						"refuses (a process clone, clone3, pidfd_open, a socket, inotify, ptrace, "
						"io_uring, perf events, ...: sandbox_probe.c), each answered as the program "
						"itself answered it in a child of the runner, and each read its own "
						"/proc/self/mountinfo, whose mounts were those the runner's bubblewrap "
						"arguments asked for (no other point but a bound directory's own submounts, "
						"each tmpfs, proc and devpts a new one, each bind its source's, none writable "
						"where read-only was asked: sandbox_mounts.c); the runner saw the box's pid 1 in a "
						"PID namespace below its own, and refused to go on otherwise"));
		json_object_set_new(
			d, "filter_readback",
			sb->readback_ready
				? json_string("each worker's newest seccomp filter read back from its process at its "
					      "hello (PTRACE_SECCOMP_GET_FILTER, before any kernel code loaded): the "
					      "program the runner built, instruction for instruction, and no filter "
					      "beyond it and the runner's own (sandbox_readback.c)")
				: json_pack("{s:s, s:s}", "done", "no", "why",
					    sb->readback_why ? sb->readback_why : "not tried"));
	}
	/* the checker's box (run/job.c run_checker_with) */
	if (d)
		json_object_set_new(
			d, "checker",
			json_string(sb->gpu ? "boxed: the checker (evident-worker __check, the problem's plug-in and its GPU "
					      "reference, cuBLAS or cuDNN) in the GPU box of a trust: host kernel's worker "
					      "(the system's software, /sys and the CUDA toolkit bound, the GPU's node) with "
					      "the plug-in and the GPU reference copies, its job and captures by "
					      "descriptor, its own /tmp, /var/tmp, /run and /dev/shm its only writable "
					      "places, the relaxed filter (it forks its judges); observed as a worker is"
					    : "boxed: the checker (evident-worker __check, the problem's plug-in) in a host "
					      "box of copies, the plug-in a copy, its job and captures by descriptor, its "
					      "own /tmp, /var/tmp, /run and /dev/shm its only writable places, the relaxed "
					      "filter (it forks its judges); observed as a worker is"));
	if (d && said[0]) /* sandbox_init's (describing it changes nothing) */
		json_object_set_new(d, "loginuid", json_string(said));
	if (d && sb->gpu) {
		char *n = sb->gpu_minor >= 0
				  ? xstrfmt("/dev/nvidia%d (the GPU the workers use, its minor number from NVML) and the "
					    "driver's control nodes",
					    sb->gpu_minor)
				  : xstrfmt("every /dev/nvidia*: %s",
					    sb->gpu_nodes_why ? sb->gpu_nodes_why
							      : "the runner is pinned to no one GPU");
		json_object_set_new(d, "gpu_nodes", json_string(n));
		free(n);
	}
	return d;
}
