/*
 * test_search.c - unit tests of a search's machinery (run/search.h): the
 * seeded generator, mutations over ranges, choices and kernel files, the
 * identity of a candidate, the selection rule (a knob that missed the
 * binary or a verdict short of faster never promotes), what counts as the
 * same code (the echo-neutral hash), what confirms a promotion, and the
 * text of a generation's spec.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "report/code_identity.h"
#include "run/search.h"

static void test_rng_is_seeded(void **state)
{
	(void)state;
	struct search_rng a, b, c;
	search_rng_init(&a, 42, 0);
	search_rng_init(&b, 42, 0);
	search_rng_init(&c, 42, 1);
	int same_ab = 1, same_ac = 1;
	for (int i = 0; i < 16; i++) {
		uint64_t x = search_rng_next(&a), y = search_rng_next(&b), z = search_rng_next(&c);
		same_ab &= x == y;
		same_ac &= x == z;
	}
	assert_true(same_ab);
	assert_false(same_ac); /* another generation, another stream */
}

static char *ch[] = { "4", "8", "16", NULL };
static struct spec_tunable tun[2] = {
	{ "BM", 1, 16, 64, 16, NULL, 0 },
	{ "VW", 0, 0, 0, 0, ch, 3 },
};

static void test_mutations_stay_in_the_space(void **state)
{
	(void)state;
	struct spec_search ss = { .population = 4, .generations = 2, .elite = 1, .mutations = 1,
				  .tunables = tun, .n_tunables = 2 };
	struct param parent[] = { { "BM", "32" }, { "VW", "8" }, { "OTHER", "x" } };
	struct search_rng rng;
	search_rng_init(&rng, 7, 0);
	int moved_bm = 0, moved_vw = 0;
	for (int i = 0; i < 400; i++) {
		char *k;
		struct param *p;
		size_t n;
		struct strbuf m = STRBUF_INIT;
		search_mutate(&ss, "k.c", "k.c", parent, 3, &rng, &k, &p, &n, &m);
		assert_string_equal(k, "k.c");
		assert_int_equal(n, 3);
		assert_string_equal(p[2].name, "OTHER"); /* untouched, in its place */
		assert_string_equal(p[2].value, "x");
		int changed = strcmp(p[0].value, "32") != 0;
		changed += strcmp(p[1].value, "8") != 0;
		assert_int_equal(changed, 1); /* mutations: 1 */
		long bm = atol(p[0].value);
		assert_true(bm >= 16 && bm <= 64 && bm % 16 == 0);
		assert_true(!strcmp(p[1].value, "4") || !strcmp(p[1].value, "8") || !strcmp(p[1].value, "16"));
		if (strcmp(p[0].value, "32")) {
			moved_bm++;
			char want[64];
			snprintf(want, sizeof(want), "BM 32->%ld", bm);
			assert_string_equal(m.buf, want);
		} else {
			moved_vw++;
		}
		strbuf_release(&m);
		search_params_free(p, n);
		free(k);
	}
	assert_true(moved_bm > 100 && moved_vw > 100); /* both genes drawn */
}

/* A tunable the parent does not set is added, and an off-grid value
 * moves onto the grid; two mutations change two genes. */
static void test_unset_and_two_mutations(void **state)
{
	(void)state;
	struct spec_search ss = { .population = 1, .mutations = 2, .tunables = tun, .n_tunables = 2 };
	struct param parent[] = { { "BM", "17" } };
	struct search_rng rng;
	search_rng_init(&rng, 1, 3);
	char *k;
	struct param *p;
	size_t n;
	struct strbuf m = STRBUF_INIT;
	search_mutate(&ss, "k.c", "k.c", parent, 1, &rng, &k, &p, &n, &m);
	assert_int_equal(n, 2);
	assert_string_equal(p[1].name, "VW");
	long bm = atol(p[0].value);
	assert_true(bm >= 16 && bm <= 64 && bm % 16 == 0);
	assert_non_null(strstr(m.buf, "BM 17->"));
	assert_non_null(strstr(m.buf, "VW (unset)->"));
	strbuf_release(&m);
	search_params_free(p, n);
	free(k);
}

