// cardref_analyze over many logs: the streamed audit agrees with the
// whole-file audit, JSON/CSV/text reports say where a log is wrong, names
// cannot forge output, and sharded-then-merged reports equal the single run
// byte for byte.
#include "analyzer/batch.h"

#include <fstream>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "analyzer/audit.h"
#include "analyzer/cli.h"
#include "analyzer/render.h"
#include "analyzer/summary.h"
#include "analyzer/testing/audit_testing.h"
#include "analyzer/testing/test_logs.h"
#include "cardref/v1/analysis.pb.h"
#include "gmock/gmock.h"
#include "games/craits/craits.h"
#include "google/protobuf/unknown_field_set.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "games/all_games.h"
#include "referee/record/game_log.h"
#include "referee/record/record_io.h"

namespace cardref::analyzer {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using audit_testing::Analyze;
using audit_testing::CliRun;
using testlogs::Frame;
using testlogs::ParseRecord;
using testlogs::RandomMatchOptions;
using testlogs::Serialize;

CliOptions Json() {
  CliOptions options;
  options.format = Format::kJson;
  options.ratings.bootstrap = 50;
  return options;
}

std::vector<std::string> Payloads(const std::string& path) {
  absl::StatusOr<std::vector<std::string>> p = testlogs::ReadPayloads(path);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : std::vector<std::string>{};
}

std::vector<uint64_t> Offsets(const std::vector<std::string>& payloads) {
  std::vector<uint64_t> offsets;
  uint64_t at = 0;
  for (const std::string& p : payloads) {
    offsets.push_back(at);
    at += record::kHeaderSize + p.size() + record::kFooterSize;
  }
  return offsets;
}

v1::GameParams Int(const std::string& name, int value, v1::GameParams p = {}) {
  (*p.mutable_values())[name].set_int_value(value);
  return p;
}

// A tournament in a directory: every game, finished, aborted, tampered and
// torn logs, names shared across games. Made once for the suite.
class BatchTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(testlogs::MakeTempDir());
    const std::vector<std::string> pool = {"ann", "ben", "cat", "dan", "eve"};
    int made = 0;
    auto play = [&](RandomMatchOptions o) {
      o.dealing_seed = 1000 + made;
      o.bot_seed = 7 + made;
      const int n = o.game == "kraken" ? 4
                    : o.params.values().count("num_players")
                        ? static_cast<int>(
                              o.params.values().at("num_players").int_value())
                        : 4;
      for (int s = 0; s < n; ++s) {
        o.player_names.push_back(pool[(made + s) % pool.size()]);
      }
      ++made;
      absl::StatusOr<std::string> path = testlogs::PlayRandomMatch(*dir_, o);
      EXPECT_TRUE(path.ok()) << path.status();
      return path.ok() ? *path : std::string();
    };
    for (int players : {2, 3, 4, 3}) {
      RandomMatchOptions o;
      o.params = testlogs::CraitsParams(players, true);
      o.illegal_per_mille = 20;
      o.timeout_per_mille = 10;
      logs_.push_back(play(o));
    }
    for (int players : {3, 4}) {
      RandomMatchOptions o;
      o.game = "krass_kariert";
      o.params = Int("num_players", players, Int("chips_per_player", 2));
      logs_.push_back(play(o));
    }
    for (int i = 0; i < 2; ++i) {
      RandomMatchOptions o;
      o.game = "kraken";
      o.params = Int("rounds", 4);
      logs_.push_back(play(o));
    }
    {
      RandomMatchOptions o;
      o.params = testlogs::CraitsParams(3, true);
      o.stop_after_actions = 30;
      aborted_ = new std::string(play(o));
    }
    // A copy of the first log with a round score changed, one cut short.
    std::vector<std::string> payloads = Payloads(logs_[0]);
    size_t k = 1;
    while (!ParseRecord(payloads[k]).has_round_result()) ++k;
    tampered_index_ = static_cast<int>(k);
    tampered_offset_ = Offsets(payloads)[k];
    v1::LogRecord r = ParseRecord(payloads[k]);
    r.mutable_round_result()->mutable_craits()->set_scores(
        0, r.round_result().craits().scores(0) + 1);
    payloads[k] = Serialize(r);
    // Signed again, as if the referee itself had written the wrong score:
    // the replay, not the hash chain, must catch it.
    payloads = testlogs::Rechain(payloads);
    tampered_offset_ = Offsets(payloads)[k];
    tampered_ = new std::string(*dir_ + "/tampered.cardlog");
    EXPECT_TRUE(testlogs::WriteFile(*tampered_, Frame(payloads)).ok());
    // Torn inside a record's payload: a cut that happened to fall on a
    // record boundary would be a clean, merely unfinished log (no finding).
    const std::vector<std::string> second = Payloads(logs_[1]);
    const size_t torn_record = second.size() / 2;
    const std::string whole = Frame(second);
    torn_ = new std::string(*dir_ + "/torn.cardlog");
    EXPECT_TRUE(testlogs::WriteFile(
                    *torn_, whole.substr(0, Offsets(second)[torn_record] +
                                                record::kHeaderSize + 1))
                    .ok());
  }

  static std::string* dir_;
  static std::vector<std::string> logs_;  // finished, untouched
  static std::string* aborted_;
  static std::string* tampered_;
  static std::string* torn_;
  static int tampered_index_;
  static uint64_t tampered_offset_;
};

