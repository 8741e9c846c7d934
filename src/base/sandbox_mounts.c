/*
 * sandbox_mounts.c - the box's mounts observed, not described (red team
 * 132, hole 1b: a stand-in bubblewrap that passed every argument evident
 * gave it, the strict filter included, and added `--bind /tmp/rt132-share
 * /tmp/share` was accepted, and its kernel kept a run count from box to
 * box in a host file).  A worker (host, CUDA timing worker and planner)
 * and a boxed checker read their own /proc/self/mountinfo before any
 * object but their own loads and put a compact form of it in their hello
 * (sandbox_mounts_seen: each mount's point, type, ro/rw, major:minor and
 * root, the path of the source file system a bind shows).  The runner
 * derives what it asked for from the very argv it handed bubblewrap
 * (sandbox_mounts_expect: each --tmpfs, --proc, --dev, --ro-bind,
 * --ro-bind-data, --dev-bind and --remount-ro, with bubblewrap's own
 * implicit mounts: /dev's device nodes and devpts, /proc's read-only
 * covers of sys, sysrq-trigger, irq and bus), and refuses a box
 * (sandbox_box_mounts_ok) with a mount at a point it did not ask for
 * (outside the submounts of a bind, which must be the runner's own at the
 * source), a mount at an asked point that is not what was asked (a
 * tmpfs, proc or devpts whose device is one of the host's; a bind whose
 * device or root is not the source's, read from the runner's own
 * mountinfo), a writable mount where read-only was asked, or a mount
 * asked for that is not there.  It checks for what should not be there,
 * not a byte match: mount options, ids and the order of lines differ
 * across kernels and bubblewrap versions and are not compared.
 */
#include "base/sandbox.h"
#include "base/sandbox_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum mkind { MK_TMPFS, MK_PROC, MK_DEVPTS, MK_BIND, MK_DATA };

struct sandbox_mount {
	char *target;
	char *src;  /* MK_BIND: the host path (realpath) */
	int kind;
	int ro;     /* asked read-only (by the end of the argv) */
	int optional; /* --ro-bind-try, /dev/console */
};

struct sandbox_mounts {
	struct sandbox_mount *m;
	size_t n;
	char *unknown; /* an option this file cannot read: nothing is predicted */
};

/* one line of a mountinfo, or of a box's report */
struct mline {
	char *target, *type, *dev, *root;
	int ro;
};

/* mountinfo's octal escapes (\040 a space, \011, \012, \134) undone in place */
static void unescape(char *s)
{
	char *o = s;
	for (char *p = s; *p; p++) {
		if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' && p[3] >= '0' &&
		    p[3] <= '7') {
			*o++ = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
			p += 3;
		} else {
			*o++ = *p;
		}
	}
	*o = 0;
}

/* A mountinfo line into l (pointers into line, which is changed); 0 or -1. */
static int parse_mountinfo(char *line, struct mline *l)
{
	char *f[12] = { 0 }, *save = NULL;
	int n = 0;
	for (char *t = strtok_r(line, " \n", &save); t && n < 12; t = strtok_r(NULL, " \n", &save)) {
		if (!strcmp(t, "-")) { /* the optional fields end */
			f[6] = strtok_r(NULL, " \n", &save);
			f[7] = strtok_r(NULL, " \n", &save);
			n = 8;
			break;
		}
		if (n < 6)
			f[n] = t;
		n++;
	}
	if (n < 8 || !f[2] || !f[3] || !f[4] || !f[5] || !f[6])
		return -1;
	l->dev = f[2];
	l->root = f[3];
	l->target = f[4];
	l->type = f[6];
	l->ro = !strncmp(f[5], "ro", 2) && (f[5][2] == 0 || f[5][2] == ',');
	unescape(l->root);
	unescape(l->target);
	return 0;
}

