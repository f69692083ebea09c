// Game logs of every game (default parameters, written by the referee's
// service layer while random bots play: analyzer/testing/test_logs.h): writing them
// (GameLogWriter into memory: framing, hash chain, signature), reading them
// (framing plus parse, the floor any audit stands on), and auditing them
// (AuditFile) next to that floor on the same files, re-deriving a deck
// order from a seed (what an audit does for each deal), and the referee's
// two log file sinks under each sync policy (BM_LogSink). Built by default,
// not run by ctest; figures in BENCHMARKS.md.
//
//   build/tests/log_benchmark [--benchmark_filter=Audit]
//
// Counters: records/s and bytes/s; BM_Audit also has parse_MBps (framing
// plus parse of the same files, timed in the same run) and
// audit_vs_parse = audit speed / parse speed (1 = as fast as parsing).
// BM_AuditFloor times, beside the same parse, what every audit must spend
// on top of it (hash chain, signature, deals, engine): floor_vs_parse is the
// best audit_vs_parse any audit that checks those could reach.
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/audit.h"
#include "analyzer/testing/test_logs.h"
#include "benchmark/benchmark.h"
#include "cardref/v1/log.pb.h"
#include "absl/types/span.h"
#include "referee/base/deal_stream.h"
#include "referee/base/ed25519.h"
#include "referee/base/sha256.h"
#include "referee/codec/codec.h"
#include "games/all_games.h"
#include "games/api/game.h"
#include "referee/record/game_log.h"
#include "referee/record/record_io.h"
#include "referee/record/record_stream.h"

