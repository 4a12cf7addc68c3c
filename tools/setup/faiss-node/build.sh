#!/usr/bin/env bash
# Builds faiss-node (the native faiss binding used by @doctree/index) from its npm tarball against the
# system faiss of Debian/Ubuntu (`libfaiss-dev`), needing nothing beyond the npm registry and apt.
#
# Why: faiss-node@0.5.1's own install script downloads a prebuilt binary from GitHub and then falls back
# to `git clone` of faiss; both fail on machines that reach only the npm registry. faiss-node is an
# optionalDependency, so npm then silently drops it and DocTree falls back to its pure-TS exact index.
# tools/setup/setup.mjs calls this script when `require('faiss-node')` fails and caches the result.
#
# Usage: build.sh <node_modules dir>     installs into <dir>/faiss-node (replacing it atomically)
# Env:   FAISS_NODE_VERSION (default 0.5.1)
#
# Handled incompatibilities with Debian 12's faiss 1.7.3 (faiss-node 0.5.1 targets 1.7.4):
#   - upstream CMakeLists.txt builds a bundled faiss checkout: replaced by ./CMakeLists.txt (find_package);
#   - `faiss::idx_t` exists only from 1.7.4 (`faiss::Index::idx_t` before): patched in src/faiss.cc.
# Needs root only to apt-get install missing build inputs (libfaiss-dev, cmake, g++, make).
# Lines starting with `==>` are progress lines; setup.mjs echoes them and logs everything else.
set -euo pipefail
trap 'echo "faiss-node build: FAILED (exit $?) at build.sh line $LINENO: $BASH_COMMAND" >&2' ERR

nm=$(readlink -f "${1:-node_modules}")
here=$(dirname "$(readlink -f "$0")")
ver=${FAISS_NODE_VERSION:-0.5.1}

[ "$(uname -s)" = Linux ] || { echo "faiss-node build: only Linux is supported by this script" >&2; exit 2; }

need=()
if command -v dpkg >/dev/null; then
  dpkg -s libfaiss-dev >/dev/null 2>&1 || need+=(libfaiss-dev)
elif [ ! -f /usr/include/faiss/Index.h ] && [ ! -f /usr/local/include/faiss/Index.h ]; then
  echo "faiss-node build: no dpkg and no faiss headers found; install faiss (C++ library + headers)" >&2; exit 2
fi
command -v cmake >/dev/null || need+=(cmake)
command -v c++ >/dev/null || need+=(g++)
command -v make >/dev/null || need+=(make)
if [ ${#need[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || { echo "faiss-node build: need root to apt-get install ${need[*]} (or install them yourself)" >&2; exit 2; }
  command -v apt-get >/dev/null || { echo "faiss-node build: apt-get not found; install ${need[*]} yourself" >&2; exit 2; }
  echo "==> apt-get install ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

work=$(mktemp -d)
out=""
trap 'rm -rf "$work" ${out:+"$out"}' EXIT
cd "$work"
echo "==> npm pack faiss-node@$ver"
npm pack --loglevel=error --no-audit --no-fund "faiss-node@$ver" >/dev/null
tar xzf "faiss-node-$ver.tgz"
cd package
cp "$here/CMakeLists.txt" CMakeLists.txt
# faiss < 1.7.4 has no namespace-level faiss::idx_t (it is faiss::Index::idx_t).
faiss_inc=/usr/include/faiss; [ -d "$faiss_inc" ] || faiss_inc=/usr/local/include/faiss
if ! grep -qs 'using idx_t' "$faiss_inc/MetricType.h"; then
  sed -i 's/^using idx_t = faiss::idx_t;/using idx_t = faiss::Index::idx_t;/' src/faiss.cc
fi

# The built copy's package.json must not carry the install script (a later `npm rebuild` would rerun the
# GitHub download and fail) nor prebuild-install (only used by that script). `binary.napi_versions` stays:
# it tells cmake-js to compile against the node-api-headers npm package instead of downloading Node headers.
node -e '
  const fs = require("fs"); const j = JSON.parse(fs.readFileSync("package.json", "utf8"));
  delete j.scripts; delete j.gypfile; delete j.devDependencies;
  delete j.dependencies["prebuild-install"];
  j.doctreeBuild = "tools/setup/faiss-node/build.sh (system faiss)";
  fs.writeFileSync("package.json", JSON.stringify(j, null, 2) + "\n");'
# Runtime deps (bindings; node-addon-api headers) go into the package's own node_modules, so the result is
# self-contained and can be cached; cmake-js goes into a throwaway tool dir. --ignore-scripts everywhere:
# faiss-node's install script is exactly what we are replacing.
echo "==> npm install bindings node-addon-api cmake-js"
npm install --loglevel=error --omit=dev --ignore-scripts --no-audit --no-fund --no-package-lock
mkdir -p ../tool
(cd ../tool && npm init -y >/dev/null && npm install --loglevel=error --ignore-scripts --no-audit --no-fund --no-package-lock cmake-js@^7.2.1)

echo "==> cmake-js compile (against system faiss)"
../tool/node_modules/.bin/cmake-js compile --CDNODE_ADDON_API_DIR="$PWD/node_modules/node-addon-api"

# Keep only what is needed at run time; bindings finds build/Release/faiss-node.node.
out="$nm/.faiss-node.tmp-$$"
rm -rf "$out" && mkdir -p "$out/build"
cp -r package.json lib node_modules LICENSE README.md "$out/"
cp -r build/Release "$out/build/"

echo "==> checking the built module"
node -e '
  const f = require(process.argv[1]); const i = new f.IndexFlatIP(2); i.add([1, 0, 0, 1]);
  const r = i.search([1, 0], 1); if (r.labels[0] !== 0) { console.error("faiss-node self-test failed"); process.exit(1); }' "$out"

rm -rf "$nm/faiss-node"
mv "$out" "$nm/faiss-node"
echo "==> faiss-node $ver built against system faiss: ok"