json_t *sandbox_mounts_parse(const char *text)
{
	json_t *a = json_array();
	char *copy = xstrdup(text ? text : ""), *save = NULL;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct mline l;
		if (parse_mountinfo(line, &l) < 0)
			continue;
		/* "POINT TYPE ro|rw MAJ:MIN ROOT", each path escaped again
		 * where it has a space or backslash */
		struct strbuf s = STRBUF_INIT;
		const char *parts[] = { l.target, l.type, l.ro ? "ro" : "rw", l.dev, l.root };
		for (int i = 0; i < 5; i++) {
			if (i)
				strbuf_addch(&s, ' ');
			for (const char *p = parts[i]; *p; p++)
				if (*p == ' ' || *p == '\\' || *p == '\n' || *p == '\t')
					strbuf_addf(&s, "\\%03o", (unsigned char)*p);
				else
					strbuf_addch(&s, *p);
		}
		json_array_append_new(a, json_string(strbuf_str(&s)));
		strbuf_release(&s);
	}
	free(copy);
	return a;
}

json_t *sandbox_mounts_seen(void)
{
	return sandbox_mounts_of(0);
}

json_t *sandbox_mounts_of(int pid)
{
	char path[64];
	sandbox_proc_path(path, sizeof(path), pid, "mountinfo");
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	struct strbuf t = STRBUF_INIT;
	char buf[8192];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&t, buf, n);
	fclose(f);
	json_t *a = sandbox_mounts_parse(strbuf_str(&t));
	strbuf_release(&t);
	return a;
}

/* ---- what was asked ------------------------------------------------------------ */

static struct sandbox_mount *add(struct sandbox_mounts *e, const char *target, int kind, const char *src, int ro)
{
	e->m = xrealloc(e->m, (e->n + 1) * sizeof(*e->m));
	struct sandbox_mount *m = &e->m[e->n++];
	memset(m, 0, sizeof(*m));
	m->target = xstrdup(target);
	m->kind = kind;
	m->ro = ro;
	if (src) {
		char *r = realpath(src, NULL);
		m->src = r ? r : xstrdup(src);
	}
	return m;
}

/* bwrap's options and how many arguments each takes; mount: what it makes */
static const struct {
	const char *opt;
	int args;
} opts[] = {
	{ "--die-with-parent", 0 }, { "--new-session", 0 }, { "--unshare-pid", 0 }, { "--as-pid-1", 0 },
	{ "--unshare-ipc", 0 }, { "--unshare-net", 0 }, { "--unshare-uts", 0 }, { "--unshare-cgroup-try", 0 },
	{ "--unshare-cgroup", 0 }, { "--unshare-user", 0 }, { "--unshare-all", 0 }, { "--cap-drop", 1 },
	{ "--seccomp", 1 }, { "--chdir", 1 }, { "--dir", 1 }, { "--perms", 1 }, { "--setenv", 2 },
	{ "--unsetenv", 1 }, { "--symlink", 2 }, { "--file", 2 }, { "--hostname", 1 }, { "--uid", 1 },
	{ "--gid", 1 }, { "--size", 1 }, { NULL, 0 },
};

void sandbox_mounts_free(struct sandbox_mounts *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->n; i++) {
		free(e->m[i].target);
		free(e->m[i].src);
	}
	free(e->m);
	free(e->unknown);
	free(e);
}

