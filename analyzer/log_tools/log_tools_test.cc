// cardref_log and its library (analyzer/log_tools): the text replay against
// expected text, the seat view against the cards it must not show, the
// JSON round trip on every golden log, imports of hand-styled JSON, verify
// against the audit's framing check, head, the page's escaping, and the
// binary's exit codes.
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "analyzer/audit.h"
#include "analyzer/cli.h"
#include "analyzer/log_tools/integrity_check.h"
#include "analyzer/log_tools/log_head.h"
#include "analyzer/log_tools/log_html.h"
#include "analyzer/log_tools/log_json.h"
#include "analyzer/log_tools/log_text.h"
#include "analyzer/log_tools/log_verify.h"
#include "analyzer/log_tools/playback.h"
#include "analyzer/testing/test_logs.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "games/all_games.h"
#include "referee/base/hex.h"
#include "referee/record/game_log.h"
#include "referee/record/record_io.h"

namespace cardref::log_tools {
namespace {

namespace testlogs = ::cardref::analyzer::testlogs;

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

const char kGoldenDir[] = CARDREF_GOLDEN_LOG_DIR;
const char kToolsDir[] = CARDREF_LOG_TOOLS_TESTDATA_DIR;
const char kCorruptDir[] = CARDREF_CORRUPT_TESTDATA_DIR;
const char kLogBin[] = CARDREF_LOG_BIN;

// One golden log of each game: their `cat` text is in testdata/log_tools.
const char* const kOnePerGame[] = {"craits_3p_short", "krass_kariert_3p",
                                   "kraken_2rounds"};

std::string Golden(const std::string& name) {
  return absl::StrCat(kGoldenDir, "/", name, ".cardlog");
}

std::vector<std::string> GoldenLogs() {
  std::vector<std::string> logs;
  for (const auto& entry : std::filesystem::directory_iterator(kGoldenDir)) {
    if (entry.path().extension() == ".cardlog") logs.push_back(entry.path());
  }
  std::sort(logs.begin(), logs.end());
  return logs;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs cardref_log with `args` (already quoted as needed).
CliRun RunLog(const std::string& args) {
  CliRun run;
  const std::string err_file = testlogs::MakeTempDir() + "/stderr";
  const std::string command =
      absl::StrCat("'", kLogBin, "' ", args, " 2>'", err_file, "'");
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0)
    run.out.append(buffer, n);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = ReadText(err_file);
  return run;
}

record::GameLog ReadLog(const std::string& path) {
  absl::StatusOr<record::GameLog> log = record::ReadGameLog(path);
  EXPECT_TRUE(log.ok()) << log.status();
  return log.ok() ? *log : record::GameLog{};
}

// --- cat --------------------------------------------------------------------

TEST(CatTest, TextOfOneGoldenLogPerGameIsTheExpectedText) {
  for (const char* name : kOnePerGame) {
    const CliRun run = RunLog(absl::StrCat("cat '", Golden(name), "'"));
    EXPECT_EQ(run.exit_code, 0) << run.err;
    const std::string expected =
        ReadText(absl::StrCat(kToolsDir, "/", name, ".txt"));
    ASSERT_FALSE(expected.empty()) << name;
    EXPECT_EQ(run.out, expected)
        << "cardref_log cat " << name << " differs from testdata/log_tools/"
        << name << ".txt";
  }
  // And one seat's view.
  const CliRun seat =
      RunLog(absl::StrCat("cat --seat=3 '", Golden("kraken_2rounds"), "'"));
  EXPECT_EQ(seat.exit_code, 0) << seat.err;
  EXPECT_EQ(seat.out,
            ReadText(absl::StrCat(kToolsDir, "/kraken_2rounds.seat3.txt")));
}

TEST(CatTest, LibraryAgreesWithTheBinary) {
  const Playback t =
      *BuildPlayback(ReadLog(Golden("krass_kariert_3p")), AllGames(), -1);
  EXPECT_EQ(RenderText(t),
            ReadText(absl::StrCat(kToolsDir, "/krass_kariert_3p.txt")));
}

// Card tokens of the French-suited games ("TS", "8H"); Krass Kariert's
// values repeat, so only the structure of its seat view is checked.
std::set<std::string> CardTokens(const std::string& text) {
  static const std::regex kCard("\\b([2-9TJQKA][CDHS])\\b");
  std::set<std::string> tokens;
  for (std::sregex_iterator it(text.begin(), text.end(), kCard), end; it != end;
       ++it) {
    tokens.insert((*it)[1]);
  }
  return tokens;
}

std::string StepLines(const Step& step) {
  std::string text = step.text;
  for (const std::string& s : step.effects) absl::StrAppend(&text, "\n", s);
  for (const std::string& s : step.details) absl::StrAppend(&text, "\n", s);
  return text;
}

TEST(CatTest, SeatViewShowsNoCardHiddenFromTheSeat) {
  for (const std::string& path : GoldenLogs()) {
    const record::GameLog log = ReadLog(path);
    const Playback full = *BuildPlayback(log, AllGames(), -1);
    const bool unique_cards = full.header.game() != "krass_kariert";
    const int seats = static_cast<int>(full.seat_names.size());
    for (int viewer = 0; viewer < seats; ++viewer) {
      SCOPED_TRACE(absl::StrCat(path, " --seat=", viewer));
      absl::StatusOr<Playback> seen =
          BuildPlayback(log, AllGames(), viewer);
      ASSERT_TRUE(seen.ok()) << seen.status();
      ASSERT_EQ(seen->steps.size(), full.steps.size());
      const std::string text = RenderText(*seen);
      EXPECT_THAT(text, Not(HasSubstr(", deck: ")));   // the full view's deal
      EXPECT_THAT(text, Not(HasSubstr("top first")));  // a reshuffled stock
      int own_cards_shown = 0;
      for (size_t k = 0; k < full.steps.size(); ++k) {
        const Step& step = seen->steps[k];
        SCOPED_TRACE(
            absl::StrCat("record ", step.record_index, ": ", step.text));
        // The table: only the viewer's hand is there.
        for (int s = 0; s < seats; ++s) {
          if (s == viewer) {
            EXPECT_TRUE(step.table.seats[s].hand_visible);
            continue;
          }
          EXPECT_FALSE(step.table.seats[s].hand_visible);
          EXPECT_TRUE(step.table.seats[s].hand.empty());
        }
        // Another seat's refusal may quote its hand: only its kind shows.
        if (step.kind == "rejected" && step.seat != viewer) {
          EXPECT_THAT(step.text, StartsWith("refused a submission of "));
        }
        if (!unique_cards) continue;
        // Words: no card another seat held before or after this record,
        // except the one the record itself makes public (a play), and the
        // hands a round result shows every seat (CR-15.1).
        if (step.kind == "round_result" || step.kind == "final_result")
          continue;
        std::set<std::string> hidden;
        for (const Step* s :
             {&full.steps[k], k > 0 ? &full.steps[k - 1] : &full.steps[k]}) {
          for (int seat = 0; seat < seats; ++seat) {
            if (seat == viewer) continue;
            for (const CardFace& c : s->table.seats[seat].hand)
              hidden.insert(c.Text());
          }
        }
        // Kraken's trump deck is a second deck (KR-1.2) turned face up.
        // What the seat sent itself (a refused submission may name any
        // card, the bots' out-of-turn ones name another seat's) is no leak.
        std::set<std::string> public_now;
        if (step.kind == "action" ||
            (step.kind == "rejected" && step.seat == viewer)) {
          public_now = CardTokens(step.text);
        }
        for (const std::string& effect : step.effects) {
          if (absl::StartsWith(effect, "the trump deck turns ")) {
            for (const std::string& c : CardTokens(effect))
              public_now.insert(c);
          }
        }
        for (const std::string& card : CardTokens(StepLines(step))) {
          if (hidden.count(card) > 0 && public_now.count(card) == 0) {
            ADD_FAILURE() << "seat " << viewer << " is shown " << card
                          << ", held by another seat";
          }
        }
        if (step.kind == "chance") {
          for (const std::string& d : step.details) {
            if (absl::StartsWith(d, seen->seat_names[viewer] + ": ")) {
              own_cards_shown += static_cast<int>(CardTokens(d).size());
            }
          }
        }
      }
      if (unique_cards) {
        EXPECT_GT(own_cards_shown, 0) << "the seat's own deals are not shown";
      }
    }
  }
}

TEST(CatTest, UsageErrorsAndBadLogs) {
  EXPECT_EQ(RunLog("cat").exit_code, 2);
  EXPECT_EQ(
      RunLog(absl::StrCat("cat '", Golden("kraken_2rounds"), "' x")).exit_code,
      2);
  const CliRun bad_seat =
      RunLog(absl::StrCat("cat --seat=4 '", Golden("kraken_2rounds"), "'"));
  EXPECT_EQ(bad_seat.exit_code, 2);
  EXPECT_THAT(bad_seat.err,
              HasSubstr("--seat=4 is not a seat of this game (0..3)"));
  EXPECT_EQ(
      RunLog(absl::StrCat("json --seat=1 '", Golden("kraken_2rounds"), "'"))
          .exit_code,
      2);
  EXPECT_EQ(RunLog("cat /no/such.cardlog").exit_code, 1);
  // No file is read past 256 MiB: an endless one is refused, not read.
  const CliRun endless = RunLog("cat /dev/zero");
  EXPECT_EQ(endless.exit_code, 1);
  EXPECT_THAT(endless.err, HasSubstr("larger than 256 MiB"));
  // A truncated log: the replay up to the damage, then where it stops.
  const std::string bytes = ReadText(Golden("kraken_2rounds"));
  const std::string cut = testlogs::MakeTempDir() + "/cut.cardlog";
  ASSERT_TRUE(testlogs::WriteFile(cut, bytes.substr(0, bytes.size() / 2)).ok());
  const CliRun torn = RunLog(absl::StrCat("cat '", cut, "'"));
  EXPECT_EQ(torn.exit_code, 1);
  EXPECT_THAT(torn.out,
              HasSubstr("replay stopped: incomplete: torn tail at byte "));
}

// --- json / from-json -------------------------------------------------------

TEST(JsonTest, JsonThenFromJsonIsByteIdenticalForEveryGoldenLog) {
  const std::vector<std::string> logs = GoldenLogs();
  ASSERT_GE(logs.size(), 5u);
  std::set<std::string> games;
  for (const std::string& path : logs) {
    SCOPED_TRACE(path);
    const std::string original = ReadText(path);
    // Through the binary: json > FILE.jsonl, from-json FILE.jsonl OUT.
    const std::string dir = testlogs::MakeTempDir();
    const CliRun json = RunLog(absl::StrCat("json '", path, "'"));
    ASSERT_EQ(json.exit_code, 0) << json.err;
    ASSERT_TRUE(testlogs::WriteFile(dir + "/log.jsonl", json.out).ok());
    const CliRun back = RunLog(absl::StrCat("from-json '", dir, "/log.jsonl' '",
                                            dir, "/back.cardlog'"));
    ASSERT_EQ(back.exit_code, 0) << back.err;
    EXPECT_TRUE(ReadText(dir + "/back.cardlog") == original)
        << "json then from-json changed the bytes";
    // One record per line, every line an object.
    const std::vector<std::string> lines =
        absl::StrSplit(json.out, '\n', absl::SkipEmpty());
    EXPECT_EQ(lines.size(), ReadLog(path).records.size());
    for (const std::string& line : lines) EXPECT_THAT(line, StartsWith("{\""));
    games.insert(ReadLog(path).header().game());
  }
  EXPECT_EQ(games,
            (std::set<std::string>{"craits", "kraken", "krass_kariert"}));
}

// Why the round trip works on bytes: the logs hold GameParams' map entries
// in the referee's hash order, and the import keeps the JSON's order.
TEST(JsonTest, MapEntriesKeepTheOrderOfTheJson) {
  const std::string ab =
      R"({"header":{"params":{"values":{"b":{"intValue":"1"},"a":{"boolValue":true}}}}})";
  const std::string ba =
      R"({"header":{"params":{"values":{"a":{"boolValue":true},"b":{"intValue":"1"}}}}})";
  absl::StatusOr<std::string> first = JsonToPayload(ab);
  absl::StatusOr<std::string> second = JsonToPayload(ba);
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_NE(*first, *second);
  EXPECT_LT(first->find('b'), first->find('a'));
  EXPECT_LT(second->find('a'), second->find('b'));
  EXPECT_EQ(*PayloadToJson(*first), ab);
  EXPECT_EQ(*PayloadToJson(*second), ba);
}

TEST(JsonTest, RecordsWithFieldsUnknownToThisBuildAreRefusedNotDropped) {
  v1::LogRecord record;
  record.mutable_aborted()->set_reason("x");
  // Field 99 of LogRecord (varint 1): a newer schema's field.
  const std::string payload = record.SerializeAsString() + "\x98\x06\x01";
  absl::StatusOr<std::string> json = PayloadToJson(payload);
  ASSERT_FALSE(json.ok());
  EXPECT_THAT(std::string(json.status().message()),
              HasSubstr("field #99 is unknown to this build's schema"));
  EXPECT_FALSE(PayloadToJson("\xff\xff").ok());
}

TEST(JsonTest, HandStyledGameOfEachGameImportsAndAuditsOk) {
  for (const char* name : kOnePerGame) {
    SCOPED_TRACE(name);
    const std::string jsonl =
        absl::StrCat(kToolsDir, "/", name, ".handwritten.jsonl");
    // It is not what `json` writes: snake_case names, numbers, sorted keys.
    EXPECT_THAT(ReadText(jsonl), HasSubstr("\"player_name\": "));
    const std::string out = testlogs::MakeTempDir() + "/imported.cardlog";
    const CliRun run =
        RunLog(absl::StrCat("from-json '", jsonl, "' '", out, "'"));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_THAT(run.out, StartsWith(absl::StrCat("wrote ", out, " (")));
    const analyzer::AuditReport report =
        analyzer::AuditFile(out, {}, AllGames());
    EXPECT_EQ(report.verdict, analyzer::Verdict::kOk) << report.Line();
    // The same game as the golden log, stamps aside.
    const record::GameLog imported = ReadLog(out);
    const record::GameLog golden = ReadLog(Golden(name));
    ASSERT_EQ(imported.records.size(), golden.records.size());
    for (size_t i = 0; i < golden.records.size(); ++i) {
      v1::LogRecord expected = golden.records[i];
      expected.clear_unix_micros();
      EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(
          imported.records[i], expected))
          << "record " << i;
    }
  }
}

TEST(JsonTest, MalformedLinesAreReportedWithLineAndField) {
  const std::string good =
      RunLog(absl::StrCat("json '", Golden("kraken_2rounds"), "'")).out;
  const std::vector<std::string> lines = absl::StrSplit(good, '\n');
  const std::string prefix =
      lines[0] + "\n" + lines[1] + "\n\n";  // line 3 blank
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"action":{"seat":"x"}})",
       "line 4: field action.seat: invalid value \"x\" for type TYPE_INT32"},
      {R"({"action":{"seet":1}})", "line 4: field action.seet: unknown field"},
      {R"({"bogus":1})", "line 4: field bogus: unknown field"},
      {R"({"header":{"seats":[{"seat":0,"nick":"x"}]}})",
       "line 4: field header.seats[0].nick: unknown field"},
      {R"({"chance":{"kind":"NOPE"}})",
       "line 4: field chance.kind: invalid value \"NOPE\""},
      {R"({"action":{"action":{"kraken":{"play":{"card":-1}}}}})",
       "line 4: field action.action.kraken.play.card: invalid value -1 for "
       "type TYPE_UINT32"},
      {R"({"action":{"seat":1)", "line 4: Unexpected end of string"},
      {"hello", "line 4: Unexpected token"},
  };
  for (const auto& [bad, message] : cases) {
    SCOPED_TRACE(bad);
    absl::StatusOr<std::vector<std::string>> payloads =
        JsonLinesToPayloads(prefix + bad + "\n" + lines[2] + "\n");
    ASSERT_FALSE(payloads.ok());
    EXPECT_TRUE(absl::IsInvalidArgument(payloads.status()));
    EXPECT_THAT(std::string(payloads.status().message()), StartsWith(message));
    EXPECT_THAT(std::string(payloads.status().message()), Not(HasSubstr("\n")));
  }
  // The binary: exit 1, the message, and no file written.
  const std::string dir = testlogs::MakeTempDir();
  ASSERT_TRUE(testlogs::WriteFile(dir + "/bad.jsonl",
                                  prefix + R"({"action":{"seet":1}})" + "\n")
                  .ok());
  const CliRun run = RunLog(
      absl::StrCat("from-json '", dir, "/bad.jsonl' '", dir, "/out.cardlog'"));
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.err,
              HasSubstr("bad.jsonl: line 4: field action.seet: unknown field"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.cardlog"));
}

