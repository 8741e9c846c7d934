/*
 * health.h - is a repeat's timing trustworthy as a single regime?  From the
 * samples as taken: samples the GPU reported as throttled, the range of
 * the SM clock, a drift over the sample index (least-squares slope, with
 * its significance), and more than one mode (the bimodality coefficient).
 * The record carries the result; the summary and the paper show its note.
 */
#ifndef EVIDENT_HEALTH_H
#define EVIDENT_HEALTH_H

#include <stddef.h>

#include "backends/protocol.h"
#include "record/record.h"

/* Fill h from the worker's samples and xs[0..n) (the preferred clock's
 * times, in order).  h->note is a static string or NULL. */
void health_assess(const struct proto *p, const double *xs, size_t n, struct rec_health *h);

#endif /* EVIDENT_HEALTH_H */
