// The referee over real gRPC on loopback: full games played by bots through
// the generated stubs, every rejection path with its status code and rule
// message, health checking and reflection.
#include <filesystem>
#include <future>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "gmock/gmock.h"
#include "google/protobuf/unknown_field_set.h"
#include "grpcpp/generic/generic_stub.h"
#include "absl/synchronization/mutex.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "referee/codec/logged_actions.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "referee/base/rng.h"
#include "games/kraken/kraken_rules.h"
#include "games/krass_kariert/krass_kariert_cards.h"
#include "referee/grpc/server.h"
#include "referee/record/game_log.h"

namespace cardref {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

class GrpcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    log_dir_ = testing_util::FreshTestDir("grpc_test_");
    grpc_service::ServerOptions options;
    options.manager.log_dir = log_dir_.string();
    auto server = grpc_service::RefereeServer::Start(options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(*server);
    channel_ = grpc::CreateChannel(server_->address(),
                                   grpc::InsecureChannelCredentials());
    stub_ = v1::Referee::NewStub(channel_);
  }

  std::string CreateMatch(const std::string& game, int players,
                          uint64_t seed, int64_t limit_ms = 0) {
    v1::CreateMatchRequest request;
    request.set_game(game);
    auto& values = *request.mutable_params()->mutable_values();
    if (players > 0) values["num_players"].set_int_value(players);
    if (game == "craits") values["game_length"].set_enum_value("SHORT");
    request.set_dealing_seed(seed);
    request.set_decision_time_limit_millis(limit_ms);
    v1::CreateMatchResponse response;
    grpc::ClientContext context;
    grpc::Status s = stub_->CreateMatch(&context, request, &response);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return response.match_id();
  }

  v1::JoinMatchResponse Join(const std::string& match_id, int seat) {
    v1::JoinMatchRequest request;
    request.set_match_id(match_id);
    request.set_seat(seat);
    request.set_player_name("bot" + std::to_string(seat));
    v1::JoinMatchResponse response;
    grpc::ClientContext context;
    grpc::Status s = stub_->JoinMatch(&context, request, &response);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return response;
  }

  // A bot: watches its stream and answers each decision with a random legal
  // action. Returns the last observation (the final one).
  v1::Observation PlayAsBot(const v1::JoinMatchResponse& me, uint64_t seed) {
    auto stub = v1::Referee::NewStub(channel_);
    Rng rng(seed);
    v1::SeatRequest request;
    request.set_match_id(me.match_id());
    request.set_seat(me.seat());
    request.set_token(me.token());
    grpc::ClientContext context;
    auto stream = stub->WatchObservations(&context, request);
    v1::Observation obs, last;
    uint64_t last_action_version = 0;
    int streamed = 0;
    int decisions = 0;
    while (stream->Read(&obs)) {
      last = obs;
      // Each message carries the actions since the previous one: together
      // they are every action of the match, once each, in order.
      for (const v1::ActionRecord& a : obs.recent_actions()) {
        EXPECT_GT(a.version(), last_action_version);
        last_action_version = a.version();
        ++streamed;
      }
      if (obs.seat_to_act() != me.seat()) continue;
      v1::SubmitActionRequest submit;
      submit.set_match_id(me.match_id());
      submit.set_seat(me.seat());
      submit.set_token(me.token());
      *submit.mutable_action() =
          obs.legal_actions(rng.Uniform(obs.legal_actions_size()));
      submit.set_decision_version(obs.version());
      // Every other answer without its observation (a streaming bot's
      // choice): the empty answer must arrive as such, and the game goes on
      // the same.
      const bool omit = (++decisions % 2) == 0;
      submit.set_omit_observation(omit);
      v1::SubmitActionResponse response;
      grpc::ClientContext submit_context;
      grpc::Status s = stub->SubmitAction(&submit_context, submit, &response);
      EXPECT_TRUE(s.ok()) << s.error_message();
      EXPECT_EQ(response.has_observation(), !omit);
      if (!omit) {
        EXPECT_GT(response.observation().version(), obs.version());
      }
    }
    grpc::Status end = stream->Finish();
    EXPECT_TRUE(end.ok()) << end.error_message();
    {
      absl::MutexLock lock(&streamed_mu_);
      streamed_actions_[me.match_id()].push_back(streamed);
    }
    return last;
  }