TEST(JsonTest, FromJsonNeverOverwritesAndNeedsTwoArguments) {
  const std::string dir = testlogs::MakeTempDir();
  const std::string jsonl =
      absl::StrCat(kToolsDir, "/kraken_2rounds.handwritten.jsonl");
  ASSERT_TRUE(testlogs::WriteFile(dir + "/taken.cardlog", "precious").ok());
  const CliRun run =
      RunLog(absl::StrCat("from-json '", jsonl, "' '", dir, "/taken.cardlog'"));
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(ReadText(dir + "/taken.cardlog"), "precious");
  EXPECT_EQ(RunLog(absl::StrCat("from-json '", jsonl, "'")).exit_code, 2);
}

TEST(JsonTest, AnEmptyFileIsNoLogEitherWay) {
  const std::string dir = testlogs::MakeTempDir();
  ASSERT_TRUE(testlogs::WriteFile(dir + "/empty", "").ok());
  const CliRun json = RunLog(absl::StrCat("json '", dir, "/empty'"));
  EXPECT_EQ(json.exit_code, 1);
  EXPECT_THAT(json.err, HasSubstr("empty file: no header record"));
  const CliRun from = RunLog(
      absl::StrCat("from-json '", dir, "/empty' '", dir, "/out.cardlog'"));
  EXPECT_EQ(from.exit_code, 1);
  EXPECT_THAT(from.err, HasSubstr("no records: a log starts with its header"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.cardlog"));
}

TEST(JsonTest, JsonOfADamagedFileWritesTheIntactRecordsAndFails) {
  const std::string bytes = ReadText(Golden("kraken_2rounds"));
  const std::string cut = testlogs::MakeTempDir() + "/cut.cardlog";
  ASSERT_TRUE(testlogs::WriteFile(cut, bytes.substr(0, bytes.size() - 3)).ok());
  const CliRun run = RunLog(absl::StrCat("json '", cut, "'"));
  EXPECT_EQ(run.exit_code, 1);
  const std::vector<std::string> lines =
      absl::StrSplit(run.out, '\n', absl::SkipEmpty());
  EXPECT_EQ(lines.size(), ReadLog(Golden("kraken_2rounds")).records.size() - 1);
  EXPECT_THAT(run.err, HasSubstr("file ends inside the record at byte "));
}

// The records and fields of the proof of the deal (log.proto: seed
// commitment, hash chain, seed reveal, signature) as they land: shown by
// cat and head, kept byte for byte by json and from-json. The values here
// are placeholders, not a valid chain or signature (verify's checks judge
// those).
TEST(NewRecordKindsTest, ProofOfTheDealFieldsAreShownAndRoundTrip) {
  std::vector<std::string> payloads =
      *testlogs::ReadPayloads(Golden("kraken_2rounds"));
  for (size_t i = 0; i < payloads.size(); ++i) {
    v1::LogRecord r = testlogs::ParseRecord(payloads[i]);
    if (i == 0) {
      r.mutable_header()->set_seed_commitment(std::string(32, '\x5a'));
      r.mutable_header()->set_deal_algorithm("cardref-deal-v1");
      r.mutable_header()->set_referee_public_key(std::string(32, '\x01'));
    } else {
      r.set_prev_hash(std::string(32, static_cast<char>(i)));
    }
    if (i + 1 == payloads.size()) r.set_signature(std::string(64, '\x7f'));
    payloads[i] = testlogs::Serialize(r);
  }
  v1::LogRecord reveal;
  reveal.set_unix_micros(1);
  reveal.set_prev_hash(std::string(32, '\x02'));
  reveal.mutable_seed_reveal()->set_seed(std::string(32, '\xab'));
  payloads.insert(payloads.end() - 1, testlogs::Serialize(reveal));
  const std::string dir = testlogs::MakeTempDir();
  const std::string path = dir + "/proof.cardlog";
  ASSERT_TRUE(testlogs::WriteFile(path, testlogs::Frame(payloads)).ok());

  const CliRun cat = RunLog(absl::StrCat("cat '", path, "'"));
  EXPECT_EQ(cat.exit_code, 0) << cat.err;
  EXPECT_THAT(cat.out, HasSubstr("seed commitment: 5a5a5a5a"));
  EXPECT_THAT(cat.out, HasSubstr(" (cardref-deal-v1)\n"));
  EXPECT_THAT(cat.out, HasSubstr("referee public key: 01010101"));
  EXPECT_THAT(cat.out,
              HasSubstr(absl::StrCat("  ", payloads.size() - 2,
                                     "  dealing seed revealed: abababab")));
  const CliRun head = RunLog(absl::StrCat("head '", path, "'"));
  EXPECT_THAT(head.out, HasSubstr("seed commitment: 5a5a"));
  EXPECT_THAT(head.out, HasSubstr("signature: 64 bytes on the last record\n"));

  const CliRun json = RunLog(absl::StrCat("json '", path, "'"));
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_THAT(json.out, HasSubstr("\"seedReveal\":{\"seed\":\"q6ur"));
  EXPECT_THAT(json.out, HasSubstr("\"signature\":\"f39/"));
  ASSERT_TRUE(testlogs::WriteFile(dir + "/proof.jsonl", json.out).ok());
  const CliRun back = RunLog(absl::StrCat("from-json '", dir, "/proof.jsonl' '",
                                          dir, "/back.cardlog'"));
  ASSERT_EQ(back.exit_code, 0) << back.err;
  EXPECT_TRUE(ReadText(dir + "/back.cardlog") == ReadText(path));
}

// A format 3 log as the referee writes it: json shows what the format
// derives (the wall time, each action's notation), from-json stores it
// derived again, byte for byte, and cat reads like any other log.
TEST(Format3LogTest, JsonShowsDerivedFieldsAndRoundTripsByteForByte) {
  testlogs::RandomMatchOptions options;
  options.game = "krass_kariert";
  options.illegal_per_mille = 30;
  absl::StatusOr<testlogs::PlayedLog> played = testlogs::PlayAndRead(options);
  ASSERT_TRUE(played.ok()) << played.status();
  const std::string dir = testlogs::MakeTempDir();
  const CliRun json = RunLog(absl::StrCat("json '", played->path, "'"));
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_THAT(json.out, HasSubstr("\"formatVersion\":3"));
  EXPECT_THAT(json.out, HasSubstr("\"engineAction\":"));
  EXPECT_THAT(json.out, HasSubstr("\"notation\":\"play "));
  EXPECT_THAT(json.out, HasSubstr("\"microsSincePrevious\":"));
  int lines = 0, with_time = 0;
  for (absl::string_view line : absl::StrSplit(json.out, '\n')) {
    if (line.empty()) continue;
    ++lines;
    with_time += absl::StrContains(line, "\"unixMicros\":");
  }
  EXPECT_EQ(with_time, lines);  // every record shows its wall time
  ASSERT_TRUE(testlogs::WriteFile(dir + "/log.jsonl", json.out).ok());
  const CliRun back = RunLog(absl::StrCat("from-json '", dir, "/log.jsonl' '",
                                          dir, "/back.cardlog'"));
  ASSERT_EQ(back.exit_code, 0) << back.err;
  EXPECT_TRUE(ReadText(dir + "/back.cardlog") == ReadText(played->path));
  const CliRun cat = RunLog(absl::StrCat("cat '", played->path, "'"));
  EXPECT_EQ(cat.exit_code, 0) << cat.err;
  EXPECT_THAT(cat.out, HasSubstr("format_version 3"));
  EXPECT_THAT(cat.out, HasSubstr(": play "));
}

// Rejections the referee counted but did not log, and a rejected action too
// large to store (docs/limits.md): cat words them, json keeps them.
TEST(NewRecordKindsTest, RejectionsNotLoggedAndOversizedActionsAreShown) {
  std::vector<std::string> payloads =
      *testlogs::ReadPayloads(Golden("kraken_2rounds"));
  v1::LogRecord oversized;
  oversized.set_unix_micros(1);
  oversized.mutable_rejected()->set_seat(1);
  oversized.mutable_rejected()->set_oversized_bytes(70000);
  oversized.mutable_rejected()->set_status_code(3);
  oversized.mutable_rejected()->set_message("'action' is 70000 bytes");
  // A code no gRPC status has (a newer or hostile log) stays a number.
  v1::LogRecord unknown_code;
  unknown_code.set_unix_micros(1);
  unknown_code.mutable_rejected()->set_seat(1);
  unknown_code.mutable_rejected()->mutable_action()->set_notation("pass");
  unknown_code.mutable_rejected()->set_status_code(99);
  unknown_code.mutable_rejected()->set_message("from the future");
  v1::LogRecord dropped;
  dropped.set_unix_micros(2);
  dropped.mutable_rejections_not_logged()->set_seat(1);
  dropped.mutable_rejections_not_logged()->set_decision_version(42);
  dropped.mutable_rejections_not_logged()->set_count(992);
  payloads.insert(payloads.end() - 1,
                  {testlogs::Serialize(oversized),
                   testlogs::Serialize(unknown_code),
                   testlogs::Serialize(dropped)});
  const std::string dir = testlogs::MakeTempDir();
  const std::string path = dir + "/dropped.cardlog";
  ASSERT_TRUE(testlogs::WriteFile(path, testlogs::Frame(payloads)).ok());

  const CliRun cat = RunLog(absl::StrCat("cat '", path, "'"));
  EXPECT_EQ(cat.exit_code, 0) << cat.err;
  EXPECT_THAT(cat.out, HasSubstr("an action of 70000 bytes (too large to log) "
                                 "(INVALID_ARGUMENT: 'action' is 70000 bytes)"));
  EXPECT_THAT(cat.out, HasSubstr("\"pass\" (status 99: from the future)"));
  EXPECT_THAT(cat.out, HasSubstr("refused 992 more submissions of "));
  EXPECT_THAT(cat.out, HasSubstr(" at version 42 (counted, not logged"));
  const CliRun json = RunLog(absl::StrCat("json '", path, "'"));
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_THAT(json.out, HasSubstr("\"oversizedBytes\":70000"));
  EXPECT_THAT(json.out,
              HasSubstr("\"rejectionsNotLogged\":{\"seat\":1,"
                        "\"decisionVersion\":\"42\",\"count\":992}"));
}

// --- verify -----------------------------------------------------------------

void ExpectSameFault(const VerifyReport& v, const record::RecordFile& framing) {
  switch (framing.end) {
    case record::FileEnd::kComplete:
      EXPECT_EQ(v.fault, VerifyFault::kNone) << v.Line();
      break;
    case record::FileEnd::kTornTail:
      EXPECT_EQ(v.fault, VerifyFault::kTornTail) << v.Line();
      break;
    case record::FileEnd::kCorrupt:
      EXPECT_EQ(v.fault, VerifyFault::kCorrupt) << v.Line();
      break;
  }
  if (framing.end != record::FileEnd::kComplete) {
    EXPECT_EQ(v.fault_offset, framing.damage_offset);
    EXPECT_EQ(v.message, framing.damage);
  }
  EXPECT_EQ(v.records, static_cast<int64_t>(framing.records.size()));
}

TEST(VerifyTest, SameFirstFaultAsTheAuditsFramingCheckOnTheCorruptSamples) {
  int damaged = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kCorruptDir)) {
    if (entry.path().extension() != ".tfrecord") continue;
    SCOPED_TRACE(entry.path().string());
    const absl::StatusOr<record::RecordFile> framing =
        record::ReadRecordFile(entry.path());
    ASSERT_TRUE(framing.ok());
    ExpectSameFault(VerifyFile(entry.path()), *framing);
    damaged += framing->end != record::FileEnd::kComplete;
  }
  EXPECT_GE(damaged, 8);
}

