/*
 * store_claim.c - names in flight (rules in store.h, "Names in flight"):
 * a session that checks a variant name against the store before it
 * records runs under it claims the name in the same step, under the names
 * lock, so that two sessions started together cannot both take it (red
 * team 76's race: two eval sessions both named their candidate `fast`,
 * and a validated claim on A's was read with B's wrong_output runs).
 */
#include "store/store_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double store_claim_stale_s = STORE_CLAIM_STALE_S;

#define NAMES_DIR "pending/names"
#define NAMES_LOCK NAMES_DIR "/.lock"

struct store_claims {
	struct store *st;
	struct store_lock lk;
	int locked;
	json_t *live;  /* the live claims read under the lock, ours added */
	char **mine;   /* the paths of the claims made through this handle */
	size_t n_mine;
};

/* The start time of process pid (field 22 of /proc/PID/stat, clock ticks
 * since boot) as text into buf; "" when it cannot be read.  A pid reused
 * by another process has another start. */
static void proc_start(long pid, char *buf, size_t n)
{
	buf[0] = '\0';
	char *path = pid > 0 ? xstrfmt("/proc/%ld/stat", pid) : xstrdup("/proc/self/stat");
	struct strbuf sb = STRBUF_INIT;
	if (store_read_small(path, &sb, NULL) == 0) {
		const char *p = strrchr(strbuf_str(&sb), ')'); /* the command may hold blanks and ')' */
		int field = 2;
		while (p && *p && field < 22) {
			p = strchr(p + 1, ' ');
			field++;
		}
		if (p && field == 22) {
			size_t k = 0;
			for (p++; *p >= '0' && *p <= '9' && k + 1 < n; p++)
				buf[k++] = *p;
			buf[k] = '\0';
		}
	}
	strbuf_release(&sb);
	free(path);
}

/* Is claim c (read from a file of mtime mtime) dead: its owner a process
 * of this host that is gone (or whose pid another process holds now), or,
 * from another host, older than store_claim_stale_s? */
/* This process's PID namespace, as its /proc/self/ns/pid link reads
 * ("pid:[4026531836]"), into buf; "" when it cannot be read. */
static void pid_namespace(char *buf, size_t n)
{
	ssize_t len = readlink("/proc/self/ns/pid", buf, n - 1);
	buf[len > 0 ? (size_t)len : 0] = '\0';
}

static int claim_dead(const json_t *c, time_t mtime)
{
	char host[256], ns[64];
	store_host_name(host, sizeof(host));
	pid_namespace(ns, sizeof(ns));
	const char *h = json_string_value(json_object_get(c, "host"));
	const char *cns = json_string_value(json_object_get(c, "pid_namespace"));
	long pid = (long)json_integer_value(json_object_get(c, "pid"));
	const char *start = json_string_value(json_object_get(c, "start"));
	if (!h || pid <= 0 || !json_is_string(json_object_get(c, "experiment")) ||
	    !json_is_string(json_object_get(c, "name")) || !json_is_string(json_object_get(c, "code")))
		return 1; /* not a claim */
	/* another host's, or another PID namespace's (a container, `unshare
	 * --pid`: its pid names another process here; red team 81 took a
	 * claim of pid 1 for dead, init's start time being another): by its
	 * age (one that does not say, written before the namespace was, by
	 * its pid as before) */
	if (strcmp(h, host) || (cns && strcmp(cns, ns)))
		return difftime(time(NULL), mtime) > store_claim_stale_s;
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return 1;
	char now[32];
	proc_start(pid, now, sizeof(now));
	return start && start[0] && now[0] && strcmp(start, now);
}

/* Read every claim in pending/names/ into c->live, removing the dead ones
 * (under the lock: no claim is being written meanwhile). */