std::string* BatchTest::dir_ = nullptr;
std::vector<std::string> BatchTest::logs_;
std::string* BatchTest::aborted_ = nullptr;
std::string* BatchTest::tampered_ = nullptr;
std::string* BatchTest::torn_ = nullptr;
int BatchTest::tampered_index_ = 0;
uint64_t BatchTest::tampered_offset_ = 0;

TEST_F(BatchTest, StreamedAuditEqualsTheWholeFileAuditOnDamagedCopies) {
  const std::string bytes = Frame(Payloads(logs_[2]));
  const std::string path = *dir_ + "/damaged.tmp";
  std::vector<std::string> images;
  for (size_t cut = 0; cut < bytes.size(); cut += bytes.size() / 23 + 1) {
    images.push_back(bytes.substr(0, cut));
  }
  for (size_t at = 3; at < bytes.size(); at += bytes.size() / 17 + 5) {
    std::string flipped = bytes;
    flipped[at] ^= 0x40;
    images.push_back(flipped);
  }
  images.push_back(bytes + record::FrameRecord("not a record \xff\xff"));
  for (const std::string& image : images) {
    ASSERT_TRUE(testlogs::WriteFile(path, image).ok());
    const AuditReport streamed = AuditFile(path, {}, AllGames());
    const AuditReport whole =
        AuditGameLog(record::ParseGameLog(image), path, AllGames());
    EXPECT_EQ(streamed.Line(), whole.Line());
    EXPECT_EQ(streamed.verdict, whole.verdict);
    std::remove(path.c_str());
  }
}

TEST_F(BatchTest, AuditJsonIsOneObjectPerFileWithTheFinding) {
  const CliRun run = Analyze("audit", {*dir_}, Json());
  EXPECT_EQ(run.code, kExitNotOk);
  const std::vector<std::string> lines =
      absl::StrSplit(run.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), logs_.size() + 3);
  bool found = false;
  for (const std::string& line : lines) {
    v1::FileAudit audit;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(line, &audit).ok())
        << line;
    if (audit.file() == *tampered_) {
      found = true;
      EXPECT_EQ(audit.verdict(), "MISMATCH");
      EXPECT_EQ(audit.ending(), "unknown");
      ASSERT_EQ(audit.findings_size(), 1);
      const v1::AuditFinding& f = audit.findings(0);
      EXPECT_EQ(f.record_index(), tampered_index_);
      EXPECT_EQ(f.byte_offset(), tampered_offset_);
      EXPECT_EQ(f.record_kind(), "round_result");
      EXPECT_EQ(f.field(), "round_result.craits.scores[0]");
      EXPECT_EQ(std::stoll(f.recorded()), std::stoll(f.recomputed()) + 1);
    } else if (audit.file() == *aborted_) {
      EXPECT_EQ(audit.verdict(), "ABORTED");
      EXPECT_EQ(audit.ending(), "aborted");
    } else if (audit.file() == *torn_) {
      EXPECT_EQ(audit.verdict(), "INCOMPLETE");
      EXPECT_EQ(audit.ending(), "interrupted");
      ASSERT_EQ(audit.findings_size(), 1);
      EXPECT_EQ(audit.findings(0).record_kind(), "framing");
      EXPECT_EQ(audit.findings(0).record_index(), audit.records());
    } else {
      EXPECT_EQ(audit.verdict(), "OK") << line;
      EXPECT_EQ(audit.ending(), "finished");
      EXPECT_GT(audit.file_size(), 0u);
    }
  }
  EXPECT_TRUE(found);
}

