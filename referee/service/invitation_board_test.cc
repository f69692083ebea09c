// The invitation board without gRPC: which stream takes which seat, the
// bounds per stream and per credential, seats given back by a closed
// stream, invitations dropped when their match starts or ends, and an
// entrant ended (revoked) with every seat it holds.
#include "referee/service/invitation_board.h"

#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cardref::service {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;

class NoOps : public OpsLog {
 public:
  void Write(const std::string& line) override { lines += line + "\n"; }
  std::string lines;
};

v1::Invitation Seat(const std::string& match, int seat,
                    const std::string& game = "craits") {
  v1::Invitation i;
  i.set_match_id(match);
  i.set_seat(seat);
  i.set_game(game);
  i.set_ticket("ticket-" + match + "-" + std::to_string(seat));
  return i;
}

// Everything `stream` has to send now, as "match/seat" (the open message
// as "open").
std::vector<std::string> Drain(InvitationBoard& board,
                               InvitationBoard::Stream& stream) {
  std::vector<std::string> out;
  for (;;) {
    InvitationBoard::Next next = board.Take(stream);
    if (!next.event.has_value()) return out;
    out.push_back(next.event->has_open()
                      ? "open"
                      : next.event->invitation().match_id() + "/" +
                            std::to_string(next.event->invitation().seat()));
  }
}

class InvitationBoardTest : public ::testing::Test {
 protected:
  std::shared_ptr<InvitationBoard::Stream> Open(
      const std::string& entrant, int asked,
      const std::vector<std::string>& games = {}) {
    auto stream = board_.Open(entrant, "id", games, asked, [this] { ++wakes_; });
    EXPECT_TRUE(stream.ok()) << stream.status();
    return stream.ok() ? *stream : nullptr;
  }

  NoOps ops_;
  InvitationBoard board_{{/*streams=*/3, /*invitations=*/4}, NoMetrics(),
                         &ops_};
  int wakes_ = 0;
};

TEST_F(InvitationBoardTest, AStreamGetsItsGrantedMatchesThenWaitsForOneToEnd) {
  auto s = Open("alice", 2);
  EXPECT_THAT(Drain(board_, *s), ElementsAre("open"));
  board_.Offer("alice", {Seat("m1", 0)});
  board_.Offer("alice", {Seat("m2", 1)});
  board_.Offer("alice", {Seat("m3", 0)});
  EXPECT_THAT(Drain(board_, *s), ElementsAre("m1/0", "m2/1"));
  EXPECT_EQ(board_.CountsOf("alice").queued, 1);
  board_.MatchEnded("m2");
  EXPECT_THAT(Drain(board_, *s), ElementsAre("m3/0"));
  board_.MatchEnded("m2");  // again: nothing changes
  EXPECT_THAT(Drain(board_, *s), ElementsAre());
  EXPECT_EQ(board_.CountsOf("alice").invitations, 2);
  EXPECT_GT(wakes_, 0);
}

TEST_F(InvitationBoardTest, TheStreamWithTheMostRoomTakesTheNextSeat) {
  auto a = Open("alice", 1);
  auto b = Open("alice", 3);
  Drain(board_, *a);
  Drain(board_, *b);
  for (int m = 0; m < 4; ++m) {
    board_.Offer("alice", {Seat("m" + std::to_string(m), 0)});
  }
  // b has more room for the first two; then a tie goes to the one sent
  // fewer (a); b takes the last.
  EXPECT_THAT(Drain(board_, *b), ElementsAre("m0/0", "m1/0", "m3/0"));
  EXPECT_THAT(Drain(board_, *a), ElementsAre("m2/0"));
}

