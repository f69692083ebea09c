#!/bin/sh
# Runs the Node.js example bot (minimal_bot.js) through play_examples_test.py
# against a real referee in every game. Needs node and the npm packages
# @grpc/grpc-js and @grpc/proto-loader, which Debian 12 does not package:
# nothing is downloaded here, so without them the test is skipped (exit 77)
# and says how to install them. Found through NODE_PATH and npm's global
# folder (`npm install -g @grpc/grpc-js @grpc/proto-loader`).
#
# Usage: node_example_test.sh TOP REFEREE_BINARY [--vs OTHER_COMMAND...]
set -eu
top=$1
shift
if ! command -v node >/dev/null 2>&1; then
  echo "SKIPPED: no node on PATH (Debian's nodejs package)"
  exit 77
fi
if command -v npm >/dev/null 2>&1; then
  NODE_PATH="${NODE_PATH:+$NODE_PATH:}$(npm root -g 2>/dev/null)"
  export NODE_PATH
fi
if ! node -e 'require("@grpc/grpc-js"); require("@grpc/proto-loader")' \
     >/dev/null 2>&1; then
  echo "SKIPPED: the npm packages @grpc/grpc-js and @grpc/proto-loader are" \
       "not installed (Debian 12 has no package of them); install them with" \
       "'npm install -g @grpc/grpc-js @grpc/proto-loader' or put their" \
       "node_modules on NODE_PATH"
  exit 77
fi
referee=$1
shift
exec /usr/bin/python3 "$top/docs/examples/play_examples_test.py" "$top" \
  "$referee" node "$top/docs/examples/minimal_bot.js" "$@"
