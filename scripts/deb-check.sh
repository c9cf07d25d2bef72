#!/bin/sh
# Build the Debian package from a clean copy of HEAD (git archive: only
# what is committed), install it with apt-get as a user would, and check
# what got installed: /usr/bin/onlist --version, the man page, the bash
# completion, the systemd user units; lintian must report no error.
# As root (CI: .ci/run); it installs the package on this machine.
set -e
cd "$(dirname "$0")/.."
sh scripts/deps.sh debhelper dpkg-dev fakeroot lintian man-db
work=$(mktemp -d "${TMPDIR:-/tmp}/onlist-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
git archive --format=tar --prefix=onlist/ HEAD | tar -x -C "$work"
(cd "$work/onlist" && dpkg-buildpackage -us -uc -b >"$work/build.log" 2>&1) ||
	{ tail -n 40 "$work/build.log"; exit 1; }
deb=$(ls "$work"/onlist_*.deb)
echo "built $(basename "$deb")"
dpkg-deb -f "$deb" Depends
lintian --fail-on error --no-tag-display-limit "$deb"
apt-get install -y -qq --no-install-recommends "$deb" >/dev/null
dpkg -L onlist
/usr/bin/onlist --version
man -w onlist
MANWIDTH=80 man onlist 2>&1 >/dev/null | grep . && { echo "man onlist: warnings above"; exit 1; }
bash -c '. /usr/share/bash-completion/completions/onlist
	COMP_WORDS=(onlist upd); COMP_CWORD=1; _onlist
	[ "${COMPREPLY[*]}" = update ]' || { echo "the installed completion does not work"; exit 1; }
if command -v systemd-analyze >/dev/null; then
	systemd-analyze verify /usr/lib/systemd/user/onlist-weekly.service \
		/usr/lib/systemd/user/onlist-weekly.timer
fi
echo "package: built, installed, checked"