namespace cardref::analyzer {
namespace {

constexpr int kLogsPerGame = 8;

struct GameLogs {
  std::vector<std::string> paths;
  std::vector<std::vector<std::string>> payloads;  // per log
  int64_t records = 0;
  int64_t bytes = 0;  // file bytes, framing included
};

std::map<std::string, GameLogs>* LogCache() {
  static auto* cache = new std::map<std::string, GameLogs>;
  return cache;
}

// kLogsPerGame complete games of `game` (seeds 1..), played once per run.
const GameLogs& LogsOf(const std::string& game) {
  std::map<std::string, GameLogs>* cache = LogCache();
  auto [it, inserted] = cache->try_emplace(game);
  if (!inserted) return it->second;
  GameLogs& logs = it->second;
  for (int i = 1; i <= kLogsPerGame; ++i) {
    testlogs::RandomMatchOptions options;
    options.game = game;
    options.dealing_seed = static_cast<uint64_t>(i);
    options.bot_seed = static_cast<uint64_t>(i);
    absl::StatusOr<testlogs::PlayedLog> played = testlogs::PlayAndRead(options);
    if (!played.ok()) continue;
    logs.records += static_cast<int64_t>(played->payloads.size());
    std::error_code error;  // the file's bytes, in whatever framing
    logs.bytes +=
        static_cast<int64_t>(std::filesystem::file_size(played->path, error));
    logs.paths.push_back(played->path);
    logs.payloads.push_back(std::move(played->payloads));
  }
  return logs;
}

double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Framing plus parse of every record of `path`; returns the records.
int64_t ReadAndParse(const std::string& path) {
  absl::StatusOr<std::unique_ptr<record::RecordStream>> stream =
      record::RecordStream::Open(path);
  if (!stream.ok()) return -1;
  absl::string_view payload;
  uint64_t offset = 0;
  v1::LogRecord record;
  int64_t n = 0;
  while ((*stream)->Next(&payload, &offset)) {
    record.Clear();
    if (!record.ParseFromArray(payload.data(),
                               static_cast<int>(payload.size()))) {
      return -1;
    }
    ++n;
  }
  return n;
}

void SetRates(benchmark::State& bench, const GameLogs& logs) {
  bench.SetItemsProcessed(bench.iterations() * logs.records);
  bench.SetBytesProcessed(bench.iterations() * logs.bytes);
  bench.counters["records"] = benchmark::Counter(
      static_cast<double>(bench.iterations() * logs.records),
      benchmark::Counter::kIsRate);
}

void BM_LogWrite(benchmark::State& bench, const std::string& game) {
  const GameLogs& logs = LogsOf(game);
  if (logs.paths.empty()) {
    bench.SkipWithError("no log could be played");
    return;
  }
  // Parsed once: the benchmark writes records, it does not parse them.
  std::vector<std::vector<v1::LogRecord>> records(logs.payloads.size());
  for (size_t i = 0; i < logs.payloads.size(); ++i) {
    for (const std::string& p : logs.payloads[i]) {
      records[i].push_back(testlogs::ParseRecord(p));
    }
  }
  const auto key = testlogs::TestSigningKey();
  std::string out;
  for (auto _ : bench) {
    for (const auto& log : records) {
      out.clear();
      record::GameLogWriter writer(record::NewStringSink(&out), key);
      for (const v1::LogRecord& r : log) {
        if (!writer.Write(r).ok()) bench.SkipWithError("write failed");
      }
      benchmark::DoNotOptimize(out.data());
    }
  }
  SetRates(bench, logs);
}

void BM_LogRead(benchmark::State& bench, const std::string& game) {
  const GameLogs& logs = LogsOf(game);
  if (logs.paths.empty()) {
    bench.SkipWithError("no log could be played");
    return;
  }
  for (auto _ : bench) {
    for (const std::string& path : logs.paths) {
      if (ReadAndParse(path) < 0) bench.SkipWithError("a log does not read");
    }
  }
  SetRates(bench, logs);
}

// The audit of every file, then (timed apart, on this thread's CPU clock)
// framing plus parse of the same files as many times: the ratio of the two
// speeds is the target (at least 0.5).
void BM_Audit(benchmark::State& bench, const std::string& game) {
  const GameLogs& logs = LogsOf(game);
  if (logs.paths.empty()) {
    bench.SkipWithError("no log could be played");
    return;
  }
  const GameRegistry& registry = AllGames();
  AuditOptions options;
  double audit_cpu = 0;
  for (auto _ : bench) {
    const double start = ThreadCpuSeconds();
    for (const std::string& path : logs.paths) {
      if (!AuditFile(path, options, registry).ok()) {
        bench.SkipWithError("a log does not audit OK");
      }
    }
    audit_cpu += ThreadCpuSeconds() - start;
  }
  const double start = ThreadCpuSeconds();
  for (int64_t i = 0; i < bench.iterations(); ++i) {
    for (const std::string& path : logs.paths) ReadAndParse(path);
  }
  const double parse_cpu = ThreadCpuSeconds() - start;
  SetRates(bench, logs);
  const double mb = static_cast<double>(bench.iterations() * logs.bytes) / 1e6;
  bench.counters["audit_MBps"] = mb / audit_cpu;
  bench.counters["parse_MBps"] = mb / parse_cpu;
  bench.counters["audit_vs_parse"] = parse_cpu / audit_cpu;
}

// What any audit of these logs must spend beyond framing plus parse,
// measured in the same run as the parse: the SHA-256 of every
// payload byte (the hash chain the signature covers), the Ed25519 check of
// the last record's signature, re-deriving every deck order from the
// revealed seed, and the engine applying every recorded chance event and
// action with no check at all. Each is a lower bound of its part of the
// audit, so floor_vs_parse = parse / (parse + all four) bounds what an
// audit that checks what it must can reach against the 0.5.
struct FloorInputs {
  std::vector<std::vector<v1::LogRecord>> records;  // per log, parsed once
  std::vector<std::unique_ptr<Game>> games;
};

void ReplayEngine(const Game& game, const std::vector<v1::LogRecord>& log) {
  std::unique_ptr<State> state = game.NewInitialState();
  std::vector<Card> order;
  for (const v1::LogRecord& r : log) {
    if (r.has_chance()) {
      order.assign(r.chance().cards().begin(), r.chance().cards().end());
      if (!state->ApplyChance(state->chance_kind(), order).ok()) std::abort();
    } else if (r.has_action()) {
      state->ApplyLegalAction(r.action().engine_action());
    }
  }
  benchmark::DoNotOptimize(state->IsTerminal());
}

void DeriveDeals(const std::vector<v1::LogRecord>& log) {
  std::string seed;
  for (const v1::LogRecord& r : log) {
    if (r.has_seed_reveal()) seed = r.seed_reveal().seed();
  }
  if (seed.size() != kDealSeedSize) std::abort();
  uint32_t round = 0;
  std::map<int, uint32_t> ordinals;
  std::vector<uint32_t> cards;
  for (const v1::LogRecord& r : log) {
    if (r.has_round_result()) {
      ++round;
      ordinals.clear();
    }
    if (!r.has_chance()) continue;
    const auto kind = static_cast<uint32_t>(r.chance().kind());
    cards.assign(r.chance().cards().begin(), r.chance().cards().end());
    DeriveDealOrder(seed, ChanceLabel{kind, round, ordinals[kind]++},
                    absl::MakeSpan(cards));
    benchmark::DoNotOptimize(cards.data());
  }
}

void VerifySignature(const v1::LogRecord& header, const std::string& last) {
  absl::string_view prefix, signature;
  if (!record::SplitSignature(last, &prefix, &signature)) std::abort();
  if (!crypto::VerifyEd25519(header.header().referee_public_key(),
                             record::SignedMessage(prefix), signature)
           .ok()) {
    std::abort();
  }
}

void BM_AuditFloor(benchmark::State& bench, const std::string& game) {
  const GameLogs& logs = LogsOf(game);
  if (logs.paths.empty()) {
    bench.SkipWithError("no log could be played");
    return;
  }
  FloorInputs in;
  for (const std::vector<std::string>& payloads : logs.payloads) {
    std::vector<v1::LogRecord>& parsed = in.records.emplace_back();
    for (const std::string& p : payloads) {
      parsed.push_back(testlogs::ParseRecord(p));
    }
    absl::StatusOr<std::unique_ptr<Game>> made = AllGames().Create(
        game, codec::ParamsFromProto(parsed.front().header().params()));
    if (!made.ok()) std::abort();
    in.games.push_back(std::move(*made));
  }
  double parse = 0, chain = 0, signature = 0, deals = 0, engine = 0;
  for (auto _ : bench) {
    double t = ThreadCpuSeconds();
    for (const std::string& path : logs.paths) ReadAndParse(path);
    double now = ThreadCpuSeconds();
    parse += now - t;
    t = now;
    for (const std::vector<std::string>& payloads : logs.payloads) {
      crypto::Sha256Hasher hasher;
      for (const std::string& p : payloads) hasher.Update(p);
      benchmark::DoNotOptimize(hasher.Finish());
    }
    now = ThreadCpuSeconds();
    chain += now - t;
    t = now;
    for (size_t i = 0; i < logs.payloads.size(); ++i) {
      VerifySignature(in.records[i].front(), logs.payloads[i].back());
    }
    now = ThreadCpuSeconds();
    signature += now - t;
    t = now;
    for (const std::vector<v1::LogRecord>& log : in.records) DeriveDeals(log);
    now = ThreadCpuSeconds();
    deals += now - t;
    t = now;
    for (size_t i = 0; i < in.records.size(); ++i) {
      ReplayEngine(*in.games[i], in.records[i]);
    }
    now = ThreadCpuSeconds();
    engine += now - t;
  }
  SetRates(bench, logs);
  const double floor = parse + chain + signature + deals + engine;
  bench.counters["floor_vs_parse"] = parse / floor;
  bench.counters["chain_vs_parse"] = chain / parse;
  bench.counters["signature_vs_parse"] = signature / parse;
  bench.counters["deals_vs_parse"] = deals / parse;
  bench.counters["engine_vs_parse"] = engine / parse;
}

// The referee's two ways of writing a log file, on the records of one real
// Craits log: one write(2) per record (NewFileSink) and copies into a
// shared memory map (OpenAppendSink, what the referee uses), with an
// fdatasync every `records_per_sync` records (1: --log_sync=event; about
// one round's records: round; 0: only at the end). Per iteration the file is
// created, written, synced, closed and removed, as a match's log is. The CPU
// column is this thread's: it leaves out what a sync costs other cores (the
// TLB shootdown a synced mapped page sends them; docs/recovery.md).
void BM_LogSink(benchmark::State& bench, bool mapped, int records_per_sync) {
  const GameLogs& logs = LogsOf("craits");
  if (logs.payloads.empty()) {
    bench.SkipWithError("no log could be played");
    return;
  }
  const std::vector<std::string>& payloads = logs.payloads.front();
  const std::string dir = testlogs::MakeTempDir();
  const std::string path = dir + "/log";
  for (auto _ : bench) {
    absl::StatusOr<std::unique_ptr<record::WritableSink>> sink;
    if (mapped) {
      absl::Status created = record::CreateEmptyFile(path);
      if (!created.ok()) {
        bench.SkipWithError(created.ToString().c_str());
        break;
      }
      sink = record::OpenAppendSink(path);
    } else {
      sink = record::NewFileSink(path);
    }
    if (!sink.ok()) {
      bench.SkipWithError(sink.status().ToString().c_str());
      break;
    }
    bool ok = true;
    for (size_t i = 0; i < payloads.size(); ++i) {
      ok &= (*sink)->Append(payloads[i]).ok();
      if (records_per_sync > 0 && (i + 1) % records_per_sync == 0) {
        ok &= (*sink)->Sync().ok();
      }
    }
    ok &= (*sink)->Sync().ok();
    ok &= (*sink)->Close().ok();
    std::error_code error;
    std::filesystem::remove(path, error);
    if (!ok) {
      bench.SkipWithError("a sink call failed");
      break;
    }
  }
  std::error_code error;
  std::filesystem::remove_all(dir, error);
  bench.SetItemsProcessed(bench.iterations() *
                          static_cast<int64_t>(payloads.size()));
}

// Re-deriving one 52-card deck order from a revealed seed
// (cardref-deal-v1), which an audit does for every deal of a log.
void BM_DeriveDeal(benchmark::State& bench) {
  const std::string seed(kDealSeedSize, '\x5a');
  uint8_t cards[52];
  uint32_t round = 0;
  for (auto _ : bench) {
    for (int c = 0; c < 52; ++c) cards[c] = static_cast<uint8_t>(c);
    DeriveDealOrder(seed, ChanceLabel{1, round++, 0}, absl::MakeSpan(cards));
    benchmark::DoNotOptimize(cards);
  }
  bench.SetItemsProcessed(bench.iterations());
}

}  // namespace
}  // namespace cardref::analyzer

