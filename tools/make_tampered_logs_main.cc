// cardref_make_tampered_logs --out_dir=testdata/tampered
//
// Writes the tampering test logs of testdata/tampered (README.md there):
// one clean log per game, played through the referee's service layer with
// fixed seeds, and copies of them each changed in one way (a round score, a
// chip count, a Kraken score component, the final result, a fault, a
// substitution, a dealt card, an illegal action, two records swapped, a
// flipped byte), plus expected.tsv: for every file the verdict and the
// finding the audit must report (record index, byte offset, field). Each
// expectation is checked here before it is written. Never overwrites.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "analyzer/audit.h"
#include "analyzer/summary.h"
#include "analyzer/testing/test_logs.h"
#include "games/all_games.h"
#include "referee/record/record_io.h"
#include "tools/cli_flags.h"

ABSL_FLAG(std::string, out_dir, "", "Directory for the tampered logs");

namespace {

using cardref::analyzer::testlogs::ParseRecord;
using cardref::analyzer::testlogs::Serialize;
namespace v1 = cardref::v1;
namespace testlogs = cardref::analyzer::testlogs;

using Payloads = std::vector<std::string>;

struct Tampered {
  std::string file;
  std::string base;  // "craits", "krass_kariert", "kraken"
  // Changes the payloads; returns the index of the record the audit must
  // name, or -1 if the change could not be made.
  std::function<int(Payloads&)> change;
  std::string field;  // the field path the finding must name ("" = any)
};

// Index of the first record (from `from`) that `match` accepts, or -1.
int Find(const Payloads& p,
         const std::function<bool(const v1::LogRecord&)>& match,
         size_t from = 1) {
  for (size_t i = from; i < p.size(); ++i) {
    if (match(ParseRecord(p[i]))) return static_cast<int>(i);
  }
  return -1;
}

int Edit(Payloads& p, int i,
         const std::function<void(v1::LogRecord&)>& change) {
  if (i < 0) return -1;
  v1::LogRecord r = ParseRecord(p[i]);
  change(r);
  p[i] = Serialize(r);
  return i;
}

std::vector<uint64_t> Offsets(const Payloads& payloads) {
  std::vector<uint64_t> offsets;
  uint64_t at = 0;
  for (const std::string& p : payloads) {
    offsets.push_back(at);
    at +=
        cardref::record::kHeaderSize + p.size() + cardref::record::kFooterSize;
  }
  return offsets;
}

v1::GameParams Int(const std::string& name, int value, v1::GameParams p = {}) {
  (*p.mutable_values())[name].set_int_value(value);
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  cardref::cli::ParseFlagsWithoutArgsOrExit(
      argc, argv, "cardref_make_tampered_logs",
      "Writes the tampered logs of testdata/tampered (testdata/tampered/README.md).\nUsage: cardref_make_tampered_logs --out_dir=DIR");
  const std::string out_dir = absl::GetFlag(FLAGS_out_dir);
  if (out_dir.empty()) {
    std::fprintf(stderr, "--out_dir is required\n");
    return 2;
  }
  namespace fs = std::filesystem;
  if (fs::exists(fs::path(out_dir) / "expected.tsv")) {
    std::fprintf(stderr, "%s/expected.tsv exists: not overwriting it\n",
                 out_dir.c_str());
    return 1;
  }
  fs::create_directories(out_dir);
  const std::string scratch = testlogs::MakeTempDir();

  // The clean logs.
  std::map<std::string, Payloads> clean;
  {
    testlogs::RandomMatchOptions craits;
    craits.params = testlogs::CraitsParams(3, true);
    craits.dealing_seed = 2001;
    craits.bot_seed = 21;
    craits.player_names = {"ann", "ben", "cat"};
    craits.illegal_per_mille = 20;
    craits.timeout_per_mille = 10;
    testlogs::RandomMatchOptions kk;
    kk.game = "krass_kariert";
    kk.params = Int("num_players", 3, Int("chips_per_player", 2));
    kk.dealing_seed = 2002;
    kk.bot_seed = 22;
    kk.player_names = {"ann", "ben", "cat"};
    testlogs::RandomMatchOptions kraken;
    kraken.game = "kraken";
    kraken.params = Int("rounds", 4);
    kraken.dealing_seed = 2003;
    kraken.bot_seed = 23;
    kraken.player_names = {"ann", "ben", "cat", "dan"};
    for (const auto& [name, options] :
         std::vector<std::pair<std::string, testlogs::RandomMatchOptions>>{
             {"craits", craits}, {"krass_kariert", kk}, {"kraken", kraken}}) {
      absl::StatusOr<std::string> path =
          testlogs::PlayRandomMatch(scratch, options);
      if (!path.ok()) {
        std::fprintf(stderr, "%s\n",
                     std::string(path.status().message()).c_str());
        return 1;
      }
      absl::StatusOr<Payloads> payloads = testlogs::ReadPayloads(*path);
      if (!payloads.ok()) return 1;
      clean[name] = *payloads;
    }
  }

  const std::vector<Tampered> tampered = {
      {"score.cardlog", "craits",
       [](Payloads& p) {
         return Edit(
             p,
             Find(p,
                  [](const v1::LogRecord& r) { return r.has_round_result(); }),
             [](v1::LogRecord& r) {
               auto* c = r.mutable_round_result()->mutable_craits();
               c->set_scores(1, c->scores(1) + 7);
             });
       },
       "round_result.craits.scores[1]"},
      {"chips.cardlog", "krass_kariert",
       [](Payloads& p) {
         return Edit(
             p,
             Find(p,
                  [](const v1::LogRecord& r) { return r.has_round_result(); }),
             [](v1::LogRecord& r) {
               auto* k = r.mutable_round_result()->mutable_krass_kariert();
               k->set_chips(0, k->chips(0) + 1);
             });
       },
       "round_result.krass_kariert.chips[0]"},
      {"component.cardlog", "kraken",
       [](Payloads& p) {
         return Edit(p,
                     Find(p,
                          [](const v1::LogRecord& r) {
                            return r.has_round_result() &&
                                   r.round_result().kraken().teams(1).stuk() ==
                                       0;
                          }),
                     [](v1::LogRecord& r) {
                       r.mutable_round_result()
                           ->mutable_kraken()
                           ->mutable_teams(1)
                           ->set_stuk(20);
                     });
       },
       "round_result.kraken.teams[1].stuk"},
      {"result.cardlog", "craits",
       [](Payloads& p) {
         return Edit(
             p,
             Find(p,
                  [](const v1::LogRecord& r) { return r.has_final_result(); }),
             [](v1::LogRecord& r) {
               auto* f = r.mutable_final_result();
               f->set_scores(0, f->scores(0) - 1);
             });
       },
       "final_result.scores[0]"},
      {"fault.cardlog", "craits",
       [](Payloads& p) {
         return Edit(
             p, Find(p, [](const v1::LogRecord& r) { return r.has_fault(); }),
             [](v1::LogRecord& r) {
               r.mutable_fault()->set_seat((r.fault().seat() + 1) % 3);
             });
       },
       "fault.seat"},
      {"substitution.cardlog", "craits",
       [](Payloads& p) {
         // A referee's move passed off as the player's own.
         return Edit(p,
                     Find(p,
                          [](const v1::LogRecord& r) {
                            return r.has_action() && r.action().by_referee();
                          }),
                     [](v1::LogRecord& r) {
                       r.mutable_action()->set_by_referee(false);
                     });
       },
       "action.by_referee"},
      {"card.cardlog", "craits",
       [](Payloads& p) {
         // The second round's deal with one card dealt twice.
         const int first = Find(p, [](const v1::LogRecord& r) {
           return r.has_chance() && r.chance().kind() == v1::CHANCE_KIND_DEAL;
         });
         return Edit(p,
                     Find(
                         p,
                         [](const v1::LogRecord& r) {
                           return r.has_chance() &&
                                  r.chance().kind() == v1::CHANCE_KIND_DEAL;
                         },
                         first + 1),
                     [](v1::LogRecord& r) {
                       r.mutable_chance()->set_cards(1, r.chance().cards(0));
                     });
       },
       ""},
      {"illegal.cardlog", "craits",
       [](Payloads& p) {
         // A seat plays again the card it played at its previous turn: no
         // longer in its hand (each card exists once, CR-1).
         for (size_t i = 1; i < p.size(); ++i) {
           const v1::LogRecord r = ParseRecord(p[i]);
           if (!r.has_action() || !r.action().action().craits().has_play())
             continue;
           for (size_t j = i + 1; j < p.size(); ++j) {
             v1::LogRecord later = ParseRecord(p[j]);
             if (later.has_round_result()) break;
             if (!later.has_action() ||
                 later.action().seat() != r.action().seat() ||
                 !later.action().action().craits().has_play()) {
               continue;
             }
             *later.mutable_action()->mutable_action() = r.action().action();
             p[j] = Serialize(later);
             return static_cast<int>(j);
           }
         }
         return -1;
       },
       "action.action"},
      {"reordered.cardlog", "craits",
       [](Payloads& p) {
         // Two actions of different seats swapped.
         for (size_t i = 1; i + 1 < p.size(); ++i) {
           const v1::LogRecord a = ParseRecord(p[i]), b = ParseRecord(p[i + 1]);
           if (a.has_action() && b.has_action() &&
               a.action().seat() != b.action().seat() &&
               !a.action().by_referee() && !b.action().by_referee()) {
             std::swap(p[i], p[i + 1]);
             return static_cast<int>(i);
           }
         }
         return -1;
       },
       "action.seat"},
      {"framing.cardlog", "kraken", [](Payloads&) { return -2; }, ""},
  };

  std::ofstream manifest(fs::path(out_dir) / "expected.tsv");
  manifest
      << "# file\tverdict\trecord_index\tbyte_offset\trecord_kind\tfield\n";
  int failures = 0;
  auto write = [&](const std::string& file, const std::string& bytes,
                   const std::string& verdict, int index, uint64_t offset,
                   const std::string& kind, const std::string& field) {
    const std::string path = (fs::path(out_dir) / file).string();
    if (!testlogs::WriteFile(path, bytes).ok()) {
      ++failures;
      return;
    }
    const v1::GameSummary s =
        cardref::analyzer::SummarizeFile(path, {}, cardref::AllGames());
    const v1::FileAudit& a = s.audit();
    const bool has = a.findings_size() > 0;
    const bool ok = a.verdict() == verdict &&
                    (verdict == "OK" ||
                     (has && a.findings(0).record_index() == index &&
                      a.findings(0).byte_offset() == offset &&
                      a.findings(0).record_kind() == kind &&
                      (field.empty() || a.findings(0).field() == field)));
    if (!ok) {
      std::fprintf(stderr, "%s: expected %s at record %d (%s %s), got %s: %s\n",
                   file.c_str(), verdict.c_str(), index, kind.c_str(),
                   field.c_str(), a.verdict().c_str(), a.message().c_str());
      ++failures;
      return;
    }
    manifest << file << "\t" << verdict << "\t" << index << "\t" << offset
             << "\t" << kind << "\t" << (has ? a.findings(0).field() : "")
             << "\n";
  };
  for (const auto& [name, payloads] : clean) {
    write(absl::StrCat("clean_", name, ".cardlog"), testlogs::Frame(payloads),
          "OK", -1, 0, "", "");
  }
  for (const Tampered& t : tampered) {
    Payloads p = clean[t.base];
    const int index = t.change(p);
    if (index == -2) {  // framing: one payload byte flipped in record 5
      std::string bytes = testlogs::Frame(p);
      const uint64_t at = Offsets(p)[5];
      bytes[at + cardref::record::kHeaderSize + 1] ^= 0x01;
      write(t.file, bytes, "CORRUPT", 5, at, "framing", "");
      continue;
    }
    if (index < 0) {
      std::fprintf(stderr, "%s: the change could not be made\n",
                   t.file.c_str());
      ++failures;
      continue;
    }
    const std::string kind =
        cardref::analyzer::RecordKind(ParseRecord(p[index]));
    write(t.file, testlogs::Frame(p), "MISMATCH", index, Offsets(p)[index],
          kind, t.field);
  }
  manifest.close();
  return failures == 0 ? 0 : 1;
}