TEST_F(BatchTest, AuditCsvAndTextReportInterruptedAndAbortedApart) {
  CliOptions csv;
  csv.format = Format::kCsv;
  const CliRun run = Analyze("audit", {*dir_}, csv);
  const std::vector<std::string> rows =
      absl::StrSplit(run.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(rows.size(), logs_.size() + 4);
  EXPECT_EQ(rows[0],
            "file,verdict,ending,game,rounds,records,consistent_records,"
            "record_index,byte_offset,record_kind,field,recorded,recomputed,"
            "rule,message");
  EXPECT_THAT(run.out,
              HasSubstr(absl::StrCat(*tampered_, ",MISMATCH,unknown,craits,")));
  EXPECT_THAT(run.out, HasSubstr(absl::StrCat(
                           ",", tampered_index_, ",", tampered_offset_,
                           ",round_result,round_result.craits."
                           "scores[0],")));

  const CliRun text = Analyze("audit", {*dir_});
  EXPECT_THAT(text.out,
              HasSubstr(absl::StrCat("summary: ", logs_.size() + 3,
                                     " files: ", logs_.size(),
                                     " OK, 1 interrupted, 1 aborted, 1 error "
                                     "(MISMATCH 1)\n")));
  // Exit codes: an error wins; interrupted or aborted alone is 3.
  EXPECT_EQ(text.code, kExitNotOk);
  EXPECT_EQ(Analyze("audit", {logs_[0], *aborted_}).code, kExitUnfinished);
  EXPECT_EQ(Analyze("audit", {*torn_}).code, kExitUnfinished);
  EXPECT_EQ(Analyze("audit", {logs_[0], logs_[1]}).code, kExitOk);
}

TEST_F(BatchTest, NamesWithControlCharactersCannotForgeRows) {
  // The referee refuses such names (referee/service/text_limits.h), but a
  // log from elsewhere (here: as an older, unsigned referee wrote it) may
  // hold anything.
  std::vector<std::string> payloads = testlogs::AsFormat1(Payloads(logs_[0]));
  v1::LogRecord header = ParseRecord(payloads[0]);
  const std::string evil = "evil\n\x1b[31mOK forged";
  header.mutable_header()->mutable_seats(0)->set_player_name(evil);
  payloads[0] = Serialize(header);
  const std::string dir = testlogs::MakeTempDir();
  const std::string path = dir + "/evil\nname\x1b[0m.cardlog";
  ASSERT_TRUE(testlogs::WriteFile(path, Frame(payloads)).ok());

  for (Format format : {Format::kText, Format::kCsv}) {
    CliOptions options;
    options.format = format;
    for (const char* command : {"audit", "stats", "ratings"}) {
      SCOPED_TRACE(command);
      const CliRun run = Analyze(command, {path}, options);
      EXPECT_EQ(run.out.find('\x1b'), std::string::npos) << run.out;
      EXPECT_THAT(run.out, Not(HasSubstr("\nOK forged")));
      EXPECT_THAT(run.out, Not(HasSubstr("\nname")));
      if (std::string(command) == "audit") {
        EXPECT_THAT(run.out, HasSubstr("evil\\nname\\x1b[0m.cardlog"));
      } else {
        EXPECT_THAT(run.out, HasSubstr("evil\\n\\x1b[31mOK forged"));
      }
    }
  }
  // JSON keeps the name exactly, escaped by JSON itself.
  const CliRun json = Analyze("stats", {path}, Json());
  EXPECT_THAT(json.out, HasSubstr("evil\\n\\u001b[31mOK forged"));
}

TEST(SanitizeTest, EscapesControlsAndKeepsText) {
  EXPECT_EQ(Sanitize("plain ascii"), "plain ascii");
  EXPECT_EQ(Sanitize("a\nb\tc\rd"), "a\\nb\\tc\\rd");
  EXPECT_EQ(Sanitize("\x1b[31mred"), "\\x1b[31mred");
  EXPECT_EQ(Sanitize("back\\slash"), "back\\\\slash");
  EXPECT_EQ(Sanitize("caf\xc3\xa9 \xe2\x82\xac"), "caf\xc3\xa9 \xe2\x82\xac");
  EXPECT_EQ(Sanitize("c1 \xc2\x9b"
                     "31m"),
            "c1 \\xc2\\x9b31m");  // CSI
  EXPECT_EQ(Sanitize("bad \xff utf8"), "bad \\xff utf8");
  EXPECT_EQ(Sanitize(std::string("nul\0x", 5)), "nul\\x00x");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("x\ny"), "x\\ny");
}