int main(int argc, char** argv) {
  using cardref::AllGames;
  for (const std::string& id : AllGames().Ids()) {
    benchmark::RegisterBenchmark(("BM_LogWrite/" + id).c_str(),
                                 cardref::analyzer::BM_LogWrite, id)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("BM_LogRead/" + id).c_str(),
                                 cardref::analyzer::BM_LogRead, id)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("BM_Audit/" + id).c_str(),
                                 cardref::analyzer::BM_Audit, id)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("BM_AuditFloor/" + id).c_str(),
                                 cardref::analyzer::BM_AuditFloor, id)
        ->Unit(benchmark::kMicrosecond);
  }
  // 40: about one Craits round's records at default parameters.
  for (const int per_sync : {1, 40, 0}) {
    for (const bool mapped : {false, true}) {
      benchmark::RegisterBenchmark(
          absl::StrCat("BM_LogSink/", mapped ? "mapped" : "write",
                       "/records_per_sync:", per_sync)
              .c_str(),
          cardref::analyzer::BM_LogSink, mapped, per_sync)
          ->Unit(benchmark::kMicrosecond);
    }
  }
  benchmark::RegisterBenchmark("BM_DeriveDeal",
                               cardref::analyzer::BM_DeriveDeal);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  // Each log was played into a directory of its own (testlogs::MakeTempDir).
  for (const auto& [game, logs] : *cardref::analyzer::LogCache()) {
    for (const std::string& path : logs.paths) {
      std::error_code ec;
      std::filesystem::remove_all(std::filesystem::path(path).parent_path(), ec);
    }
  }
  return 0;
}
