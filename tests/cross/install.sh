#!/bin/sh
# Install the toolchains and emulators used by `make test-cross`, `make test-m0`
# and `make test-matrix` (Debian 12 package names; run as root).
# Never add gcc-multilib here: it conflicts with (and removes) every cross gcc.
# clang, lld and llvm (14) are assumed to be installed already.
set -e
apt-get update
apt-get install -y --no-install-recommends \
  qemu-user \
  gcc-s390x-linux-gnu libc6-dev-s390x-cross \
  gcc-mips-linux-gnu libc6-dev-mips-cross \
  libc6-dev-i386 lib32gcc-12-dev \
  qemu-system-arm
