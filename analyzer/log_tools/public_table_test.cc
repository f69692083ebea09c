// The public view (kPublicViewer, public_table.h): on every golden log no
// hand is shown and no card that a seat holds; the words hide deck orders,
// refusals and the seed; and a game view that draws a seat's secret into a
// shared part of its table loses that part instead of showing it.
#include "analyzer/log_tools/public_table.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/log_tools/playback.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "games/all_games.h"
#include "referee/record/game_log.h"

namespace cardref::log_tools {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

std::vector<std::string> GoldenLogs() {
  std::vector<std::string> logs;
  for (const auto& entry :
       std::filesystem::directory_iterator(CARDREF_GOLDEN_LOG_DIR)) {
    if (entry.path().extension() == ".cardlog") logs.push_back(entry.path());
  }
  std::sort(logs.begin(), logs.end());
  return logs;
}

// Every face-up card of a table (piles and the cards in front of seats),
// with how often it shows.
std::map<std::string, int> FaceUp(const Table& table) {
  std::map<std::string, int> cards;
  for (const Pile& p : table.piles) {
    for (const CardFace& c : p.cards) ++cards[c.Text()];
  }
  for (const SeatTable& s : table.seats) {
    for (const CardFace& c : s.extra) ++cards[c.Text()];
  }
  return cards;
}

TEST(PublicViewTest, ShowsNoHandAndOnlyCardsEverySeatSees) {
  for (const std::string& path : GoldenLogs()) {
    SCOPED_TRACE(path);
    absl::StatusOr<record::GameLog> log = record::ReadGameLog(path);
    ASSERT_TRUE(log.ok()) << log.status();
    absl::StatusOr<Playback> pub = BuildPlayback(*log, AllGames(), kPublicViewer);
    ASSERT_TRUE(pub.ok()) << pub.status();
    const Playback full = *BuildPlayback(*log, AllGames(), -1);
    const int seats = static_cast<int>(full.seat_names.size());
    std::vector<Playback> seen;
    seen.reserve(seats);
    for (int v = 0; v < seats; ++v) {
      seen.push_back(*BuildPlayback(*log, AllGames(), v));
    }
    ASSERT_EQ(pub->steps.size(), full.steps.size());
    EXPECT_EQ(pub->final_text, full.final_text);
    EXPECT_EQ(pub->score_rows, full.score_rows);
    // Krass Kariert's cards repeat: a card in a pile may match one in a hand.
    const bool unique_cards = full.header.game() != "krass_kariert";
    int face_up = 0;
    for (size_t k = 0; k < pub->steps.size(); ++k) {
      const Step& step = pub->steps[k];
      SCOPED_TRACE(absl::StrCat("record ", step.record_index, ": ", step.text));
      EXPECT_THAT(step.text, Not(HasSubstr(", deck: ")));
      EXPECT_THAT(step.text, Not(HasSubstr("top first")));
      if (step.kind == "seed_reveal") {
        EXPECT_EQ(step.text, "dealing seed revealed");
      }
      if (step.kind == "rejected") {
        EXPECT_THAT(step.text, StartsWith("refused a submission of "));
      }
      ASSERT_EQ(step.table.seats.size(), static_cast<size_t>(seats));
      for (int s = 0; s < seats; ++s) {
        const SeatTable& seat = step.table.seats[s];
        EXPECT_FALSE(seat.hand_visible);
        EXPECT_TRUE(seat.hand.empty());
        EXPECT_EQ(seat.hand_size, full.steps[k].table.seats[s].hand_size);
        EXPECT_EQ(seat.to_act, full.steps[k].table.seats[s].to_act);
      }
      // Each face-up card shows in every seat's own view as often.
      const std::map<std::string, int> shown = FaceUp(step.table);
      face_up += static_cast<int>(shown.size());
      for (int v = 0; v < seats; ++v) {
        std::map<std::string, int> theirs = FaceUp(seen[v].steps[k].table);
        for (const auto& [card, count] : shown) {
          EXPECT_GE(theirs[card], count) << card << " is not seen by seat " << v;
        }
      }
      if (!unique_cards) continue;
      // Kraken's turned trump cards come from a deck of their own (KR-4.2).
      Table same_deck = step.table;
      same_deck.piles.erase(
          std::remove_if(same_deck.piles.begin(), same_deck.piles.end(),
                         [](const Pile& p) {
                           return p.title.rfind("trump deck", 0) == 0;
                         }),
          same_deck.piles.end());
      const std::map<std::string, int> played = FaceUp(same_deck);
      for (const SeatTable& held : full.steps[k].table.seats) {
        for (const CardFace& c : held.hand) {
          EXPECT_EQ(played.count(c.Text()), 0u)
              << c.Text() << " is in " << held.name << "'s hand";
        }
      }
    }
    EXPECT_GT(face_up, 0) << "the public view showed no card at all";
  }
}

// A view that draws the viewer's secret (its observation's `seat`) into the
// status line, a pile and its own info line, as a careless game might.
class LeakyView : public GameView {
 public:
  CardFace Face(uint32_t card) const override {
    return {absl::StrCat(card), "S"};
  }
  Table MakeTable(const std::vector<v1::Observation>& views, int viewer,
                  const std::vector<std::string>& names) const override {
    Table t;
    const int secret = views[viewer].seat() * 10;
    for (size_t s = 0; s < views.size(); ++s) {
      SeatTable seat;
      seat.name = names[s];
      seat.hand_size = 5;
      seat.hand_visible = static_cast<int>(s) == viewer;
      if (seat.hand_visible) seat.hand.push_back(Face(secret));
      seat.info = static_cast<int>(s) == viewer ? absl::StrCat("holds ", secret)
                                                : "chips 3";
      seat.extra = {Face(7)};
      seat.to_act = s == 1;
      t.seats.push_back(std::move(seat));
    }
    t.piles.push_back(Pile{"trick", {Face(9)}, {names[0]}});
    t.piles.push_back(Pile{"your cards", {Face(secret)}, {}});
    t.status = absl::StrCat("round 2, you hold ", secret);
    return t;
  }
  std::vector<std::string> Effects(
      const v1::Observation& before, const v1::Observation& after,
      const v1::Action*, const std::vector<std::string>&) const override {
    std::vector<std::string> lines = {"alice plays 9S", "bob draws 2 cards",
                                      "bob draws 2 cards"};
    // Seat 1 saw the second draw only once; seat 2 learns something private.
    if (after.seat() == 1) lines.pop_back();
    if (after.seat() == 2) lines.push_back(absl::StrCat("you drew ", before.seat()));
    return lines;
  }
  std::vector<std::string> RoundResultLines(
      const v1::RoundResult&, const std::vector<std::string>&) const override {
    return {};
  }
  std::vector<std::string> ScoreColumns(
      const std::vector<std::string>& names) const override {
    return names;
  }
  std::vector<std::string> ScoreRow(const v1::RoundResult&) const override {
    return {};
  }
  std::vector<std::string> FinalResultLines(
      const v1::FinalResult&, const std::vector<std::string>&) const override {
    return {};
  }
};

std::vector<v1::Observation> ThreeSeats() {
  std::vector<v1::Observation> views(3);
  for (int s = 0; s < 3; ++s) views[s].set_seat(s + 1);
  return views;
}

TEST(PublicTableTest, PartsTheSeatsDrawDifferentlyAreLeftOut) {
  const LeakyView view;
  const Table t = PublicTable(view, ThreeSeats(), {"alice", "bob", "carol"});
  ASSERT_EQ(t.seats.size(), 3u);
  for (const SeatTable& s : t.seats) {
    EXPECT_FALSE(s.hand_visible);
    EXPECT_TRUE(s.hand.empty());
    EXPECT_EQ(s.hand_size, 5);
    // Each seat's own "holds N" is not what the others draw for it.
    EXPECT_EQ(s.info, "chips 3");
    ASSERT_EQ(s.extra.size(), 1u);
    EXPECT_EQ(s.extra[0].rank, "7");
  }
  EXPECT_EQ(t.seats[0].name, "alice");
  EXPECT_TRUE(t.seats[1].to_act);
  EXPECT_FALSE(t.seats[0].to_act);
  ASSERT_EQ(t.piles.size(), 1u);  // "your cards" differs from seat to seat
  EXPECT_EQ(t.piles[0].title, "trick");
  EXPECT_EQ(t.status, "");  // it names the viewer's secret
}

TEST(PublicTableTest, EffectsAreTheLinesEverySeatHas) {
  const LeakyView view;
  const std::vector<v1::Observation> views = ThreeSeats();
  EXPECT_THAT(PublicEffects(view, views, views, nullptr, {"a", "b", "c"}),
              ElementsAre("alice plays 9S", "bob draws 2 cards"));
}

TEST(PlaybackBuilderTest, StepsOneAtATimeAreThoseOfTheWholeLog) {
  absl::StatusOr<record::GameLog> log = record::ReadGameLog(
      absl::StrCat(CARDREF_GOLDEN_LOG_DIR, "/kraken_2rounds.cardlog"));
  ASSERT_TRUE(log.ok()) << log.status();
  const Playback whole = *BuildPlayback(*log, AllGames(), kPublicViewer);
  absl::StatusOr<std::unique_ptr<PlaybackBuilder>> b =
      PlaybackBuilder::Create(log->header(), AllGames(), kPublicViewer);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ((*b)->seat_names(), whole.seat_names);
  EXPECT_EQ((*b)->initial_table().seats.size(), 4u);
  for (size_t i = 1; i < log->records.size(); ++i) {
    absl::StatusOr<Step> step = (*b)->Add(log->records[i], i, log->offsets[i]);
    ASSERT_TRUE(step.ok()) << step.status();
    EXPECT_EQ(step->text, whole.steps[i - 1].text);
    EXPECT_EQ(step->effects, whole.steps[i - 1].effects);
  }
  // A record out of turn: the game does not follow it.
  absl::StatusOr<std::unique_ptr<PlaybackBuilder>> fresh =
      PlaybackBuilder::Create(log->header(), AllGames(), kPublicViewer);
  ASSERT_TRUE(fresh.ok());
  size_t action = 1;
  while (!log->records[action].has_action()) ++action;
  EXPECT_EQ((*fresh)->Add(log->records[action], 1, 0).status().code(),
            absl::StatusCode::kFailedPrecondition);
  // Seats other than the game's are refused; the public viewer is not one.
  EXPECT_EQ(PlaybackBuilder::Create(log->header(), AllGames(), 4).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace cardref::log_tools