TEST(VerifyTest, SameFirstFaultAsTheAuditOnTruncatedAndFlippedLogs) {
  const std::string original = ReadText(Golden("krass_kariert_3p"));
  const record::GameLog log = ReadLog(Golden("krass_kariert_3p"));
  const std::set<uint64_t> starts(log.offsets.begin(), log.offsets.end());
  const std::string dir = testlogs::MakeTempDir();
  std::vector<std::string> damaged;
  for (size_t cut = 1; cut < original.size(); cut += 97) {
    if (starts.count(cut) == 0) damaged.push_back(original.substr(0, cut));
  }
  for (size_t at = 0; at < original.size(); at += 89) {
    std::string flipped = original;
    flipped[at] ^= 0x10;
    damaged.push_back(flipped);
  }
  int corrupt = 0, torn = 0;
  for (size_t i = 0; i < damaged.size(); ++i) {
    const std::string path = absl::StrCat(dir, "/damaged", i, ".cardlog");
    ASSERT_TRUE(testlogs::WriteFile(path, damaged[i]).ok());
    const VerifyReport v = VerifyFile(path);
    const analyzer::AuditReport audit =
        analyzer::AuditFile(path, {}, AllGames());
    SCOPED_TRACE(audit.Line());
    ExpectSameFault(v, *record::ReadRecordFile(path));
    ASSERT_FALSE(v.ok()) << "every damage here is in the framing";
    if (v.fault == VerifyFault::kCorrupt) {
      EXPECT_EQ(audit.verdict, analyzer::Verdict::kCorrupt);
      ++corrupt;
    } else {
      EXPECT_EQ(v.fault, VerifyFault::kTornTail);
      EXPECT_EQ(audit.verdict, analyzer::Verdict::kIncomplete);
      ++torn;
    }
    EXPECT_THAT(audit.message, HasSubstr(v.message));
    EXPECT_THAT(audit.message,
                HasSubstr(absl::StrCat("at byte ", v.fault_offset)));
  }
  EXPECT_GT(corrupt, 10);
  EXPECT_GT(torn, 10);
}