struct sandbox_mounts *sandbox_mounts_expect(const char *const *argv)
{
	struct sandbox_mounts *e = xcalloc(1, sizeof(*e));
	for (size_t i = 1; argv && argv[i] && strcmp(argv[i], "--"); i++) {
		const char *o = argv[i], *x = argv[i + 1], *y = x ? argv[i + 2] : NULL;
		int k = 0;
		while (opts[k].opt && strcmp(opts[k].opt, o))
			k++;
		if (opts[k].opt) {
			i += (size_t)opts[k].args;
		} else if (!strcmp(o, "--tmpfs") && x) {
			add(e, x, MK_TMPFS, NULL, 0);
			i++;
		} else if (!strcmp(o, "--proc") && x) {
			add(e, x, MK_PROC, NULL, 0);
			i++;
		} else if (!strcmp(o, "--dev") && x) {
			/* bubblewrap's /dev: a tmpfs, the host's null, zero,
			 * full, random, urandom and tty bound (writable), a
			 * devpts of its own at pts, the host's terminal at
			 * console where it has one */
			static const char *const nodes[] = { "null", "zero", "full", "random", "urandom", "tty", NULL };
			add(e, x, MK_TMPFS, NULL, 0);
			for (int n = 0; nodes[n]; n++) {
				char *t = xstrfmt("%s/%s", x, nodes[n]), *s = xstrfmt("/dev/%s", nodes[n]);
				add(e, t, MK_BIND, s, 0); /* writable, as bubblewrap binds them */
				free(t);
				free(s);
			}
			char *pts = xstrfmt("%s/pts", x), *con = xstrfmt("%s/console", x);
			add(e, pts, MK_DEVPTS, NULL, 0);
			struct sandbox_mount *c = add(e, con, MK_DEVPTS, NULL, 0);
			c->optional = 1;
			free(pts);
			free(con);
			i++;
		} else if ((!strcmp(o, "--ro-bind") || !strcmp(o, "--ro-bind-try") || !strcmp(o, "--bind") ||
			    !strcmp(o, "--bind-try") || !strcmp(o, "--dev-bind") || !strcmp(o, "--dev-bind-try")) &&
			   y) {
			int ro = !strncmp(o, "--ro-", 5);
			struct sandbox_mount *m = add(e, y, MK_BIND, x, ro);
			m->optional = strstr(o, "-try") != NULL;
			i += 2;
		} else if ((!strcmp(o, "--ro-bind-data") || !strcmp(o, "--bind-data")) && y) {
			add(e, y, MK_DATA, NULL, !strcmp(o, "--ro-bind-data"));
			i += 2;
		} else if (!strcmp(o, "--remount-ro") && x) {
			for (size_t m = e->n; m-- > 0;)
				if (!strcmp(e->m[m].target, x)) {
					e->m[m].ro = 1;
					break;
				}
			i++;
		} else {
			free(e->unknown);
			e->unknown = xstrdup(o);
			break;
		}
	}
	return e;
}

size_t sandbox_mounts_count(const struct sandbox_mounts *e)
{
	return e ? e->n : 0;
}

/* ---- the comparison ------------------------------------------------------------ */

struct mtable {
	struct mline *l;
	char **lines;
	size_t n;
};

static void table_free(struct mtable *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->lines[i]);
	free(t->lines);
	free(t->l);
	memset(t, 0, sizeof(*t));
}

static void table_add(struct mtable *t, char *owned, const struct mline *l)
{
	t->l = xrealloc(t->l, (t->n + 1) * sizeof(*t->l));
	t->lines = xrealloc(t->lines, (t->n + 1) * sizeof(*t->lines));
	t->l[t->n] = *l;
	t->lines[t->n++] = owned;
}

/* The runner's own mounts (its /proc/self/mountinfo). */
static void host_table(struct mtable *t)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	while (f && getline(&line, &cap, f) > 0) {
		char *own = xstrdup(line);
		struct mline l;
		if (parse_mountinfo(own, &l) == 0)
			table_add(t, own, &l);
		else
			free(own);
	}
	free(line);
	if (f)
		fclose(f);
}

static int under(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == 0);
}

/* The runner's mount that holds path (the innermost, the last of those at
 * one point), or NULL. */
static const struct mline *host_mount_of(const struct mtable *h, const char *path)
{
	const struct mline *best = NULL;
	for (size_t i = 0; i < h->n; i++)
		if (under(path, h->l[i].target) && (!best || strlen(h->l[i].target) >= strlen(best->target)))
			best = &h->l[i];
	return best;
}

/* What a box's bind of src shows: the device and root of the runner's
 * mount that holds it (into dev, root), 0; -1 when the runner has none. */
static int bind_source(const struct mtable *h, const char *src, char *dev, size_t devn, char *root, size_t rootn)
{
	const struct mline *m = host_mount_of(h, src);
	if (!m)
		return -1;
	const char *rest = src + (strcmp(m->target, "/") ? strlen(m->target) : 0);
	snprintf(dev, devn, "%s", m->dev);
	if (!strcmp(m->root, "/"))
		snprintf(root, rootn, "%s", *rest ? rest : "/");
	else
		snprintf(root, rootn, "%s%s", m->root, rest);
	return 0;
}

static int is_hosts_dev(const struct mtable *h, const char *dev)
{
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->l[i].dev, dev))
			return 1;
	return 0;
}

