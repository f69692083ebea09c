// Fuzz target: the referee's request handlers below gRPC. Each input is a
// script of requests against a fresh in-process MatchManager: arbitrary
// protobuf requests (the fuzzer's bytes), the same with a real match id,
// seat and token filled in so they get past the first checks, and legal
// moves so games advance. Invariants: every refusal is a documented client
// error (never INTERNAL or UNKNOWN) with a message; a seat's observation
// carries legal actions only when that seat is to act; the manager shuts
// down cleanly with matches in every state.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "cardref/v1/referee.pb.h"
#include "games/all_games.h"
#include "referee/service/clock.h"
#include "referee/service/match_manager.h"
#include "tests/fuzz/fuzz_input.h"

namespace cardref::fuzz {
namespace {

constexpr int kMaxOps = 200;

struct SeatKey {
  std::string match_id;
  int seat;
  std::string token;
};

void CheckRefusal(const absl::Status& status, absl::string_view call) {
  if (status.ok()) return;
  FUZZ_CHECK(status.code() != absl::StatusCode::kInternal &&
                 status.code() != absl::StatusCode::kUnknown,
             absl::StrCat(call, ": ", status.ToString()));
  FUZZ_CHECK(!status.message().empty(), absl::StrCat(call, ": says why"));
}

template <typename Message>
bool ParseChunk(FuzzInput& in, Message* message) {
  const absl::string_view bytes = in.Chunk();
  return message->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
}

class Script {
 public:
  Script(const std::string& log_dir, FuzzInput& in) : in_(in) {
    service::ManagerOptions options;
    options.log_dir = log_dir;
    options.referee_version = "fuzz";
    options.clock = &clock_;
    manager_ = std::make_unique<service::MatchManager>(&AllGames(), options);
    ids_ = AllGames().Ids();
  }

  void Run() {
    for (int op = 0; op < kMaxOps && !in_.empty(); ++op) Step(in_.U8() % 9);
  }

 private:
  const std::string* SomeMatch() {
    if (matches_.empty()) return nullptr;
    return &matches_[in_.U8() % matches_.size()];
  }
  const SeatKey* SomeSeat() {
    if (seats_.empty()) return nullptr;
    return &seats_[in_.U8() % seats_.size()];
  }

  void Created(const absl::StatusOr<v1::CreateMatchResponse>& created) {
    CheckRefusal(created.status(), "CreateMatch");
    if (created.ok()) matches_.push_back(created->match_id());
  }

  void Joined(const absl::StatusOr<v1::JoinMatchResponse>& joined) {
    CheckRefusal(joined.status(), "JoinMatch");
    if (joined.ok()) {
      seats_.push_back({joined->match_id(), joined->seat(), joined->token()});
    }
  }

  void Step(int kind) {
    switch (kind) {
      case 0: {  // an arbitrary CreateMatch
        v1::CreateMatchRequest request;
        if (ParseChunk(in_, &request)) Created(manager_->CreateMatch(request));
        break;
      }
      case 1: {  // a valid-looking CreateMatch of a known game
        v1::CreateMatchRequest request;
        request.set_game(ids_[in_.U8() % ids_.size()]);
        if (request.game() != "kraken") {
          (*request.mutable_params()->mutable_values())["num_players"]
              .set_int_value(2 + in_.U8() % 4);
        }
        Created(manager_->CreateMatch(request));
        break;
      }
      case 2: {  // JoinMatch, arbitrary or aimed at a known match
        v1::JoinMatchRequest request;
        if (!ParseChunk(in_, &request)) break;
        if (const std::string* id = SomeMatch(); id && (in_.U8() & 1)) {
          request.set_match_id(*id);
        }
        Joined(manager_->JoinMatch(request));
        break;
      }
      case 3: {  // a plain join of a known match
        const std::string* id = SomeMatch();
        if (id == nullptr) break;
        v1::JoinMatchRequest request;
        request.set_match_id(*id);
        request.set_player_name(absl::StrCat("bot", seats_.size()));
        Joined(manager_->JoinMatch(request));
        break;
      }
      case 4:  // an arbitrary submission, maybe with a real seat's token
      case 5: {
        v1::SubmitActionRequest request;
        if (!ParseChunk(in_, &request)) break;
        if (const SeatKey* key = SomeSeat(); key && kind == 5) {
          request.set_match_id(key->match_id);
          request.set_seat(key->seat);
          request.set_token(key->token);
        }
        Submit(request);
        break;
      }
      case 6:
        PlayLegal();
        break;
      case 7: {  // observations and match queries
        v1::SeatRequest request;
        if (!ParseChunk(in_, &request)) break;
        if (const SeatKey* key = SomeSeat(); key && (in_.U8() & 1)) {
          request.set_match_id(key->match_id);
          request.set_seat(key->seat);
          request.set_token(key->token);
        }
        Observe(request);
        v1::ListMatchesRequest list;
        if (ParseChunk(in_, &list)) {
          CheckRefusal(manager_->ListMatches(list).status(), "ListMatches");
        }
        if (const std::string* id = SomeMatch()) {
          CheckRefusal(manager_->Info(*id, in_.U8() & 1).status(), "Info");
        }
        break;
      }
      case 8: {  // the organiser ends a match
        v1::EndMatchRequest request;
        if (!ParseChunk(in_, &request)) break;
        if (const std::string* id = SomeMatch(); id && (in_.U8() & 1)) {
          request.set_match_id(*id);
        }
        if (in_.U8() & 1) {
          CheckRefusal(manager_->CancelMatch(request).status(), "CancelMatch");
        } else {
          CheckRefusal(manager_->AbortMatch(request).status(), "AbortMatch");
        }
        break;
      }
    }
  }