// Collects what verify hands to a check; refuses record `refuse`.
class CollectingCheck : public RecordCheck {
 public:
  explicit CollectingCheck(int64_t refuse = -1) : refuse_(refuse) {}
  absl::Status Add(int64_t index, uint64_t offset,
                   absl::string_view payload) override {
    if (index == refuse_) return absl::DataLossError("refused on purpose");
    seen.push_back({offset, std::string(payload), false});
    return absl::OkStatus();
  }
  absl::Status Finish() override {
    finished = true;
    return absl::OkStatus();
  }
  std::vector<record::Record> seen;
  bool finished = false;

 private:
  int64_t refuse_;
};

TEST(VerifyTest, ChecksSeeEveryRawPayloadWithItsOffset) {
  const std::string path = Golden("kraken_2rounds");
  const record::RecordFile framing = *record::ReadRecordFile(path);
  CollectingCheck all;
  const VerifyReport ok = VerifyFile(path, {&all});
  EXPECT_TRUE(ok.ok()) << ok.Line();
  EXPECT_TRUE(all.finished);
  ASSERT_EQ(all.seen.size(), framing.records.size());
  for (size_t i = 0; i < all.seen.size(); ++i) {
    EXPECT_EQ(all.seen[i].offset, framing.records[i].offset);
    EXPECT_EQ(all.seen[i].payload, framing.records[i].payload);
  }
  CollectingCheck refusing(5);
  const VerifyReport refused = VerifyFile(path, {&refusing});
  EXPECT_EQ(refused.fault, VerifyFault::kCheck);
  EXPECT_EQ(refused.fault_offset, framing.records[5].offset);
  EXPECT_EQ(refused.records, 5);
  EXPECT_FALSE(refusing.finished);
  EXPECT_THAT(refused.Line(), HasSubstr(absl::StrCat(
                                  "CHECK ", path, ": record 5 at byte ",
                                  framing.records[5].offset,
                                  ": refused on purpose (5 intact records)")));
}