/* The kernel file is a gene of its own; the start's kernel is one of its values. */
static void test_kernel_gene(void **state)
{
	(void)state;
	char *ks[] = { "kernels/b.c", NULL };
	struct spec_search ss = { .mutations = 1, .kernels = ks, .n_kernels = 1 };
	struct search_rng rng;
	search_rng_init(&rng, 3, 0);
	char *k;
	struct param *p;
	size_t n;
	struct strbuf m = STRBUF_INIT;
	search_mutate(&ss, "kernels/a.c", "kernels/a.c", NULL, 0, &rng, &k, &p, &n, &m);
	assert_string_equal(k, "kernels/b.c");
	assert_string_equal(m.buf, "kernel a.c->b.c");
	strbuf_reset(&m);
	char *k2;
	search_mutate(&ss, "kernels/a.c", k, NULL, 0, &rng, &k2, &p, &n, &m);
	assert_string_equal(k2, "kernels/a.c"); /* back to the start's */
	strbuf_release(&m);
	free(k);
	free(k2);
}

static void test_key_ignores_order(void **state)
{
	(void)state;
	struct param a[] = { { "A", "1" }, { "B", "2" } }, b[] = { { "B", "2" }, { "A", "1" } }, c[] = { { "A", "1" } };
	char *ka = search_key("k.c", a, 2), *kb = search_key("k.c", b, 2), *kc = search_key("k.c", c, 1),
	     *kd = search_key("l.c", a, 2);
	assert_string_equal(ka, kb);
	assert_string_not_equal(ka, kc);
	assert_string_not_equal(ka, kd);
	free(ka);
	free(kb);
	free(kc);
	free(kd);
}

/* The selection: only ok, faster candidates whose knob reached the binary;
 * the largest lower CI bound of them. */
static void test_pick(void **state)
{
	(void)state;
	size_t nf;
	struct search_verdict v[] = {
		{ "ok", NULL, 0, NAN, NAN, 0, 0 },              /* the elite */
		{ "ok", "faster", 1, 3.0, 2.5, 0, 0 },          /* fastest of all, but its knob missed the binary */
		{ "ok", "no_difference", 0, 1.004, 0.995, 0, 0 },
		{ "ok", "inconclusive", 0, 1.6, 0.9, 0, 0 },
		{ "crashed", "faster", 0, 2.0, 1.8, 0, 0 },
		{ "ok", "faster", 0, 1.5, 1.2, 0, 0 },
		{ "ok", "faster", 0, 1.7, 1.1, 0, 0 },          /* larger speedup, smaller lower bound */
	};
	assert_int_equal(search_pick(v, 7, &nf), 5);
	assert_int_equal(nf, 2);
	assert_int_equal(search_pick(v, 5, &nf), 0); /* none promotable: the elite stays */
	assert_int_equal(nf, 0);
	v[6].speedup_lo = 1.2;
	assert_int_equal(search_pick(v, 7, &nf), 6); /* a tie on the bound: the larger speedup */
	/* red team 134's rule (eval's): a candidate judged in boxes of an
	 * unverified bubblewrap, with none, or under a looser tolerance is
	 * never promoted */
	v[6].weak = 1;
	assert_int_equal(search_pick(v, 7, &nf), 5);
	assert_int_equal(nf, 1);
	v[5].weak = 1;
	assert_int_equal(search_pick(v, 7, &nf), 0);
	assert_int_equal(nf, 0);
	/* eval's stress hold (red team 145): faster by its time, but a
	 * stress distribution ran it over 3x slower (batch_row_stress_slow) */
	v[5].weak = v[6].weak = 0;
	v[6].stress_slow = 43.5;
	assert_int_equal(search_pick(v, 7, &nf), 5);
	assert_int_equal(nf, 1);
	v[5].stress_slow = 3.2;
	assert_int_equal(search_pick(v, 7, &nf), 0);
	assert_int_equal(nf, 0);
}

/* red team 48: a knob that reaches only the echo is the same code; a
 * NULL hash or another kernel file decides nothing */
