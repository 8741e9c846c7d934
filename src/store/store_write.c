/*
 * store_write.c - how bytes reach the store: a record is written once
 * (tmp/, fsync, chmod 0444, link to its final name, fsync the directory,
 * so nothing half-written is ever visible under a final name), a cache
 * file replaced by rename, and objects stored and read back by the
 * SHA-256 of their content.  Fault injection (store_injected) fails these
 * writes on purpose for the tests.
 */
#include "store/store_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *store_object_path(struct store *st, const char *hex)
{
	return xstrfmt("%s/objects/%.2s/%s", st->root, hex, hex + 2);
}

static int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = fsync(fd);
	close(fd);
	return rc;
}

int store_write_once(struct store *st, const char *final, const void *data, size_t n,
		      int exists_ok)
{
	char rnd[17];
	random_hex(rnd, 16);
	char *tmp = xstrfmt("%s/tmp/%s", st->root, rnd);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	int rc = -1;
	if (fd < 0) {
		error("cannot create '%s': %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	if (store_injected() || write_all(fd, data, n) < 0) {
		error("cannot write '%s': %s", tmp, strerror(errno));
		goto out;
	}
	if (store_injected() || fsync(fd) < 0) {
		error("cannot fsync '%s': %s", tmp, strerror(errno));
		goto out;
	}
	fchmod(fd, 0444);
	if (close(fd) < 0) {
		fd = -1;
		error("cannot close '%s': %s", tmp, strerror(errno));
		goto out;
	}
	fd = -1;
	char *dir = xstrdup(final);
	*strrchr(dir, '/') = '\0';
	/* the directory is made only when missing: a mkdir a commit costs */
	int over = exists_ok == STORE_WRITE_OVER;
	int lr = store_injected() ? -1 : over ? rename(tmp, final) : link(tmp, final);
	if (lr < 0 && errno == ENOENT) {
		if (mkdir_p(dir, 0755) < 0) {
			free(dir);
			goto out;
		}
		lr = over ? rename(tmp, final) : link(tmp, final);
	}
	if (lr < 0) {
		if (errno == EEXIST && exists_ok && !over) {
			rc = 0;
		} else {
			error("cannot write '%s': %s", final,
			      errno == EEXIST ? "it exists already (records are never overwritten)"
					      : strerror(errno));
		}
		free(dir);
		goto out;
	}
	fsync_dir(dir);
	free(dir);
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return rc;
}

int store_write_replace(struct store *st, const char *final, const void *data, size_t n)
{
	char rnd[17];
	random_hex(rnd, 16);
	char *tmpdir = xstrfmt("%s/tmp", st->root);
	char *tmp = xstrfmt("%s/%s", tmpdir, rnd);
	int rc = -1, e = 0;
	if (mkdir(tmpdir, 0755) < 0 && errno != EEXIST)
		goto out;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		goto out;
	int ok = !store_injected() && write_all(fd, data, n) == 0;
	e = errno;
	if (close(fd) < 0 && ok) {
		ok = 0;
		e = errno;
	}
	if (ok && (store_injected() || rename(tmp, final) < 0))
		e = errno;
	else if (ok)
		rc = 0;
	if (rc < 0)
		unlink(tmp);
	errno = e;
out:
	e = errno;
	free(tmp);
	free(tmpdir);
	errno = e;
	return rc;
}

int store_put(struct store *st, const void *data, size_t n, char out[SHA256_HEX_LEN + 1])
{
	sha256_hex(data, n, out);
	char *path = store_object_path(st, out);
	int rc = 0;
	if (!path_exists(path))
		rc = store_write_once(st, path, data, n, 1);
	free(path);
	return rc;
}

int store_put_checked(struct store *st, const void *data, size_t n, char out[SHA256_HEX_LEN + 1])
{
	sha256_hex(data, n, out);
	char *path = store_object_path(st, out);
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), rc;
	int there = fd >= 0 || errno != ENOENT, same = 0;
	if (fd >= 0) {
		struct stat sb;
		struct strbuf cur = STRBUF_INIT;
		char got[SHA256_HEX_LEN + 1];
		if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && read_fd(fd, &cur) == 0) {
			sha256_hex(strbuf_str(&cur), cur.len, got);
			same = !strcmp(got, out);
		}
		strbuf_release(&cur);
		close(fd);
	}
	if (same)
		rc = 0;
	else if (!there)
		rc = store_write_once(st, path, data, n, 1);
	else {
		warning("the store's object %s was not its own bytes (another file at its name, a link or damage): "
			"replaced by them",
			path);
		rc = store_write_once(st, path, data, n, STORE_WRITE_OVER);
	}
	free(path);
	return rc;
}

int store_put_file_as(struct store *st, const char *path, const char *want, char out[SHA256_HEX_LEN + 1])
{
	/* hashed a block at a time first (an 800 MiB library); read whole
	 * only when its object is not there yet, and, with want, stored
	 * only if those bytes still hash to it */
	if (sha256_file_hex(path, out) < 0 || (want && strcmp(out, want)))
		return -1;
	char *obj = store_object_path(st, out);
	int have = path_exists(obj);
	free(obj);
	if (have)
		return 0;
	struct strbuf body = STRBUF_INIT;
	int rc = -1;
	if (read_file(path, &body) == 0) {
		char again[SHA256_HEX_LEN + 1];
		sha256_hex(strbuf_str(&body), body.len, again);
		if (!want || !strcmp(again, want))
			rc = store_put(st, strbuf_str(&body), body.len, out);
	}
	strbuf_release(&body);
	return rc;
}

int store_put_file(struct store *st, const char *path, char out[SHA256_HEX_LEN + 1])
{
	return store_put_file_as(st, path, NULL, out);
}

int store_is_hex64(const char *s)
{
	if (!s || strlen(s) != 64)
		return 0;
	for (const char *p = s; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return 0;
	return 1;
}

int store_get(struct store *st, const char *hex, struct strbuf *out)
{
	if (!store_is_hex64(hex))
		return error("'%s' is not an object name (64 hex digits)", hex);
	char *path = store_object_path(st, hex);
	size_t before = out->len;
	int rc = read_file(path, out);
	free(path);
	if (rc < 0)
		return -1;
	char got[SHA256_HEX_LEN + 1];
	sha256_hex(out->buf + before, out->len - before, got);
	if (strcmp(got, hex))
		return error("object '%s' is damaged (its content hashes to %.12s); run 'evident verify'",
			     hex, got);
	return 0;
}