TEST_F(InvitationBoardTest, ACredentialHoldsAtMostItsBoundOverItsStreams) {
  auto s = Open("alice", 100);
  InvitationBoard::Next first = board_.Take(*s);
  ASSERT_TRUE(first.event.has_value());
  EXPECT_EQ(first.event->open().max_matches(), 4);
  EXPECT_THAT(first.event->open().note(),
              HasSubstr("--max_invitations_per_credential"));
  auto t = Open("alice", 100);
  Drain(board_, *t);
  for (int m = 0; m < 6; ++m) {
    board_.Offer("alice", {Seat("m" + std::to_string(m), 0)});
  }
  EXPECT_EQ(Drain(board_, *s).size() + Drain(board_, *t).size(), 4u);
  EXPECT_EQ(board_.CountsOf("alice").queued, 2);
  // Three streams per credential here.
  Open("alice", 1);
  auto refused = board_.Open("alice", "id", {}, 1, [] {});
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(board_.Open("bob", "id", {}, -1, [] {}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(InvitationBoardTest, AnEntrantsSeatsOfOneMatchAreSentTogether) {
  auto s = Open("alice", 3);
  Drain(board_, *s);
  board_.Offer("alice", {Seat("m1", 0)});
  // Needs all 3 places.
  board_.Offer("alice", {Seat("m2", 0), Seat("m2", 1), Seat("m2", 2)});
  board_.Offer("alice", {Seat("m3", 0)});
  // m2 waits for room for its three seats, and m3 waits behind it.
  EXPECT_THAT(Drain(board_, *s), ElementsAre("m1/0"));
  board_.MatchEnded("m1");
  EXPECT_THAT(Drain(board_, *s), ElementsAre("m2/0", "m2/1", "m2/2"));
  board_.MatchEnded("m2");
  EXPECT_THAT(Drain(board_, *s), ElementsAre("m3/0"));
  // A match no stream could ever hold whole is passed over.
  board_.Offer("alice", {Seat("big", 0), Seat("big", 1), Seat("big", 2),
                         Seat("big", 3)});
  board_.Offer("alice", {Seat("m4", 0)});
  EXPECT_THAT(Drain(board_, *s), ElementsAre("m4/0"));
  EXPECT_EQ(board_.CountsOf("alice").queued, 4);
}

TEST_F(InvitationBoardTest, AStreamGetsOnlyTheGamesItPlays) {
  auto craits = Open("alice", 2, {"craits"});
  auto kraken = Open("alice", 2, {"kraken"});
  Drain(board_, *craits);
  Drain(board_, *kraken);
  board_.Offer("alice", {Seat("k1", 0, "kraken")});
  board_.Offer("alice", {Seat("c1", 0, "craits")});
  board_.Offer("alice", {Seat("x1", 0, "krass_kariert")});
  EXPECT_THAT(Drain(board_, *craits), ElementsAre("c1/0"));
  EXPECT_THAT(Drain(board_, *kraken), ElementsAre("k1/0"));
  EXPECT_EQ(board_.CountsOf("alice").queued, 1);
}

TEST_F(InvitationBoardTest, AClosedStreamGivesBackTheSeatsNotYetJoined) {
  auto a = Open("alice", 2);
  Drain(board_, *a);
  board_.Offer("alice", {Seat("m1", 0)});
  board_.Offer("alice", {Seat("m2", 0)});
  EXPECT_THAT(Drain(board_, *a), ElementsAre("m1/0", "m2/0"));
  board_.Joined("alice", "m1", 0);
  board_.Close(a);
  EXPECT_THAT(ops_.lines, HasSubstr("requeued=1"));
  // The joined seat still counts; the other waits for a stream.
  EXPECT_EQ(board_.CountsOf("alice").invitations, 1);
  EXPECT_EQ(board_.CountsOf("alice").queued, 1);
  auto b = Open("alice", 1);
  EXPECT_THAT(Drain(board_, *b), ElementsAre("open", "m2/0"));
}

TEST_F(InvitationBoardTest, QueuedSeatsAreDroppedWhenTheirMatchStartsOrEnds) {
  board_.Offer("alice", {Seat("m1", 0)});
  board_.Offer("alice", {Seat("m2", 0)});
  board_.JoinsClosed("m1");
  board_.MatchEnded("m2");
  EXPECT_EQ(board_.CountsOf("alice").queued, 0);
  EXPECT_THAT(ops_.lines, HasSubstr("event=invitation_dropped match=m1"));
  auto s = Open("alice", 2);
  EXPECT_THAT(Drain(board_, *s), ElementsAre("open"));
}

TEST_F(InvitationBoardTest, AnEndedEntrantsStreamsEndAndItsSeatsAreNamed) {
  auto s = Open("alice", 1);
  Drain(board_, *s);
  board_.Offer("alice", {Seat("m1", 0)});
  board_.Offer("alice", {Seat("m2", 1)});  // queued
  board_.Joined("alice", "m3", 1);       // joined by ticket and credential
  board_.Offer("bob", {Seat("m1", 1)});
  InvitationBoard::Ended ended = board_.EndEntrant(
      "alice", absl::PermissionDeniedError("revoked"));
  EXPECT_EQ(ended.streams, 1);
  EXPECT_THAT(ended.seats, UnorderedElementsAre(Pair("m1", 0), Pair("m2", 1),
                                                Pair("m3", 1)));
  InvitationBoard::Next next = board_.Take(*s);
  ASSERT_TRUE(next.end.has_value());
  EXPECT_EQ(next.end->code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(board_.CountsOf("alice").invitations, 0);
  EXPECT_EQ(board_.CountsOf("bob").queued, 1);  // untouched
  board_.Close(s);  // after the end: nothing to give back
  EXPECT_EQ(board_.CountsOf("alice").queued, 0);
}

}  // namespace
}  // namespace cardref::service
