#!/usr/bin/env bash
# deps.sh - make sure the Debian packages evident builds and tests with are
# installed.  `deps.sh check` (run by every make target) is silent when all
# are present; otherwise, as root it installs them with apt-get, and as any
# other user it prints the exact apt-get line and fails.  `deps.sh install`
# does the same but says what it found.  The package list is the single
# source of truth for README's "Requirements".  `deps.sh slurm` does the
# same for the optional one-node Slurm that the Slurm tests start
# (scripts/slurm/start; without it they skip): Debian's daemons, client and
# munge, without the recommended extra plugins.
set -euo pipefail

# build + unit tests
# (libseccomp-dev and bubblewrap: the sandbox around kernel code, base/sandbox.h;
# ccache: a tree's objects compiled once, Makefile's CCACHE)
PKGS=(gcc make pkg-config libgit2-dev libgsl-dev libjansson-dev libyaml-dev
      libssl-dev libcmocka-dev libseccomp-dev bubblewrap git patchelf ccache)
# optional extras used by some tests when present (never required):
#   jupyter-nbconvert python3-pandas python3-matplotlib  (notebook test)
#   r-base-core python3-scipy                           (regenerate stats references)

# optional: a real Slurm for the t70xx tests (deps.sh slurm)
SLURM_PKGS=(slurmctld slurmd slurm-client munge)

mode=${1:-check}
case $mode in
check|install) ;;
slurm) PKGS=("${SLURM_PKGS[@]}") ;;
*) echo "usage: scripts/deps.sh [check|install|slurm]" >&2; exit 2 ;;
esac
apt_flags=()
[ "$mode" = slurm ] && apt_flags=(--no-install-recommends)
# One dpkg-query for all the packages (it reads dpkg's status database
# once: 0.03 s of CPU, where one call a package took 0.66 s, and every
# make runs this, about 30 times in a make test).  A package dpkg has never
# heard of prints nothing (and makes dpkg-query exit 1), so it is missing too.
installed=" $(dpkg-query -W -f='${Package} ${Status}\n' "${PKGS[@]}" 2>/dev/null |
	awk '/ install ok installed$/ { printf "%s ", $1 }' || true)"
missing=()
for p in "${PKGS[@]}"; do
	[[ $installed == *" $p "* ]] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	[ "$mode" != check ] && echo "deps: all ${#PKGS[@]} packages present"
	exit 0
fi

line="apt-get install -y ${apt_flags[*]:+${apt_flags[*]} }${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
	echo "deps: installing missing packages: ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2 || { echo "deps: apt-get update failed; run: $line" >&2; exit 1; }
	apt-get install -y -qq ${apt_flags[@]+"${apt_flags[@]}"} "${missing[@]}" >&2 || { echo "deps: install failed; run: $line" >&2; exit 1; }
	exit 0
fi
echo "deps: missing Debian packages: ${missing[*]}" >&2
echo "deps: run as root:  sudo $line" >&2
exit 1
