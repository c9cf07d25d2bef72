#!/bin/sh
# Install the Debian packages onlist needs to build and test, if missing.
# As root it runs apt-get; otherwise it prints the exact command and stops.
# Arguments name extra packages a target needs (make fuzz: clang time;
# make valgrind: valgrind).
PKGS="gcc make pkg-config git libgmime-3.0-dev libsqlite3-dev libssl-dev
zlib1g-dev libcurl4-openssl-dev libcmocka-dev sqlite3 python3 time $*"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "onlist: missing Debian packages:$missing" >&2
	echo "run as root:  apt-get install -y$missing" >&2
	exit 1
fi
echo "onlist: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || exit 1
apt-get install -y -qq --no-install-recommends $missing >/dev/null || exit 1
