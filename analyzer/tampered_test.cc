// Every log of testdata/tampered: the audit reports exactly the finding
// expected.tsv lists for it, at that record and byte, and the clean logs of
// every game audit OK.
#include <dirent.h>

#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "analyzer/summary.h"
#include "gtest/gtest.h"
#include "games/all_games.h"

namespace cardref::analyzer {
namespace {

const std::string kDir = CARDREF_TAMPERED_LOG_DIR;

struct Expected {
  std::string verdict;
  int64_t record_index;
  uint64_t byte_offset;
  std::string record_kind;
  std::string field;
};

std::map<std::string, Expected> ReadManifest() {
  std::map<std::string, Expected> out;
  std::ifstream in(kDir + "/expected.tsv");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = absl::StrSplit(line, '\t');
    EXPECT_EQ(f.size(), 6u) << line;
    if (f.size() != 6) continue;
    out[f[0]] = {f[1], std::stoll(f[2]), std::stoull(f[3]), f[4], f[5]};
  }
  return out;
}

TEST(TamperedLogsTest, EachTamperingIsReportedAtItsRecord) {
  const std::map<std::string, Expected> manifest = ReadManifest();
  ASSERT_GE(manifest.size(), 13u);
  std::set<std::string> on_disk;
  DIR* d = opendir(kDir.c_str());
  ASSERT_NE(d, nullptr);
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() > 8 && name.substr(name.size() - 8) == ".cardlog") {
      on_disk.insert(name);
    }
  }
  closedir(d);
  std::set<std::string> listed;
  for (const auto& [file, expected] : manifest) listed.insert(file);
  EXPECT_EQ(on_disk, listed) << "expected.tsv and the directory disagree";

  std::set<std::string> clean_games;
  for (const auto& [file, expected] : manifest) {
    SCOPED_TRACE(file);
    const v1::GameSummary s =
        SummarizeFile(absl::StrCat(kDir, "/", file), {}, AllGames());
    const v1::FileAudit& a = s.audit();
    EXPECT_EQ(a.verdict(), expected.verdict) << a.message();
    if (expected.verdict == "OK") {
      EXPECT_EQ(a.findings_size(), 0);
      EXPECT_EQ(a.consistent_records(), a.records());
      clean_games.insert(a.game());
      continue;
    }
    ASSERT_EQ(a.findings_size(), 1) << a.message();
    const v1::AuditFinding& f = a.findings(0);
    EXPECT_EQ(f.record_index(), expected.record_index);
    EXPECT_EQ(f.byte_offset(), expected.byte_offset);
    EXPECT_EQ(f.record_kind(), expected.record_kind);
    EXPECT_EQ(f.field(), expected.field);
    // The rules the engine cites for the illegal card and the bad deal.
    if (file == "illegal.cardlog") {
      EXPECT_EQ(f.rule(), "CR-16.2");
    }
    if (file == "card.cardlog") {
      EXPECT_EQ(f.rule(), "CR-1.3");
    }
    // Every record before the tampered one replays.
    EXPECT_EQ(a.consistent_records(), expected.record_index);
  }
  EXPECT_EQ(clean_games,
            (std::set<std::string>{"craits", "krass_kariert", "kraken"}));
}

}  // namespace
}  // namespace cardref::analyzer
