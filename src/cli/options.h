/*
 * options.h - one option parser for every command, declared as a table
 * (git's parse-options habit): a command lists its options once, and the
 * same table parses argv, writes the "options:" part of its --help (which
 * `evident help CMD` and scripts/gen-man print), and names the candidates
 * of a did-you-mean.  So every command accepts the same forms:
 *
 *   --name VALUE, --name=VALUE   every valued option (the next word is the
 *                                value even when it starts with '-')
 *   --flag, -q                   flags (a flag given a value is an error)
 *   --                           ends the options: the rest are positionals
 *   -                            alone, a positional (stdin by convention)
 *   -h, --help                   prints the command's help on stdout
 *
 * Options and positionals mix in any order; a string option given twice
 * keeps the last value, a list option keeps every value in order.  Numbers
 * are strict: the whole word, finite, inside the range the table gives
 * (written as an interval, "[1, 1000]" or "(0, 1)", which error messages
 * quote).  There are no abbreviations and no bundled short flags.
 *
 * A command declares (adding an option is one table line):
 *
 *   const char *store = NULL;
 *   int repeats = 0, json = 0;
 *   struct opt_list only = OPT_LIST_INIT;
 *   const struct option opts[] = {
 *           OPT_STORE(&store),
 *           OPT_INT("repeats", &repeats, "N", "[1, 1000]", "worker processes per variant"),
 *           OPT_STRING_LIST("only", &only, "NAME", "run only variant NAME (repeatable)"),
 *           OPT_BOOL("json", &json, "print JSON"),
 *           OPT_END(),
 *   };
 *   static const struct opt_usage u = { "run", "usage: evident run [options] SPEC.yaml\n\n...", NULL };
 *   argc = parse_options(argc, argv, opts, &u);
 *   if (argc < 0)
 *           return argc == OPT_HELP ? EV_OK : EV_USAGE;   (after opt_list_release)
 *   ... argv[0..argc) are the positionals
 *
 * Errors say what and where, then the command's usage lines on stderr:
 *   error: unknown option '--stor' for 'evident ls'; did you mean '--store'?
 *   usage: evident ls [options]
 * The parser returns -1 after error(); the command picks the exit code.
 */
#ifndef EVIDENT_OPTIONS_H
#define EVIDENT_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

enum opt_type {
	OPT_T_END,
	OPT_T_SET_INT,     /* a flag: *(int *)value = defval */
	OPT_T_STRING,      /* *(const char **)value = the word (borrowed from argv) */
	OPT_T_STRING_LIST, /* opt_list_push((struct opt_list *)value, word) */
	OPT_T_INT,         /* *(int *)value, within range */
	OPT_T_ULONG,       /* *(unsigned long *)value, within range */
	OPT_T_DOUBLE,      /* *(double *)value, finite, within range */
	OPT_T_CALLBACK,    /* cb(option, word): the command parses the word itself */
};

struct option;
/* Parses arg into opt->value; returns 0, or -1 after error() naming
 * opt->long_name and the word. */
typedef int (*opt_cb)(const struct option *opt, const char *arg);

struct option {
	enum opt_type type;
	char short_name;       /* 'q' for -q, or 0 */
	const char *long_name; /* "store" for --store, without the dashes */
	void *value;
	const char *argh;      /* the value's name in help: "DIR", "N"; NULL for flags */
	const char *range;     /* numbers: an interval, "[1, 1000]", "(0, 1)", "[0, 1)" */
	int defval;            /* OPT_T_SET_INT: the value a flag stores */
	opt_cb cb;             /* OPT_T_CALLBACK */
	const char *help;      /* one line; '\n' continues it under the first line */
};