// Signed logs (format 2): verify checks the hash chain, the signature and
// the seed without a replay, and reports the first changed record exactly
// where the audit's integrity check does.
TEST(VerifyTest, ChangedBytesOfASignedLogAreFoundAtTheAuditsRecord) {
  testlogs::RandomMatchOptions options;
  options.params = testlogs::CraitsParams(2, true);
  options.illegal_per_mille = 30;
  absl::StatusOr<testlogs::PlayedLog> played = testlogs::PlayAndRead(options);
  ASSERT_TRUE(played.ok()) << played.status();
  const VerifyReport honest = VerifyFileIntegrity(played->path, {});
  EXPECT_TRUE(honest.ok()) << honest.Line();
  EXPECT_THAT(honest.Line(), HasSubstr(", signed)"));
  analyzer::IntegrityOptions trusted;
  trusted.trusted_public_key = testlogs::TestSigningKey()->public_key();
  EXPECT_THAT(VerifyFileIntegrity(played->path, trusted).Line(),
              HasSubstr("signed by the trusted key)"));
  analyzer::IntegrityOptions other;
  other.trusted_public_key = std::string(32, '\x07');
  EXPECT_EQ(VerifyFileIntegrity(played->path, other).fault,
            VerifyFault::kTampered);

  // One byte changed in each of several records (CRCs made right again):
  // a name, a timing, a refused submission, the last record.
  const std::string dir = testlogs::MakeTempDir();
  const size_t n = played->payloads.size();
  int flipped = 0;
  for (size_t k : {size_t{0}, size_t{1}, n / 3, n / 2, n - 2, n - 1}) {
    for (size_t at : {size_t{2}, played->payloads[k].size() - 1}) {
      std::vector<std::string> payloads = played->payloads;
      payloads[k][at] ^= 0x01;
      const std::string path =
          absl::StrCat(dir, "/flip_", k, "_", at, ".cardlog");
      ASSERT_TRUE(testlogs::WriteFile(path, testlogs::Frame(payloads)).ok());
      const VerifyReport report = VerifyFileIntegrity(path, {});
      const analyzer::AuditReport audit =
          analyzer::AuditFile(path, {}, AllGames());
      SCOPED_TRACE(report.Line());
      EXPECT_FALSE(report.ok());
      EXPECT_NE(audit.verdict, analyzer::Verdict::kOk);
      if (report.fault == VerifyFault::kTampered) {
        ++flipped;
        ASSERT_TRUE(audit.integrity_finding.has_value());
        EXPECT_EQ(report.fault_offset, audit.integrity_finding->byte_offset);
        EXPECT_THAT(report.Line(),
                    HasSubstr(absl::StrCat(
                        "record ", audit.integrity_finding->record_index,
                        " at byte ")));
      }
    }
  }
  EXPECT_GE(flipped, 8);  // the rest no longer parse as records (CHECK)
  const CliRun cli = RunLog(absl::StrCat("verify --referee_key=",
                                         std::string(64, '0'), " '",
                                         played->path, "'"));
  EXPECT_EQ(cli.exit_code, 1);
  EXPECT_THAT(cli.out, StartsWith("TAMPERED "));
}