  // Actions streamed to each seat of a match, by the bots of PlayAsBot.
  absl::Mutex streamed_mu_;
  std::map<std::string, std::vector<int>> streamed_actions_;

  std::vector<v1::Observation> PlayMatch(const std::string& match_id,
                                         int players) {
    std::vector<v1::JoinMatchResponse> seats;
    seats.reserve(players);
    for (int s = 0; s < players; ++s) seats.push_back(Join(match_id, s));
    std::vector<std::future<v1::Observation>> bots;
    bots.reserve(players);
    for (int s = 0; s < players; ++s) {
      bots.push_back(std::async(std::launch::async, [this, &seats, s] {
        return PlayAsBot(seats[s], 1000 + s);
      }));
    }
    std::vector<v1::Observation> finals;
    finals.reserve(bots.size());
    for (auto& b : bots) finals.push_back(b.get());
    return finals;
  }

  v1::Observation Observe(const v1::JoinMatchResponse& me) {
    v1::SeatRequest request;
    request.set_match_id(me.match_id());
    request.set_seat(me.seat());
    request.set_token(me.token());
    v1::Observation obs;
    grpc::ClientContext context;
    EXPECT_TRUE(stub_->GetObservation(&context, request, &obs).ok());
    return obs;
  }

  grpc::Status Submit(const v1::JoinMatchResponse& me, const std::string& token,
                      const v1::Action& action, uint64_t version = 0) {
    v1::SubmitActionRequest submit;
    submit.set_match_id(me.match_id());
    submit.set_seat(me.seat());
    submit.set_token(token);
    *submit.mutable_action() = action;
    submit.set_decision_version(version);
    v1::SubmitActionResponse response;
    grpc::ClientContext context;
    return stub_->SubmitAction(&context, submit, &response);
  }

  // Submits `action` for `actor` at decision `obs`: it must be refused with
  // INVALID_ARGUMENT and a message `message` matches, and change nothing.
  // Returns the message.
  std::string Refuse(const v1::JoinMatchResponse& actor,
                     const v1::Observation& obs, const v1::Action& action,
                     const ::testing::Matcher<const std::string&>& message) {
    SCOPED_TRACE(action.ShortDebugString());
    grpc::Status s = Submit(actor, actor.token(), action, obs.version());
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(s.error_message(), message);
    EXPECT_EQ(Observe(actor).SerializeAsString(), obs.SerializeAsString());
    return s.error_message();
  }

  // Reads the log of finished match `id` as the referee wrote it.
  void ReadLogOf(const std::string& id, record::GameLog* log) {
    v1::GetMatchRequest request;
    request.set_match_id(id);
    v1::MatchInfo info;
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->GetMatch(&context, request, &info).ok());
    EXPECT_EQ(info.status(), v1::MATCH_STATUS_FINISHED);
    absl::StatusOr<record::GameLog> read = codec::ReadGameLogWithActions(info.log_path());
    ASSERT_TRUE(read.ok()) << read.status();
    *log = *std::move(read);
  }

  // Every refusal of match `id` is in its log, in order, with its code and
  // message, and the log still ends with the final result.
  void ExpectRefusalsLogged(const std::string& id,
                            const std::vector<std::string>& refusals) {
    record::GameLog log;
    ASSERT_NO_FATAL_FAILURE(ReadLogOf(id, &log));
    EXPECT_TRUE(log.finished());
    std::vector<std::string> logged;
    for (const v1::LogRecord& r : log.records) {
      if (!r.has_rejected()) continue;
      EXPECT_EQ(r.rejected().status_code(),
                static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
      logged.push_back(r.rejected().message());
    }
    EXPECT_EQ(logged, refusals);
    ASSERT_FALSE(log.records.empty());
    EXPECT_TRUE(log.records.back().has_final_result());
  }

  std::filesystem::path log_dir_;
  std::unique_ptr<grpc_service::RefereeServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Referee::Stub> stub_;
};