/* Does the box's line l match what was asked, m? */
static int matches(const struct mtable *h, const struct sandbox_mount *m, const struct mline *l)
{
	switch (m->kind) {
	case MK_TMPFS:
		return !strcmp(l->type, "tmpfs") && !strcmp(l->root, "/") && !is_hosts_dev(h, l->dev);
	case MK_PROC:
		return !strcmp(l->type, "proc") && !strcmp(l->root, "/") && !is_hosts_dev(h, l->dev);
	case MK_DEVPTS:
		/* (console: the host's terminal, a bind of a pts or tty) */
		return !strcmp(l->type, "devpts") &&
		       (m->optional || (!strcmp(l->root, "/") && !is_hosts_dev(h, l->dev)));
	case MK_DATA:
		return !strcmp(l->type, "tmpfs") && !strncmp(l->root, "/bindfile", 9) && !is_hosts_dev(h, l->dev);
	case MK_BIND: {
		char dev[64], root[PATH_MAX + 64];
		if (bind_source(h, m->src, dev, sizeof(dev), root, sizeof(root)) < 0)
			return 0;
		return !strcmp(dev, l->dev) && !strcmp(root, l->root);
	}
	}
	return 0;
}

static const char *kind_name(int k)
{
	static const char *const n[] = { "an empty tmpfs", "the box's own /proc", "the box's own devpts", "a bind",
					 "a copy" };
	return k >= 0 && k <= MK_DATA ? n[k] : "?";
}

static void say(struct strbuf *why, const char *tool, const char *what, const struct mline *l, const char *asked)
{
	strbuf_addf(why, "the box that bubblewrap '%s' made %s: %s (%s, %s, device %s, root %s)%s%s; the worker read "
			 "its own /proc/self/mountinfo before any kernel code loaded (or the runner its "
			 "/proc/PID/mountinfo, where the box has no /proc), and nothing is timed in a box that "
			 "is not the one asked for: use the real bubblewrap (unset EVIDENT_BWRAP), or pass "
			 "--unsandboxed (the record will say so)",
		    tool ? tool : "?", what, l->target, l->type, l->ro ? "read-only" : "writable", l->dev, l->root,
		    asked ? "; asked: " : "", asked ? asked : "");
}