static void test_same_code(void **state)
{
	(void)state;
	assert_int_equal(search_same_code("k.c", "b1", "n1", NULL, NULL, "k.c", "b1", "n1", NULL, NULL), SEARCH_SAME_BINARY);
	assert_int_equal(search_same_code("k.c", "b1", "n1", NULL, NULL, "k.c", "b2", "n1", NULL, NULL), SEARCH_SAME_ECHO);
	assert_int_equal(search_same_code("k.c", "b1", "n1", NULL, NULL, "k.c", "b2", "n2", NULL, NULL), SEARCH_OTHER_CODE);
	assert_int_equal(search_same_code("k.c", "b1", NULL, NULL, NULL, "k.c", "b2", NULL, NULL, NULL), SEARCH_OTHER_CODE);
	assert_int_equal(search_same_code("k.c", "b1", "n1", NULL, NULL, "k.c", "b2", NULL, NULL, NULL), SEARCH_OTHER_CODE);
	assert_int_equal(search_same_code("k.c", "b1", "n1", NULL, NULL, "j.c", "b1", "n1", NULL, NULL), SEARCH_OTHER_CODE);
	assert_int_equal(search_same_code("k.c", NULL, NULL, NULL, NULL, "k.c", NULL, NULL, NULL, NULL), SEARCH_OTHER_CODE);
	/* red team 87's search: -g3 keeps -DUNUSED=V in .debug_macro, which
	 * is not loaded: another binary and echo-neutral object, one image */
	assert_int_equal(search_same_code("k.c", "b1", "n1", "l1", NULL, "k.c", "b2", "n2", "l1", NULL), SEARCH_SAME_LOAD);
	assert_int_equal(search_same_code("k.c", "b1", "n1", "l1", NULL, "k.c", "b2", "n2", "l2", NULL), SEARCH_OTHER_CODE);
	assert_int_equal(search_same_code("k.c", "b1", "n1", "l1", NULL, "j.c", "b2", "n2", "l1", NULL), SEARCH_OTHER_CODE);
	/* an object's hashes are of the object alone: one object with another
	 * library is another program (code_id.libs, as the audit and eval read
	 * it); the same libraries, or unknown, leave the hashes to decide */
	assert_int_equal(search_same_code("k.c", "b1", "n1", "l1", "L1", "k.c", "b1", "n1", "l1", "L2"), SEARCH_OTHER_CODE);
	assert_int_equal(search_same_code("k.c", "b1", "n1", "l1", "L1", "k.c", "b2", "n1", "l1", "L2"), SEARCH_OTHER_CODE);
	assert_int_equal(search_same_code("k.c", "b1", "n1", "l1", "L1", "k.c", "b2", "n2", "l1", "L2"), SEARCH_OTHER_CODE);
	assert_int_equal(search_same_code("k.c", "b1", "n1", "l1", "L1", "k.c", "b1", "n1", "l1", "L1"), SEARCH_SAME_BINARY);
	assert_int_equal(search_same_code("k.c", "b1", "n1", "l1", "L1", "k.c", "b2", "n2", "l1", "L1"), SEARCH_SAME_LOAD);
	assert_int_equal(search_same_code("k.c", "b1", "n1", "l1", NULL, "k.c", "b2", "n2", "l1", "L1"), SEARCH_SAME_LOAD);
	/* a CUDA binary hash is its device code's: one device image with
	 * other host code (a grid chosen in launch()) is other code */
	assert_int_equal(search_same_code("k.cu", "d1", NULL, "l1", NULL, "k.cu", "d1", NULL, "l2", NULL), SEARCH_OTHER_CODE);
	assert_int_equal(search_same_code("k.cu", "d1", NULL, "l1", NULL, "k.cu", "d1", NULL, "l1", NULL), SEARCH_SAME_BINARY);
	assert_int_equal(search_same_code("k.cu", "d1", NULL, NULL, NULL, "k.cu", "d1", NULL, "l2", NULL), SEARCH_SAME_BINARY);
}

/* a promotion stands only on a confirmation batch's faster with both ok */
/* Red team 51: the best going in, 8x slower than at its first
 * measurement, confirms nothing; a few percent of drift does not hold */
