#!/usr/bin/env bash
# Configures and builds cardref into ./build (Release, ccache), after
# installing the Debian packages it needs. Shared by demo.sh and test.sh.
# A unity build (CMakeLists.txt, CARDREF_UNITY_BUILD): these are cold
# builds, where it saves a third of the compile time.
# Usage: scripts/build.sh [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install_deps.sh

# ccache: key on paths relative to the checkout, so a fresh clone elsewhere
# (CI) reuses the cache of earlier builds.
export CCACHE_BASEDIR="$PWD"
export CCACHE_NOHASHDIR=1
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
# Depend mode: a miss (every compile of a cold build) does not run the
# preprocessor first only to hash its output; the dependency file the
# compile writes anyway keys the cache.
export CCACHE_DEPEND=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}

BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCARDREF_UNITY_BUILD=ON "$@" >/dev/null
# Two cores; each compile of gRPC code needs ~1 GiB, so -j2 is safe in 24 GiB.
# BUILD_TARGETS: only these (the sanitizer lanes build what they run).
ninja -C "$BUILD_DIR" -j"${JOBS:-2}" ${BUILD_TARGETS:-}