static void read_claims(struct store_claims *c)
{
	char *dir = xstrfmt("%s/%s", c->st->root, NAMES_DIR);
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len < 6 || strcmp(e->d_name + len - 5, ".json"))
			continue;
		char *path = xstrfmt("%s/%s", dir, e->d_name);
		struct strbuf sb = STRBUF_INIT;
		struct stat fs;
		if (store_read_small(path, &sb, &fs) == 0) {
			json_t *cl = json_loads(strbuf_str(&sb), 0, NULL);
			if (!cl || !json_is_object(cl) || claim_dead(cl, fs.st_mtime))
				unlink(path);
			else
				json_array_append(c->live, cl);
			json_decref(cl);
		}
		strbuf_release(&sb);
		free(path);
	}
	if (d)
		closedir(d);
	free(dir);
}

struct store_claims *store_claims_lock(struct store *st)
{
	char *dir = xstrfmt("%s/%s", st->root, NAMES_DIR);
	int rc = mkdir_p(dir, 0755);
	free(dir);
	if (rc < 0)
		return NULL;
	struct store_claims *c = xcalloc(1, sizeof(*c));
	c->st = st;
	if (store_lock_take_at(st, &c->lk, NAMES_LOCK, store_lock_wait_s, 0) < 0) {
		free(c);
		return NULL;
	}
	c->locked = 1;
	c->live = json_array();
	read_claims(c);
	return c;
}

int store_claims_other(struct store_claims *c, const char *experiment, const char *name, const char *code,
		       char **holder)
{
	size_t i;
	json_t *cl;
	json_array_foreach(c->live, i, cl)
	{
		if (strcmp(json_string_value(json_object_get(cl, "experiment")), experiment) ||
		    strcmp(json_string_value(json_object_get(cl, "name")), name) ||
		    !strcmp(json_string_value(json_object_get(cl, "code")), code))
			continue;
		if (holder) {
			const char *h = json_string_value(json_object_get(cl, "host"));
			const char *since = json_string_value(json_object_get(cl, "since"));
			*holder = xstrfmt("pid %lld on host %s since %s", (long long)json_integer_value(json_object_get(cl, "pid")),
					  h ? h : "?", since ? since : "?");
		}
		return 1;
	}
	return 0;
}

int store_claims_add(struct store_claims *c, const char *experiment, const char *name, const char *code)
{
	if (!c->locked)
		return error("internal: a name claimed without the names lock");
	char host[256], since[40], start[32], rnd[17];
	store_host_name(host, sizeof(host));
	utc_now_iso(since, sizeof(since));
	proc_start(0, start, sizeof(start));
	random_hex(rnd, 16);
	char ns[64];
	pid_namespace(ns, sizeof(ns));
	json_t *cl = json_pack("{s:s, s:s, s:s, s:I, s:s, s:s, s:s, s:s}", "experiment", experiment, "name", name, "code",
			       code, "pid", (json_int_t)getpid(), "host", host, "since", since, "start", start,
			       "pid_namespace", ns);
	char *text = json_dumps(cl, JSON_SORT_KEYS | JSON_COMPACT);
	char *tmp = xstrfmt("%s/%s/.tmp-%s", c->st->root, NAMES_DIR, rnd);
	char *path = xstrfmt("%s/%s/%s.json", c->st->root, NAMES_DIR, rnd);
	int rc = -1;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0) {
		int ok = text && !store_injected() && write_all(fd, text, strlen(text)) == 0;
		if (close(fd) == 0 && ok && rename(tmp, path) == 0)
			rc = 0;
		else
			unlink(tmp);
	}
	if (rc < 0) {
		error("cannot claim the name '%s' of experiment '%s' in '%s': %s", name, experiment, path, strerror(errno));
		free(path);
	} else {
		json_array_append(c->live, cl);
		c->mine = xrealloc(c->mine, (c->n_mine + 1) * sizeof(*c->mine));
		c->mine[c->n_mine++] = path;
	}
	free(tmp);
	free(text);
	json_decref(cl);
	return rc;
}

void store_claims_unlock(struct store_claims *c)
{
	if (!c || !c->locked)
		return;
	store_lock_release(&c->lk);
	c->locked = 0;
	json_decref(c->live);
	c->live = NULL;
}

void store_claims_drop(struct store_claims *c)
{
	if (!c)
		return;
	store_claims_unlock(c);
	for (size_t i = 0; i < c->n_mine; i++) {
		unlink(c->mine[i]);
		free(c->mine[i]);
	}
	free(c->mine);
	free(c);
}
