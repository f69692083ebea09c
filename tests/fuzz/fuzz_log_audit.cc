// Fuzz target: the replay and audit of a log whose framing is intact but
// whose records are arbitrary. The input is a list of chunks (a 16-bit
// length, then the payload); each is framed with valid checksums, so the
// fuzzer's mutations reach the protobuf parser, the replay through the
// engines, the policy and result checks and the integrity checks instead
// of stopping at a CRC. The seeds are the golden logs, re-chunked
// (make_seed_corpus.py).
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "analyzer/audit.h"
#include "games/all_games.h"
#include "referee/record/game_log.h"
#include "referee/record/record_io.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cardref;
  fuzz::FuzzInput in(data, size);
  std::string file;
  int chunks = 0;
  while (!in.empty()) {
    absl::StrAppend(&file, record::FrameRecord(in.Chunk()));
    ++chunks;
  }
  for (bool salvage : {false, true}) {
    record::ReadOptions read;
    read.salvage = salvage;
    const record::GameLog log = record::ParseGameLog(file, read);
    FUZZ_CHECK(log.records.size() <= static_cast<size_t>(chunks),
               "no more records than were framed");
    const analyzer::AuditReport report =
        analyzer::AuditGameLog(log, "fuzz.cardlog", AllGames(), salvage);
    FUZZ_CHECK(report.consistent_records <= report.records,
               "consistent records are records");
    FUZZ_CHECK(!report.Line().empty(), "a report line");
    if (report.ok()) {
      FUZZ_CHECK(log.finished(), "an OK log has a final result");
      FUZZ_CHECK(report.consistent_records == report.records,
                 "an OK log replays in full");
    }
  }
  return 0;
}
