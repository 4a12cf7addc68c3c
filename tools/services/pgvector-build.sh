#!/usr/bin/env bash
# Builds pgvector for Debian 12's PostgreSQL (default 15) from Debian 13 (trixie)'s source package, fetched through the
# apt mirror this machine's sources already name, and installs it. Idempotent: exits at once when vector.control is
# installed. Run as root (it apt-get installs postgresql-$PGV, postgresql-server-dev-$PGV and build tools when missing).
#   PGV=15                 PostgreSQL major version to build for
#   DOCTREE_PGVECTOR_WORK  build directory (default: a temp dir, removed afterwards)
set -euo pipefail
PGV=${PGV:-15}
sharedir=/usr/share/postgresql/$PGV/extension
if [ -f "$sharedir/vector.control" ]; then
  echo "pgvector: already installed for PostgreSQL $PGV ($(grep -oE "default_version = '[^']+'" "$sharedir/vector.control" | cut -d"'" -f2))"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "pgvector: not installed and not root; Fix: sudo bash tools/services/pgvector-build.sh" >&2
  exit 2
fi
command -v apt-get >/dev/null || { echo "pgvector: apt-get not found (Debian/Ubuntu only); install pgvector for PostgreSQL $PGV by hand" >&2; exit 2; }
export DEBIAN_FRONTEND=noninteractive
need=()
for pkg in postgresql-$PGV postgresql-server-dev-$PGV build-essential dpkg-dev; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1; apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }
fi
mirror=$(grep -rhoE '^(URIs:|deb) +[^ ]+' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null | awk '{print $2}' | grep -E '/debian/?$' | grep -v security | head -1 || true)
[ -n "$mirror" ] || { echo "pgvector: no Debian mirror found in the apt sources" >&2; exit 1; }
tmp=$(mktemp -d)
work=${DOCTREE_PGVECTOR_WORK:-$tmp/build}
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/etc/parts" "$tmp/lists/partial" "$work"
printf 'deb-src %s trixie main\n' "$mirror" > "$tmp/etc/trixie-src.list"
apt_o=(-o Dir::Etc::sourcelist="$tmp/etc/trixie-src.list" -o Dir::Etc::sourceparts="$tmp/etc/parts" -o Dir::State::Lists="$tmp/lists")
apt-get update -qq "${apt_o[@]}" >/dev/null 2>&1
cd "$work"
apt-get source -qq --download-only "${apt_o[@]}" pgvector >/dev/null 2>&1
rm -rf src
dpkg-source -x --no-check pgvector_*.dsc src >/dev/null
cd src
make -s PG_CONFIG=/usr/lib/postgresql/$PGV/bin/pg_config >/dev/null 2>&1
make -s PG_CONFIG=/usr/lib/postgresql/$PGV/bin/pg_config install >/dev/null
echo "pgvector: $(grep -oE "default_version = '[^']+'" vector.control | cut -d"'" -f2) built and installed for PostgreSQL $PGV"
