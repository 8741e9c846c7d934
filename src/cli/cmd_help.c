/*
 * cmd_help.c - `evident help [COMMAND | TOPIC]`: the command list and exit
 * codes, one command's own --help, or a reference table generated from
 * the list that owns it: `spec` (run/spec.h's spec_keys[] and the knobs of
 * backends/knobs.h), `outcomes` (record/outcome_list.h), `exit-codes`
 * (evident.h), `problems` (problems/NAME.c).  With --markdown the tables come
 * as the markdown README.md holds between its `<!-- generated: ... -->`
 * markers (scripts/readme-generated.sh writes them, tests/cli/t0082 checks
 * them), so README cannot say something the code does not.  Its options,
 * like every command's, come from an options table (cli/options.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backends/knobs.h"
#include "backends/problem.h"
#include "cli/evident.h"
#include "cli/options.h"
#include "record/record.h"
#include "run/spec.h"
#include "base/util.h"

/* text wrapped at 79 columns, starting at column col, continuation lines
 * indented by indent; then a newline.  Runs of spaces become one. */
static void add_wrapped(struct strbuf *out, const char *text, size_t col, size_t indent)
{
	int first = 1;
	for (const char *p = text; *p;) {
		size_t w = strcspn(p, " ");
		if (!first && col + 1 + w > 79) {
			strbuf_addf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			strbuf_addch(out, ' ');
			col++;
		}
		strbuf_add(out, p, w);
		col += w;
		p += w;
		while (*p == ' ')
			p++;
		first = 0;
	}
	strbuf_addch(out, '\n');
}

const char *exit_codes_text(void)
{
	static char buf[4096];
	if (!buf[0]) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addstr(&sb, "exit codes:\n");
#define EV_EXIT_TEXT_(name, code, meaning)             \
	strbuf_addf(&sb, "  %-4d ", code);              \
	add_wrapped(&sb, meaning, 7, 7);
		EV_EXIT_LIST(EV_EXIT_TEXT_)
#undef EV_EXIT_TEXT_
		snprintf(buf, sizeof(buf), "%s", sb.buf);
		strbuf_release(&sb);
	}
	return buf;
}

/* ---- the generated tables ----------------------------------------------- */

/* s as a markdown table cell: '|' escaped. */
static void md_cell(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			strbuf_addch(out, '\\');
		strbuf_addch(out, *s);
	}
}

/* One row: markdown "| `key` | a | b | c |", or text (key and its facts on
 * one line, the meaning indented on the next).  b, c may be NULL. */
static void table_row(struct strbuf *out, int markdown, const char *key, const char *a, const char *b,
		      const char *c)
{
	if (markdown) {
		strbuf_addstr(out, "| `");
		strbuf_addstr(out, key);
		strbuf_addstr(out, "` |");
		for (const char *const *f = (const char *const[]){ a, b, c, NULL }; *f; f++) {
			strbuf_addch(out, ' ');
			md_cell(out, *f);
			strbuf_addstr(out, " |");
		}
		strbuf_addch(out, '\n');
	} else if (b) {
		strbuf_addf(out, "  %s  ", key);
		char *facts = xstrfmt("(%s; default: %s)", a, b);
		add_wrapped(out, facts, 4 + strlen(key), 6);
		free(facts);
		strbuf_addstr(out, "      ");
		add_wrapped(out, c, 6, 6);
	} else {
		strbuf_addf(out, "  %-20s ", key);
		add_wrapped(out, a, 23, 23);
	}
}

/* A bound of a knob's range: integers without an exponent. */
static void add_bound(struct strbuf *out, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		strbuf_addf(out, "%.0f", v);
	else
		strbuf_addf(out, "%g", v);
}

/* One knob's row: the default of a derived one is its doc's "(default: HOW)". */
static void knob_row(struct strbuf *out, int markdown, const struct knob_def *d)
{
	struct strbuf key = STRBUF_INIT, type = STRBUF_INIT, def = STRBUF_INIT, doc = STRBUF_INIT;
	if (strcmp(d->section, "top"))
		strbuf_addf(&key, "%s.", d->section);
	strbuf_addstr(&key, d->name);
	if (d->type == KNOB_ENUM) {
		for (size_t i = 0; d->values[i]; i++)
			strbuf_addf(&type, "%s%s", i ? ", " : "", d->values[i]);
	} else {
		strbuf_addstr(&type, d->type == KNOB_INT ? "integer " : "number ");
		add_bound(&type, d->lo);
		strbuf_addstr(&type, "..");
		add_bound(&type, d->hi);
	}
	strbuf_addstr(&doc, d->doc);
	const char *how = strstr(d->doc, " (default: ");
	if (d->type == KNOB_ENUM) {
		strbuf_addstr(&def, d->values[(int)d->def]);
	} else if (!isnan(d->def)) {
		add_bound(&def, d->def);
	} else if (how && d->doc[strlen(d->doc) - 1] == ')') {
		strbuf_add(&def, how + 11, strlen(how + 11) - 1);
		strbuf_reset(&doc);
		strbuf_add(&doc, d->doc, (size_t)(how - d->doc));
	} else {
		strbuf_addstr(&def, "derived");
	}
	table_row(out, markdown, key.buf, type.buf, def.buf, doc.buf);
	strbuf_release(&key);
	strbuf_release(&type);
	strbuf_release(&def);
	strbuf_release(&doc);
}

/* The spec reference: spec_keys[] in order, each NULL-name row expanded
 * into the knobs of its section. */
