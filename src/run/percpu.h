/*
 * percpu.h - what every task together ran on each CPU of the host, in ns,
 * read by the host clock at a sample's go and at its freeze: the run-queue
 * waits it takes off a sample's work are waits behind someone else only as
 * far as someone else ran on the worker's CPUs (red team 220: a kernel
 * crowded its own threads onto one CPU, each waited behind the other, the
 * other CPU idled, and the waits read as load).
 *
 * Sources, the first that reads: /proc/schedstat's per-CPU run time
 * (field 7 of each cpuN line, CONFIG_SCHEDSTATS: booked as a task leaves
 * its CPU), cgroup v1's root cpuacct.usage_percpu (every task's run time
 * charged to the root, booked at each tick and switch).  cgroup v2 has no
 * per-CPU figure (the H100 host: neither source); where neither reads,
 * percpu_open says "none" and the caller credits every wait uncapped
 * (host_clock_wait_credit).
 */
#ifndef EVIDENT_PERCPU_H
#define EVIDENT_PERCPU_H

#include <sched.h>

struct percpu;

/* The first source that reads (never NULL); percpu_close frees it. */
struct percpu *percpu_open(void);
void percpu_close(struct percpu *pc);

/* "schedstat", "cpuacct" or "none" (static). */
const char *percpu_source(const struct percpu *pc);

/* Reads every CPU's run time so far into the source's snapshot slot
 * (0: a sample's go, 1: its end).  0, or -1 where it does not read (the
 * slot is then unusable until read again). */
int percpu_snap(struct percpu *pc, int slot);

/* What all tasks ran on the CPUs of set between snapshots 0 and 1, in us;
 * NAN where either did not read or the source is none. */
double percpu_ran_us(const struct percpu *pc, const cpu_set_t *set);

/* Parses one /proc/schedstat text (NUL-terminated) into ns[cpu]
 * (n entries, CPUs beyond it ignored): the number of cpuN lines read, or
 * -1 where the text is not a version 15 or later schedstat.  Exposed for
 * the unit test. */
int percpu_parse_schedstat(const char *text, unsigned long long *ns, int n);

/* The same for cpuacct.usage_percpu's text (values in CPU order). */
int percpu_parse_cpuacct(const char *text, unsigned long long *ns, int n);

#endif
