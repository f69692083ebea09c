#include "analyzer/testing/test_logs.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "referee/base/status_macros.h"
#include "referee/codec/logged_actions.h"
#include "games/all_games.h"
#include "referee/record/game_log.h"
#include "referee/record/record_io.h"
#include "referee/service/match_manager.h"

namespace cardref::analyzer::testlogs {
namespace {

// Long enough that the manager's clock never fires by itself; timeouts are
// forced by calling EnforceDeadline with a time past it.
constexpr int64_t kTimeLimitMillis = 3'600'000;

bool Draw(Rng& rng, int per_mille) {
  return per_mille > 0 && static_cast<int>(rng.Uniform(1000)) < per_mille;
}

// `action` (typed form only) is one of the legal actions.
bool IsLegal(const v1::Observation& obs, const v1::Action& action) {
  for (v1::Action legal : obs.legal_actions()) {
    legal.clear_notation();
    if (google::protobuf::util::MessageDifferencer::Equals(legal, action)) {
      return true;
    }
  }
  return false;
}

// A well-formed action the engine refuses now: for Craits and Kraken a PLAY
// that is not among the legal actions; for other games a notation that
// does not parse.
v1::Action IllegalAction(const v1::Observation& obs, Rng& rng) {
  v1::Action action;
  if (obs.game() == "craits") {
    const uint32_t start = rng.Uniform(52);
    for (uint32_t i = 0; i < 52; ++i) {
      action.mutable_craits()->mutable_play()->set_card((start + i) % 52);
      if (!IsLegal(obs, action)) return action;
    }
    action.Clear();
  }
  if (obs.game() == "kraken") {
    const uint32_t start = rng.Uniform(32);
    for (uint32_t i = 0; i < 32; ++i) {
      action.mutable_kraken()->mutable_play()->set_card((start + i) % 32);
      if (!IsLegal(obs, action)) return action;
    }
    action.Clear();
  }
  action.set_notation("no such move");
  return action;
}

}  // namespace

v1::GameParams CraitsParams(int num_players, bool short_game) {
  v1::GameParams params;
  (*params.mutable_values())["num_players"].set_int_value(num_players);
  (*params.mutable_values())["game_length"].set_enum_value(short_game ? "SHORT"
                                                                      : "FULL");
  return params;
}

std::shared_ptr<const crypto::Ed25519PrivateKey> TestSigningKey() {
  static const auto* key = new std::shared_ptr<const crypto::Ed25519PrivateKey>(
      std::make_shared<const crypto::Ed25519PrivateKey>(
          *crypto::Ed25519PrivateKey::FromSeed(std::string(32, '\x42'))));
  return *key;
}

absl::StatusOr<std::string> PlayRandomMatch(const std::string& log_dir,
                                            const RandomMatchOptions& options) {
  service::ManagerOptions manager_options;
  manager_options.log_dir = log_dir;
  manager_options.referee_version = "test";
  manager_options.signing_key = TestSigningKey();
  service::MatchManager manager(&AllGames(), manager_options);

  v1::CreateMatchRequest create;
  create.set_game(options.game);
  *create.mutable_params() = options.params;
  create.set_dealing_seed(options.dealing_seed);
  if (options.timeout_per_mille > 0) {
    create.set_decision_time_limit_millis(kTimeLimitMillis);
  }
  ASSIGN_OR_RETURN(const v1::CreateMatchResponse created,
                   manager.CreateMatch(create));
  ASSIGN_OR_RETURN(std::shared_ptr<service::Match> match,
                   manager.Find(created.match_id()));
  const int n = created.num_seats();
  std::vector<std::string> tokens(n);
  for (int s = 0; s < n; ++s) {
    v1::JoinMatchRequest join;
    join.set_match_id(created.match_id());
    join.set_seat(s);
    join.set_player_name(s < static_cast<int>(options.player_names.size())
                             ? options.player_names[s]
                             : absl::StrCat("p", s));
    join.set_player_version("1");
    ASSIGN_OR_RETURN(const v1::JoinMatchResponse joined,
                     manager.JoinMatch(join));
    tokens[s] = joined.token();
  }

  Rng rng(options.bot_seed);
  uint64_t sequence = 0;
  int accepted = 0;
  auto submit = [&](int seat, const v1::Action& action) {
    v1::SubmitActionRequest request;
    request.set_match_id(created.match_id());
    request.set_seat(seat);
    request.set_token(tokens[seat]);
    *request.mutable_action() = action;
    request.set_sequence(++sequence);
    return match->Submit(request);
  };
  for (;;) {
    ASSIGN_OR_RETURN(const v1::Observation any, match->Observe(0, tokens[0]));
    if (any.status() != v1::MATCH_STATUS_IN_PROGRESS) break;
    if (options.stop_after_actions >= 0 &&
        accepted >= options.stop_after_actions) {
      break;
    }
    const int seat = any.seat_to_act();
    if (seat < 0) return absl::InternalError("no seat to act in progress");
    ASSIGN_OR_RETURN(const v1::Observation obs,
                     match->Observe(seat, tokens[seat]));
    if (obs.legal_actions().empty()) {
      return absl::InternalError("the seat to act has no legal action");
    }
    if (Draw(rng, options.timeout_per_mille)) {
      if (!match->EnforceDeadline(absl::Now() + absl::Hours(2))) {
        return absl::InternalError("EnforceDeadline did not fire");
      }
      ++accepted;
      continue;
    }
    if (n > 1 && Draw(rng, options.out_of_turn_per_mille)) {
      const int other = (seat + 1 + static_cast<int>(rng.Uniform(n - 1))) % n;
      if (submit(other, obs.legal_actions(0)).ok()) {
        return absl::InternalError("an out-of-turn submission was accepted");
      }
    }
    if (Draw(rng, options.illegal_per_mille)) {
      if (submit(seat, IllegalAction(obs, rng)).ok()) {
        return absl::InternalError("an illegal submission was accepted");
      }
    }
    const v1::Action& choice = obs.legal_actions(
        static_cast<int>(rng.Uniform(obs.legal_actions_size())));
    absl::StatusOr<v1::SubmitActionResponse> response = submit(seat, choice);
    if (!response.ok()) return response.status();
    ++accepted;
  }
  return match->Info().log_path();
  // Leaving scope drops `match`, then the manager: a match still in progress
  // is logged as aborted ("referee shut down during the match").
}

absl::StatusOr<PlayedLog> PlayAndRead(const RandomMatchOptions& options) {
  PlayedLog played;
  ASSIGN_OR_RETURN(played.path, PlayRandomMatch(MakeTempDir(), options));
  ASSIGN_OR_RETURN(played.payloads, ReadPayloads(played.path));
  return played;
}

std::string MakeTempDir() {
  // Removed when the test process exits, so test runs leave no logs behind.
  static std::vector<std::string>* const made = [] {
    auto* dirs = new std::vector<std::string>;
    std::atexit([] {
      std::error_code ignored;
      for (const std::string& dir : *made) {
        std::filesystem::remove_all(dir, ignored);
      }
    });
    return dirs;
  }();
  std::string pattern = ::testing::TempDir() + "cardref_analyzer_XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp failed for " << pattern;
  }
  made->push_back(pattern);
  return pattern;
}

