#include "analyzer/proto_diff.h"

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

// The value at `path` in `root` (side 1 uses `index`, side 2 `new_index`),
// or "(absent)" when that side does not have it.
std::string ValueAt(const Message& root, const std::vector<SpecificField>& path,
                    bool side1) {
  const Message* cur = &root;
  for (size_t i = 0; i < path.size(); ++i) {
    const SpecificField& f = path[i];
    if (f.field == nullptr) return "(unknown field)";
    const Reflection* r = cur->GetReflection();
    const FieldDescriptor* field = f.field;
    const int index = side1 ? f.index : f.new_index;
    const bool last = i + 1 == path.size();
    if (field->is_map()) {
      const Message* entry = side1 ? f.map_entry1 : f.map_entry2;
      if (entry == nullptr) return std::string(kAbsent);
      if (last) return absl::StrCat("{", entry->ShortDebugString(), "}");
      cur = entry;  // the next step names the entry's "value" field
      continue;
    }
    if (field->is_repeated()) {
      if (index < 0 || index >= r->FieldSize(*cur, field)) {
        return std::string(kAbsent);
      }
    } else if (field->has_presence() && !r->HasField(*cur, field)) {
      return std::string(kAbsent);
    }
    if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      const Message& sub = field->is_repeated()
                               ? r->GetRepeatedMessage(*cur, field, index)
                               : r->GetMessage(*cur, field);
      if (last) return absl::StrCat("{", sub.ShortDebugString(), "}");
      cur = &sub;
      continue;
    }
    std::string text;
    TextFormat::PrintFieldValueToString(
        *cur, field, field->is_repeated() ? index : -1, &text);
    return text;
  }
  return absl::StrCat("{", cur->ShortDebugString(), "}");
}

// Keeps the first difference reported. MessageDifferencer reports leaves
// before the messages that contain them, in field-number order.
class FirstReporter final : public MessageDifferencer::Reporter {
 public:
  explicit FirstReporter(absl::string_view prefix) : prefix_(prefix) {}

  void ReportAdded(const Message& m1, const Message& m2,
                   const std::vector<SpecificField>& path) override {
    Keep(m1, m2, path);
  }
  void ReportDeleted(const Message& m1, const Message& m2,
                     const std::vector<SpecificField>& path) override {
    Keep(m1, m2, path);
  }
  void ReportModified(const Message& m1, const Message& m2,
                      const std::vector<SpecificField>& path) override {
    Keep(m1, m2, path);
  }

  std::optional<FieldDifference> first;

 private:
  void Keep(const Message& m1, const Message& m2,
            const std::vector<SpecificField>& path) {
    if (first.has_value()) return;
    first = FieldDifference{PathOf(prefix_, path), ValueAt(m1, path, true),
                            ValueAt(m2, path, false)};
  }

  std::string prefix_;
};

}  // namespace

std::optional<FieldDifference> FirstDifference(const Message& recorded,
                                               const Message& recomputed,
                                               absl::string_view prefix) {
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
