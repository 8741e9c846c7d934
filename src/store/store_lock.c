/*
 * store_lock.c - HEAD.lock, the store's commit lock (rules in store.h):
 * taken by creating the file exclusively with our pid, host and time in
 * it, owned while it is still our file (same device and inode), and
 * broken only when stale (its process gone on this host, or older than
 * store_lock_stale_s), through HEAD.lock.break so that two breakers
 * cannot both win.  store_index.c takes it to commit and to rewrite the
 * caches.  The same rules make the names lock (pending/names/.lock,
 * store_claim.c), which guards no HEAD.
 */
#include "store/store_internal.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double store_lock_wait_s = 120;
double store_lock_stale_s = STORE_LOCK_STALE_S;

#define BREAK_STALE_S 10 /* HEAD.lock.break is held for microseconds */

/* --- the lock -------------------------------------------------------------- */

void store_host_name(char *buf, size_t n)
{
	buf[0] = '\0';
	if (gethostname(buf, n - 1) < 0 || !buf[0])
		snprintf(buf, n, "unknown");
	buf[n - 1] = '\0';
	for (char *p = buf; *p; p++)
		if (isspace((unsigned char)*p))
			*p = '_';
}

/*
 * Create path holding text if it does not exist yet: git's lockfile,
 * open(O_CREAT|O_EXCL), atomic on local filesystems and on NFS v3 and
 * later.  0 when made (*made is its stat), 1 when path exists, -1 (errno)
 * on any other failure.  A writer killed between the create and the write
 * leaves an empty lock: stale by its age only.
 */
static int make_lock_file(struct store *st, const char *path, const char *text, struct stat *made)
{
	(void)st;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
	if (fd < 0)
		return errno == EEXIST ? 1 : -1;
	if (store_injected() || write_all(fd, text, strlen(text)) < 0 || fstat(fd, made) < 0) {
		int e = errno;
		close(fd);
		unlink(path);
		errno = e;
		return -1;
	}
	close(fd);
	return 0;
}

struct lock_info {
	long pid;
	char host[256];
	char since[64];
	char ns[64];                 /* its PID namespace ("pid:[N]"), "" in a lock written before it was */
	struct stat st;
	int parsed;
};

/* This process's PID namespace as /proc/self/ns/pid reads, "" unread. */
static void lock_pid_namespace(char *buf, size_t n)
{
	ssize_t len = readlink("/proc/self/ns/pid", buf, n - 1);
	buf[len > 0 ? (size_t)len : 0] = '\0';
}

/* 0, or -1 when the lock file is absent or unreadable. */
static int lock_read(const char *path, struct lock_info *li)
{
	struct strbuf sb = STRBUF_INIT;
	memset(li, 0, sizeof(*li));
	int rc = store_read_small(path, &sb, &li->st);
	if (rc == 0)
		li->parsed = sscanf(strbuf_str(&sb), "%ld %255s %63s %63s", &li->pid, li->host, li->since, li->ns) >= 3;
	strbuf_release(&sb);
	return rc;
}

/* The rule of store.h: its owner is a dead process of this host and PID
 * namespace (a pid of another namespace, a container's, names another
 * process here: red team 81, predicted), or it is older than max_age_s by
 * its mtime. */
static int lock_is_stale(const struct lock_info *li, double max_age_s)
{
	char host[256], ns[64];
	store_host_name(host, sizeof(host));
	lock_pid_namespace(ns, sizeof(ns));
	if (li->parsed && li->pid > 0 && !strcmp(li->host, host) && (!li->ns[0] || !strcmp(li->ns, ns)) &&
	    kill((pid_t)li->pid, 0) < 0 && errno == ESRCH)
		return 1;
	return difftime(time(NULL), li->st.st_mtime) > max_age_s;
}

/*
 * Remove the stale lock at path.  Breakers take path.break first, so that
 * one judges and unlinks at a time: it reads the lock again under it and
 * unlinks only what is still stale (a fresh lock taken meanwhile by a live
 * writer is not).  It removes HEAD with it when head (HEAD.lock's
 * breakers; the names lock guards no HEAD).  0 when the lock is gone
 * (try it again), 1 when it is not (fresh after all, another breaker at
 * it, or not ours to unlink).  Says what it removed unless quiet (readers).
 */
