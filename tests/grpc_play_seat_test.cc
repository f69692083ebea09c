// PlaySeat (referee/grpc/seat_play_stream.h): a seat played on one stream.
// Whole matches of every game, one stream per seat; refusals answered on
// the stream with SubmitAction's codes while the decision stays open; a
// first message that names no seat, a wrong token or an unknown match ends
// the stream with the code a unary call would get; the stream holds one of
// the seat's stream slots (docs/limits.md).
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "google/protobuf/unknown_field_set.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "tests/referee_fixture.h"

namespace cardref {
namespace {

using ::testing::HasSubstr;
using PlayStream =
    grpc::ClientReaderWriter<v1::PlaySeatRequest, v1::PlaySeatResponse>;

class PlaySeatTest : public RefereeFixture {
 protected:
  void SetUp() override {
    RefereeFixture::SetUp();
    StartServer();
  }

  // A started match of `game` for `players` seats: its id and tokens.
  Seats StartGame(const std::string& game, int players,
                  const std::string& length) {
    v1::CreateMatchRequest request;
    request.set_game(game);
    auto& values = *request.mutable_params()->mutable_values();
    // Kraken has four seats and no game_length: its rounds instead.
    if (game == "kraken") {
      if (!length.empty()) values["rounds"].set_int_value(4);
    } else {
      values["num_players"].set_int_value(players);
      if (!length.empty()) values["game_length"].set_enum_value(length);
    }
    request.set_dealing_seed(11);
    v1::CreateMatchResponse created;
    grpc::ClientContext context;
    grpc::Status s = stub_->CreateMatch(&context, request, &created);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return JoinAll(created.match_id(), players);
  }

  static v1::PlaySeatRequest SeatMessage(const Seats& m, int seat,
                                         const std::string& token) {
    v1::PlaySeatRequest first;
    first.mutable_seat()->set_match_id(m.match_id);
    first.mutable_seat()->set_seat(seat);
    first.mutable_seat()->set_token(token);
    return first;
  }
  // The first message of a stream of `seat`, with its own token.
  static v1::PlaySeatRequest SeatMessage(const Seats& m, int seat) {
    return SeatMessage(m, seat, m.tokens[seat]);
  }

  static v1::PlaySeatRequest ActionMessage(const v1::Action& action,
                                           uint64_t version,
                                           uint64_t sequence) {
    v1::PlaySeatRequest message;
    *message.mutable_action()->mutable_action() = action;
    message.mutable_action()->set_decision_version(version);
    message.mutable_action()->set_sequence(sequence);
    return message;
  }

