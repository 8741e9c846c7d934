/*
 * mdscan.h - just enough markdown for `evident paper` and `evident audit`:
 * where the code is (fenced blocks with their info string, and `code
 * spans`: their contents are never markers or claims, and the auditor
 * reads their numbers by rules of its own), where the HTML comments are, and
 * the evident markers among them (docs/paper.md is the reference):
 *
 *   <!-- evident:NAME key=value key="a value" -->   opens a generated block
 *   <!-- /evident:NAME -->                          closes it
 *   <!-- claim: KIND key=value ... -->              a claim for the auditor
 *   <!-- evident:store path=DIR -->                 the store this file reads
 *
 * Values are bare (no spaces, quotes or "--") or double-quoted (no double
 * quote inside).  Any other HTML comment is left alone.  A marker that
 * starts like one of ours but does not parse is an error naming FILE:LINE,
 * so a typo never silently turns a generated block into prose.
 */
#ifndef EVIDENT_MDSCAN_H
#define EVIDENT_MDSCAN_H

#include <stddef.h>

struct md_attr {
	char *key, *value;
};

/* MD_SETTING: a self-contained setting of the whole file, today only
 * `<!-- evident:store path=DIR -->` (the store the file's numbers come from). */
enum md_kind { MD_OPEN, MD_CLOSE, MD_CLAIM, MD_SETTING };

struct md_marker {
	enum md_kind kind;
	char *name;              /* block name ("table") or claim kind ("faster") */
	struct md_attr *attrs;
	size_t n_attrs;
	size_t start, end;       /* offsets of "<!--" and just after "-->" */
	int line;                /* 1-based line of start */
};

/* Byte classes of mask[]. */
#define MD_TEXT 0
#define MD_CODE 1        /* a `code span` */
#define MD_COMMENT 2
#define MD_FENCE 3       /* a fenced code block, its fence lines included */

/* A fenced code block and the first word of its info string. */
struct md_fence {
	size_t start, end;       /* the whole block, fence lines included */
	char *info;              /* "" (none), "c", "text", ... (owned) */
};

struct md_doc {
	const char *file;        /* for messages (borrowed) */
	const char *text;        /* borrowed; must outlive the doc */
	size_t len;
	unsigned char *mask;     /* per byte: MD_TEXT, MD_CODE, MD_COMMENT or MD_FENCE (owned) */
	struct md_marker *mk;    /* markers in order of appearance (owned) */
	size_t n;
	struct md_fence *fence;  /* fenced code blocks in order (owned) */
	size_t n_fence;
};
#define MD_DOC_INIT { NULL, NULL, 0, NULL, NULL, 0, NULL, 0 }

/*
 * Scan text[0..len).  Returns 0, or -1 after error("FILE:LINE: ...") on a
 * malformed marker.  Release d with md_release even on failure.
 */
int md_parse(struct md_doc *d, const char *file, const char *text, size_t len);
void md_release(struct md_doc *d);

/* Value of attribute key of m, or NULL. */
const char *md_attr(const struct md_marker *m, const char *key);
/*
 * Does m carry only keys from allowed (NULL-terminated)?  If not, returns
 * the first other key (borrowed) so the caller can name it.
 */
const char *md_unknown_attr(const struct md_marker *m, const char *const *allowed);
/*
 * The store a markdown file declares with `<!-- evident:store path=DIR -->`
 * (malloc'd, caller frees), or NULL when it declares none or does not parse
 * (the parse error is reported again, in full, by paper or audit).
 */
char *md_declared_store(const char *file, const char *text, size_t len);
/* 1-based line number of byte offset off. */
int md_line_of(const struct md_doc *d, size_t off);
/* Index of the MD_CLOSE marker that closes open marker i, or -1. */
long md_find_close(const struct md_doc *d, size_t i);
/* The fenced block that holds byte off, or NULL. */
const struct md_fence *md_fence_at(const struct md_doc *d, size_t off);

#endif /* EVIDENT_MDSCAN_H */