TEST_F(BatchTest, UnknownFieldInTheHeaderIsReported) {
  std::vector<std::string> payloads = Payloads(logs_[0]);
  v1::LogRecord header = ParseRecord(payloads[0]);
  v1::LogHeader* h = header.mutable_header();
  h->GetReflection()->MutableUnknownFields(h)->AddVarint(99, 7);
  payloads[0] = Serialize(header);
  const std::string path = testlogs::MakeTempDir() + "/newer.cardlog";
  ASSERT_TRUE(testlogs::WriteFile(path, Frame(payloads)).ok());
  const AuditReport report = AuditFile(path, {}, AllGames());
  EXPECT_EQ(report.verdict, Verdict::kUnreadable);
  EXPECT_THAT(report.message, HasSubstr("header.#99: recorded present"));
  const CliRun json = Analyze("audit", {path}, Json());
  v1::FileAudit audit;
  ASSERT_TRUE(
      google::protobuf::util::JsonStringToMessage(json.out, &audit).ok());
  ASSERT_EQ(audit.findings_size(), 1);
  EXPECT_EQ(audit.findings(0).record_index(), 0);
  EXPECT_EQ(audit.findings(0).field(), "header.#99");
  EXPECT_EQ(json.code, kExitNotOk);
}

TEST_F(BatchTest, ShardedThenMergedEqualsTheSingleRunByteForByte) {
  const std::string parts = testlogs::MakeTempDir();
  for (const char* command : {"audit", "stats", "ratings"}) {
    const CliRun single = Analyze(command, {*dir_}, Json());
    ASSERT_FALSE(single.out.empty());
    for (int n : {1, 2, 3, 7}) {
      SCOPED_TRACE(absl::StrCat(command, " in ", n, " shards"));
      std::vector<std::string> partials;
      for (int i = n; i >= 1; --i) {  // any order
        CliOptions options = Json();
        options.shard = absl::StrCat(i, "/", n);
        options.partial = absl::StrCat(parts, "/", command, n, "_", i, ".pb");
        options.jobs = i % 3 + 1;
        const CliRun shard = Analyze(command, {*dir_}, options);
        EXPECT_TRUE(shard.out.empty());
        EXPECT_NE(shard.code, kExitUsage) << shard.err;
        partials.push_back(options.partial);
      }
      const CliRun merged = Analyze("merge", partials, Json());
      EXPECT_EQ(merged.code, single.code) << merged.err;
      EXPECT_EQ(merged.out, single.out);
    }
  }
  // Text and CSV come from the same report.
  CliOptions csv;
  csv.format = Format::kCsv;
  CliOptions shard = csv;
  shard.shard = "1/1";
  shard.partial = parts + "/csv.pb";
  Analyze("stats", {*dir_}, shard);
  EXPECT_EQ(Analyze("merge", {shard.partial}, csv).out,
            Analyze("stats", {*dir_}, csv).out);
}