static int lock_break(struct store *st, const char *path, const char *me, int quiet, int head)
{
	char *bpath = xstrfmt("%s.break", path);
	struct stat bs;
	int r = make_lock_file(st, bpath, me, &bs);
	if (r != 0) {
		struct lock_info bi;
		/* its breaker died in the microseconds it holds it */
		if (r == 1 && lock_read(bpath, &bi) == 0 && lock_is_stale(&bi, BREAK_STALE_S))
			unlink(bpath);
		free(bpath);
		return 1;
	}
	struct lock_info li;
	int rc = 1;
	if (lock_read(path, &li) < 0 && errno == ENOENT) {
		rc = 0; /* gone meanwhile */
	} else if (lock_is_stale(&li, store_lock_stale_s)) {
		/* its writer may have died between its link and its move of HEAD;
		 * the stat of runs/ may not show it (timestamps of a few ms), so
		 * the next commit must find the head from the index */
		if (head) {
			char *hp = xstrfmt("%s/HEAD", st->root);
			unlink(hp);
			free(hp);
		}
		if (unlink(path) == 0) {
			rc = 0;
			if (!quiet)
				warning("removed the stale lock '%s' (%s %ld on host '%s', since %s)", path,
					li.parsed ? "pid" : "unreadable: pid", li.pid, li.parsed ? li.host : "?",
					li.parsed ? li.since : "?");
		}
	}
	struct stat now;
	if (stat(bpath, &now) == 0 && now.st_ino == bs.st_ino && now.st_dev == bs.st_dev)
		unlink(bpath);
	free(bpath);
	return rc;
}

int store_lock_take(struct store *st, struct store_lock *lk, double wait_s, int quiet)
{
	return store_lock_take_at(st, lk, "HEAD.lock", wait_s, quiet);
}

int store_lock_take_at(struct store *st, struct store_lock *lk, const char *rel, double wait_s, int quiet)
{
	char host[256], since[40];
	store_host_name(host, sizeof(host));
	utc_now_iso(since, sizeof(since));
	char ns[64];
	lock_pid_namespace(ns, sizeof(ns));
	char *me = xstrfmt("%ld %s %s%s%s\n", (long)getpid(), host, since, ns[0] ? " " : "", ns);
	int head = !strcmp(rel, "HEAD.lock");
	lk->path = xstrfmt("%s/%s", st->root, rel);
	double t0 = mono_now(), nap = 0.0005;
	for (;;) {
		struct stat made;
		int r = make_lock_file(st, lk->path, me, &made);
		if (r == 0) {
			lk->dev = made.st_dev;
			lk->ino = made.st_ino;
			free(me);
			return 0;
		}
		if (r < 0) {
			if (!quiet)
				error("cannot lock the store: cannot create '%s': %s", lk->path, strerror(errno));
			break;
		}
		struct lock_info li;
		int got = lock_read(lk->path, &li);
		if (got < 0 && errno == ENOENT)
			continue; /* released meanwhile */
		if (got == 0 && lock_is_stale(&li, store_lock_stale_s) && lock_break(st, lk->path, me, quiet, head) == 0)
			continue;
		if (mono_now() - t0 >= wait_s) {
			if (!quiet)
				error("store '%s' is locked by pid %ld on host '%s' since %s; if no evident "
				      "is writing to it, remove '%s'",
				      st->root, li.pid, li.parsed ? li.host : "?", li.parsed ? li.since : "?",
				      lk->path);
			break;
		}
		struct timespec ts = { 0, (long)(nap * 1e9) };
		nanosleep(&ts, NULL);
		nap = nap * 2 < 0.05 ? nap * 2 : 0.05;
	}
	free(me);
	free(lk->path);
	lk->path = NULL;
	return -1;
}

int store_lock_owned(const struct store_lock *lk)
{
	struct stat s;
	return lk->path && stat(lk->path, &s) == 0 && s.st_ino == lk->ino && s.st_dev == lk->dev;
}

void store_lock_release(struct store_lock *lk)
{
	if (store_lock_owned(lk))
		unlink(lk->path);
	free(lk->path);
	lk->path = NULL;
}
