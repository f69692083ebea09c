// Requests parsed by the referee rather than by gRPC. gRPC 1.51's callback
// handlers answer bytes that do not parse with UNIMPLEMENTED and no message
// (they drop the parse status: grpcpp/impl/codegen/
// server_callback_handlers.h), which tells a bot author nothing. Every unary
// method of the referee is registered raw (MarkMethodRawCallback, see
// referee_service.h): it gets the bytes and parses them here, so a bad
// request gets INVALID_ARGUMENT saying what was expected. Proto3 refuses a
// string field that is not valid UTF-8 while parsing, so such requests get
// this answer too.
#ifndef CARDREF_REFEREE_GRPC_RAW_REQUEST_H_
#define CARDREF_REFEREE_GRPC_RAW_REQUEST_H_

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/message_lite.h"
#include "grpcpp/grpcpp.h"

namespace cardref::grpc_service {

// The bytes of a unary request: its one slice where it lies (the usual
// case), or its slices joined.
class RequestBytes {
 public:
  explicit RequestBytes(const grpc::ByteBuffer& buffer) {
    if (!buffer.Dump(&slices_).ok()) return;
    if (slices_.size() == 1) {
      view_ = absl::string_view(
          reinterpret_cast<const char*>(slices_[0].begin()), slices_[0].size());
      return;
    }
    for (const grpc::Slice& slice : slices_) {
      joined_.append(reinterpret_cast<const char*>(slice.begin()),
                     slice.size());
    }
    view_ = joined_;
  }
  RequestBytes(const RequestBytes&) = delete;
  RequestBytes& operator=(const RequestBytes&) = delete;

  absl::string_view view() const { return view_; }

 private:
  std::vector<grpc::Slice> slices_;
  std::string joined_;
  absl::string_view view_;
};

// Parses `bytes` into `request` (whose type names the expectation).
inline absl::Status ParseRequest(absl::string_view bytes,
                                 google::protobuf::MessageLite* request) {
  // gRPC's receive limit keeps a request far below 2 GiB (docs/limits.md).
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !request->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the request's ", bytes.size(), " bytes do not decode as ",
        request->GetTypeName(),
        ": send that message, serialised by stubs generated from this "
        "referee's proto/cardref/v1 files, every string field valid UTF-8 "
        "(docs/limits.md)"));
  }
  return absl::OkStatus();
}

// Serializes straight into the one slice gRPC sends.
inline absl::Status SerializeResponse(
    const google::protobuf::MessageLite& response, grpc::ByteBuffer* out) {
  grpc::Slice slice(response.ByteSizeLong());
  // The slice is new and ours alone until it is handed to the buffer.
  response.SerializeWithCachedSizesToArray(
      const_cast<uint8_t*>(slice.begin()));
  *out = grpc::ByteBuffer(&slice, 1);
  return absl::OkStatus();
}

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_RAW_REQUEST_H_