// A signed log cut at a record boundary has intact framing and an intact
// chain, but not the signed last record that covers it: verify must not
// call it OK or "signed", with or without a trusted key, and says
// INCOMPLETE as the audit does.
TEST(VerifyTest, ASignedLogCutShortIsIncompleteNeverSigned) {
  testlogs::RandomMatchOptions options;
  options.params = testlogs::CraitsParams(2, true);
  absl::StatusOr<testlogs::PlayedLog> played = testlogs::PlayAndRead(options);
  ASSERT_TRUE(played.ok()) << played.status();
  const std::string original = ReadText(played->path);
  const record::RecordFile framing = *record::ReadRecordFile(played->path);
  ASSERT_GT(framing.records.size(), 20u);
  analyzer::IntegrityOptions trusted;
  trusted.trusted_public_key = testlogs::TestSigningKey()->public_key();
  const std::string dir = testlogs::MakeTempDir();
  // Every cut at a record start, the header alone and all but the last.
  std::vector<size_t> keep = {1, 10, framing.records.size() - 1};
  for (size_t k = 2; k + 1 < framing.records.size(); k += 7) keep.push_back(k);
  for (size_t k : keep) {
    const uint64_t end = framing.records[k].offset;
    const std::string path = absl::StrCat(dir, "/cut_", k, ".cardlog");
    ASSERT_TRUE(testlogs::WriteFile(path, original.substr(0, end)).ok());
    for (const analyzer::IntegrityOptions& integrity :
         {analyzer::IntegrityOptions{}, trusted}) {
      const VerifyReport report = VerifyFileIntegrity(path, integrity);
      SCOPED_TRACE(report.Line());
      EXPECT_EQ(report.fault, VerifyFault::kIncomplete);
      EXPECT_EQ(report.records, static_cast<int64_t>(k));
      EXPECT_EQ(report.fault_offset, end);  // where the end is missing
      EXPECT_THAT(report.Line(),
                  StartsWith(absl::StrCat("INCOMPLETE ", path, ": ")));
      EXPECT_THAT(report.Line(),
                  HasSubstr(absl::StrCat("the file ends cleanly after record ",
                                         k - 1, " at byte ",
                                         framing.records[k - 1].offset)));
      EXPECT_THAT(report.Line(), HasSubstr("no signed last record"));
      EXPECT_THAT(report.Line(), Not(HasSubstr(" signed)")));
      EXPECT_THAT(report.Line(), Not(HasSubstr("signed by")));
    }
    const analyzer::AuditReport audit =
        analyzer::AuditFile(path, {}, AllGames());
    EXPECT_EQ(audit.verdict, analyzer::Verdict::kIncomplete);
    EXPECT_EQ(audit.integrity, "no signed last record");
  }
  // The binary: a fault line and exit 1, with the key and without.
  const std::string cut = absl::StrCat(dir, "/cut_10.cardlog");
  const CliRun keyed = RunLog(absl::StrCat(
      "verify --referee_key=", ToHex(trusted.trusted_public_key), " '", cut,
      "' '", played->path, "'"));
  EXPECT_EQ(keyed.exit_code, 1) << keyed.out;
  EXPECT_THAT(keyed.out, StartsWith(absl::StrCat("INCOMPLETE ", cut, ": ")));
  EXPECT_THAT(keyed.out, HasSubstr(absl::StrCat(
                             "OK ", played->path, " (", framing.records.size(),
                             " records, ", original.size(),
                             " bytes, signed by the trusted key)\n")));
  const CliRun plain = RunLog(absl::StrCat("verify '", cut, "'"));
  EXPECT_EQ(plain.exit_code, 1) << plain.out;
  EXPECT_THAT(plain.out, StartsWith(absl::StrCat("INCOMPLETE ", cut, ": ")));
  EXPECT_THAT(plain.out, Not(HasSubstr(" signed)")));

  // An empty file is no log either (the audit: "empty file: no header").
  const std::string empty = absl::StrCat(dir, "/empty.cardlog");
  ASSERT_TRUE(testlogs::WriteFile(empty, "").ok());
  const VerifyReport none = VerifyFileIntegrity(empty, trusted);
  EXPECT_EQ(none.fault, VerifyFault::kIncomplete) << none.Line();
  EXPECT_THAT(none.Line(), HasSubstr("empty file: no header"));
}

// An unsigned (format 1) log cut short is INCOMPLETE too: the audit's verdict.
TEST(VerifyTest, AnUnsignedLogCutShortIsIncomplete) {
  const std::string original = ReadText(Golden("kraken_2rounds"));
  const record::RecordFile framing =
      *record::ReadRecordFile(Golden("kraken_2rounds"));
  const std::string path = testlogs::MakeTempDir() + "/cut.cardlog";
  ASSERT_TRUE(
      testlogs::WriteFile(path, original.substr(0, framing.records[50].offset))
          .ok());
  const VerifyReport report = VerifyFileIntegrity(path, {});
  EXPECT_EQ(report.fault, VerifyFault::kIncomplete) << report.Line();
  EXPECT_THAT(report.Line(),
              HasSubstr("no final result: the file ends cleanly after record "
                        "49 at byte "));
  EXPECT_THAT(report.Line(), HasSubstr("(50 intact records)"));
}

