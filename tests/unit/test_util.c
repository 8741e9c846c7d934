/*
 * test_util.c - how text that kernels, compilers and specs wrote is made
 * fit for a terminal (base/util.h strbuf_add_printable and its one-line
 * form): control bytes, C1 controls and bytes that are not UTF-8 become
 * visible \xNN; printable text and well-formed UTF-8 stay as they are;
 * escaping twice changes nothing; and sha256_file_hex (md5_file_hex too), the hash of a
 * file read a block at a time.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

static char *printable(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_add_printable(&sb, s, n);
	return strbuf_detach(&sb, NULL);
}

static void test_controls(void **state)
{
	(void)state;
	const char in[] = "a\033[2J\033]0;owned\007b\rc\x7f" "d\ne\tf";
	char *p = printable(in, sizeof(in) - 1);
	assert_string_equal(p, "a\\x1b[2J\\x1b]0;owned\\x07b\\x0dc\\x7f" "d\ne\tf");
	free(p);
	/* one line: newline and tab too (a reason cannot start a line of a summary) */
	p = printable_line("ok\n  - honest: ok\tx");
	assert_string_equal(p, "ok\\x0a  - honest: ok\\x09x");
	free(p);
	p = printable_line(NULL);
	assert_string_equal(p, "");
	free(p);
}

/* U+009B (C2 9B) is a CSI to a terminal that takes 8-bit controls; a lone
 * 0x9b or a cut sequence is no UTF-8 at all; é and a 4-byte emoji stay */
static void test_utf8(void **state)
{
	(void)state;
	const char in[] = "x\xc2\x9b" "2Jy \xc3\xa9 \xf0\x9f\x98\x80 \x9b\xff\xe2\x82";
	char *p = printable(in, sizeof(in) - 1);
	assert_string_equal(p, "x\\xc2\\x9b" "2Jy \xc3\xa9 \xf0\x9f\x98\x80 \\x9b\\xff\\xe2\\x82");
	char *again = printable(p, strlen(p));
	assert_string_equal(again, p);
	free(again);
	free(p);
	/* overlong and surrogate forms are not UTF-8 either */
	const char bad[] = "\xc0\xaf\xed\xa0\x80";
	p = printable(bad, sizeof(bad) - 1);
	assert_string_equal(p, "\\xc0\\xaf\\xed\\xa0\\x80");
	free(p);
}

/* hex_encode and hex_decode: lower-case, both ways; a char that is no
 * lower-case hex digit is refused (the sealed plan's bytes). */
static void test_hex(void **state)
{
	(void)state;
	const unsigned char b[] = { 0x00, 0xff, 0x10, 0xab };
	char hx[9];
	hex_encode(b, 4, hx);
	assert_string_equal(hx, "00ff10ab");
	unsigned char back[4];
	assert_int_equal(hex_decode(hx, 4, back), 0);
	assert_memory_equal(back, b, 4);
	assert_int_equal(hex_decode("0A", 1, back), -1);
	assert_int_equal(hex_decode("0g", 1, back), -1);
	hex_encode(b, 0, hx);
	assert_string_equal(hx, "");
}

/* sha256_hex and the streaming sha256_begin/update/end (OpenSSL's
 * SHA256_* calls since they replaced EVP's) give FIPS 180-2's digests:
 * "abc", the two-block message, a million 'a' fed in uneven pieces, and
 * a 3 MiB buffer hashed whole and in pieces alike. */
static void test_sha256_vectors(void **state)
{
	(void)state;
	char got[SHA256_HEX_LEN + 1];
	sha256_hex("abc", 3, got);
	assert_string_equal(got, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	sha256_hex(two, strlen(two), got);
	assert_string_equal(got, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	char a[1000];
	memset(a, 'a', sizeof(a));
	struct sha256_ctx *c = sha256_begin();
	size_t left = 1000000, step = 1;
	while (left) {
		size_t k = step < left ? step : left;
		k = k < sizeof(a) ? k : sizeof(a);
		sha256_update(c, a, k);
		left -= k;
		step = step * 7 % 997 + 1;
	}
	sha256_end(c, got);
	assert_string_equal(got, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	size_t n = (3u << 20) + 13;
	unsigned char *b = malloc(n);
	assert_non_null(b);
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(i * 2654435761u >> 11);
	char whole[SHA256_HEX_LEN + 1];
	sha256_hex(b, n, whole);
	c = sha256_begin();
	for (size_t i = 0; i < n; i += 65537)
		sha256_update(c, b + i, n - i < 65537 ? n - i : 65537);
	sha256_end(c, got);
	assert_string_equal(got, whole);
	free(b);
}

/* sha256_file_hex, which reads a block (1 MiB) at a time, is the hash of
 * the whole content as sha256_hex of it: a file of several blocks and a
 * part, one of exactly a block, an empty one; a file that cannot be read
 * (missing, a directory) is -1. */
static void test_sha256_file(void **state)
{
	(void)state;
	char dir[] = "/tmp/evident-test-util-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof(path), "%s/f", dir);
	size_t sizes[] = { (3u << 20) + 5, 1u << 20, 0 };
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k];
		unsigned char *b = malloc(n ? n : 1);
		assert_non_null(b);
		for (size_t i = 0; i < n; i++)
			b[i] = (unsigned char)(i * 2654435761u >> 13);
		FILE *f = fopen(path, "wb");
		assert_non_null(f);
		assert_int_equal(fwrite(b, 1, n, f), n);
		assert_int_equal(fclose(f), 0);
		char want[SHA256_HEX_LEN + 1], got[SHA256_HEX_LEN + 1];
		sha256_hex(b, n, want);
		assert_int_equal(sha256_file_hex(path, got), 0);
		assert_string_equal(got, want);
		free(b);
	}
	char got[SHA256_HEX_LEN + 1];
	sha256_file_hex(path, got);
	assert_string_equal(got, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	/* md5_file_hex, the same reader (dpkg's md5sums): RFC 1321's vectors */
	char md5[MD5_HEX_LEN + 1];
	assert_int_equal(md5_file_hex(path, md5), 0);
	assert_string_equal(md5, "d41d8cd98f00b204e9800998ecf8427e");
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fputs("abc", f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(md5_file_hex(path, md5), 0);
	assert_string_equal(md5, "900150983cd24fb0d6963f7d28e17f72");
	assert_int_equal(unlink(path), 0);
	assert_int_equal(md5_file_hex(path, md5), -1);
	assert_string_equal(md5, "");
	assert_int_equal(sha256_file_hex(path, got), -1);
	assert_int_equal(sha256_file_hex(dir, got), -1);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_hex),
		cmocka_unit_test(test_sha256_vectors),
		cmocka_unit_test(test_sha256_file),
		cmocka_unit_test(test_utf8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