static void spec_reference(struct strbuf *out, int markdown)
{
	if (markdown)
		strbuf_addstr(out, "| key | type | default | meaning |\n|---|---|---|---|\n");
	else
		strbuf_addstr(out, "spec keys (a spec is one YAML mapping; paths are relative to the repository root):\n");
	for (const struct spec_key *k = spec_keys; k->section; k++) {
		if (!k->name) {
			for (size_t i = 0; i < knob_count; i++)
				if (!strcmp(knob_defs[i].section, k->section))
					knob_row(out, markdown, &knob_defs[i]);
			continue;
		}
		/* "variant" and its nested sections ("variant/lineage") live in each
		 * variant; another nested section ("search/budget") under its parent */
		char *key = !strcmp(k->section, "top")	   ? xstrdup(k->name)
			    : !strcmp(k->section, "variant") ? xstrfmt("variants.NAME.%s", k->name)
			    : !strncmp(k->section, "variant/", 8) ? xstrfmt("variants.NAME.%s.%s", k->section + 8, k->name)
							     : xstrfmt("%s.%s", k->section, k->name);
		for (char *c = key; *c; c++)
			*c = *c == '/' ? '.' : *c;
		table_row(out, markdown, key, k->type, k->def, k->doc);
		free(key);
	}
}

static void outcomes_table(struct strbuf *out, int markdown)
{
	if (markdown)
		strbuf_addstr(out, "| outcome | meaning |\n|---|---|\n");
	else
		strbuf_addstr(out, "outcomes (the record's \"outcome\"; a spec's expect: names one, or a list of them):\n");
	for (unsigned i = 0; i < OUTCOME_COUNT; i++)
		table_row(out, markdown, outcome_name((enum outcome)i), outcome_meaning((enum outcome)i), NULL, NULL);
}

static void exit_codes_table(struct strbuf *out, int markdown)
{
	if (!markdown) {
		strbuf_addstr(out, exit_codes_text());
		return;
	}
	strbuf_addstr(out, "| code | meaning |\n|---|---|\n");
#define EV_EXIT_ROW_(name, code, meaning)          \
	strbuf_addf(out, "| %d | ", code);          \
	md_cell(out, meaning);                     \
	strbuf_addstr(out, " |\n");
	EV_EXIT_LIST(EV_EXIT_ROW_)
#undef EV_EXIT_ROW_
}

static const struct {
	const char *name;
	void (*print)(struct strbuf *out, int markdown);
} topics[] = {
	{ "spec", spec_reference },
	{ "outcomes", outcomes_table },
	{ "exit-codes", exit_codes_table },
};

/* `evident help problems`: every problems/NAME.c, loaded (so built into
 * the cache), with its keys, tensors, distributions and GPU reference. */
static int help_problems(void)
{
	struct strbuf out = STRBUF_INIT;
	int rc = problem_list_help(".", "build/cache", &out);
	fputs(strbuf_str(&out), stdout);
	strbuf_release(&out);
	return rc < 0 ? EV_FAILURES : EV_OK;
}

static const char synopsis[] =
	"usage: evident help [COMMAND]\n"
	"       evident help spec | outcomes | exit-codes [--markdown]\n"
	"       evident help problems\n"
	"\n"
	"Without an argument, the commands and the exit codes.  With a command, its own\n"
	"--help.  spec: every key of an experiment spec (type, default, meaning);\n"
	"outcomes: what a variant run can end as; exit-codes: what evident exits with;\n"
	"problems: the problems in problems/ (builds them).  --markdown prints a table\n"
	"as README.md holds it.\n";

int cmd_help(int argc, const char **argv)
{
	static const struct opt_usage usage = { "help", synopsis, NULL };
	int markdown = 0;
	const struct option opts[] = {
		OPT_BOOL("markdown", &markdown, "print a reference table (spec, outcomes, exit-codes) as README.md holds it"),
		OPT_END(),
	};
	argc = parse_options(argc, argv, opts, &usage);
	if (argc < 0)
		return argc == OPT_HELP ? EV_OK : EV_USAGE;
	if (argc > 1) {
		opt_usage_error(&usage, "one topic at a time ('%s' and '%s')", argv[0], argv[1]);
		return EV_USAGE;
	}
	if (argc == 1 && !strcmp(argv[0], "problems") && !markdown)
		return help_problems();
	for (size_t t = 0; argc == 1 && t < ARRAY_SIZE(topics); t++) {
		if (strcmp(topics[t].name, argv[0]))
			continue;
		struct strbuf out = STRBUF_INIT;
		topics[t].print(&out, markdown);
		fputs(strbuf_str(&out), stdout);
		strbuf_release(&out);
		return EV_OK;
	}
	if (markdown) {
		opt_usage_error(&usage, "--markdown is for the tables: spec, outcomes or exit-codes");
		return EV_USAGE;
	}
	if (argc == 1) {
		for (unsigned i = 0; i < n_commands; i++)
			if (commands[i].help && !strcmp(commands[i].name, argv[0]))
				return commands[i].fn(2, (const char *[]){ argv[0], "--help", NULL });
		error("no such command or topic '%s'; see 'evident help'", argv[0]);
		return EV_USAGE;
	}
	printf("usage: evident <command> [options]\n\ncommands:\n");
	for (unsigned i = 0; i < n_commands; i++)
		if (commands[i].help)
			printf("  %-10s %s\n", commands[i].name, commands[i].help);
	printf("\n'evident <command> --help' describes one command.  'evident help spec' lists every\n"
	       "key of an experiment spec, 'evident help outcomes' what a run can end as,\n"
	       "'evident help exit-codes' the codes below, and 'evident help problems' the\n"
	       "problems (problems/*.c).  Every option that takes a value is given as\n"
	       "--name VALUE or --name=VALUE; '--' ends the options.\n\n%s",
	       exit_codes_text());
	return EV_OK;
}