static void test_incumbent_drift(void **state)
{
	(void)state;
	assert_true(search_incumbent_drifted(600.0, 80.0));  /* 75 us then, 630 now */
	assert_false(search_incumbent_drifted(84.0, 80.0));  /* within the margin */
	assert_false(search_incumbent_drifted(95.0, 80.0));  /* 1.19x: load on 2 CPUs (red team 59) */
	assert_true(search_incumbent_drifted(687.3, 97.19)); /* red team 59: against the median, not a wide CI's end */
	assert_true(search_incumbent_drifted(900.0, 445.69)); /* red team 60: its CI's low end, 554.83, passed */
	assert_false(search_incumbent_drifted(70.0, 80.0));  /* faster now */
	assert_false(search_incumbent_drifted(NAN, 80.0));   /* unknown */
	assert_false(search_incumbent_drifted(600.0, NAN));
	/* red team 62 d: a challenger whose median CI lies wholly under the
	 * incumbent's fastest median beats its history; its median alone
	 * under it does not */
	assert_true(code_beats_history(59.9, 75.0)); /* by the drift margin, 1.25 */
	assert_false(code_beats_history(60.1, 75.0)); /* red team 65: one slow publish is no floor */
	assert_false(code_beats_history(75.0, 75.0));
	assert_false(code_beats_history(1508.7, 1468.5)); /* red team 62 d2's df6: CI [397.7, 1508.7] */
	assert_false(code_beats_history(NAN, 75.0));
	assert_false(code_beats_history(50.0, NAN));
	/* a lineage: the challenger must lie under every earlier best's
	 * fastest median (the incumbent aside), else each incumbent's
	 * within-margin drift promotes the same speed again */
	assert_true(search_lineage_stalled(100.0, 100.0)); /* the start's speed, again */
	assert_true(search_lineage_stalled(104.0, 100.0));
	assert_false(search_lineage_stalled(83.0, 100.0)); /* two honest steps of 1.1x */
	assert_false(search_lineage_stalled(NAN, 100.0));
	assert_false(search_lineage_stalled(100.0, NAN)); /* generation 0 or 1: no earlier best */
}

static void test_confirms(void **state)
{
	(void)state;
	assert_true(search_confirms("ok", "ok", "faster", 0));
	assert_false(search_confirms("ok", "ok", "faster", 1));
	assert_false(search_confirms("ok", "ok", "inconclusive", 0));
	assert_false(search_confirms("ok", "ok", "no_difference", 0));
	assert_false(search_confirms("ok", "ok", NULL, 0));
	assert_false(search_confirms("flaky", "ok", "faster", 0));
	assert_false(search_confirms("ok", "crashed", "faster", 0));
	assert_false(search_confirms(NULL, "ok", "faster", 0));
}

static void test_spec_text(void **state)
{
	(void)state;
	const char *orig = "# head\nname: x\nproblem: p\nvariants:\n  base: {A: 1}\n# about search\n"
			   "search:\n  population: 2\n  tunables:\n    A: {choices: [1, 2]}\ntiming: {samples: 5}\n"
			   "params: {B: 3}\nbaseline: base\n";
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	assert_int_equal(search_spec_text(orig, "# gen\n", "base", "  base: {A: 1}\n  g0c0: {A: 2}\n", &out, &why), 0);
	assert_string_equal(out.buf, "# gen\n# head\nname: x\nproblem: p\ntiming: {samples: 5}\n"
				     "baseline: base\nvariants:\n  base: {A: 1}\n  g0c0: {A: 2}\n");
	strbuf_reset(&out);
	assert_int_equal(search_spec_text("{name: x, search: {}}", "", "b", "", &out, &why), -1);
	assert_non_null(strstr(why.buf, "block-style"));
	strbuf_release(&out);
	strbuf_release(&why);
}

/* code_pair_drift: a candidate worse there both against the reference
 * and by its own median (red team 224's coin: 1000 us here, 3500 there,
 * the reference 2000 both: 3.5x); a reference fast there alone is not the
 * candidate's drift (red team 225's refnice: the candidate 960 us both,
 * the reference 2300 here and 1500 there: 1.0) */
static void test_pair_drift(void **state)
{
	(void)state;
	assert_true(fabs(code_pair_drift(1000, 2000, 3500, 2000) - 3.5) < 1e-9);
	assert_true(fabs(code_pair_drift(960, 2300, 960, 1500) - 1.0) < 1e-9);
	/* load on both sides there: the speedup held, no drift */
	assert_true(fabs(code_pair_drift(1000, 2000, 1500, 3000) - 1.0) < 1e-9);
	assert_true(isnan(code_pair_drift(0, 2000, 1000, 2000)));
	assert_true(isnan(code_pair_drift(1000, 2000, NAN, 2000)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rng_is_seeded),
		cmocka_unit_test(test_mutations_stay_in_the_space),
		cmocka_unit_test(test_unset_and_two_mutations),
		cmocka_unit_test(test_kernel_gene),
		cmocka_unit_test(test_key_ignores_order),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_same_code),
		cmocka_unit_test(test_confirms),
		cmocka_unit_test(test_incumbent_drift),
		cmocka_unit_test(test_pair_drift),
		cmocka_unit_test(test_spec_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
