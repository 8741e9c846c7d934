/*
 * sandbox_tool.c - which bubblewrap makes the boxes, verified before it is
 * run (sandbox.h sandbox_tool_known).  EVIDENT_BWRAP or PATH may name any
 * executable, and whoever starts the runner (an agent that writes the
 * kernel and calls the judge, a CI job's configuration) chooses them:
 * red teams 131-133 made stand-ins that exec the real bubblewrap with one
 * thing changed, each passing the box's observation of its day (an extra
 * descriptor of the host's `/`, a /tmp that outlives every box, the
 * kernel object's descriptor swapped for another's, evident's program with
 * a rule of its own in front).  Observation answers what a box shows;
 * which program made it is a question of identity, answered here: the
 * runner accepts as bubblewrap only
 *   - the Debian package's /usr/bin/bwrap, whose MD5 is the one dpkg
 *     lists for it (/var/lib/dpkg/info/bubblewrap[:ARCH].md5sums; a
 *     second preimage of a given MD5 is not feasible, only collisions of
 *     pairs made together), or
 *   - the one `make dist` put beside the runner (bin/bwrap, patched for
 *     the dist's library directory), whose SHA-256 is the one compiled
 *     into the runner (bwrap_known.h, made by scripts/bwrap-known.sh from
 *     the building machine's Debian bubblewrap, checked against dpkg's
 *     list the same way and patched as scripts/dist.sh patches it; until
 *     red team 135 the dist's own share/evident/bwrap.sha256 vouched for
 *     it, and a hand-made "dist", this runner copied beside a stand-in and
 *     the stand-in's hash, was recorded as verified: fakedist).
 * Any other is refused before it runs (exit 6), unless the runner's
 * environment says EVIDENT_BWRAP_UNVERIFIED=1 (for tests of the
 * observation with stand-ins): then every record says so
 * (judge.sandbox.binary_verified) and no claim counts it
 * (store/query.c query_run_weak_judge_why).  Still the operator's: a runner
 * rebuilt with another hash compiled in (its records name its commit and
 * binary), and the system libraries bubblewrap loads.
 */
#include "base/sandbox.h"
#include "bwrap_known.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the first field of the line of list whose second field is name (a
 * dpkg md5sums file: "HEX  usr/bin/bwrap"), into out; 0, or -1 */
static int listed(const char *list, const char *name, char *out, size_t outlen)
{
	FILE *f = fopen(list, "r");
	if (!f)
		return -1;
	char line[PATH_MAX + 128];
	int rc = -1;
	while (rc < 0 && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = 0;
		char *sp = strchr(line, ' ');
		if (!sp)
			continue;
		*sp = 0;
		const char *p = sp + 1;
		while (*p == ' ' || *p == '*')
			p++;
		size_t len = strlen(line);
		if (!strcmp(p, name) && len < outlen) {
			memcpy(out, line, len + 1);
			rc = 0;
		}
	}
	fclose(f);
	return rc;
}

/* Each library of the dist's bwrap that its RUNPATH would take from the
 * dist's lib/ (bindir/../lib/NAME, EVIDENT_BWRAP_DIST_LIBS: "NAME SHA256"
 * lines), where one lies there, has the SHA-256 compiled in (red team
 * 137's libdist: the verified bwrap beside a libselinux.so.1 that loads a
 * hook of its own, whose constructor exec'd a stand-in: eighth.c, wrong,
 * ok at 3.488x "faster", every record verified).  One not there is the
 * system's, as the loader goes on to look.  1, else 0 with why. */
