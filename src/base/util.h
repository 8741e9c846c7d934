/*
 * util.h - small helpers every module uses: error reporting in git's style,
 * allocation that dies on out-of-memory, a growable string buffer, whole-file
 * I/O, SHA-256 (OpenSSL EVP) and UTC time stamps.
 *
 * Error convention: library code returns 0 on success or a negative value
 * after printing one message through error(), which returns -1 so that
 * `return error("cannot open '%s'", path);` reads naturally.  Messages are
 * lowercase, without a full stop, name the thing in quotes and say what to
 * do.  Only main() and cmd_*() exit.
 */
#ifndef EVIDENT_UTIL_H
#define EVIDENT_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Prints "error: <msg>" to stderr; returns -1. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "warning: <msg>" to stderr. */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "fatal: <msg>" and exits 70 (internal error).  For the impossible. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* Tests can silence error()/warning() output (counts are still kept). */
extern int util_quiet;

/* Allocation that dies on failure.  The caller frees with free(). */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
/* Zero the first `bytes` of p (writes the compiler keeps), then free it;
 * NULL is ignored.  For buffers that held inputs or references a later
 * allocation must not find. */
void clear_free(void *p, size_t bytes);
char *xstrdup(const char *s);
/* Two strings alike: both NULL, or equal. */
int str_same(const char *a, const char *b);
/* FNV-1a of a NUL-terminated string: the key of evident's hash tables
 * (not a digest: collisions are resolved by the tables). */
uint64_t str_hash(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a new string; caller frees. */
char *xstrfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The whole first line of text that contains word (malloc'd: the caller
 * frees it), or NULL when none does or text is NULL. */
char *line_with(const char *text, const char *word);

/* Growable NUL-terminated byte buffer.  STRBUF_INIT is a valid empty one. */
struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};
#define STRBUF_INIT { NULL, 0, 0 }
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t n);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_reset(struct strbuf *sb);
/* Frees the buffer; sb is STRBUF_INIT again. */
void strbuf_release(struct strbuf *sb);
/* Hands the buffer to the caller (who frees it); sb is empty again. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
/* The buffer's string, "" if nothing was ever added. */
const char *strbuf_str(const struct strbuf *sb);

/*
 * Appends n bytes of text that a kernel wrote (its log, its compiled
 * parameters) so that a terminal shows them and obeys none of them: every
 * control byte but newline and tab, and DEL, becomes a visible \xNN, and
 * so do the C1 controls as UTF-8 spells them (U+0080..U+009F: C2 80..C2
 * 9F; U+009B is a CSI to a terminal that takes 8-bit controls) and every
 * byte that is not part of well-formed UTF-8 (the result is valid UTF-8,
 * which a JSON record can hold).  A
 * kernel's output printed raw could clear the reader's screen, retitle or
 * reprogram the terminal, or overwrite a line with a carriage return.
 */
void strbuf_add_printable(struct strbuf *sb, const char *s, size_t n);
/* The same for text that must stay one line (a reason, a name, a
 * violation): newline and tab become \x0a and \x09 too, so that a kernel
 * cannot start a line of its own in a summary (red team 4, ctl_bytes). */
void strbuf_add_printable_line(struct strbuf *sb, const char *s, size_t n);
/* s (NUL-terminated) escaped as strbuf_add_printable_line; malloc'd,
 * the caller frees. */
char *printable_line(const char *s);

/* Reads a whole file into sb (appends).  Returns 0 or error(). */
int read_file(const char *path, struct strbuf *sb);
/* The first n - 1 bytes of a small file (a /proc entry) into buf,
 * NUL-terminated, with one read(); the count, or -1, quietly (a process
 * may be gone by now: no error() printed). */
ssize_t read_small(const char *path, char *buf, size_t n);
/* Reads a whole fd until EOF into sb (appends).  Returns 0 or -1 (errno). */
int read_fd(int fd, struct strbuf *sb);
/* Writes all n bytes, retrying on EINTR/short writes.  Returns 0 or -1. */
int write_all(int fd, const void *data, size_t n);
/* mkdir -p.  Returns 0 or error(). */
int mkdir_p(const char *path, int mode);
/* Does path exist (any type)? */
int path_exists(const char *path);

/* The file a line's quoted #include names (`#include "x.h"`, blanks
 * allowed around the '#'), malloc'd (the caller frees), or NULL for any
 * other line.  One parser for the build's source hashes (build.c) and a
 * problem's code at a commit (store/problem_code.c). */
char *include_quoted(const char *line);
int is_dir(const char *path);

/* n bytes as base64 text (no line breaks): a new string the caller
 * frees; NULL past INT_MAX / 4 * 3 bytes */
char *b64_encode(const void *data, size_t n);
/* base64 text s (as b64_encode writes it) decoded: a new buffer the
 * caller frees, its length in *n; NULL where s is not such text */
void *b64_decode(const char *s, size_t *n);

/* SHA-256 as 64 lowercase hex chars + NUL. */
#define SHA256_HEX_LEN 64
int sha256_hex(const void *data, size_t n, char out[SHA256_HEX_LEN + 1]);
int sha256_file_hex(const char *path, char out[SHA256_HEX_LEN + 1]);
/* MD5 of a file (dpkg's md5sums name packaged files by it), 32 hex + NUL;
 * 0, or error() */
#define MD5_HEX_LEN 32
int md5_file_hex(const char *path, char out[MD5_HEX_LEN + 1]);
/* Incremental hashing for keys built from many parts. */
struct sha256_ctx;
struct sha256_ctx *sha256_begin(void);                           /* free by _end */
void sha256_update(struct sha256_ctx *c, const void *data, size_t n);
/* Feeds a length-prefixed field, so ("ab","c") and ("a","bc") differ. */
void sha256_update_field(struct sha256_ctx *c, const char *label, const void *data, size_t n);
void sha256_end(struct sha256_ctx *c, char out[SHA256_HEX_LEN + 1]); /* frees c */

/* Current UTC time as "2026-11-22T03:50:51.123Z" into buf (>= 32 bytes). */
void utc_now_iso(char *buf, size_t len);
/* Compact UTC stamp "20261122T035051.123Z" into buf (>= 21 bytes); sorts in time order. */
void utc_now_compact(char *buf, size_t len);
/* Monotonic clock in seconds. */
double mono_now(void);

/* The n bytes of data as 2n lower-case hex chars and a NUL into out. */
void hex_encode(const void *data, size_t n, char *out);
/* n bytes into out from the 2n lower-case hex chars at hx: 0, or -1 at a
 * char that is none (out then holds the bytes before it). */
int hex_decode(const char *hx, size_t n, unsigned char *out);

/* Random hex string of n chars from /dev/urandom (n < 64) into out. */
void random_hex(char *out, size_t n);
/* 64 bits from the kernel's random pool (getrandom): the parent's secret
 * draws (inputs, checks), which nothing a worker reads can predict.  Dies
 * if the pool cannot be read: such a draw must not fall back on anything
 * guessable. */
uint64_t random_secret_u64(void);

/* Is s a safe single path component: [A-Za-z0-9._-], not "." or "..", not empty? */
int is_safe_name(const char *s);

/* Levenshtein distance, for did-you-mean suggestions. */
int edit_distance(const char *a, const char *b);

/* Strip trailing whitespace in place. */
void rtrim(char *s);

#endif /* EVIDENT_UTIL_H */