TEST_F(BatchTest, MergeRefusesMissingRepeatedOrMixedShards) {
  const std::string parts = testlogs::MakeTempDir();
  auto write = [&](const std::string& command, const std::string& shard) {
    CliOptions options;
    options.shard = shard;
    options.partial =
        absl::StrCat(parts, "/", command, "_", shard.substr(0, 1), ".pb");
    Analyze(command, {*dir_}, options);
    return options.partial;
  };
  const std::string a1 = write("audit", "1/3"), a2 = write("audit", "2/3");
  const std::string s3 = write("stats", "3/3");
  CliRun run = Analyze("merge", {a1, a2});
  EXPECT_EQ(run.code, kExitUsage);
  EXPECT_THAT(run.err, HasSubstr("shard 3/3 is missing"));
  run = Analyze("merge", {a1, a1, a2});
  EXPECT_THAT(run.err, HasSubstr("shard 1/3 is given twice"));
  run = Analyze("merge", {a1, a2, s3});
  EXPECT_THAT(run.err, HasSubstr("partials of different commands"));
  run = Analyze("merge", {logs_[0]});
  EXPECT_EQ(run.code, kExitUsage);
  EXPECT_THAT(run.err, HasSubstr("is not a partial result"));
  EXPECT_EQ(Analyze("audit", {*dir_},
                    [] {
                      CliOptions o;
                      o.shard = "4/3";
                      return o;
                    }())
                .code,
            kExitUsage);
}

// A partial is read up to protobuf's limit on a message and no further:
// /dev/zero given by mistake used to be read until memory ran out.
TEST_F(BatchTest, ReadPartialStopsAtItsBound) {
  CliOptions options;
  options.shard = "1/1";
  options.partial = testlogs::MakeTempDir() + "/stats.pb";
  Analyze("stats", {*dir_}, options);
  ASSERT_TRUE(std::filesystem::exists(options.partial));
  const uint64_t size = std::filesystem::file_size(options.partial);
  EXPECT_TRUE(ReadPartial(options.partial, size).ok());
  absl::StatusOr<v1::AnalysisPartial> over =
      ReadPartial(options.partial, size - 1);
  EXPECT_EQ(over.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(over.status().message()),
              HasSubstr("more than any partial result can be"));
  over = ReadPartial("/dev/zero", 1 << 20);
  EXPECT_EQ(over.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(over.status().message()),
              HasSubstr("/dev/zero is more than 1048576 bytes"));
  over = ReadPartial(options.partial + ".missing");
  EXPECT_EQ(over.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(over.status().message()),
              HasSubstr("cannot read the partial result"));
  EXPECT_EQ(kMaxPartialBytes, uint64_t{2147483647});
}

