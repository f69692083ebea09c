#include "analyzer/log_tools/log_json.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "cardref/v1/log.pb.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/type_resolver.h"
#include "google/protobuf/util/type_resolver_util.h"
#include "nlohmann/json.hpp"
#include "referee/codec/unknown_fields.h"
#include "referee/record/game_log.h"

namespace cardref::log_tools {
namespace {

constexpr char kTypeUrlPrefix[] = "type.googleapis.com";

google::protobuf::util::TypeResolver& Resolver() {
  static google::protobuf::util::TypeResolver* const resolver =
      google::protobuf::util::NewTypeResolverForDescriptorPool(
          kTypeUrlPrefix, google::protobuf::DescriptorPool::generated_pool());
  return *resolver;
}

const std::string& LogRecordTypeUrl() {
  static const std::string* const url = new std::string(absl::StrCat(
      kTypeUrlPrefix, "/", v1::LogRecord::descriptor()->full_name()));
  return *url;
}

// protobuf's JSON errors in one line that names the field first:
//   "(action.seat): invalid value ..."  -> "field action.seat: invalid ..."
//   "(action) seet: Cannot find field." -> "field action.seet: unknown field"
// Syntax errors keep protobuf's text, its context lines joined with " | ".
std::string ParseErrorText(absl::string_view message) {
  std::string text =
      absl::StrJoin(absl::StrSplit(absl::StripAsciiWhitespace(message), '\n',
                                   absl::SkipWhitespace()),
                    " | ");
  absl::string_view rest = text;
  std::string path;  // empty: the record itself
  if (absl::ConsumePrefix(&rest, "(")) {
    const size_t close = rest.find(')');
    if (close == absl::string_view::npos) return text;
    path = std::string(rest.substr(0, close));
    rest.remove_prefix(close + 1);
  }
  absl::ConsumePrefix(&rest, ":");
  rest = absl::StripLeadingAsciiWhitespace(rest);
  if (const size_t colon = rest.find(": Cannot find field");
      colon != absl::string_view::npos) {
    return absl::StrCat("field ", path.empty() ? "" : absl::StrCat(path, "."),
                        rest.substr(0, colon), ": unknown field");
  }
  if (path.empty()) return std::string(rest);
  return absl::StrCat("field ", path, ": ", rest);
}

void AppendVarint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

// The keys of header.params.values in the order the JSON text lists them
// (then any the text does not show, by name): the order the map entries
// had in the file the JSON was exported from.
std::vector<std::string> ParamsOrder(absl::string_view json,
                                     const v1::LogRecord& record) {
  const auto& values = record.header().params().values();
  std::vector<std::string> order;
  const nlohmann::ordered_json doc =
      nlohmann::ordered_json::parse(json.begin(), json.end(), nullptr,
                                    /*allow_exceptions=*/false);
  const nlohmann::ordered_json* map = nullptr;
  if (doc.is_object() && doc.contains("header") && doc["header"].is_object() &&
      doc["header"].contains("params") && doc["header"]["params"].is_object() &&
      doc["header"]["params"].contains("values") &&
      doc["header"]["params"]["values"].is_object()) {
    map = &doc["header"]["params"]["values"];
  }
  std::set<std::string> seen;
  if (map != nullptr) {
    for (const auto& item : map->items()) {
      if (values.count(item.key()) > 0 && seen.insert(item.key()).second) {
        order.push_back(item.key());
      }
    }
  }
  std::vector<std::string> rest;
  for (const auto& [key, value] : values) {
    if (seen.count(key) == 0) rest.push_back(key);
  }
  std::sort(rest.begin(), rest.end());
  order.insert(order.end(), rest.begin(), rest.end());
  return order;
}

void AppendTag(std::string* out, int field, int wire_type) {
  AppendVarint(out, static_cast<uint64_t>(field) << 3 | wire_type);
}

void AppendLengthDelimited(std::string* out, int field,
                           absl::string_view bytes) {
  AppendTag(out, field, 2);
  AppendVarint(out, bytes.size());
  out->append(bytes.data(), bytes.size());
}

// The record's canonical encoding (fields in number order, as
// SerializeToString writes them), with GameParams' map entries in `order`.
// A map entry is written as the C++ runtime writes it: key (1), then value
// (2).
std::string EncodeWithParamsInOrder(const v1::LogRecord& record,
                                    const std::vector<std::string>& order) {
  const v1::LogHeader& header = record.header();
  std::string params;
  for (const std::string& key : order) {
    std::string entry;
    AppendLengthDelimited(&entry, 1, key);
    AppendLengthDelimited(&entry, 2,
                          header.params().values().at(key).SerializeAsString());
    AppendLengthDelimited(&params, v1::GameParams::kValuesFieldNumber, entry);
  }
  // LogHeader: the fields before params (1, 2), params (3), the rest.
  v1::LogHeader before;
  before.set_format_version(header.format_version());
  before.set_game(header.game());
  v1::LogHeader after = header;
  after.clear_format_version();
  after.clear_game();
  after.clear_params();
  std::string header_bytes = before.SerializeAsString();
  AppendLengthDelimited(&header_bytes, v1::LogHeader::kParamsFieldNumber,
                        params);
  header_bytes += after.SerializeAsString();
  // LogRecord: the fields before the header (1, 2), the header (10), the
  // signature (100); a header record has no other oneof member.
  v1::LogRecord first = record;
  first.clear_header();
  first.clear_signature();
  v1::LogRecord last;
  last.set_signature(record.signature());
  std::string out = first.SerializeAsString();
  AppendLengthDelimited(&out, v1::LogRecord::kHeaderFieldNumber, header_bytes);
  out += last.SerializeAsString();
  return out;
}

}  // namespace

absl::StatusOr<std::string> PayloadToJson(absl::string_view payload) {
  // Checked first: the JSON renderer skips what it cannot decode.
  v1::LogRecord record;
  if (!record.ParseFromArray(payload.data(),
                             static_cast<int>(payload.size()))) {
    return absl::InvalidArgumentError("payload is not a LogRecord");
  }
  // The JSON printer would drop a field this build's schema does not know,
  // and the round trip would lose it without a word.
  if (std::optional<std::string> unknown = codec::FindUnknownField(record)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "field ", *unknown,
        " is unknown to this build's schema (a newer referee?); JSON would "
        "lose it"));
  }
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = false;
  std::string json;
  const auto status = google::protobuf::util::BinaryToJsonString(
      &Resolver(), LogRecordTypeUrl(), std::string(payload), &json, options);
  if (!status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot render the record as JSON: ", status.message().as_string()));
  }
  return json;
}

