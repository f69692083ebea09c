// Proof of the deal and signed logs, audited: honest logs of every game
// verify completely; a swapped deck order, a seed that does not match its
// commitment, any flipped byte, and rewritten names, timings, faults and
// rejections are all reported, with the record.
#include "analyzer/integrity.h"

#include <sys/stat.h>

#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/audit.h"
#include "analyzer/cli.h"
#include "analyzer/testing/test_logs.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/deal_stream.h"
#include "referee/base/ed25519.h"
#include "referee/base/public_key_file.h"
#include "referee/base/hex.h"
#include "referee/base/sha256.h"
#include "games/all_games.h"
#include "referee/record/game_log.h"
#include "referee/record/record_io.h"

namespace cardref::analyzer {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using testlogs::CraitsParams;
using testlogs::Frame;
using testlogs::ParseRecord;
using testlogs::RandomMatchOptions;
using testlogs::Serialize;

std::string TrustedKey() { return testlogs::TestSigningKey()->public_key(); }

AuditReport AuditTrusting(const std::vector<std::string>& payloads,
                          const std::string& trusted_key = TrustedKey()) {
  IntegrityOptions options;
  options.trusted_public_key = trusted_key;
  return AuditGameLog(record::ParseGameLog(Frame(payloads)), "t.cardlog",
                      AllGames(), false, options);
}

// The checker alone, fed as `cardref_log verify` feeds it: straight from
// the framing, one record at a time.
std::unique_ptr<IntegrityChecker> Check(const std::vector<std::string>& payloads,
                                        const std::string& trusted_key) {
  IntegrityOptions options;
  options.trusted_public_key = trusted_key;
  auto checker = std::make_unique<IntegrityChecker>(options);
  const record::RecordFile file = record::ParseRecords(Frame(payloads));
  for (const record::Record& r : file.records) {
    checker->Add(r.payload, r.offset, ParseRecord(r.payload));
  }
  checker->Finish();
  return checker;
}

std::vector<std::string> PlayLog(const RandomMatchOptions& options) {
  absl::StatusOr<testlogs::PlayedLog> played = testlogs::PlayAndRead(options);
  EXPECT_TRUE(played.ok()) << played.status();
  return played.ok() ? played->payloads : std::vector<std::string>();
}

RandomMatchOptions Craits3() {
  RandomMatchOptions options;
  options.params = CraitsParams(3, true);
  options.dealing_seed = 77;
  options.bot_seed = 8;
  options.illegal_per_mille = 40;
  options.out_of_turn_per_mille = 20;
  options.timeout_per_mille = 15;
  return options;
}

size_t Find(const std::vector<std::string>& payloads,
            const std::function<bool(const v1::LogRecord&)>& pred,
            size_t from = 1) {
  for (size_t i = from; i < payloads.size(); ++i) {
    if (pred(ParseRecord(payloads[i]))) return i;
  }
  ADD_FAILURE() << "no such record";
  return payloads.size() - 1;
}

TEST(IntegrityTest, HonestLogsOfEveryGameVerifyCompletely) {
  std::vector<RandomMatchOptions> games(4, Craits3());
  games[3].dealing_seed = 0;  // a secret seed from the OS
  games[1].game = "krass_kariert";
  (*games[1].params.mutable_values()).clear();
  (*games[1].params.mutable_values())["num_players"].set_int_value(4);
  games[2].game = "kraken";
  (*games[2].params.mutable_values()).clear();
  for (const RandomMatchOptions& options : games) {
    SCOPED_TRACE(options.game);
    const std::vector<std::string> payloads = PlayLog(options);
    ASSERT_FALSE(payloads.empty());
    const AuditReport report = AuditTrusting(payloads);
    EXPECT_EQ(report.verdict, Verdict::kOk) << report.Line();
    EXPECT_THAT(report.Line(), HasSubstr(", signed by the trusted key)"));
    int chances = 0;
    for (const std::string& p : payloads) chances += ParseRecord(p).has_chance();
    const auto checker = Check(payloads, TrustedKey());
    EXPECT_TRUE(checker->findings().empty());
    EXPECT_TRUE(checker->trusted_key_verified());
    EXPECT_TRUE(checker->seed_verified());
    EXPECT_GT(chances, 1);
    EXPECT_EQ(checker->deal_orders_verified(), chances);
    EXPECT_THAT(checker->Summary(),
                HasSubstr(absl::StrCat("; seed matches its commitment; ",
                                       chances, " deck orders re-derived")));
  }
}

// A referee that stacked a deck and signed the log anyway (Rechain re-signs
// with the referee's key): only the seed can tell.
TEST(IntegrityTest, ASwappedDeckOrderIsReportedWithItsRecord) {
  std::vector<std::string> payloads = PlayLog(Craits3());
  const size_t first = Find(payloads, [](const v1::LogRecord& r) {
    return r.has_chance() && r.chance().kind() == v1::CHANCE_KIND_DEAL;
  });
  // The second round's deal: the label's round counts.
  const size_t k = Find(payloads, [](const v1::LogRecord& r) {
    return r.has_chance() && r.chance().kind() == v1::CHANCE_KIND_DEAL;
  }, first + 1);
  v1::LogRecord r = ParseRecord(payloads[k]);
  const uint32_t c0 = r.chance().cards(0);
  r.mutable_chance()->set_cards(0, r.chance().cards(5));
  r.mutable_chance()->set_cards(5, c0);
  payloads[k] = Serialize(r);
  payloads = testlogs::Rechain(payloads);

  const AuditReport report = AuditTrusting(payloads);
  ASSERT_EQ(report.verdict, Verdict::kTampered) << report.Line();
  ASSERT_TRUE(report.integrity_finding.has_value());
  EXPECT_EQ(report.integrity_finding->record_index, static_cast<int64_t>(k));
  EXPECT_THAT(report.message,
              StartsWith(absl::StrCat("record ", k, " at byte ")));
  EXPECT_THAT(report.message,
              HasSubstr("CHANCE_KIND_DEAL order (round index 1, ordinal 0) "
                        "is not the one cardref-deal-v1 derives from the "
                        "revealed seed: card 0 is recorded as "));
  // Exactly that record: every other order still re-derives.
  const auto checker = Check(payloads, TrustedKey());
  ASSERT_EQ(checker->findings().size(), 1u);
  EXPECT_TRUE(checker->seed_verified());
  EXPECT_TRUE(checker->signature_verified());
}

TEST(IntegrityTest, ARevealedSeedThatDoesNotMatchTheCommitmentIsReported) {
  const std::vector<std::string> honest = PlayLog(Craits3());
  const size_t reveal = Find(
      honest, [](const v1::LogRecord& r) { return r.has_seed_reveal(); });
  ASSERT_EQ(reveal, honest.size() - 2);  // right before the final result
  // Another seed revealed (and the log re-signed).
  {
    std::vector<std::string> payloads = honest;
    v1::LogRecord r = ParseRecord(payloads[reveal]);
    std::string seed = r.seed_reveal().seed();
    seed[0] ^= 1;
    r.mutable_seed_reveal()->set_seed(seed);
    payloads[reveal] = Serialize(r);
    payloads = testlogs::Rechain(payloads);
    const AuditReport report = AuditTrusting(payloads);
    ASSERT_EQ(report.verdict, Verdict::kTampered) << report.Line();
    EXPECT_EQ(report.integrity_finding->record_index,
              static_cast<int64_t>(reveal));
    EXPECT_THAT(report.message,
                HasSubstr(absl::StrCat("the revealed seed's SHA-256 is ",
                                       ToHex(crypto::Sha256(seed)),
                                       " but the header commits to ")));
  }
  // Another commitment in the header.
  {
    std::vector<std::string> payloads = honest;
    v1::LogRecord h = ParseRecord(payloads[0]);
    h.mutable_header()->set_seed_commitment(crypto::Sha256("another seed"));
    payloads[0] = Serialize(h);
    payloads = testlogs::Rechain(payloads);
    const AuditReport report = AuditTrusting(payloads);
    ASSERT_EQ(report.verdict, Verdict::kTampered) << report.Line();
    EXPECT_EQ(report.integrity_finding->record_index,
              static_cast<int64_t>(reveal));
    EXPECT_THAT(report.message, HasSubstr("but the header commits to"));
  }
  // No reveal at all.
  {
    std::vector<std::string> payloads = honest;
    payloads.erase(payloads.begin() + reveal);
    payloads = testlogs::Rechain(payloads);
    const AuditReport report = AuditTrusting(payloads);
    ASSERT_EQ(report.verdict, Verdict::kTampered) << report.Line();
    EXPECT_THAT(report.message, HasSubstr("no seed reveal before the end"));
  }
}

// A referee restarted after a kill closes out the match without the seed,
// which died with the process (docs/recovery.md): accepted for that cause
// only; any other abort must reveal the seed.
TEST(IntegrityTest, OnlyARestartedRefereeMayAbortWithoutTheSeed) {
  const std::vector<std::string> honest = PlayLog(Craits3());
  auto closed_out = [&](v1::AbortCause cause) {
    std::vector<std::string> payloads(honest.begin(),
                                      honest.begin() + honest.size() / 2);
    v1::LogRecord aborted;
    aborted.mutable_aborted()->set_reason("restarted");
    aborted.mutable_aborted()->set_cause(cause);
    payloads.push_back(Serialize(aborted));
    return AuditTrusting(testlogs::Rechain(payloads));
  };
  const AuditReport restarted =
      closed_out(v1::ABORT_CAUSE_REFEREE_RESTARTED);
  EXPECT_EQ(restarted.verdict, Verdict::kAborted) << restarted.Line();
  const AuditReport organiser = closed_out(v1::ABORT_CAUSE_ORGANISER);
  ASSERT_EQ(organiser.verdict, Verdict::kTampered) << organiser.Line();
  EXPECT_THAT(organiser.message, HasSubstr("no seed reveal before the end"));
}

// Every byte of every payload, flipped in turn and framed again with good
// CRCs, so only the chain and the signature can notice.
TEST(IntegrityTest, EveryFlippedByteOfASignedLogIsReported) {
  RandomMatchOptions options = Craits3();
  options.params = CraitsParams(2, true);
  options.stop_after_actions = 60;  // aborted: a short log, still signed
  const std::vector<std::string> honest = PlayLog(options);
  ASSERT_TRUE(ParseRecord(honest.back()).has_aborted());
  ASSERT_EQ(AuditTrusting(honest).verdict, Verdict::kAborted);
  std::map<std::string, int> verdicts;
  int flips = 0;
  for (size_t i = 0; i < honest.size(); ++i) {
    for (size_t b = 0; b < honest[i].size(); ++b) {
      std::vector<std::string> payloads = honest;
      payloads[i][b] = static_cast<char>(payloads[i][b] ^ 0xff);
      const AuditReport report = AuditTrusting(payloads);
      ++verdicts[std::string(VerdictName(report.verdict))];
      ++flips;
      ASSERT_NE(report.verdict, Verdict::kOk) << i << " " << b;
      ASSERT_NE(report.verdict, Verdict::kAborted)
          << "record " << i << " byte " << b << ": " << report.Line();
    }
  }
  // A format 3 log of 60 actions: ~1,900 payload bytes.
  EXPECT_GT(flips, 1500);
  // Flips that still parse and replay are caught by the chain or the
  // signature (the times, the names; most other bytes now replay to a
  // MISMATCH first: format 3 stores little besides the game).
  EXPECT_GT(verdicts["TAMPERED"], flips / 20);
}

struct Rewrite {
  const char* what;
  std::function<bool(const v1::LogRecord&)> match;
  std::function<void(v1::LogRecord&)> change;
};

TEST(IntegrityTest, RewrittenNamesTimingsFaultsAndRejectionsAreReported) {
  const std::vector<std::string> honest = PlayLog(Craits3());
  const std::vector<Rewrite> rewrites = {
      {"player name", [](const v1::LogRecord& r) { return r.has_header(); },
       [](v1::LogRecord& r) {
         r.mutable_header()->mutable_seats(1)->set_player_name("mallory");
       }},
      {"match id", [](const v1::LogRecord& r) { return r.has_header(); },
       [](v1::LogRecord& r) { r.mutable_header()->set_match_id("other"); }},
      {"micros_since_previous",  // format 3's wall time
       [](const v1::LogRecord& r) { return r.has_action(); },
       [](v1::LogRecord& r) {
         r.set_micros_since_previous(r.micros_since_previous() + 1);
       }},
      {"time_taken_micros",
       [](const v1::LogRecord& r) { return r.has_action(); },
       [](v1::LogRecord& r) {  // + 1: a fast move may have taken 1 us
         r.mutable_action()->set_time_taken_micros(
             r.action().time_taken_micros() + 1);
       }},
      {"fault", [](const v1::LogRecord& r) { return r.has_fault(); },
       [](v1::LogRecord& r) { r.mutable_fault()->set_detail("network"); }},
      {"rejected message",
       [](const v1::LogRecord& r) { return r.has_rejected(); },
       [](v1::LogRecord& r) { r.mutable_rejected()->set_message("ok"); }},
      {"rejected status",
       [](const v1::LogRecord& r) { return r.has_rejected(); },
       [](v1::LogRecord& r) {
         const int code = r.rejected().status_code();
         r.mutable_rejected()->set_status_code(code == 14 ? 13 : 14);
       }},
      {"final timing",
       [](const v1::LogRecord& r) { return r.has_final_result(); },
       [](v1::LogRecord& r) {
         r.set_micros_since_previous(r.micros_since_previous() - 1);
       }},
  };
  for (const Rewrite& rw : rewrites) {
    SCOPED_TRACE(rw.what);
    std::vector<std::string> payloads = honest;
    const int k =
        testlogs::TamperRecord(&payloads, testlogs::Pick::kLast, rw.match,
                               rw.change);
    ASSERT_GE(k, 0);
    for (const std::string& key : {TrustedKey(), std::string()}) {
      const AuditReport report = AuditTrusting(payloads, key);
      ASSERT_EQ(report.verdict, Verdict::kTampered) << report.Line();
      const int n = static_cast<int>(payloads.size());
      const bool last = k + 1 == n;
      // The first checkpoint after the change (format 3: every 64th
      // record and the last), or the signature.
      int checkpoint = k + 1;
      while (!record::LogChain::IsCheckpoint(checkpoint, checkpoint == n - 1)) {
        ++checkpoint;
      }
      EXPECT_EQ(report.integrity_finding->record_index,
                last ? k : checkpoint);
      EXPECT_THAT(report.message,
                  HasSubstr(last ? "the signature does not verify"
                                 : absl::StrCat("is not the chain of records 0 "
                                                "to ",
                                                checkpoint - 1)));
    }
  }
  // Cutting the log short (a torn tail, as if the referee had crashed)
  // does not hide a change before the cut.
  {
    std::vector<std::string> payloads = honest;
    const int k = testlogs::TamperRecord(
        &payloads, testlogs::Pick::kFirst,
        [](const v1::LogRecord& x) { return x.has_rejected(); },
        [](v1::LogRecord& x) { x.mutable_rejected()->set_message("ok"); });
    std::string bytes = Frame(payloads);
    bytes.resize(bytes.size() - 10);
    const AuditReport cut = AuditGameLog(record::ParseGameLog(bytes),
                                         "t.cardlog", AllGames(), false, {});
    ASSERT_EQ(cut.verdict, Verdict::kTampered) << cut.Line();
    // The next checkpoint (a change after the last checkpoint before a
    // cut goes unnoticed: format 3 chains in blocks of 64 records).
    const int64_t checkpoint =
        (k / record::kChainCheckpointInterval + 1) *
        record::kChainCheckpointInterval;
    ASSERT_LT(checkpoint, static_cast<int64_t>(payloads.size()) - 1);
    EXPECT_EQ(cut.integrity_finding->record_index, checkpoint);
  }
  // A rejected submission removed: the chain breaks at the next
  // checkpoint (or the next prev_hash, now one record early).
  std::vector<std::string> removed = honest;
  const size_t r = Find(removed,
                        [](const v1::LogRecord& x) { return x.has_rejected(); });
  removed.erase(removed.begin() + r);
  AuditReport report = AuditTrusting(removed);
  ASSERT_EQ(report.verdict, Verdict::kTampered) << report.Line();
  EXPECT_GE(report.integrity_finding->record_index, static_cast<int64_t>(r));
  EXPECT_LE(report.integrity_finding->record_index,
            static_cast<int64_t>(r) + record::kChainCheckpointInterval);
  EXPECT_THAT(report.message, HasSubstr("prev_hash"));
}

// A forger with their own key can re-sign a rewritten log completely; only
// the trusted key tells it from the referee's.
TEST(IntegrityTest, AnotherKeyIsAFindingOnlyAgainstTheTrustedKey) {
  std::vector<std::string> payloads = PlayLog(Craits3());
  testlogs::TamperRecord(
      &payloads, testlogs::Pick::kFirst,
      [](const v1::LogRecord& r) { return r.has_header(); },
      [](v1::LogRecord& r) {
        r.mutable_header()->mutable_seats(0)->set_player_name("mallory");
      });
  auto forger = std::make_shared<const crypto::Ed25519PrivateKey>(
      *crypto::Ed25519PrivateKey::FromSeed(std::string(32, '\x66')));
  std::string bytes;
  record::GameLogWriter writer(record::NewStringSink(&bytes), forger);
  for (const std::string& p : payloads) {
    ASSERT_TRUE(writer.Write(ParseRecord(p)).ok());
  }
  const record::GameLog log = record::ParseGameLog(bytes);
  IntegrityOptions trusted;
  trusted.trusted_public_key = TrustedKey();
  const AuditReport against_trusted =
      AuditGameLog(log, "t.cardlog", AllGames(), false, trusted);
  ASSERT_EQ(against_trusted.verdict, Verdict::kTampered)
      << against_trusted.Line();
  EXPECT_EQ(against_trusted.integrity_finding->record_index, 0);
  EXPECT_THAT(against_trusted.message,
              HasSubstr(absl::StrCat("signed with referee key ",
                                     ToHex(forger->public_key()),
                                     ", not the trusted key ",
                                     ToHex(TrustedKey()))));
  const AuditReport self_consistent =
      AuditGameLog(log, "t.cardlog", AllGames(), false, {});
  EXPECT_EQ(self_consistent.verdict, Verdict::kOk);
  EXPECT_THAT(self_consistent.Line(), HasSubstr(", signed)"));
}

TEST(IntegrityTest, UnsignedAndDowngradedLogs) {
  const std::vector<std::string> honest = PlayLog(Craits3());
  // An older referee's log: OK and unsigned, unless a key is required.
  const std::vector<std::string> v1_log = testlogs::AsFormat1(honest);
  AuditReport report = AuditTrusting(v1_log, "");
  EXPECT_EQ(report.verdict, Verdict::kOk) << report.Line();
  EXPECT_THAT(report.Line(), HasSubstr(", unsigned)"));
  report = AuditTrusting(v1_log);
  ASSERT_EQ(report.verdict, Verdict::kTampered) << report.Line();
  EXPECT_THAT(report.message,
              HasSubstr("record 0 at byte 0 (header): an unsigned log "
                        "(format_version 1)"));
  // format_version rewritten to 1 on a signed log: the leftovers show.
  std::vector<std::string> downgraded = honest;
  testlogs::TamperRecord(
      &downgraded, testlogs::Pick::kFirst,
      [](const v1::LogRecord& r) { return r.has_header(); },
      [](v1::LogRecord& r) { r.mutable_header()->set_format_version(1); });
  report = AuditTrusting(downgraded, "");
  ASSERT_EQ(report.verdict, Verdict::kTampered) << report.Line();
  EXPECT_THAT(report.message, HasSubstr("was format_version rewritten?"));
  // The signature stripped from the last record.
  std::vector<std::string> unsigned_end = honest;
  testlogs::TamperRecord(
      &unsigned_end, testlogs::Pick::kLast,
      [](const v1::LogRecord& r) { return r.has_final_result(); },
      [](v1::LogRecord& r) { r.clear_signature(); });
  report = AuditTrusting(unsigned_end, "");
  ASSERT_EQ(report.verdict, Verdict::kTampered) << report.Line();
  EXPECT_THAT(report.message, HasSubstr("the last record is not signed"));
}

// The format 1 golden logs, unchanged: OK and unsigned, with no finding.
TEST(IntegrityTest, Format1GoldenLogsAuditOkAsUnsigned) {
  int logs = 0;
  for (const char* name : {"craits_2p_short", "craits_3p_short",
                           "craits_4p_short"}) {
    const std::string path =
        absl::StrCat(CARDREF_GOLDEN_LOG_DIR, "/", name, ".cardlog");
    const AuditReport report = AuditFile(path, {}, AllGames());
    EXPECT_EQ(report.verdict, Verdict::kOk) << report.Line();
    EXPECT_EQ(report.integrity, "unsigned");
    EXPECT_THAT(report.integrity_summary,
                StartsWith("unsigned: format_version 1 logs have no hash "
                           "chain"));
    EXPECT_FALSE(report.integrity_finding.has_value());
    ++logs;
  }
  EXPECT_EQ(logs, 3);
}

// Duplicate play: the same seed, other players in other seats playing
// otherwise, and every round's deal is the same, even where the number of
// reshuffles differs.
TEST(IntegrityTest, DuplicatePlayDealsTheSameOrdersEveryRound) {
  using Deals = std::map<uint32_t, std::vector<uint32_t>>;  // round -> order
  auto deals_of = [](const std::vector<std::string>& payloads,
                     std::map<uint32_t, int>* reshuffles) {
    Deals deals;
    uint32_t round = 0;
    for (const std::string& p : payloads) {
      const v1::LogRecord r = ParseRecord(p);
      if (r.has_round_result()) ++round;
      if (!r.has_chance()) continue;
      if (r.chance().kind() == v1::CHANCE_KIND_RESHUFFLE) {
        ++(*reshuffles)[round];
      } else {
        EXPECT_EQ(deals.count(round), 0u);
        deals[round].assign(r.chance().cards().begin(),
                            r.chance().cards().end());
      }
    }
    return deals;
  };
  RandomMatchOptions a = Craits3();
  a.dealing_seed = 4711;
  a.player_names = {"ann", "bob", "cy"};
  std::map<uint32_t, int> reshuffles_a;
  const Deals deals_a = deals_of(PlayLog(a), &reshuffles_a);
  bool reshuffles_differ = false;
  for (uint64_t bot_seed = 20; bot_seed < 40 && !reshuffles_differ;
       ++bot_seed) {
    RandomMatchOptions b = a;
    b.player_names = {"cy", "ann", "bob"};
    b.bot_seed = bot_seed;
    std::map<uint32_t, int> reshuffles_b;
    const Deals deals_b = deals_of(PlayLog(b), &reshuffles_b);
    EXPECT_EQ(deals_b, deals_a);
    reshuffles_differ = reshuffles_b != reshuffles_a;
  }
  EXPECT_EQ(deals_a.size(), 8u);
  EXPECT_TRUE(reshuffles_differ);
}

TEST(IntegrityTest, AuditCommandTakesTheRefereeKeyAsHexOrFile) {
  const std::vector<std::string> payloads = PlayLog(Craits3());
  const std::string dir = testlogs::MakeTempDir();
  const std::string log = dir + "/m.cardlog";
  ASSERT_TRUE(testlogs::WriteFile(log, Frame(payloads)).ok());
  const std::string key_file = dir + "/referee.pub";
  ASSERT_TRUE(testlogs::WriteFile(key_file, ToHex(TrustedKey()) + "\n").ok());
  for (const std::string& key : {ToHex(TrustedKey()), key_file}) {
    std::ostringstream out, err;
    EXPECT_EQ(RunAudit({log}, false, AllGames(), out, err, key), kExitOk)
        << out.str() << err.str();
    EXPECT_THAT(out.str(), HasSubstr("signed by the trusted key)"));
  }
  std::ostringstream out, err;
  EXPECT_EQ(RunAudit({log}, false, AllGames(), out, err,
                     ToHex(std::string(32, '\x01'))),
            kExitNotOk);
  EXPECT_THAT(out.str(), StartsWith(absl::StrCat("TAMPERED ", log, ": ")));
  std::ostringstream out2, err2;
  EXPECT_EQ(RunAudit({log}, false, AllGames(), out2, err2, "12ab"),
            kExitUsage);
  EXPECT_THAT(err2.str(), HasSubstr("--referee_key '12ab' is neither"));
}

// The referee's own key file, as it sits in a tournament's event folder:
// its public half is taken (owner-only, as the referee reads it), and the
// public key file the referee writes beside it works too.
TEST(IntegrityTest, AuditCommandTakesTheRefereesKeyFileAndItsPublicKeyFile) {
  const std::vector<std::string> payloads = PlayLog(Craits3());
  const std::string dir = testlogs::MakeTempDir();
  const std::string log = dir + "/m.cardlog";
  ASSERT_TRUE(testlogs::WriteFile(log, Frame(payloads)).ok());
  const std::string key_file = dir + "/referee_ed25519.key";
  ASSERT_TRUE(testlogs::TestSigningKey()->WriteFile(key_file).ok());
  const std::string public_file = crypto::PublicKeyPath(key_file);
  ASSERT_TRUE(
      crypto::WritePublicKeyFile(public_file, TrustedKey()).ok());
  for (const std::string& key : {key_file, public_file}) {
    std::ostringstream out, err;
    EXPECT_EQ(RunAudit({log}, false, AllGames(), out, err, key), kExitOk)
        << key << ": " << out.str() << err.str();
    EXPECT_THAT(out.str(), HasSubstr("signed by the trusted key)"));
  }
  // A key file others may read is refused, as the referee refuses it, with
  // the public key file named instead.
  ASSERT_EQ(chmod(key_file.c_str(), 0644), 0);
  std::ostringstream out, err;
  EXPECT_EQ(RunAudit({log}, false, AllGames(), out, err, key_file),
            kExitUsage);
  EXPECT_THAT(err.str(), HasSubstr("is a private key that cannot be used"));
  EXPECT_THAT(err.str(), HasSubstr("give its public key instead: " +
                                   public_file));
}

}  // namespace
}  // namespace cardref::analyzer