TEST_F(BatchTest, GameSpecificMetricsFollowFromTheLog) {
  for (int i : {4, 5}) {  // Krass Kariert, 2 chips each
    const v1::GameSummary s = SummarizeFile(logs_[i], {}, AllGames());
    ASSERT_EQ(s.audit().verdict(), "OK");
    int64_t plays = 0, reserves = 0;
    for (const v1::LogRecord& r : testlogs::ReadBack(Payloads(logs_[i]))) {
      if (!r.has_action()) continue;
      plays += r.action().action().krass_kariert().has_play();
      reserves += r.action().action().krass_kariert().has_take_reserve();
    }
    int64_t counted_plays = 0, taken = 0;
    for (const v1::SeatSummary& seat : s.seats()) {
      // Every chip a seat lost was charged in some round (KK-11).
      EXPECT_EQ(seat.metrics().at("chips_lost").sum(), 2 - seat.score());
      counted_plays += seat.metrics().at("stop_rate").count();
      EXPECT_EQ(seat.metrics().at("draw_card_rate").count(),
                seat.metrics().at("stop_rate").count());
      taken += static_cast<int64_t>(seat.metrics().at("reserve_rate").sum());
    }
    EXPECT_EQ(counted_plays, plays);
    EXPECT_EQ(taken, reserves);
    // One out_first value per seat and round (random bots rarely empty a
    // hand: their rounds end stuck, KK-11.2; StatsHookTest has the cases).
    int64_t rounds = 0;
    for (const std::string& payload : Payloads(logs_[i])) {
      rounds += ParseRecord(payload).has_round_result();
    }
    for (const v1::SeatSummary& seat : s.seats()) {
      EXPECT_EQ(seat.metrics().at("out_first").count(), rounds);
    }
  }
  for (int i : {6, 7}) {  // Kraken: the share of spades rounds
    const v1::GameSummary s = SummarizeFile(logs_[i], {}, AllGames());
    int64_t rounds = 0, spades = 0;
    for (const std::string& payload : Payloads(logs_[i])) {
      const v1::LogRecord r = ParseRecord(payload);
      if (!r.has_round_result()) continue;
      ++rounds;
      spades += r.round_result().kraken().trump() == v1::SUIT_SPADES;
    }
    bool found = false;
    for (const v1::ExtraRowSummary& row : s.extra_rows()) {
      if (row.table() != "variants" || row.label() != "all") continue;
      found = true;
      EXPECT_EQ(row.metrics().at("spades").count(), rounds);
      EXPECT_EQ(row.metrics().at("spades").sum(), spades);
    }
    EXPECT_TRUE(found);
  }
  const v1::GameSummary craits = SummarizeFile(logs_[0], {}, AllGames());
  for (const v1::SeatSummary& seat : craits.seats()) {
    const auto it = seat.metrics().find("crank_length");
    if (it == seat.metrics().end()) continue;
    EXPECT_GE(it->second.sum(), 2 * it->second.count());  // C starts at 2
  }
  // Craits cards drawn, per seat: the sum of the engine's own draw records
  // (CraitsState::last_draws) over the replayed log. An action's (or a
  // deal's starter card's) draws are complete once the next action or deal
  // comes: a reshuffle (CR-9.2) can fall in the middle of them.
  std::vector<int64_t> drawn(craits.seats_size(), 0);
  LogAudit replay(logs_[0], &AllGames(), false);
  int rounds = 0;
  bool pending = false;
  auto take_draws = [&] {
    const auto* state =
        dynamic_cast<const craits::CraitsState*>(replay.state());
    ASSERT_NE(state, nullptr);
    if (pending) {
      for (const craits::DrawRecord& d : state->last_draws()) {
        drawn[d.seat] += d.drawn;
      }
    }
    pending = false;
  };
  for (const std::string& payload : Payloads(logs_[0])) {
    const v1::LogRecord r = ParseRecord(payload);
    const bool deal =
        r.has_chance() && r.chance().kind() == v1::CHANCE_KIND_DEAL;
    if (r.has_action() || deal) take_draws();
    replay.Add(payload, r, 0, false);
    rounds += r.has_round_result();
    if (r.has_action() || deal) pending = true;
  }
  take_draws();
  for (int s = 0; s < craits.seats_size(); ++s) {
    const v1::Moments& m = craits.seats(s).metrics().at("cards_drawn");
    EXPECT_EQ(m.count(), rounds);
    EXPECT_EQ(m.sum(), drawn[s]) << "seat " << s;
    EXPECT_GT(m.sum(), 0);
  }
}