static int dist_libs_known(const char *bindir, struct strbuf *why)
{
	static const char libs[] = EVIDENT_BWRAP_DIST_LIBS;
	for (const char *p = libs; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[PATH_MAX];
		if (len >= sizeof(line))
			break;
		memcpy(line, p, len);
		line[len] = 0;
		p += len + (nl != NULL);
		char *sp = strchr(line, ' ');
		if (!sp)
			continue;
		*sp = 0;
		char *path = xstrfmt("%s/../lib/%s", bindir, line);
		struct stat st;
		char have[SHA256_HEX_LEN + 1] = "";
		int there = lstat(path, &st) == 0;
		int ok = !there || (sha256_file_hex(path, have) == 0 && !strcmp(have, sp + 1));
		if (!ok)
			strbuf_addf(why, "the dist's %s, which its bin/bwrap loads, is not the library this runner was "
					 "built to accept (SHA-256 %.16s..., not %.16s...); make dist again from this build",
				    path, have[0] ? have : "unreadable", sp + 1);
		free(path);
		if (!ok)
			return 0;
	}
	return 1;
}

static const char *const dpkg_lists[] = {
	"/var/lib/dpkg/info/bubblewrap.md5sums",
	"/var/lib/dpkg/info/bubblewrap:amd64.md5sums",
	"/var/lib/dpkg/info/bubblewrap:arm64.md5sums",
	NULL,
};

char *sandbox_tool_known(const char *real, const char *sha256, struct strbuf *why)
{
	if (!real) {
		strbuf_addstr(why, "its real path could not be resolved");
		return NULL;
	}
	/* the Debian package's */
	if (!strcmp(real, "/usr/bin/bwrap")) {
		char want[64], have[MD5_HEX_LEN + 1];
		for (int i = 0; dpkg_lists[i]; i++) {
			if (listed(dpkg_lists[i], "usr/bin/bwrap", want, sizeof(want)) < 0)
				continue;
			if (md5_file_hex(real, have) == 0 && !strcmp(want, have))
				return xstrfmt("the Debian package bubblewrap's /usr/bin/bwrap: its MD5 %s is the one "
					       "dpkg lists (%s)",
					       have, dpkg_lists[i]);
			strbuf_addf(why, "/usr/bin/bwrap's MD5 is not the one dpkg lists for it in %s (the file was "
					 "changed after the package installed it: apt-get install --reinstall bubblewrap)",
				    dpkg_lists[i]);
			return NULL;
		}
	}
	/* the dist's, beside the runner */
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0 && sha256) {
		self[n] = 0;
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = 0;
			char *beside = xstrfmt("%s/bwrap", self);
			char *beside_real = realpath(beside, NULL);
			int same = beside_real && !strcmp(beside_real, real);
			free(beside);
			free(beside_real);
			/* by the hash compiled into this runner, not by a file
			 * beside it: a dist made by hand (this runner copied beside
			 * a stand-in and the stand-in's hash in
			 * share/evident/bwrap.sha256) passed as verified (red teams
			 * 134 and 135, fakedist) */
			static const char known[] = EVIDENT_BWRAP_DIST_SHA256;
			if (same && known[0] && !strcmp(known, sha256)) {
				if (!dist_libs_known(self, why))
					return NULL;
				return xstrfmt("evident's dist's bin/bwrap: its SHA-256 is the one compiled into this runner "
					       "(the Debian package's /usr/bin/bwrap where the runner was built, checked "
					       "against dpkg's list, as make dist patches it), and so are its libraries' "
					       "in the dist's lib/");
			}
			if (same) {
				if (known[0])
					strbuf_addf(why, "the dist's bin/bwrap (SHA-256 %.16s...) is not the bubblewrap this "
							 "runner was built to accept (%.16s...: the Debian package's where "
							 "it was built, as make dist patches it); make dist again from this "
							 "build",
						    sha256, known);
				else
					strbuf_addf(why, "this runner accepts no dist's bubblewrap: %s",
						    EVIDENT_BWRAP_DIST_WHY);
				return NULL;
			}
		}
	}
	strbuf_addf(why, "'%s' is neither the Debian package's /usr/bin/bwrap (as dpkg lists it) nor the one "
			 "evident's dist ships beside the runner",
		    real);
	return NULL;
}