int sandbox_box_mounts_ok(json_t *box, const struct sandbox_mounts *e, const char *tool, struct strbuf *why)
{
	if (!e)
		return 1;
	json_t *a = json_object_get(box, "mounts");
	if (e->unknown) {
		strbuf_addf(why, "evident cannot tell what the box that bubblewrap '%s' makes should show: its "
				 "arguments have '%s', an option sandbox_mounts.c does not read (an evident bug)",
			    tool ? tool : "?", e->unknown);
		return 0;
	}
	if (!json_is_array(a) || json_array_size(a) == 0) {
		strbuf_addf(why, "the box that bubblewrap '%s' made did not say what it mounts (no readable "
				 "/proc/self/mountinfo in the worker's report); nothing is timed in a box that is not "
				 "observed: use the real bubblewrap (unset EVIDENT_BWRAP), or pass --unsandboxed (the "
				 "record will say so)",
			    tool ? tool : "?");
		return 0;
	}
	struct mtable box_t = { 0 }, host = { 0 };
	size_t i;
	json_t *v;
	json_array_foreach(a, i, v) {
		const char *s = json_string_value(v);
		char *own = xstrdup(s ? s : "");
		struct mline l = { 0 };
		char *save = NULL, *f[5] = { 0 };
		int n = 0;
		for (char *t = strtok_r(own, " ", &save); t && n < 5; t = strtok_r(NULL, " ", &save))
			f[n++] = t;
		if (n < 5) {
			free(own);
			continue;
		}
		l.target = f[0], l.type = f[1], l.ro = !strcmp(f[2], "ro"), l.dev = f[3], l.root = f[4];
		unescape(l.target);
		unescape(l.root);
		table_add(&box_t, own, &l);
	}
	host_table(&host);
	int ok = 1;
	/* each mount the box has */
	for (i = 0; ok && i < box_t.n; i++) {
		const struct mline *l = &box_t.l[i];
		/* the last asked at this point (what is visible there) */
		const struct sandbox_mount *at = NULL, *any_match = NULL;
		for (size_t k = 0; k < e->n; k++)
			if (!strcmp(e->m[k].target, l->target)) {
				at = &e->m[k];
				if (matches(&host, &e->m[k], l))
					any_match = &e->m[k];
			}
		/* the last line at this point is the one a path there reaches;
		 * one stacked under it (bubblewrap's devpts under the tmpfs
		 * over /dev/pts) no path reaches */
		int visible = 1;
		for (size_t k = i + 1; k < box_t.n; k++)
			if (!strcmp(box_t.l[k].target, l->target))
				visible = 0;
		if (!visible && at)
			continue;
		if (any_match) {
			if (visible && any_match->ro && !l->ro) {
				say(why, tool, "has a writable mount where read-only was asked", l, kind_name(any_match->kind));
				ok = 0;
			}
			continue;
		}
		/* bubblewrap's own read-only covers of /proc's sys,
		 * sysrq-trigger, irq and bus: the box's own proc */
		const struct sandbox_mount *cover = NULL;
		for (size_t k = 0; k < e->n; k++)
			if ((e->m[k].kind == MK_PROC || e->m[k].kind == MK_BIND) && under(l->target, e->m[k].target) &&
			    strcmp(l->target, e->m[k].target) &&
			    (!cover || strlen(e->m[k].target) >= strlen(cover->target)))
				cover = &e->m[k];
		if (cover && cover->kind == MK_PROC && !strcmp(l->type, "proc") && l->ro) {
			const char *last = strrchr(l->target, '/');
			int own = 0;
			for (size_t k = 0; k < box_t.n; k++)
				if (!strcmp(box_t.l[k].target, cover->target) && !strcmp(box_t.l[k].dev, l->dev))
					own = 1;
			if (own && last && (!strcmp(last, "/sys") || !strcmp(last, "/sysrq-trigger") ||
					    !strcmp(last, "/irq") || !strcmp(last, "/bus")))
				continue;
		}
		/* a submount of a directory bound (bubblewrap binds
		 * recursively): the runner's own, at the source, and
		 * read-only where the bind is */
		if (cover && cover->kind == MK_BIND && !at) {
			char *hp = xstrfmt("%s%s", strcmp(cover->src, "/") ? cover->src : "",
					   l->target + (strcmp(cover->target, "/") ? strlen(cover->target) : 0));
			int found = 0;
			for (size_t k = 0; k < host.n && !found; k++)
				/* (a cgroup's root is relative to the box's own
				 * cgroup namespace: --unshare-cgroup-try) */
				found = !strcmp(host.l[k].target, hp) && !strcmp(host.l[k].dev, l->dev) &&
					(!strcmp(host.l[k].root, l->root) || !strncmp(l->type, "cgroup", 6));
			free(hp);
			if (found && (l->ro || !cover->ro))
				continue;
			if (found) {
				say(why, tool, "has a writable mount under a read-only bind", l, NULL);
				ok = 0;
				continue;
			}
		}
		if (at) {
			char asked[PATH_MAX + 64];
			snprintf(asked, sizeof(asked), "%s%s%s%s", kind_name(at->kind), at->src ? " of " : "",
				 at->src ? at->src : "", at->ro ? ", read-only" : "");
			say(why, tool, "has a mount that is not the one asked for", l, asked);
		} else {
			say(why, tool, "has a mount it was not asked for", l, NULL);
		}
		ok = 0;
	}
	/* each mount asked for is there */
	for (size_t k = 0; ok && k < e->n; k++) {
		if (e->m[k].optional)
			continue;
		int there = 0;
		for (i = 0; i < box_t.n && !there; i++)
			there = !strcmp(box_t.l[i].target, e->m[k].target);
		if (!there) {
			strbuf_addf(why, "the box that bubblewrap '%s' made lacks a mount it was asked for: %s (%s%s%s); "
					 "the worker read its own /proc/self/mountinfo before any kernel code loaded, "
					 "and nothing is timed in a box that is not the one asked for: use the real "
					 "bubblewrap (unset EVIDENT_BWRAP), or pass --unsandboxed (the record will say so)",
				    tool ? tool : "?", e->m[k].target, kind_name(e->m[k].kind), e->m[k].src ? " of " : "",
				    e->m[k].src ? e->m[k].src : "");
			ok = 0;
		}
	}
	table_free(&box_t);
	table_free(&host);
	return ok;
}