TEST_F(BatchTest, RatingsAndCompareCommands) {
  const CliRun ratings = Analyze("ratings", {*dir_}, Json());
  EXPECT_EQ(ratings.code, kExitNotOk);  // tampered, torn and aborted skipped
  v1::RatingsReportProto report;
  ASSERT_TRUE(
      google::protobuf::util::JsonStringToMessage(ratings.out, &report).ok());
  ASSERT_EQ(report.games_size(), 3);
  for (const v1::GameRatings& g : report.games()) {
    EXPECT_GE(g.players_size(), 3) << g.game();
    for (const v1::PlayerRating& p : g.players()) {
      if (p.has_ci_low() && p.has_ci_high()) {
        EXPECT_LE(p.ci_low(), p.ci_high()) << p.player();
      } else {
        // A missing bound always comes with its reason.
        EXPECT_FALSE(p.ci_note().empty()) << p.player();
      }
    }
  }
  EXPECT_THAT(ratings.out, HasSubstr("\"player\": \"ann@1\""));
  EXPECT_THAT(ratings.out, HasSubstr("\"ci_low\": "));
  // What was left out is said, not dropped in silence: the JSON lists it,
  // the text ends with it, the CSV (rows of ratings only) puts it on stderr.
  EXPECT_EQ(report.logs_rated(), static_cast<int64_t>(logs_.size()));
  ASSERT_EQ(report.skipped_size(), 3);
  for (const v1::FileAudit& f : report.skipped()) EXPECT_NE(f.verdict(), "OK");
  const CliRun ratings_text = Analyze("ratings", {*dir_});
  EXPECT_THAT(ratings_text.out, HasSubstr("\nskipped:\n  "));
  EXPECT_THAT(ratings_text.out, HasSubstr("torn.cardlog"));
  CliOptions csv;
  csv.format = Format::kCsv;
  const CliRun ratings_csv = Analyze("ratings", {*dir_}, csv);
  EXPECT_THAT(ratings_csv.out, Not(HasSubstr("skipped")));
  EXPECT_THAT(ratings_csv.err, HasSubstr("torn.cardlog"));

  CliOptions compare;
  compare.compare.game = "craits";
  compare.compare.elo1 = 25;
  const CliRun text = Analyze("compare", {"ann@1", "ben@1", *dir_}, compare);
  EXPECT_EQ(text.code, kExitNotOk) << text.err;
  EXPECT_THAT(text.out, HasSubstr("craits: ann@1 (A) vs ben@1 (B)\n"));
  EXPECT_THAT(text.out, HasSubstr("SPRT H0: A - B = 0 vs H1: A - B = 25.0 rating "
                                  "points (alpha 0.050"));
  EXPECT_THAT(text.out, HasSubstr("bounds [-2.944, 2.944]"));
  EXPECT_THAT(text.out, HasSubstr("(lower scores are better)"));  // CR-14.1
  // Several games without --game, an unknown player, too few arguments.
  EXPECT_EQ(Analyze("compare", {"ann@1", "ben@1", *dir_}).code, kExitUsage);
  EXPECT_EQ(Analyze("compare", {"ann@1", "zed", *dir_}, compare).code,
            kExitUsage);
  EXPECT_EQ(Analyze("compare", {"ann@1", *dir_}).code, kExitUsage);
}

TEST_F(BatchTest, ProgressLineOnlyWhenAsked) {
  CliOptions options;
  options.jobs = 2;
  const CliRun quiet = Analyze("audit", {*dir_}, options);
  EXPECT_EQ(quiet.err, "");
  options.progress = true;  // what main() sets on a terminal without --quiet
  const CliRun shown = Analyze("audit", {*dir_}, options);
  EXPECT_THAT(shown.err, HasSubstr(absl::StrCat("\r", logs_.size() + 3, "/",
                                                logs_.size() + 3, " files, ")));
  EXPECT_THAT(shown.err, HasSubstr(" files/s, ETA "));
  EXPECT_EQ(shown.out, quiet.out);  // the report is unchanged
}

TEST_F(BatchTest, InputsAreSortedDirectoriesAndGlobs) {
  absl::StatusOr<std::vector<std::string>> files =
      ExpandInputs({*dir_ + "/*.cardlog", logs_[0]});
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_EQ(files->size(), logs_.size() + 3);  // logs_[0] once
  EXPECT_TRUE(std::is_sorted(files->begin(), files->end()));
  EXPECT_FALSE(ExpandInputs({*dir_ + "/*.nothing"}).ok());
  const std::vector<std::string> all = *files;
  std::vector<std::string> union_of_shards;
  for (int i = 1; i <= 3; ++i) {
    for (const std::string& f : SelectShard(all, {i, 3})) {
      union_of_shards.push_back(f);
    }
  }
  std::sort(union_of_shards.begin(), union_of_shards.end());
  EXPECT_EQ(union_of_shards, all);
}

}  // namespace
}  // namespace cardref::analyzer