absl::StatusOr<std::vector<std::string>> ReadPayloads(const std::string& path) {
  ASSIGN_OR_RETURN(const record::RecordFile file, record::ReadRecordFile(path));
  if (file.end != record::FileEnd::kComplete) {
    return absl::DataLossError(absl::StrCat(path, ": ", file.damage));
  }
  std::vector<std::string> payloads;
  for (const record::Record& r : file.records) payloads.push_back(r.payload);
  return payloads;
}

std::string Frame(const std::vector<std::string>& payloads) {
  std::string bytes;
  for (const std::string& p : payloads) bytes += record::FrameRecord(p);
  return bytes;
}

v1::LogRecord ParseRecord(const std::string& payload) {
  v1::LogRecord record;
  EXPECT_TRUE(record.ParseFromString(payload));
  return record;
}

std::string Serialize(const v1::LogRecord& record) {
  std::string out;
  EXPECT_TRUE(record.SerializeToString(&out));
  return out;
}

absl::Status WriteFile(const std::string& path, const std::string& bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr)
    return absl::InternalError(absl::StrCat("cannot create ", path));
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  const bool closed = std::fclose(f) == 0;
  if (!ok || !closed)
    return absl::InternalError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

std::vector<std::string> Rechain(const std::vector<std::string>& payloads) {
  std::string bytes;
  record::GameLogWriter writer(record::NewStringSink(&bytes),
                               TestSigningKey());
  for (const std::string& p : payloads) {
    EXPECT_TRUE(writer.Write(ParseRecord(p)).ok());
  }
  std::vector<std::string> out;
  for (const record::Record& r : record::ParseRecords(bytes).records) {
    out.push_back(r.payload);
  }
  return out;
}