TEST(VerifyTest, BinaryPrintsOneLinePerFileAndExitsZeroIffAllOk) {
  const CliRun good = RunLog(absl::StrCat("verify '", kGoldenDir, "'"));
  EXPECT_EQ(good.exit_code, 0) << good.err;
  std::string expected;
  for (const std::string& path : GoldenLogs()) {
    expected += VerifyFileIntegrity(path, {}).Line() + "\n";
  }
  EXPECT_EQ(good.out, expected);
  EXPECT_THAT(good.out, StartsWith("OK "));
  const std::string torn = absl::StrCat(kCorruptDir, "/torn_payload.tfrecord");
  const CliRun mixed = RunLog(
      absl::StrCat("verify '", Golden("kraken_2rounds"), "' '", torn, "'"));
  EXPECT_EQ(mixed.exit_code, 1);
  EXPECT_THAT(
      mixed.out,
      HasSubstr(absl::StrCat(
          "TORN ", torn,
          ": file ends inside the record at byte 21 (length 5 needs 21 bytes, "
          "14 present) (1 intact records)")));
  EXPECT_EQ(RunLog("verify").exit_code, 2);
  EXPECT_THAT(RunLog("verify /no/such.cardlog").out,
              StartsWith("UNREADABLE /no/such.cardlog: "));
}

// --- head -------------------------------------------------------------------

TEST(HeadTest, HeaderAndResult) {
  const std::string path = Golden("kraken_2rounds");
  const CliRun run = RunLog(absl::StrCat("head '", path, "'"));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const record::GameLog log = ReadLog(path);
  const v1::FinalResult& result = log.records.back().final_result();
  EXPECT_THAT(run.out,
              StartsWith("game: kraken (rules_version 1, format_version 1)\n"));
  EXPECT_THAT(run.out,
              HasSubstr("  3 </script><b>mallory</b> & \"co\" (version 1)\n"));
  EXPECT_THAT(run.out,
              HasSubstr("parameters: deal_pattern=3-2-3, first_dealer=0, "));
  EXPECT_THAT(run.out, HasSubstr(absl::StrCat("records: ", log.records.size(),
                                              " intact, file complete\n")));
  EXPECT_THAT(run.out, HasSubstr(absl::StrCat(
                           "result: heidi ", result.scores(0), " (rank ",
                           result.ranks(0), "), ivan ", result.scores(1))));
  EXPECT_THAT(run.out, HasSubstr("winners: heidi, judy\n"));
  // An unfinished log has a header and no result.
  const std::string bytes = ReadText(path);
  absl::StatusOr<std::string> cut = HeadText(bytes.substr(0, bytes.size() / 2));
  ASSERT_TRUE(cut.ok()) << cut.status();
  EXPECT_THAT(
      *cut, HasSubstr("file torn tail: file ends inside the record at byte "));
  EXPECT_THAT(*cut, HasSubstr("result: none (the game did not finish)\n"));
  EXPECT_FALSE(HeadText("").ok());
  EXPECT_EQ(
      RunLog(absl::StrCat("head '", kCorruptDir, "/hello_world.tfrecord'"))
          .exit_code,
      1);
}

// An old log whose names a referee now refuses (docs/bots.md, "Names"):
// `cat` and `head` print them escaped, so a right-to-left override cannot
// reorder the terminal, an invisible character shows, and a look-alike of
// another script shows as the code point it is.
TEST(HeadTest, NamesThatSpoofArePrintedEscaped) {
  absl::StatusOr<std::vector<std::string>> payloads =
      testlogs::ReadPayloads(Golden("kraken_2rounds"));
  ASSERT_TRUE(payloads.ok()) << payloads.status();
  ASSERT_EQ(testlogs::TamperRecord(
                &*payloads, testlogs::Pick::kFirst,
                [](const v1::LogRecord& r) { return r.has_header(); },
                [](v1::LogRecord& r) {
                  v1::LogHeader& h = *r.mutable_header();
                  h.mutable_seats(0)->set_player_name(
                      "bob\xe2\x80\xae" "fdp.exe");  // U+202E
                  h.mutable_seats(1)->set_player_name(
                      "ali\xe2\x80\x8b" "ce");  // U+200B
                  h.mutable_seats(2)->set_player_name(
                      "p\xd0\xb0ypal");  // a Cyrillic U+0430
                  h.mutable_seats(2)->set_player_version(
                      "2\xe2\x81\xa6" "0");  // U+2066
                  h.mutable_seats(3)->set_player_name("back\\slash\x1b[31m");
                }),
            0);
  const std::string path = testlogs::MakeTempDir() + "/spoof.cardlog";
  ASSERT_TRUE(testlogs::WriteFile(path, testlogs::Frame(*payloads)).ok());
  for (const char* command : {"head", "cat"}) {
    SCOPED_TRACE(command);
    const CliRun run = RunLog(absl::StrCat(command, " '", path, "'"));
    EXPECT_EQ(run.exit_code, 0) << run.err;
    for (const char* raw : {"\xe2\x80\xae", "\xe2\x80\x8b", "\xe2\x81\xa6",
                            "\xd0\xb0", "\x1b"}) {
      EXPECT_EQ(run.out.find(raw), std::string::npos)
          << "raw bytes " << absl::CHexEscape(raw) << " printed";
    }
    EXPECT_THAT(run.out, HasSubstr("bob\\u202efdp.exe"));
    EXPECT_THAT(run.out, HasSubstr("ali\\u200bce"));
    EXPECT_THAT(run.out, HasSubstr("p\\u0430ypal"));
    EXPECT_THAT(run.out, HasSubstr("back\\\\slash\\x1b[31m"));
  }
  const CliRun head = RunLog(absl::StrCat("head '", path, "'"));
  EXPECT_THAT(head.out, HasSubstr("  0 bob\\u202efdp.exe (version 1)\n"));
  EXPECT_THAT(head.out, HasSubstr("  2 p\\u0430ypal (version 2\\u20660)\n"));
  EXPECT_THAT(head.out, HasSubstr("result: bob\\u202efdp.exe "));
  // Names of one script stay as they are; one of two scripts shows every
  // character outside ASCII as its code point.
  const std::string alisa = "\xd0\x90\xd0\xbb\xd0\xb8\xd1\x81\xd0\xb0";
  EXPECT_EQ(DisplayName(alisa), alisa);
  EXPECT_EQ(DisplayName("Zo\xc3\xab"), "Zo\xc3\xab");
  EXPECT_EQ(DisplayName("Zo\xc3\xab " + alisa),
            "Zo\\u00eb \\u0410\\u043b\\u0438\\u0441\\u0430");
  EXPECT_EQ(DisplayName("a\xf0\x9f\x83\x8f\xce\xb1"), "a\\U0001f0cf\\u03b1");
}