TEST_F(GrpcTest, BotsPlayFullCraitsGamesForEverySeatCount) {
  for (int players = 2; players <= 5; ++players) {
    const std::string id = CreateMatch("craits", players, 40 + players);
    std::vector<v1::Observation> finals = PlayMatch(id, players);
    for (const v1::Observation& f : finals) {
      EXPECT_EQ(f.status(), v1::MATCH_STATUS_FINISHED);
      EXPECT_EQ(f.result().scores_size(), players);
      EXPECT_EQ(f.rounds_completed(), 8);
    }
    record::GameLog log;
    ASSERT_NO_FATAL_FAILURE(ReadLogOf(id, &log));
    EXPECT_TRUE(log.finished());
    EXPECT_EQ(log.end, record::FileEnd::kComplete);
    int actions = 0;
    for (const v1::LogRecord& r : log.records) actions += r.has_action();
    absl::MutexLock lock(&streamed_mu_);
    EXPECT_THAT(streamed_actions_[id],
                ::testing::Each(::testing::Eq(actions)));
  }
}

TEST_F(GrpcTest, EveryRejectionHasItsCodeAndTheGameContinues) {
  const std::string id = CreateMatch("craits", 3, 7);
  std::vector<v1::JoinMatchResponse> seats;
  seats.reserve(3);
  for (int s = 0; s < 3; ++s) seats.push_back(Join(id, s));
  v1::Observation obs = Observe(seats[0]);
  const int to_act = obs.seat_to_act();
  ASSERT_GE(to_act, 0);
  const v1::JoinMatchResponse& actor = seats[to_act];
  const v1::JoinMatchResponse& other = seats[(to_act + 1) % 3];
  v1::Observation mine = Observe(actor);
  ASSERT_GT(mine.legal_actions_size(), 0);

  // Illegal: a card the seat does not hold.
  std::set<uint32_t> held(mine.craits().hand().begin(),
                          mine.craits().hand().end());
  uint32_t card = 0;
  while (held.count(card) || card % 13 == 7 || card % 13 == 8) ++card;
  v1::Action illegal;
  illegal.mutable_craits()->mutable_play()->set_card(card);
  grpc::Status s = Submit(actor, actor.token(), illegal);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), StartsWith("CR-"));

  // Out of turn.
  s = Submit(other, other.token(), mine.legal_actions(0));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(s.error_message(), HasSubstr("not your turn"));

  // Wrong token, another seat's token, no token.
  s = Submit(actor, "0123456789abcdef0123456789abcdef", mine.legal_actions(0));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  s = Submit(actor, other.token(), mine.legal_actions(0));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  s = Submit(actor, "", mine.legal_actions(0));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED);

  // Unknown match.
  v1::JoinMatchResponse ghost = actor;
  ghost.set_match_id("no-such-match");
  s = Submit(ghost, actor.token(), mine.legal_actions(0));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);

  // Malformed: an empty action.
  s = Submit(actor, actor.token(), v1::Action());
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);

  // A field this referee does not know (a bot built on newer stubs), even
  // on an otherwise legal action: refused rather than silently ignored.
  v1::Action newer = mine.legal_actions(0);
  newer.GetReflection()->MutableUnknownFields(&newer)->AddVarint(77, 1);
  s = Submit(actor, actor.token(), newer);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("action.#77"));

  // Nothing changed; a legal action is accepted and the game plays on.
  EXPECT_EQ(Observe(actor).version(), mine.version());
  EXPECT_TRUE(Submit(actor, actor.token(), mine.legal_actions(0)).ok());
  std::vector<std::future<v1::Observation>> bots;
  bots.reserve(3);
  for (int seat = 0; seat < 3; ++seat) {
    bots.push_back(std::async(std::launch::async, [this, &seats, seat] {
      return PlayAsBot(seats[seat], 77 + seat);
    }));
  }
  for (auto& b : bots) EXPECT_EQ(b.get().status(), v1::MATCH_STATUS_FINISHED);
}

