#include "referee/codec/known_fields_scan.h"

#include <algorithm>

namespace cardref::codec {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::FileDescriptor;

// Past this field number a type's numbers are not tabled; the scan then
// answers "maybe" (always safe). Our schema's highest is 100.
constexpr int kMaxTabled = 4096;
// Deeper nesting than the parser's own default limit is left to reflection.
constexpr int kMaxDepth = 100;

// Reads a varint; false if it runs past `end` or is longer than 10 bytes.
bool ReadVarint(const char*& p, const char* end, uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift < 70 && p < end; shift += 7) {
    const uint8_t byte = static_cast<uint8_t>(*p++);
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *value = result;
      return true;
    }
  }
  return false;
}

bool IsProto3(const FileDescriptor* file) {
  return file->syntax() == FileDescriptor::SYNTAX_PROTO3;
}

}  // namespace

const KnownFieldsScan::Table& KnownFieldsScan::TableFor(const Descriptor* type) {
  std::unique_ptr<Table>& table = tables_[type];
  if (table != nullptr) return *table;
  table = std::make_unique<Table>();
  int highest = 0;
  for (int i = 0; i < type->field_count(); ++i) {
    highest = std::max(highest, type->field(i)->number());
  }
  table->resize(std::min(highest, kMaxTabled) + 1);
  for (int i = 0; i < type->field_count(); ++i) {
    const FieldDescriptor* field = type->field(i);
    if (field->number() > kMaxTabled) continue;
    Entry& entry = (*table)[field->number()];
    entry.repeated = field->is_repeated();
    switch (field->type()) {
      case FieldDescriptor::TYPE_ENUM:
        // A closed (proto2) enum keeps values it does not know in the
        // unknown field set: leave those to reflection.
        if (IsProto3(type->file()) && IsProto3(field->enum_type()->file())) {
          entry.wire = Wire::kVarint;
        }
        break;
      case FieldDescriptor::TYPE_INT32:
      case FieldDescriptor::TYPE_INT64:
      case FieldDescriptor::TYPE_UINT32:
      case FieldDescriptor::TYPE_UINT64:
      case FieldDescriptor::TYPE_SINT32:
      case FieldDescriptor::TYPE_SINT64:
      case FieldDescriptor::TYPE_BOOL:
        entry.wire = Wire::kVarint;
        break;
      case FieldDescriptor::TYPE_FIXED64:
      case FieldDescriptor::TYPE_SFIXED64:
      case FieldDescriptor::TYPE_DOUBLE:
        entry.wire = Wire::kFixed64;
        break;
      case FieldDescriptor::TYPE_FIXED32:
      case FieldDescriptor::TYPE_SFIXED32:
      case FieldDescriptor::TYPE_FLOAT:
        entry.wire = Wire::kFixed32;
        break;
      case FieldDescriptor::TYPE_STRING:
      case FieldDescriptor::TYPE_BYTES:
        entry.wire = Wire::kBytes;
        break;
      case FieldDescriptor::TYPE_MESSAGE:
        entry.wire = Wire::kMessage;
        entry.message = field->message_type();
        break;
      case FieldDescriptor::TYPE_GROUP:
        break;  // kUnknown: reflection judges groups
    }
  }
  return *table;
}

bool KnownFieldsScan::OnlyKnownFields(absl::string_view bytes,
                                      const Descriptor* type) {
  if (type != root_type_) {
    root_type_ = type;
    root_table_ = &TableFor(type);
  }
  return Scan(bytes.data(), bytes.data() + bytes.size(), *root_table_, 0);
}

bool KnownFieldsScan::Scan(const char* p, const char* end, const Table& table,
                           int depth) {
  if (depth > kMaxDepth) return false;
  while (p < end) {
    uint64_t tag = 0;
    if (!ReadVarint(p, end, &tag)) return false;
    const uint64_t number = tag >> 3;
    const int wire_type = static_cast<int>(tag & 7);
    if (number == 0 || number >= table.size()) return false;
    const Entry& entry = table[number];
    // Wire type 2 is the only one with a length; the others must match the
    // field's own type, or the parser files the value as unknown.
    if (wire_type == 2) {
      uint64_t length = 0;
      if (!ReadVarint(p, end, &length)) return false;
      if (length > static_cast<uint64_t>(end - p)) return false;
      const char* sub = p;
      p += length;
      switch (entry.wire) {
        case Wire::kBytes:
          continue;
        case Wire::kMessage:
          if (entry.table == nullptr) entry.table = &TableFor(entry.message);
          if (!Scan(sub, p, *entry.table, depth + 1)) return false;
          continue;
        case Wire::kVarint:
        case Wire::kFixed64:
        case Wire::kFixed32:
          if (entry.repeated) continue;  // packed
          return false;
        case Wire::kUnknown:
          return false;
      }
      return false;
    }
    switch (wire_type) {
      case 0: {
        uint64_t value = 0;
        if (entry.wire != Wire::kVarint || !ReadVarint(p, end, &value)) {
          return false;
        }
        break;
      }
      case 1:
        if (entry.wire != Wire::kFixed64 || end - p < 8) return false;
        p += 8;
        break;
      case 5:
        if (entry.wire != Wire::kFixed32 || end - p < 4) return false;
        p += 4;
        break;
      default:
        return false;  // groups (3, 4) and invalid wire types
    }
  }
  return p == end;
}

bool OnlyKnownFieldsOnThisThread(absl::string_view bytes,
                                 const Descriptor* type) {
  thread_local KnownFieldsScan scan;
  return scan.OnlyKnownFields(bytes, type);
}

}  // namespace cardref::codec