absl::StatusOr<std::string> JsonToPayload(absl::string_view json) {
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;  // a misspelt field is an error
  std::string raw;
  const auto status = google::protobuf::util::JsonToBinaryString(
      &Resolver(), LogRecordTypeUrl(),
      google::protobuf::StringPiece(json.data(), json.size()), &raw, options);
  if (!status.ok()) {
    return absl::InvalidArgumentError(
        ParseErrorText(status.message().as_string()));
  }
  // The converter writes fields in the JSON's order and repeated numbers
  // unpacked; the referee writes protobuf's canonical encoding. Re-encode.
  v1::LogRecord record;
  if (!record.ParseFromString(raw)) {
    return absl::InvalidArgumentError("does not describe a LogRecord");
  }
  if (!record.has_header() || !record.header().has_params()) {
    return record.SerializeAsString();
  }
  return EncodeWithParamsInOrder(record, ParamsOrder(json, record));
}

absl::StatusOr<std::vector<std::string>> JsonLinesToPayloads(
    absl::string_view text) {
  std::vector<std::string> payloads;
  bool compact = false;  // a format 3 log
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    absl::StatusOr<std::string> payload = JsonToPayload(line);
    if (!payload.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("line ", line_number, ": ", payload.status().message()));
    }
    v1::LogRecord record;
    if (payloads.empty()) {
      compact = record.ParseFromString(*payload) && record.has_header() &&
                record.header().format_version() >= 3;
    } else if (compact && record.ParseFromString(*payload)) {
      // What `json` derived is stored derived again.
      record::ToStoredForm(&record);
      *payload = record.SerializeAsString();
    }
    payloads.push_back(*std::move(payload));
  }
  return payloads;
}

}  // namespace cardref::log_tools
