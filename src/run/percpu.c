/*
 * percpu.c - every task's run time on each CPU of the host, for the host
 * clock's cap on the run-queue waits it credits (percpu.h says why).  The
 * file stays open for the drive and is read from its start at each
 * snapshot; nothing here runs in a box.
 */
#include "run/percpu.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

enum { PC_NONE, PC_SCHEDSTAT, PC_CPUACCT };

struct percpu {
	int kind, fd;
	char *buf; /* the file's text, grown as needed */
	size_t cap;
	unsigned long long ns[2][CPU_SETSIZE];
	int ok[2]; /* 1: that slot read */
};

int percpu_parse_schedstat(const char *text, unsigned long long *ns, int n)
{
	int version = -1, cpus = 0;
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (!strncmp(l, "version ", 8)) {
			version = atoi(l + 8);
			continue;
		}
		if (strncmp(l, "cpu", 3) || l[3] < '0' || l[3] > '9')
			continue;
		char *end;
		long cpu = strtol(l + 3, &end, 10);
		unsigned long long f[9];
		int k = 0;
		for (; k < 9; k++) {
			char *e2;
			errno = 0;
			f[k] = strtoull(end, &e2, 10);
			if (e2 == end || errno)
				break;
			end = e2;
		}
		if (k < 9)
			return -1;
		if (cpu >= 0 && cpu < n)
			ns[cpu] = f[6]; /* rq_cpu_time: what tasks ran here, ns */
		cpus++;
	}
	return version >= 15 && cpus > 0 ? cpus : -1;
}

int percpu_parse_cpuacct(const char *text, unsigned long long *ns, int n)
{
	int cpus = 0;
	const char *p = text;
	for (;;) {
		char *e;
		errno = 0;
		unsigned long long v = strtoull(p, &e, 10);
		if (e == p || errno)
			break;
		if (cpus < n)
			ns[cpus] = v;
		cpus++;
		p = e;
	}
	while (*p == ' ' || *p == '\n')
		p++;
	return cpus > 0 && !*p ? cpus : -1;
}

/* the file's whole text into pc->buf from its start: 0, or -1 */
static int read_text(struct percpu *pc)
{
	if (lseek(pc->fd, 0, SEEK_SET) < 0)
		return -1;
	size_t have = 0;
	for (;;) {
		if (have + 4096 + 1 > pc->cap) {
			pc->cap = pc->cap ? 2 * pc->cap : 65536;
			pc->buf = xrealloc(pc->buf, pc->cap);
		}
		ssize_t k = read(pc->fd, pc->buf + have, pc->cap - 1 - have);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0)
			break;
		have += (size_t)k;
	}
	pc->buf[have] = 0;
	return have ? 0 : -1;
}

static int parse(struct percpu *pc, unsigned long long *ns)
{
	memset(ns, 0, CPU_SETSIZE * sizeof(*ns));
	if (read_text(pc) < 0)
		return -1;
	return pc->kind == PC_SCHEDSTAT ? percpu_parse_schedstat(pc->buf, ns, CPU_SETSIZE)
					: percpu_parse_cpuacct(pc->buf, ns, CPU_SETSIZE);
}

struct percpu *percpu_open(void)
{
	static const struct {
		int kind;
		const char *path;
	} src[] = {
		{ PC_SCHEDSTAT, "/proc/schedstat" },
		{ PC_CPUACCT, "/sys/fs/cgroup/cpuacct/cpuacct.usage_percpu" },
		{ PC_CPUACCT, "/sys/fs/cgroup/cpu,cpuacct/cpuacct.usage_percpu" },
		{ PC_CPUACCT, "/sys/fs/cgroup/cpuacct,cpu/cpuacct.usage_percpu" },
	};
	struct percpu *pc = xcalloc(1, sizeof(*pc));
	pc->fd = -1;
	for (size_t i = 0; i < sizeof(src) / sizeof(src[0]); i++) {
		int fd = open(src[i].path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		pc->fd = fd;
		pc->kind = src[i].kind;
		if (parse(pc, pc->ns[0]) > 0)
			return pc;
		close(fd);
		pc->fd = -1;
	}
	pc->kind = PC_NONE;
	return pc;
}

void percpu_close(struct percpu *pc)
{
	if (!pc)
		return;
	if (pc->fd >= 0)
		close(pc->fd);
	free(pc->buf);
	free(pc);
}

const char *percpu_source(const struct percpu *pc)
{
	return pc->kind == PC_SCHEDSTAT ? "schedstat" : pc->kind == PC_CPUACCT ? "cpuacct" : "none";
}

int percpu_snap(struct percpu *pc, int slot)
{
	pc->ok[slot] = pc->kind != PC_NONE && parse(pc, pc->ns[slot]) > 0;
	return pc->ok[slot] ? 0 : -1;
}

double percpu_ran_us(const struct percpu *pc, const cpu_set_t *set)
{
	if (pc->kind == PC_NONE || !pc->ok[0] || !pc->ok[1])
		return NAN;
	unsigned long long sum = 0;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, set) && pc->ns[1][c] > pc->ns[0][c])
			sum += pc->ns[1][c] - pc->ns[0][c];
	return (double)sum / 1e3;
}