  absl::StatusOr<std::shared_ptr<service::Match>> FindMatch(
      const std::string& id) {
    absl::StatusOr<std::shared_ptr<service::Match>> match =
        manager_->Find(id);
    CheckRefusal(match.status(), "Find");
    return match;
  }

  void Submit(const v1::SubmitActionRequest& request) {
    absl::StatusOr<std::shared_ptr<service::Match>> match =
        FindMatch(request.match_id());
    if (!match.ok()) return;
    CheckRefusal((*match)->Submit(request).status(), "Submit");
  }

  void Observe(const v1::SeatRequest& request) {
    absl::StatusOr<std::shared_ptr<service::Match>> match =
        FindMatch(request.match_id());
    if (!match.ok()) return;
    absl::StatusOr<v1::Observation> observation =
        (*match)->Observe(request.seat(), request.token());
    CheckRefusal(observation.status(), "Observe");
    if (observation.ok() && observation->seat_to_act() != request.seat()) {
      FUZZ_CHECK(observation->legal_actions_size() == 0,
                 "legal actions only for the seat to act");
    }
  }

  // The seat to act of some match submits one of its legal actions.
  void PlayLegal() {
    const SeatKey* key = SomeSeat();
    if (key == nullptr) return;
    absl::StatusOr<std::shared_ptr<service::Match>> match =
        FindMatch(key->match_id);
    if (!match.ok()) return;
    const int to_act = (*match)->progress().seat_to_act;
    for (const SeatKey& seat : seats_) {
      if (seat.match_id != key->match_id || seat.seat != to_act) continue;
      absl::StatusOr<v1::Observation> observation =
          (*match)->Observe(seat.seat, seat.token);
      CheckRefusal(observation.status(), "Observe");
      if (!observation.ok() || observation->legal_actions_size() == 0) return;
      v1::SubmitActionRequest request;
      request.set_match_id(seat.match_id);
      request.set_seat(seat.seat);
      request.set_token(seat.token);
      *request.mutable_action() = observation->legal_actions(
          in_.U8() % observation->legal_actions_size());
      request.set_decision_version(observation->version());
      request.set_sequence(in_.U8());
      CheckRefusal((*match)->Submit(request).status(), "Submit(legal)");
      return;
    }
  }

  FuzzInput& in_;
  service::FakeClock clock_;
  std::unique_ptr<service::MatchManager> manager_;
  std::vector<std::string> ids_;
  std::vector<std::string> matches_;
  std::vector<SeatKey> seats_;
};

const std::string& LogDir() {
  static const std::string* const dir = [] {
    // tmpfs where there is one: every finished log is fsync'ed.
    std::string pattern =
        std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : "/tmp";
    pattern += "/cardref_fuzz_service_XXXXXX";
    const char* made = ::mkdtemp(pattern.data());
    FUZZ_CHECK(made != nullptr, "a temporary log folder");
    auto* path = new std::string(made);
    std::atexit([] { std::filesystem::remove_all(LogDir()); });
    return path;
  }();
  return *dir;
}

}  // namespace
}  // namespace cardref::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cardref::fuzz;
  FuzzInput in(data, size);
  {
    Script script(LogDir(), in);
    script.Run();
  }
  for (const auto& entry : std::filesystem::directory_iterator(LogDir())) {
    std::filesystem::remove_all(entry.path());
  }
  return 0;
}
