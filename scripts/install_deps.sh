#!/usr/bin/env bash
# Installs every Debian 12 package cardref needs to build, test and run.
# Used by the README's two commands and by .ci/run. Idempotent: does nothing
# (not even `apt-get update`) when everything is already installed.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config perl
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libabsl-dev libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev
  libssl-dev valgrind python3-grpcio python3-protobuf python3-yaml
  chromium chromium-driver python3-selenium
  clang libfuzzer-14-dev clang-tidy
  prometheus-cpp-dev
  libsqlite3-dev libboost1.74-dev
  libpqxx-dev libpq-dev postgresql-15
  nodejs
  bubblewrap libseccomp-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install_deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install_deps: installing ${missing[*]}"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
