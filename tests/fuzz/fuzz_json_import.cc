// Fuzz target: cardref_log's JSON import (from-json) on arbitrary text.
// Whatever it accepts must be LogRecords that export back to JSON lines
// that import to the very same payloads.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/log_tools/log_json.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cardref;
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<std::vector<std::string>> payloads =
      log_tools::JsonLinesToPayloads(text);
  if (!payloads.ok()) {
    FUZZ_CHECK(!payloads.status().message().empty(), "a refusal says why");
    return 0;
  }
  std::string exported;
  for (const std::string& payload : *payloads) {
    absl::StatusOr<std::string> line = log_tools::PayloadToJson(payload);
    FUZZ_CHECK(line.ok(), line.status().ToString());
    absl::StrAppend(&exported, *line, "\n");
  }
  absl::StatusOr<std::vector<std::string>> again =
      log_tools::JsonLinesToPayloads(exported);
  FUZZ_CHECK(again.ok(), again.status().ToString());
  FUZZ_CHECK(*again == *payloads, "export then import is the identity");
  return 0;
}