// The header's clock and fault policy, by their log.proto field names; a
// log of a referee before fault policies says it has none.
TEST(HeadTest, TheClockAndFaultPolicyAreShown) {
  const CliRun old = RunLog(absl::StrCat("head '", Golden("kraken_2rounds"), "'"));
  EXPECT_THAT(old.out, HasSubstr("\nfault policy: not recorded (a referee "
                                 "before fault policies: no time bank, every "
                                 "timeout substituted)\n"));
  std::vector<std::string> payloads =
      *testlogs::ReadPayloads(Golden("kraken_2rounds"));
  v1::LogRecord header = testlogs::ParseRecord(payloads[0]);
  header.mutable_header()->mutable_clock()->set_decision_limit_millis(5000);
  header.mutable_header()->mutable_clock()->set_bank_millis(30000);
  v1::FaultPolicy& policy = *header.mutable_header()->mutable_fault_policy();
  policy.set_action(v1::FAULT_ACTION_FORFEIT);
  policy.set_disconnect_is_timeout(true);
  policy.set_disconnect_grace_millis(2000);
  policy.set_join_deadline_millis(60000);
  policy.set_max_consecutive_timeouts(3);
  policy.set_max_rejections_per_decision(5);
  payloads[0] = testlogs::Serialize(header);
  const std::string path = testlogs::MakeTempDir() + "/policy.cardlog";
  ASSERT_TRUE(testlogs::WriteFile(path, testlogs::Frame(payloads)).ok());
  const std::string expected =
      "time bank: 30000 ms\n"
      "fault policy: action=FORFEIT, disconnect_grace_millis=2000, "
      "disconnect_is_timeout=true, join_deadline_millis=60000, "
      "max_consecutive_timeouts=3, max_rejections_per_decision=5\n";
  for (const char* command : {"head", "cat"}) {
    const CliRun run = RunLog(absl::StrCat(command, " '", path, "'"));
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_THAT(run.out, HasSubstr(expected)) << command;
  }
  // An unset action is SUBSTITUTE (log.proto, FaultAction).
  policy.set_action(v1::FAULT_ACTION_UNSPECIFIED);
  payloads[0] = testlogs::Serialize(header);
  ASSERT_TRUE(testlogs::WriteFile(path, testlogs::Frame(payloads)).ok());
  EXPECT_THAT(RunLog(absl::StrCat("head '", path, "'")).out,
              HasSubstr("fault policy: action=SUBSTITUTE, "));
}

// --- html -------------------------------------------------------------------

TEST(HtmlTest, PageIsSelfContainedAndNamesCannotBreakOutOfTheData) {
  const std::string page = testlogs::MakeTempDir() + "/page.html";
  const CliRun run = RunLog(
      absl::StrCat("html '", Golden("kraken_2rounds"), "' -o '", page, "'"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string html = ReadText(page);
  EXPECT_THAT(html, StartsWith("<!DOCTYPE html>"));
  // Two script elements (data, code) and nothing else closes one: the
  // hostile name "</script><b>mallory</b> & ..." stays inside the JSON.
  size_t closes = 0;
  for (size_t at = html.find("</script>"); at != std::string::npos;
       at = html.find("</script>", at + 1)) {
    ++closes;
  }
  EXPECT_EQ(closes, 2u);
  EXPECT_THAT(html, HasSubstr("\\u003c/script\\u003e\\u003cb\\u003emallory"));
  EXPECT_THAT(html, Not(HasSubstr("<b>mallory")));
  // Nothing is loaded from anywhere: no URLs, sources or imports.
  for (const char* ref :
       {"http:", "https:", "src=", "href=", "url(", "@import", "innerHTML"}) {
    EXPECT_THAT(html, Not(HasSubstr(ref))) << ref;
  }
  EXPECT_THAT(html, HasSubstr("default-src 'none'"));
  // The data holds every step, and the last one is the final result.
  const Playback t =
      *BuildPlayback(ReadLog(Golden("kraken_2rounds")), AllGames(), -1);
  EXPECT_THAT(html, HasSubstr(PlaybackJson(t)));
  EXPECT_THAT(t.steps.back().text, StartsWith("final result: "));
  EXPECT_EQ(HtmlEscape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
}

TEST(HtmlTest, UsageErrors) {
  EXPECT_EQ(
      RunLog(absl::StrCat("html '", Golden("kraken_2rounds"), "'")).exit_code,
      2);
  EXPECT_EQ(
      RunLog(absl::StrCat("cat -o x.html '", Golden("kraken_2rounds"), "'"))
          .exit_code,
      2);
  // A page that cannot be written says why.
  const CliRun unwritable = RunLog(absl::StrCat(
      "html '", Golden("kraken_2rounds"), "' -o /no/such/dir/page.html"));
  EXPECT_EQ(unwritable.exit_code, 1);
  EXPECT_THAT(unwritable.err,
              HasSubstr("cannot write /no/such/dir/page.html: No such file"));
}

// --- the binary -------------------------------------------------------------

TEST(CliTest, HelpPerSubcommandVersionAndUsageErrors) {
  const std::vector<std::pair<std::string, std::string>> commands = {
      {"cat", "cardref_log cat [--seat=N] FILE"},
      {"json", "cardref_log json FILE"},
      {"from-json", "cardref_log from-json FILE.jsonl OUT"},
      {"verify", "cardref_log verify [--referee_key=HEX|FILE] FILE|DIR..."},
      {"head", "cardref_log head FILE"},
      {"html", "cardref_log html [--seat=N] FILE -o PAGE.html"}};
  for (const auto& [command, usage] : commands) {
    const CliRun help = RunLog(command + " --help");
    EXPECT_EQ(help.exit_code, 0) << command;
    EXPECT_THAT(help.out, HasSubstr(usage));
    for (const auto& [other, other_usage] : commands) {
      if (other != command) {
        EXPECT_THAT(help.out, Not(HasSubstr(other_usage)));
      }
    }
  }
  const CliRun help = RunLog("--help");
  EXPECT_EQ(help.exit_code, 0);
  for (const auto& [command, usage] : commands)
    EXPECT_THAT(help.out, HasSubstr(usage));
  const CliRun version = RunLog("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out, "cardref_log 0.1.0\n");
  EXPECT_EQ(RunLog("").exit_code, 2);
  EXPECT_EQ(RunLog("frobnicate x").exit_code, 2);
  EXPECT_EQ(RunLog("cat --no_such_flag x").exit_code, 2);
}

}  // namespace
}  // namespace cardref::log_tools
