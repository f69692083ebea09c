#!/bin/sh
# Generates the Python stubs of proto/ (cardref/v1/*_pb2.py and
# referee_pb2_grpc.py) into OUT_DIR with Debian's protoc and
# grpc_python_plugin; no C++ build needed:
#   bots/python/make_stubs.sh OUT_DIR
# which is the one-liner
#   protoc --proto_path=proto --python_out=OUT_DIR --grpc_out=OUT_DIR \
#     --plugin=protoc-gen-grpc="$(command -v grpc_python_plugin)" \
#     proto/cardref/v1/*.proto
# Then run bots with PYTHONPATH=OUT_DIR /usr/bin/python3 (Debian's
# python3-grpcio and python3-protobuf; another python3 first on PATH may
# lack them).
set -eu
if [ $# -ne 1 ]; then
  echo "usage: $0 OUT_DIR" >&2; exit 2
fi
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PLUGIN=$(command -v grpc_python_plugin) || {
  echo "$0: grpc_python_plugin not found (apt-get install protobuf-compiler-grpc)" >&2
  exit 1
}
mkdir -p "$1"
protoc --proto_path="$ROOT/proto" --python_out="$1" --grpc_out="$1" \
  --plugin=protoc-gen-grpc="$PLUGIN" "$ROOT"/proto/cardref/v1/*.proto