#define OPT_END() { .type = OPT_T_END }
#define OPT_SET_INT(l, v, val, h) { .type = OPT_T_SET_INT, .long_name = (l), .value = (v), .defval = (val), .help = (h) }
#define OPT_BOOL(l, v, h) OPT_SET_INT(l, v, 1, h)
/* A flag that also has a one-letter form, -s. */
#define OPT_BOOL_SHORT(s, l, v, h) { .type = OPT_T_SET_INT, .short_name = (s), .long_name = (l), .value = (v), .defval = 1, .help = (h) }
#define OPT_STRING(l, v, a, h) { .type = OPT_T_STRING, .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_STRING_LIST(l, v, a, h) { .type = OPT_T_STRING_LIST, .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_INT(l, v, a, r, h) { .type = OPT_T_INT, .long_name = (l), .value = (v), .argh = (a), .range = (r), .help = (h) }
#define OPT_ULONG(l, v, a, r, h) { .type = OPT_T_ULONG, .long_name = (l), .value = (v), .argh = (a), .range = (r), .help = (h) }
#define OPT_DOUBLE(l, v, a, r, h) { .type = OPT_T_DOUBLE, .long_name = (l), .value = (v), .argh = (a), .range = (r), .help = (h) }
#define OPT_CALLBACK(l, v, a, f, h) { .type = OPT_T_CALLBACK, .long_name = (l), .value = (v), .argh = (a), .cb = (f), .help = (h) }

/* The options several commands share, declared once so that they read and
 * parse alike everywhere. */
#define OPT_STORE(v) OPT_STRING("store", v, "DIR", "the store (default: $EVIDENT_STORE, else store/)")
/* paper and audit: a markdown file may name its store */
#define OPT_STORE_MD(v)                                                                       \
	OPT_STRING("store", v, "DIR",                                                         \
		   "the store (default: the file's <!-- evident:store path=DIR -->,\n"        \
		   "else $EVIDENT_STORE, else store/)")
#define OPT_CACHE(v) OPT_STRING("cache", v, "DIR", "build cache (default: build/cache in the repository)")
#define OPT_NO_PROGRESS(v) OPT_SET_INT("no-progress", v, 0, "no progress line even on a terminal")

/* The values of a repeated option, in order; v[n] is NULL (v itself is
 * NULL while n is 0).  The strings are argv's (borrowed); the array is the
 * list's: opt_list_release frees it. */
struct opt_list {
	const char **v;
	size_t n, alloc;
};
#define OPT_LIST_INIT { NULL, 0, 0 }
void opt_list_push(struct opt_list *l, const char *s);
void opt_list_release(struct opt_list *l);

/* A command's help around its options table. */
struct opt_usage {
	const char *cmd;      /* "ls": messages say 'evident ls' */
	const char *synopsis; /* "usage: evident ls ..." lines, then (after a blank
	                         line) the description; ends with a newline */
	const char *epilogue; /* after the options: notes, exit codes (NULL: none) */
};

/* A finite decimal number, the whole of s (strtod's syntax, no leading
 * blank), for callbacks: 0, or -1 with no message. */
int opt_parse_number(const char *s, double *out);

/* Returned by parse_options when it printed the help. */
#define OPT_HELP (-2)

/*
 * Parses argv[1..argc) (argv[0] is the command's name) against opts.
 * Returns the number of positionals, moved to argv[0..n) in their order
 * with argv[n] = NULL; OPT_HELP after printing the help on stdout for -h
 * or --help; -1 after error() and the usage lines on stderr.  Values are
 * stored as they are met, so on error some may already be set (and a list
 * may own memory: release it either way).
 */
int parse_options(int argc, const char **argv, const struct option *opts, const struct opt_usage *u);

/* The whole help: synopsis, "options:" with one row per option (and -h),
 * epilogue. */
void opt_print_help(const struct option *opts, const struct opt_usage *u, FILE *f);
/* The usage lines: the synopsis up to its first blank line. */
void opt_print_usage(const struct opt_usage *u, FILE *f);
/* error(fmt, ...) then the usage lines on stderr, for a command's own
 * checks of its positionals.  Returns -1. */
int opt_usage_error(const struct opt_usage *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* EVIDENT_OPTIONS_H */
