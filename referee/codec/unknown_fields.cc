#include "referee/codec/unknown_fields.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/reflection.h"
#include "google/protobuf/unknown_field_set.h"
#include "referee/codec/known_fields_scan.h"

namespace cardref::codec {

using ::google::protobuf::FieldDescriptor;
using ::google::protobuf::Message;
using ::google::protobuf::Reflection;

namespace {

std::optional<std::string> Find(const Message& message,
                                const std::string& prefix) {
  const Reflection* reflection = message.GetReflection();
  const auto& unknown = reflection->GetUnknownFields(message);
  if (!unknown.empty()) {
    return absl::StrCat(prefix, prefix.empty() ? "" : ".", "#",
                        unknown.field(0).number());
  }
  std::vector<const FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);
  for (const FieldDescriptor* field : fields) {
    if (field->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) continue;
    const std::string path =
        absl::StrCat(prefix, prefix.empty() ? "" : ".", field->name());
    if (field->is_repeated()) {
      for (int i = 0; i < reflection->FieldSize(message, field); ++i) {
        if (auto found = Find(reflection->GetRepeatedMessage(message, field, i),
                              absl::StrCat(path, "[", i, "]"))) {
          return found;
        }
      }
    } else if (auto found = Find(reflection->GetMessage(message, field), path)) {
      return found;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> FindUnknownField(const Message& message) {
  return Find(message, "");
}

absl::Status CheckNoUnknownFields(const Message& request) {
  std::optional<std::string> unknown = FindUnknownField(request);
  if (!unknown.has_value()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "the request has a field this referee does not know: ", *unknown,
      " (field number after '#'); it speaks cardref.v1 as in its "
      "proto/ files. Update the bot's stubs or drop the field"));
}

absl::Status CheckNoUnknownFieldsOfParsed(const Message& request) {
  // Grows, never shrinks, and is not zero-filled for each message
  // (resizing a string was a fifth of this check).
  thread_local std::vector<uint8_t> bytes;
  const size_t size = request.ByteSizeLong();
  if (bytes.size() < size) bytes.resize(std::max(size, 2 * bytes.size()));
  request.SerializeWithCachedSizesToArray(bytes.data());
  if (OnlyKnownFieldsOnThisThread(
          absl::string_view(reinterpret_cast<const char*>(bytes.data()),
                            size),
          request.GetDescriptor())) {
    return absl::OkStatus();
  }
  return CheckNoUnknownFields(request);
}

}  // namespace cardref::codec