TEST_F(GrpcTest, ALateAnswerGetsDeadlineExceeded) {
  const std::string id = CreateMatch("craits", 2, 3, /*limit_ms=*/100);
  std::vector<v1::JoinMatchResponse> seats = {Join(id, 0), Join(id, 1)};
  v1::Observation obs = Observe(seats[0]);
  const v1::JoinMatchResponse& actor = seats[obs.seat_to_act()];
  v1::Observation mine = Observe(actor);
  ASSERT_GT(mine.deadline_unix_millis(), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  grpc::Status s =
      Submit(actor, actor.token(), mine.legal_actions(0), mine.version());
  EXPECT_EQ(s.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  EXPECT_THAT(s.error_message(), HasSubstr("timed out"));
}

TEST_F(GrpcTest, HealthCheckingAndGameListAreServed) {
  grpc::GenericStub generic(channel_);
  grpc::ByteBuffer request;  // an empty HealthCheckRequest: the server
  grpc::Slice empty("");
  request = grpc::ByteBuffer(&empty, 1);
  grpc::ByteBuffer response;
  grpc::ClientContext context;
  std::promise<grpc::Status> done;
  generic.UnaryCall(&context, "/grpc.health.v1.Health/Check",
                    grpc::StubOptions(), &request, &response,
                    [&done](const grpc::Status& s) { done.set_value(s); });
  grpc::Status s = done.get_future().get();
  ASSERT_TRUE(s.ok()) << s.error_message();
  std::vector<grpc::Slice> slices;
  ASSERT_TRUE(response.Dump(&slices).ok());
  std::string bytes;
  for (const grpc::Slice& slice : slices) {
    bytes.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
  }
  EXPECT_EQ(bytes, std::string("\x08\x01", 2));  // status: SERVING

  v1::ListGamesResponse games;
  grpc::ClientContext list_context;
  ASSERT_TRUE(
      stub_->ListGames(&list_context, v1::ListGamesRequest(), &games).ok());
  bool craits = false;
  for (const v1::GameInfo& g : games.games()) craits |= g.id() == "craits";
  EXPECT_TRUE(craits);
}

// ===========================================================================
// Krass Kariert over gRPC: full games by bots, and rejected illegal plays.
// ===========================================================================

v1::Action KkPlay(const std::vector<uint32_t>& positions,
                  const std::vector<uint32_t>& xs) {
  v1::Action a;
  v1::KrassKariertAction::Play* play =
      a.mutable_krass_kariert()->mutable_play();
  for (uint32_t p : positions) play->add_positions(p);
  for (uint32_t x : xs) play->add_x_values(x);
  return a;
}

// A PLAY of the seat's hand forming exactly the target's combination (same
// type and key, KK-3.5), if the hand has one; X values are declared to fit.
std::optional<v1::Action> KkEqualCombination(
    const v1::KrassKariertObservation& view) {
  namespace kk = ::cardref::krass_kariert;
  if (!view.has_target()) return std::nullopt;
  const kk::Strength target = kk::MakeStrength(
      static_cast<kk::ComboType>(view.target().type()), view.target().key());
  // Cards in the block: SOLO 1; RUN2, PAIR 2; RUN3, TRIPS 3 (KK-3.1).
  const v1::KrassKariertComboType type = view.target().type();
  const int k = type <= v1::KRASS_KARIERT_COMBO_TYPE_SOLO   ? 1
                : type <= v1::KRASS_KARIERT_COMBO_TYPE_PAIR ? 2
                                                            : 3;
  const int len = view.hand_size();
  for (int i = 0; i + k <= len; ++i) {
    std::vector<int> x_at;
    bool special = false;
    int values[3];
    for (int j = 0; j < k; ++j) {
      const Card c = static_cast<Card>(view.hand(i + j));
      special |= kk::KindOf(c) == kk::CardKind::kStop ||
                 kk::KindOf(c) == kk::CardKind::kDraw;
      if (kk::KindOf(c) == kk::CardKind::kX) x_at.push_back(j);
      values[j] = kk::ValueOf(c);
    }
    if (special) continue;
    const int tries = x_at.empty() ? 1 : x_at.size() == 1 ? 12 : 144;
    for (int t = 0; t < tries; ++t) {
      std::vector<uint32_t> xs;
      for (size_t x = 0; x < x_at.size(); ++x) {
        const int v = (x == 0 ? t % 12 : t / 12) + 1;
        values[x_at[x]] = v;
        xs.push_back(v);
      }
      if (kk::Classify(values, k) != target) continue;
      std::vector<uint32_t> positions;
      positions.reserve(k);
      for (int j = 0; j < k; ++j) positions.push_back(i + j);
      return KkPlay(positions, xs);
    }
  }
  return std::nullopt;
}

TEST_F(GrpcTest, BotsPlayFullKrassKariertGamesFor3To5Players) {
  for (int players = 3; players <= 5; ++players) {
    SCOPED_TRACE(players);
    const std::string id = CreateMatch("krass_kariert", players, 60 + players);
    std::vector<v1::Observation> finals = PlayMatch(id, players);
    ASSERT_EQ(static_cast<int>(finals.size()), players);
    for (int seat = 0; seat < players; ++seat) {
      const v1::Observation& f = finals[seat];
      EXPECT_EQ(f.status(), v1::MATCH_STATUS_FINISHED);
      EXPECT_EQ(f.game(), "krass_kariert");
      EXPECT_EQ(f.seat(), seat);
      EXPECT_EQ(f.seat_to_act(), -1);
      // KK-13: at least C + 1 = 3 chip-loss events before someone cannot pay.
      EXPECT_GE(f.rounds_completed(), 3);
      ASSERT_TRUE(f.has_krass_kariert());
      EXPECT_EQ(f.krass_kariert().seats_size(), players);
      EXPECT_EQ(f.krass_kariert().completed_rounds_size(),
                f.rounds_completed());
      const v1::KrassKariertFinalResult& r = f.result().krass_kariert();
      EXPECT_EQ(f.result().scores_size(), players);
      EXPECT_EQ(r.chips_size(), players);
      EXPECT_FALSE(r.losers().empty());
      EXPECT_EQ(r.losers_size() + r.winners_size(), players);
      EXPECT_EQ(r.round_losses_size(), f.rounds_completed());
      EXPECT_EQ(f.result().SerializeAsString(),
                finals[0].result().SerializeAsString());
    }
    record::GameLog log;
    ASSERT_NO_FATAL_FAILURE(ReadLogOf(id, &log));
    EXPECT_TRUE(log.finished());
    EXPECT_EQ(log.end, record::FileEnd::kComplete);
    ASSERT_TRUE(log.has_header());
    EXPECT_EQ(log.header().game(), "krass_kariert");
    int round_results = 0, place_drawn = 0, reserves = 0;
    for (const v1::LogRecord& r : log.records) {
      if (r.has_round_result()) {
        EXPECT_TRUE(r.round_result().has_krass_kariert());
        EXPECT_EQ(r.round_result().round(), ++round_results);
      }
      if (r.has_action()) {
        ASSERT_TRUE(r.action().action().has_krass_kariert());
        place_drawn += r.action().action().krass_kariert().has_place_drawn();
        reserves += r.action().action().krass_kariert().has_take_reserve();
      }
    }
    EXPECT_EQ(round_results, finals[0].rounds_completed());
    EXPECT_GT(reserves, 0);
    EXPECT_GT(place_drawn + reserves, 0);
    ASSERT_TRUE(log.records.back().has_final_result());
    EXPECT_EQ(log.records.back().final_result().SerializeAsString(),
              finals[0].result().SerializeAsString());
  }
}

// Illegal plays found in a real game (dealing_seed fixed, every seat driven
// from this thread): each is refused with INVALID_ARGUMENT naming its rule,
// changes nothing, is logged, and the game then plays on to its end.
TEST_F(GrpcTest, KrassKariertRejectsIllegalPlaysAndTheGameContinues) {
  const int players = 4;
  const std::string id = CreateMatch("krass_kariert", players, 2024);
  std::vector<v1::JoinMatchResponse> seats;
  seats.reserve(players);
  for (int s = 0; s < players; ++s) seats.push_back(Join(id, s));
  Rng rng(11);
  bool leader_reserve = false, not_adjacent = false, equal = false;
  std::vector<std::string> refusals;
  int steps = 0;
  for (;; ++steps) {
    ASSERT_LT(steps, 100000);
    const v1::Observation any = Observe(seats[0]);
    if (any.status() != v1::MATCH_STATUS_IN_PROGRESS) break;
    const v1::JoinMatchResponse& actor = seats[any.seat_to_act()];
    const v1::Observation obs = Observe(actor);
    ASSERT_GT(obs.legal_actions_size(), 0);
    const v1::KrassKariertObservation& view = obs.krass_kariert();
    auto refuse = [&](const v1::Action& action, const std::string& rule) {
      refusals.push_back(Refuse(actor, obs, action, HasSubstr(rule)));
    };
    if (view.drawing_seat() < 0) {
      const v1::KrassKariertObservation::SeatView& me =
          view.seats(actor.seat());
      // KK-5.1: the leader may not take a reserve card.
      if (!leader_reserve && view.leader() == actor.seat() &&
          view.current_trick().empty()) {
        for (uint32_t slot = 0; slot < 2 && !leader_reserve; ++slot) {
          if (!me.reserves(slot).has_card()) continue;
          v1::Action take;
          take.mutable_krass_kariert()->mutable_take_reserve()->set_slot(slot);
          refuse(take, "KK-5.1");
          EXPECT_THAT(refusals.back(),
                      StartsWith("KK-5.1: the leader may not take a reserve"));
          leader_reserve = true;
        }
      }
      // KK-16.1: the cards of a PLAY are adjacent (E2: PLAY[0,2]).
      if (!not_adjacent && view.hand_size() >= 3) {
        refuse(KkPlay({0, 2}, {}), "KK-16.1");
        EXPECT_EQ(refusals.back(),
                  "krass_kariert.play.positions 0,2 are not contiguous "
                  "(KK-16.1: expected ascending positions i, i+1, ..., i+k-1)");
        v1::Action text;
        text.set_notation("play 0,2");
        refuse(text, "KK-16.1");
        not_adjacent = true;
      }
      // KK-3.5: a combination equal to the target does not beat it.
      if (!equal && view.has_target()) {
        if (std::optional<v1::Action> same = KkEqualCombination(view)) {
          refuse(*same, "KK-3.5");
          EXPECT_THAT(refusals.back(), StartsWith("KK-3.5: "));
          EXPECT_THAT(refusals.back(),
                      HasSubstr("(equal strength never beats)"));
          equal = true;
        }
      }
    }
    const v1::Action& choice =
        obs.legal_actions(rng.Uniform(obs.legal_actions_size()));
    grpc::Status s = Submit(actor, actor.token(), choice, obs.version());
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  EXPECT_TRUE(leader_reserve);
  EXPECT_TRUE(not_adjacent);
  EXPECT_TRUE(equal);
  EXPECT_EQ(Observe(seats[0]).status(), v1::MATCH_STATUS_FINISHED);

  ExpectRefusalsLogged(id, refusals);
}

// ===========================================================================
// Kraken over gRPC: a full game by four bots, and rejected false claims and
// under-trumps (KR-17.3) in a game that then plays on to its end.
// ===========================================================================

// Creates a Kraken match (defaults but `rule_set` and `rounds`, KR-3).
std::string KrCreateMatch(v1::Referee::Stub& stub, uint64_t seed,
                          const std::string& rule_set, int rounds) {
  v1::CreateMatchRequest request;
  request.set_game("kraken");
  auto& values = *request.mutable_params()->mutable_values();
  values["rule_set"].set_enum_value(rule_set);
  values["rounds"].set_int_value(rounds);
  request.set_dealing_seed(seed);
  v1::CreateMatchResponse response;
  grpc::ClientContext context;
  grpc::Status s = stub.CreateMatch(&context, request, &response);
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(response.num_seats(), 4);
  return response.match_id();
}

TEST_F(GrpcTest, FourBotsPlayAFullKrakenGame) {
  const int rounds = 3;
  const std::string id = KrCreateMatch(*stub_, 81, "AMSTERDAM", rounds);
  std::vector<v1::Observation> finals = PlayMatch(id, 4);
  ASSERT_EQ(finals.size(), 4u);
  for (int seat = 0; seat < 4; ++seat) {
    SCOPED_TRACE(seat);
    const v1::Observation& f = finals[seat];
    EXPECT_EQ(f.status(), v1::MATCH_STATUS_FINISHED);
    EXPECT_EQ(f.game(), "kraken");
    EXPECT_EQ(f.seat_to_act(), -1);
    EXPECT_EQ(f.rounds_completed(), rounds);
    ASSERT_TRUE(f.has_kraken());
    EXPECT_EQ(f.kraken().team(), seat % 2);
    EXPECT_EQ(f.kraken().phase(), v1::KRAKEN_PHASE_GAME_OVER);
    EXPECT_EQ(f.kraken().completed_rounds_size(), rounds);
    EXPECT_TRUE(f.kraken().hand().empty());
    const v1::KrakenFinalResult& r = f.result().kraken();
    ASSERT_EQ(r.round_scores_size(), rounds);
    ASSERT_EQ(r.totals_size(), 2);
    int64_t sums[2] = {0, 0};
    for (int i = 0; i < rounds; ++i) {
      EXPECT_EQ(r.round_scores(i).scores(0),
                f.kraken().completed_rounds(i).scores(0));
      for (int t = 0; t < 2; ++t) sums[t] += r.round_scores(i).scores(t);
    }
    EXPECT_EQ(r.totals(0), sums[0]);
    EXPECT_EQ(r.totals(1), sums[1]);
    // Seats score their team's total (KR-15.1).
    ASSERT_EQ(f.result().scores_size(), 4);
    EXPECT_EQ(f.result().scores(seat), r.totals(seat % 2));
    EXPECT_EQ(f.result().SerializeAsString(),
              finals[0].result().SerializeAsString());
  }
  record::GameLog log;
  ASSERT_NO_FATAL_FAILURE(ReadLogOf(id, &log));
  EXPECT_TRUE(log.finished());
  EXPECT_EQ(log.end, record::FileEnd::kComplete);
  ASSERT_TRUE(log.has_header());
  EXPECT_EQ(log.header().game(), "kraken");
  int round_results = 0, plays = 0, declares = 0;
  for (const v1::LogRecord& rec : log.records) {
    if (rec.has_round_result()) {
      ASSERT_TRUE(rec.round_result().has_kraken());
      EXPECT_EQ(rec.round_result().round(), ++round_results);
      EXPECT_EQ(rec.round_result().kraken().teams_size(), 2);
    }
    if (rec.has_action()) {
      ASSERT_TRUE(rec.action().action().has_kraken());
      EXPECT_FALSE(rec.action().action().notation().empty());
      plays += rec.action().action().kraken().has_play();
      declares += rec.action().action().kraken().has_declare();
    }
  }
  EXPECT_EQ(round_results, rounds);
  EXPECT_EQ(plays, 32 * rounds);    // KR-9.2: all eight tricks
  EXPECT_EQ(declares, 4 * rounds);  // KR-8.1: every seat once
  ASSERT_TRUE(log.records.back().has_final_result());
  EXPECT_EQ(log.records.back().final_result().SerializeAsString(),
            finals[0].result().SerializeAsString());
}

// The trump of a view as an engine suit (0..3).
int KrTrump(const v1::KrakenObservation& view) {
  return static_cast<int>(view.trump()) - 1;
}

// A trump of the hand that may not be played because it would undertrump
// (KR-10.2): the led suit is not trump and the hand is void in it, an
// opponent wins the trick with a trump the hand cannot beat, and the hand
// holds a non-trump too. Amsterdam only.
std::optional<uint32_t> KrUndertrump(const v1::KrakenObservation& view,
                                     int seat) {
  namespace kr = ::cardref::kraken;
  if (view.phase() != v1::KRAKEN_PHASE_PLAY) return std::nullopt;
  const v1::KrakenTrick& trick = view.current_trick();
  if (trick.cards().empty()) return std::nullopt;
  const int trump = KrTrump(view);
  std::vector<Card> cards;
  for (const auto& c : trick.cards()) cards.push_back(c.card());
  const int led = kr::SuitOf(cards[0]);
  if (led == trump) return std::nullopt;
  const int w = kr::TrickWinnerIndex(cards, trump);
  if (kr::SuitOf(cards[w]) != trump) return std::nullopt;  // no trump yet
  if (trick.cards(w).seat() % 2 == seat % 2) return std::nullopt;
  kr::CardMask hand = 0;
  for (uint32_t c : view.hand()) hand |= kr::CardBit(static_cast<Card>(c));
  const kr::CardMask trumps = hand & kr::SuitCards(trump);
  if ((hand & kr::SuitCards(led)) || trumps == 0 || trumps == hand ||
      (trumps & kr::TrumpsAbove(cards[w]))) {
    return std::nullopt;
  }
  return static_cast<uint32_t>(__builtin_ctz(trumps));
}

// Every seat driven from this thread with random legal actions (dealing
// seed 12 and bot seed 17, chosen so that both situations occur in two
// rounds; the test fails rather than passes if they stop occurring): the
// first claim window meets a claim of the
// wrong type (KR-12.3) and the first under-trump chance is tried (KR-10.2).
// Both are refused with INVALID_ARGUMENT naming the rule, change nothing,
// are logged, and the game plays on to its end.
TEST_F(GrpcTest, KrakenRejectsAFalseClaimAndAnUndertrumpAndTheGameContinues) {
  const std::string id = KrCreateMatch(*stub_, 12, "AMSTERDAM", 2);
  std::vector<v1::JoinMatchResponse> seats;
  seats.reserve(4);
  for (int s = 0; s < 4; ++s) seats.push_back(Join(id, s));
  Rng rng(17);
  bool false_claim = false, undertrump = false;
  std::vector<std::string> refusals;
  for (int steps = 0;; ++steps) {
    ASSERT_LT(steps, 10000);
    const v1::Observation any = Observe(seats[0]);
    if (any.status() != v1::MATCH_STATUS_IN_PROGRESS) break;
    const v1::JoinMatchResponse& actor = seats[any.seat_to_act()];
    const v1::Observation obs = Observe(actor);
    ASSERT_GT(obs.legal_actions_size(), 0);
    const v1::KrakenObservation& view = obs.kraken();
    auto refuse = [&](const v1::Action& action, const std::string& prefix) {
      refusals.push_back(Refuse(actor, obs, action, StartsWith(prefix)));
    };
    if (!false_claim && view.claim_window_open()) {
      // KR-12.3: only the trick's own type may be claimed.
      const v1::KrakenTrick& t =
          view.completed_tricks(view.completed_tricks_size() - 1);
      ASSERT_EQ(t.claim(), v1::KRAKEN_CLAIM_STATUS_OPEN);
      ASSERT_EQ(t.winner(), actor.seat());
      const v1::KrakenBonus wrong = t.bonus() == v1::KRAKEN_BONUS_FOUR_JACKS
                                        ? v1::KRAKEN_BONUS_RUN3
                                        : v1::KRAKEN_BONUS_FOUR_JACKS;
      v1::Action claim;
      claim.mutable_kraken()->mutable_claim_bonus()->set_bonus(wrong);
      refuse(claim, "KR-12.3: the trick's bonus is ");
      EXPECT_THAT(refusals.back(),
                  HasSubstr(absl::StrCat(
                      ", not ",
                      wrong == v1::KRAKEN_BONUS_RUN3 ? "RUN3" : "FOUR_JACKS")));
      false_claim = true;
    }
    if (!undertrump) {
      if (std::optional<uint32_t> card = KrUndertrump(view, actor.seat())) {
        v1::Action play;
        play.mutable_kraken()->mutable_play()->set_card(*card);
        refuse(play, "KR-10.2: may not undertrump: the opponent is winning");
        undertrump = true;
      }
    }
    const v1::Action& choice =
        obs.legal_actions(rng.Uniform(obs.legal_actions_size()));
    grpc::Status s = Submit(actor, actor.token(), choice, obs.version());
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  EXPECT_TRUE(false_claim);
  EXPECT_TRUE(undertrump);
  const v1::Observation end = Observe(seats[0]);
  EXPECT_EQ(end.status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_EQ(end.rounds_completed(), 2);

  ExpectRefusalsLogged(id, refusals);
}

}  // namespace
}  // namespace cardref