  // Plays `seat` to the end with random legal actions on one stream;
  // returns the last observation and the stream's status.
  struct Played {
    v1::Observation last;
    grpc::Status status;
    int decisions = 0;
    int refusals = 0;
  };
  static Played PlaySeatToTheEnd(v1::Referee::Stub& stub, const Seats& m,
                                 int seat, uint64_t seed) {
    Played played;
    Rng rng(seed);
    grpc::ClientContext context;
    std::unique_ptr<PlayStream> stream = stub.PlaySeat(&context);
    if (stream->Write(SeatMessage(m, seat))) {
      v1::PlaySeatResponse message;
      uint64_t sequence = 0;
      while (stream->Read(&message)) {
        if (message.has_refused()) {
          ++played.refusals;
          continue;
        }
        played.last = message.observation();
        if (played.last.seat_to_act() != seat ||
            played.last.legal_actions().empty()) {
          continue;
        }
        ++played.decisions;
        const v1::Action& action = played.last.legal_actions(
            rng.Uniform(played.last.legal_actions_size()));
        if (!stream->Write(
                ActionMessage(action, played.last.version(), ++sequence))) {
          break;
        }
      }
    }
    played.status = stream->Finish();
    return played;
  }
};

TEST_F(PlaySeatTest, EveryGamePlaysToTheEndWithOneStreamPerSeat) {
  struct Case {
    std::string game;
    int players;
    std::string length;
  };
  for (const Case& c : {Case{"craits", 3, "SHORT"},
                        Case{"krass_kariert", 4, ""},
                        Case{"kraken", 4, "SHORT"}}) {
    SCOPED_TRACE(c.game);
    const Seats m = StartGame(c.game, c.players, c.length);
    std::vector<Played> played(c.players);
    std::vector<std::thread> threads;
    threads.reserve(c.players);
    for (int seat = 0; seat < c.players; ++seat) {
      threads.emplace_back([&, seat] {
        std::unique_ptr<v1::Referee::Stub> stub = NewStub();
        played[seat] = PlaySeatToTheEnd(*stub, m, seat, 100 + seat);
      });
    }
    for (std::thread& t : threads) t.join();
    for (int seat = 0; seat < c.players; ++seat) {
      EXPECT_TRUE(played[seat].status.ok())
          << seat << ": " << played[seat].status.error_message();
      EXPECT_EQ(played[seat].last.status(), v1::MATCH_STATUS_FINISHED);
      EXPECT_EQ(played[seat].refusals, 0);
      EXPECT_GT(played[seat].decisions, 0);
      EXPECT_EQ(played[seat].last.result().scores_size(), c.players);
    }
    // The referee played nothing for anyone: every action was a seat's.
    v1::GetMatchRequest get;
    get.set_match_id(m.match_id);
    v1::MatchInfo info;
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->GetMatch(&context, get, &info).ok());
    EXPECT_EQ(info.status(), v1::MATCH_STATUS_FINISHED);
    for (const v1::SeatFaults& faults : info.seat_faults()) {
      EXPECT_EQ(faults.timeouts(), 0);
    }
  }
}

TEST_F(PlaySeatTest, RefusalsComeOnTheStreamAndTheDecisionStaysOpen) {
  const Seats m = Start();
  const int actor = Observe(*stub_, m, 0).seat_to_act();
  const int other = 1 - actor;

  grpc::ClientContext other_context;
  std::unique_ptr<PlayStream> waiting = stub_->PlaySeat(&other_context);
  ASSERT_TRUE(waiting->Write(SeatMessage(m, other)));
  grpc::ClientContext context;
  std::unique_ptr<PlayStream> stream = stub_->PlaySeat(&context);
  ASSERT_TRUE(stream->Write(SeatMessage(m, actor)));
  v1::PlaySeatResponse message;
  ASSERT_TRUE(stream->Read(&message));
  ASSERT_TRUE(message.has_observation());
  const v1::Observation obs = message.observation();
  ASSERT_EQ(obs.seat_to_act(), actor);

  // Not a move of this game: what SubmitAction answers, on the stream.
  v1::Action nonsense;
  nonsense.set_notation("fly to the moon");
  ASSERT_TRUE(stream->Write(ActionMessage(nonsense, obs.version(), 1)));
  ASSERT_TRUE(stream->Read(&message));
  ASSERT_TRUE(message.has_refused());
  EXPECT_EQ(message.refused().code(),
            static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_EQ(message.refused().sequence(), 1u);
  EXPECT_EQ(message.refused().decision_version(), obs.version());
  EXPECT_FALSE(message.refused().message().empty());

  // An action that names another seat is this stream's business only.
  v1::PlaySeatRequest foreign = ActionMessage(obs.legal_actions(0),
                                              obs.version(), 2);
  foreign.mutable_action()->set_seat(other);
  foreign.mutable_action()->set_token(m.tokens[other]);
  ASSERT_TRUE(stream->Write(foreign));
  ASSERT_TRUE(stream->Read(&message));
  ASSERT_TRUE(message.has_refused());
  EXPECT_EQ(message.refused().code(),
            static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_THAT(message.refused().message(), HasSubstr("names no other"));

  // A field this referee does not know, deep in the action: refused with
  // its path, not ignored.
  v1::PlaySeatRequest newer = ActionMessage(obs.legal_actions(0),
                                            obs.version(), 3);
  v1::Action& typed = *newer.mutable_action()->mutable_action();
  typed.GetReflection()->MutableUnknownFields(&typed)->AddVarint(77, 1);
  ASSERT_TRUE(stream->Write(newer));
  ASSERT_TRUE(stream->Read(&message));
  ASSERT_TRUE(message.has_refused());
  EXPECT_EQ(message.refused().code(),
            static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_THAT(message.refused().message(), HasSubstr("action.#77"));

  // The other seat, not to act, is refused as SubmitAction refuses it.
  v1::PlaySeatResponse other_message;
  ASSERT_TRUE(waiting->Write(ActionMessage(obs.legal_actions(0),
                                           obs.version(), 1)));
  ASSERT_TRUE(waiting->Read(&other_message));
  ASSERT_TRUE(other_message.has_refused());
  EXPECT_EQ(other_message.refused().code(),
            static_cast<int>(grpc::StatusCode::FAILED_PRECONDITION));
  EXPECT_THAT(other_message.refused().message(), HasSubstr("not your turn"));

  // The decision is still open: a legal action is taken, and the match
  // moved on.
  ASSERT_TRUE(stream->Write(ActionMessage(obs.legal_actions(0),
                                          obs.version(), 4)));
  for (int i = 0; i < 200; ++i) {
    if (Observe(*stub_, m, actor).version() > obs.version()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_GT(Observe(*stub_, m, actor).version(), obs.version());
  context.TryCancel();
  other_context.TryCancel();
  stream->Finish();
  waiting->Finish();
}

TEST_F(PlaySeatTest, TheFirstMessageNamesASeatWithItsToken) {
  const Seats m = Start();
  struct Case {
    const char* what;
    v1::PlaySeatRequest first;
    grpc::StatusCode code;
  };
  v1::Action any;
  any.set_notation("draw");
  std::vector<Case> cases = {
      {"an action first", ActionMessage(any, 1, 1),
       grpc::StatusCode::INVALID_ARGUMENT},
      {"another seat's token", SeatMessage(m, 0, m.tokens[1]),
       grpc::StatusCode::PERMISSION_DENIED},
  };
  Seats unknown = m;
  unknown.match_id = "no-such-match";
  cases.push_back({"an unknown match", SeatMessage(unknown, 0, m.tokens[0]),
                   grpc::StatusCode::NOT_FOUND});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    grpc::ClientContext context;
    std::unique_ptr<PlayStream> stream = stub_->PlaySeat(&context);
    stream->Write(c.first);
    v1::PlaySeatResponse message;
    EXPECT_FALSE(stream->Read(&message));
    const grpc::Status s = stream->Finish();
    EXPECT_EQ(s.error_code(), c.code) << s.error_message();
    EXPECT_FALSE(s.error_message().empty());
  }
  // A stream closed before naming its seat.
  grpc::ClientContext context;
  std::unique_ptr<PlayStream> stream = stub_->PlaySeat(&context);
  stream->WritesDone();
  v1::PlaySeatResponse message;
  EXPECT_FALSE(stream->Read(&message));
  const grpc::Status s = stream->Finish();
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("named the seat"));
}

TEST_F(PlaySeatTest, AStreamHoldsOneOfTheSeatsStreamSlots) {
  server_.reset();
  options_.manager.limits.max_streams_per_seat = 1;
  StartServer();
  const Seats m = Start();
  const int actor = Observe(*stub_, m, 0).seat_to_act();
  grpc::ClientContext first_context;
  std::unique_ptr<PlayStream> first = stub_->PlaySeat(&first_context);
  ASSERT_TRUE(first->Write(SeatMessage(m, actor)));
  // Its decision arrived: the stream holds the seat's only slot.
  v1::PlaySeatResponse message;
  ASSERT_TRUE(first->Read(&message));
  ASSERT_TRUE(message.has_observation());

  v1::SeatRequest request;
  request.set_match_id(m.match_id);
  request.set_seat(actor);
  request.set_token(m.tokens[actor]);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(10));
  std::unique_ptr<grpc::ClientReader<v1::Observation>> reader =
      stub_->WatchObservations(&context, request);
  v1::Observation obs;
  EXPECT_FALSE(reader->Read(&obs));
  const grpc::Status second = reader->Finish();
  EXPECT_EQ(second.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED)
      << second.error_message();
  first_context.TryCancel();
  first->Finish();
}

TEST_F(PlaySeatTest, AFloodOnAStreamIsAnsweredOneByOneAndHarmsNoOne) {
  server_.reset();
  options_.manager.limits.calls_per_second_per_token = 100;
  options_.manager.limits.burst_per_token = 50;
  StartServer();
  const Seats m = Start();
  const int actor = Observe(*stub_, m, 0).seat_to_act();
  const int waiting_seat = 1 - actor;
  // A legal action of the seat to act, sent by the other.
  const v1::Observation obs = Observe(*stub_, m, actor);
  ASSERT_FALSE(obs.legal_actions().empty());
  // Out-of-turn actions sent without reading: the referee reads the next
  // only once the last is answered, so they wait in the transport.
  constexpr int kFlood = 1000;
  grpc::ClientContext context;
  std::unique_ptr<PlayStream> stream = stub_->PlaySeat(&context);
  ASSERT_TRUE(stream->Write(SeatMessage(m, waiting_seat)));
  std::thread flooder([&] {
    for (int i = 1; i <= kFlood; ++i) {
      if (!stream->Write(ActionMessage(obs.legal_actions(0), obs.version(), i))) {
        return;
      }
    }
  });
  int refused = 0;
  int rate_limited = 0;
  v1::PlaySeatResponse message;
  while (refused < kFlood && stream->Read(&message)) {
    if (!message.has_refused()) continue;
    ++refused;
    const auto code = static_cast<grpc::StatusCode>(message.refused().code());
    EXPECT_TRUE(code == grpc::StatusCode::FAILED_PRECONDITION ||
                code == grpc::StatusCode::RESOURCE_EXHAUSTED)
        << message.refused().message();
    rate_limited += code == grpc::StatusCode::RESOURCE_EXHAUSTED;
  }
  flooder.join();
  // Every action answered, in order, and the rate limit held.
  EXPECT_EQ(refused, kFlood);
  EXPECT_GT(rate_limited, 0);
  // The seat to act, with a token of its own, is not held back.
  const grpc::Status played = Retrying([&] {
    return Submit(*stub_, m, actor, obs.legal_actions(0), obs.version(), 1);
  });
  EXPECT_TRUE(played.ok()) << played.error_message();
  EXPECT_GT(Observe(*stub_, m, actor).version(), obs.version());
  context.TryCancel();
  stream->Finish();
}

}  // namespace
}  // namespace cardref
