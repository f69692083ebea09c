#include "analyzer/proto_diff.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"

namespace cardref::analyzer {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using google::protobuf::TextFormat;
using google::protobuf::util::MessageDifferencer;
using SpecificField = MessageDifferencer::SpecificField;

constexpr absl::string_view kAbsent = "(absent)";

std::string PathOf(absl::string_view prefix,
                   const std::vector<SpecificField>& path) {
  std::string out(prefix);
  for (const SpecificField& f : path) {
    if (!out.empty()) out += '.';
    if (f.field == nullptr) {
      absl::StrAppend(&out, f.unknown_field_number);  // unknown field number
    } else {
      out += f.field->name();
    }
    const int index = f.index >= 0 ? f.index : f.new_index;
    if (f.field != nullptr && f.field->is_repeated() && index >= 0) {
      absl::StrAppend(&out, "[", index, "]");
    }
  }
  return out;
}

// The value of the last field of `path` in `parent`, the message that holds
// it (MessageDifferencer hands the reporter the innermost messages, not the
// roots). Side 1 uses `index`, side 2 `new_index`. "(absent)" when that
// side does not have it (`missing`: reported as added to the other side or
// deleted from it).
std::string ValueAt(const Message& parent,
                    const std::vector<SpecificField>& path, bool side1,
                    bool missing) {
  const SpecificField& f = path.back();
  if (f.field == nullptr) return "(unknown field)";
  const Reflection* r = parent.GetReflection();
  const FieldDescriptor* field = f.field;
  // A field without presence (a proto3 scalar) reads as its default.
  if (missing && (field->is_repeated() || field->has_presence())) {
    return std::string(kAbsent);
  }
  const int index = side1 ? f.index : f.new_index;
  if (field->is_map()) {
    const Message* entry = side1 ? f.map_entry1 : f.map_entry2;
    if (entry == nullptr) return std::string(kAbsent);
    return absl::StrCat("{", entry->ShortDebugString(), "}");
  }
  if (field->is_repeated()) {
    if (index < 0 || index >= r->FieldSize(parent, field)) {
      return std::string(kAbsent);
    }
  } else if (field->has_presence() && !r->HasField(parent, field)) {
    return std::string(kAbsent);
  }
  if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
    const Message& sub = field->is_repeated()
                             ? r->GetRepeatedMessage(parent, field, index)
                             : r->GetMessage(parent, field);
    return absl::StrCat("{", sub.ShortDebugString(), "}");
  }
  std::string text;
  TextFormat::PrintFieldValueToString(parent, field,
                                      field->is_repeated() ? index : -1, &text);
  return text;
}

// Keeps the first difference reported. MessageDifferencer reports leaves
// before the messages that contain them, in field-number order.
class FirstReporter final : public MessageDifferencer::Reporter {
 public:
  explicit FirstReporter(absl::string_view prefix) : prefix_(prefix) {}

  void ReportAdded(const Message& m1, const Message& m2,
                   const std::vector<SpecificField>& path) override {
    Keep(m1, m2, path, /*missing1=*/true, /*missing2=*/false);
  }
  void ReportDeleted(const Message& m1, const Message& m2,
                     const std::vector<SpecificField>& path) override {
    Keep(m1, m2, path, false, true);
  }
  void ReportModified(const Message& m1, const Message& m2,
                      const std::vector<SpecificField>& path) override {
    Keep(m1, m2, path, false, false);
  }

  std::optional<FieldDifference> first;

 private:
  void Keep(const Message& m1, const Message& m2,
            const std::vector<SpecificField>& path, bool missing1,
            bool missing2) {
    if (first.has_value() || path.empty()) return;
    first = FieldDifference{PathOf(prefix_, path),
                            ValueAt(m1, path, true, missing1),
                            ValueAt(m2, path, false, missing2)};
  }

  std::string prefix_;
};

}  // namespace

std::optional<FieldDifference> FirstDifference(const Message& recorded,
                                               const Message& recomputed,
                                               absl::string_view prefix) {
  // Equal bytes are equal messages; the differencer, which costs many times
  // more, only explains a difference. (Bytes can differ for equal messages,
  // e.g. maps in another order: the differencer then finds none.)
  std::string recorded_bytes;
  std::string recomputed_bytes;
  if (recorded.SerializeToString(&recorded_bytes) &&
      recomputed.SerializeToString(&recomputed_bytes) &&
      recorded_bytes == recomputed_bytes) {
    return std::nullopt;
  }
  MessageDifferencer differencer;
  FirstReporter reporter(prefix);
  differencer.ReportDifferencesTo(&reporter);
  if (differencer.Compare(recorded, recomputed)) return std::nullopt;
  if (!reporter.first.has_value()) {  // not expected; say what we can
    return FieldDifference{std::string(prefix), recorded.ShortDebugString(),
                           recomputed.ShortDebugString()};
  }
  return reporter.first;
}

}  // namespace cardref::analyzer