std::vector<v1::LogRecord> ReadBack(const std::vector<std::string>& payloads) {
  record::GameLog log = record::ParseGameLog(Frame(payloads));
  EXPECT_EQ(log.records.size(), payloads.size()) << record::DescribeEnd(log);
  codec::DeriveTypedActions(&log, AllGames());
  return log.records;
}

namespace {
// A record of a format 3 log as an older referee wrote it: typed action
// and absolute time (`r` as ReadBack gives it).
void AsOlderRecord(v1::LogRecord& r) {
  r.clear_micros_since_previous();
  if (r.has_action()) r.mutable_action()->clear_engine_action();
}
}  // namespace

std::vector<std::string> AsFormat2(const std::vector<std::string>& payloads) {
  std::vector<std::string> older;
  for (v1::LogRecord& r : ReadBack(payloads)) {
    AsOlderRecord(r);
    if (r.has_header()) r.mutable_header()->set_format_version(2);
    older.push_back(Serialize(r));
  }
  return Rechain(older);
}

std::vector<std::string> AsFormat1(const std::vector<std::string>& payloads) {
  std::vector<std::string> out;
  for (v1::LogRecord& r : ReadBack(payloads)) {
    AsOlderRecord(r);
    if (r.has_seed_reveal()) continue;
    r.clear_prev_hash();
    r.clear_signature();
    if (r.has_header()) {
      v1::LogHeader* h = r.mutable_header();
      h->set_format_version(1);
      h->clear_seed_commitment();
      h->clear_deal_algorithm();
      h->clear_referee_public_key();
    }
    out.push_back(Serialize(r));
  }
  return out;
}

absl::StatusOr<uint64_t> WriteInflatedLog(
    const std::string& path, const std::vector<std::string>& payloads,
    uint64_t min_bytes, size_t padding) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    return absl::InternalError(absl::StrCat("cannot create ", path));
  }
  uint64_t size = 0;
  bool ok = true;
  auto put = [&](const std::string& payload) {
    const std::string framed = record::FrameRecord(payload);
    ok &= std::fwrite(framed.data(), 1, framed.size(), f) == framed.size();
    size += framed.size();
  };
  uint64_t rest = 0;  // bytes of the payloads not yet written
  for (const std::string& p : payloads) {
    rest += record::kHeaderSize + p.size() + record::kFooterSize;
  }
  bool inflated = false;
  for (const std::string& p : payloads) {
    if (!inflated && ParseRecord(p).has_action()) {
      v1::LogRecord filler;
      filler.set_unix_micros(1);
      v1::RejectedSubmission* r = filler.mutable_rejected();
      r->set_seat(ParseRecord(p).action().seat());
      r->set_status_code(9);  // FAILED_PRECONDITION
      r->set_message(std::string(padding, 'x'));
      const std::string filler_payload = Serialize(filler);
      while (ok && size + rest < min_bytes) put(filler_payload);
      inflated = true;
    }
    rest -= record::kHeaderSize + p.size() + record::kFooterSize;
    put(p);
  }
  ok &= std::fclose(f) == 0;
  if (!ok) return absl::InternalError(absl::StrCat("cannot write ", path));
  return size;
}

int TamperRecord(std::vector<std::string>* payloads, Pick pick,
                 const std::function<bool(const v1::LogRecord&)>& match,
                 const std::function<void(v1::LogRecord&)>& change) {
  const int n = static_cast<int>(payloads->size());
  for (int k = 0; k < n; ++k) {
    const int i = pick == Pick::kFirst ? k : n - 1 - k;
    v1::LogRecord r = ParseRecord((*payloads)[i]);
    if (!match(r)) continue;
    change(r);
    (*payloads)[i] = Serialize(r);
    return i;
  }
  return -1;
}

}  // namespace cardref::analyzer::testlogs
