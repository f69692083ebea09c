// The event streams of a match (match_events.h): the spectators' stream
// never shows a card that is not common knowledge at that moment, in every
// game; the organiser's stream is the log; delays and resumption hold.
#include "referee/codec/logged_actions.h"
#include "referee/service/match_events.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "games/all_games.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "referee/codec/testing/proto_cards.h"
#include "referee/record/game_log.h"
#include "referee/service/match_manager.h"

namespace cardref::service {
namespace {

using ::cardref::codec::proto_cards::CollectCards;

struct GameCase {
  std::string game;
  int players;
  std::vector<std::pair<std::string, std::string>> enum_params;

  friend void PrintTo(const GameCase& c, std::ostream* os) {
    *os << c.game << " " << c.players << "p";
  }
};

std::string CaseName(const ::testing::TestParamInfo<GameCase>& info) {
  return info.param.game + "_" + std::to_string(info.param.players) + "p";
}

class SpectatorStreamTest : public ::testing::TestWithParam<GameCase> {
 protected:
  void SetUp() override {
    dir_ = testing_util::FreshTestDir("match_events_test_" +
                                      CaseName({GetParam(), 0}) + "_")
               .string();
    ManagerOptions options;
    options.log_dir = dir_;
    options.referee_version = "test";
    manager_ = std::make_unique<MatchManager>(&AllGames(), options);
  }

  // Creates and joins a match of the case's game.
  std::shared_ptr<Match> Start(uint64_t seed) {
    v1::CreateMatchRequest create;
    create.set_game(GetParam().game);
    auto& values = *create.mutable_params()->mutable_values();
    if (GetParam().game != "kraken") {
      values["num_players"].set_int_value(GetParam().players);
    }
    for (const auto& [name, value] : GetParam().enum_params) {
      values[name].set_enum_value(value);
    }
    create.set_dealing_seed(seed);
    auto created = manager_->CreateMatch(create);
    EXPECT_TRUE(created.ok()) << created.status();
    tokens_.clear();
    for (int s = 0; s < GetParam().players; ++s) {
      v1::JoinMatchRequest join;
      join.set_match_id(created->match_id());
      join.set_player_name("p" + std::to_string(s));
      auto joined = manager_->JoinMatch(join);
      EXPECT_TRUE(joined.ok()) << joined.status();
      tokens_.push_back(joined->token());
    }
    return *manager_->Find(created->match_id());
  }

  // The cards every seat sees now, with the actions since `since_version`.
  std::set<uint32_t> CommonCards(Match& match, uint64_t since_version) {
    std::set<uint32_t> common;
    for (int s = 0; s < GetParam().players; ++s) {
      auto obs = match.Observe(s, tokens_[s], since_version);
      EXPECT_TRUE(obs.ok()) << obs.status();
      std::vector<uint32_t> cards;
      CollectCards(*obs, &cards);
      std::set<uint32_t> seen(cards.begin(), cards.end());
      if (s == 0) {
        common = seen;
      } else {
        std::set<uint32_t> both;
        for (uint32_t c : common) {
          if (seen.count(c)) both.insert(c);
        }
        common = both;
      }
    }
    return common;
  }

  // Plays `match` to its end with random legal actions (and, now and then,
  // a refused submission), checking the spectators' events as they come:
  // every card in them was common knowledge by then (known_ accumulates
  // what every seat has seen), chance events show no card, and refused
  // submissions never appear.
  void PlayAndCheck(Match& match, uint64_t seed) {
    Rng rng(seed);
    std::set<uint32_t> known = CommonCards(match, 1);
    uint64_t after = 0;
    int spectator_events = 0;
    auto check_new_events = [&] {
      EventBatch batch = match.EventsAfter(after, Audience::kSpectator, 0, 1000);
      for (const v1::MatchEvent& e : batch.events) {
        EXPECT_GT(e.index(), after);
        after = e.index();
        ++spectator_events;
        EXPECT_FALSE(e.record().has_rejected());
        EXPECT_TRUE(e.record().prev_hash().empty());
        EXPECT_TRUE(e.record().signature().empty());
        if (e.record().has_chance()) {
          EXPECT_EQ(e.record().chance().cards_size(), 0);
          EXPECT_GT(e.chance_cards(), 0);
        }
        std::vector<uint32_t> cards;
        CollectCards(e, &cards);
        for (uint32_t c : cards) {
          EXPECT_TRUE(known.count(c))
              << "card " << c << " in spectator event " << e.index() << " ("
              << e.record().ShortDebugString().substr(0, 200)
              << ") is not common knowledge";
        }
      }
      return batch.complete;
    };
    check_new_events();
    for (int step = 0; step < 20000; ++step) {
      const Match::Progress p = match.progress();
      if (p.status != v1::MATCH_STATUS_IN_PROGRESS) break;
      const int seat = p.seat_to_act;
      auto obs = match.Observe(seat, tokens_[seat], p.version);
      ASSERT_TRUE(obs.ok());
      ASSERT_GT(obs->legal_actions_size(), 0);
      v1::SubmitActionRequest submit;
      submit.set_match_id(std::string(match.id()));
      submit.set_token(tokens_[seat]);
      if (rng.Uniform(20) == 0) {  // out of turn: refused and logged
        const int other = (seat + 1) % GetParam().players;
        submit.set_seat(other);
        submit.set_token(tokens_[other]);
        *submit.mutable_action() = obs->legal_actions(0);
        EXPECT_FALSE(match.Submit(submit).ok());
        submit.set_token(tokens_[seat]);
      }
      submit.set_seat(seat);
      *submit.mutable_action() =
          obs->legal_actions(rng.Uniform(obs->legal_actions_size()));
      submit.set_decision_version(obs->version());
      ASSERT_TRUE(match.Submit(submit).ok());
      for (uint32_t c : CommonCards(match, p.version)) known.insert(c);
      check_new_events();
    }
    EXPECT_EQ(match.status(), v1::MATCH_STATUS_FINISHED);
    EXPECT_TRUE(check_new_events());  // complete: nothing more will come
    // The organiser's stream is the log itself, refused submissions and
    // deck orders included; the spectators' skips only refused ones.
    auto log = codec::ReadGameLogWithActions(match.Info().log_path());
    ASSERT_TRUE(log.ok());
    EventBatch full = match.EventsAfter(0, Audience::kOrganiser, 0, 1 << 20);
    ASSERT_EQ(full.events.size(), log->records.size());
    int rejected = 0;
    for (size_t i = 0; i < full.events.size(); ++i) {
      EXPECT_EQ(full.events[i].index(), i + 1);
      EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(
          full.events[i].record(), log->records[i]))
          << i;
      rejected += log->records[i].has_rejected();
    }
    EXPECT_GT(rejected, 0);
    EXPECT_EQ(spectator_events, static_cast<int>(log->records.size()) - rejected);
  }

  std::string dir_;
  std::unique_ptr<MatchManager> manager_;
  std::vector<std::string> tokens_;
};

TEST_P(SpectatorStreamTest, ShowsOnlyCommonKnowledgeInRandomGames) {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    SCOPED_TRACE(seed);
    std::shared_ptr<Match> match = Start(seed);
    PlayAndCheck(*match, seed * 7);
  }
}

// Delayed by N decisions: during play no event is shown before N further
// actions follow it; once the match is over every event is.
TEST_P(SpectatorStreamTest, DelayHoldsBackTheLastDecisions) {
  constexpr uint32_t kDelay = 3;
  std::shared_ptr<Match> match = Start(11);
  Rng rng(5);
  for (int step = 0; step < 20000; ++step) {
    const Match::Progress p = match->progress();
    if (p.status != v1::MATCH_STATUS_IN_PROGRESS) break;
    EventBatch delayed =
        match->EventsAfter(0, Audience::kSpectator, kDelay, 1 << 20);
    EventBatch full = match->EventsAfter(0, Audience::kOrganiser, 0, 1 << 20);
    EXPECT_FALSE(delayed.complete);
    // Shown exactly: the public events with at least kDelay actions after.
    // Counted from the end: one pass, not one per event (a quadratic check
    // per decision made this test the slowest of the sanitizer lanes).
    std::vector<uint64_t> expected;
    uint32_t actions_after = 0;
    for (auto e = full.events.rbegin(); e != full.events.rend(); ++e) {
      if (!e->record().has_rejected() && actions_after >= kDelay) {
        expected.push_back(e->index());
      }
      actions_after += e->record().has_action();
    }
    std::reverse(expected.begin(), expected.end());
    std::vector<uint64_t> shown;
    for (const v1::MatchEvent& e : delayed.events) shown.push_back(e.index());
    ASSERT_EQ(shown, expected);
    const int seat = p.seat_to_act;
    auto obs = match->Observe(seat, tokens_[seat], p.version);
    ASSERT_TRUE(obs.ok());
    v1::SubmitActionRequest submit;
    submit.set_match_id(std::string(match->id()));
    submit.set_seat(seat);
    submit.set_token(tokens_[seat]);
    *submit.mutable_action() =
        obs->legal_actions(rng.Uniform(obs->legal_actions_size()));
    ASSERT_TRUE(match->Submit(submit).ok());
  }
  EventBatch delayed = match->EventsAfter(0, Audience::kSpectator, kDelay, 1 << 20);
  EventBatch live = match->EventsAfter(0, Audience::kSpectator, 0, 1 << 20);
  EXPECT_TRUE(delayed.complete);
  ASSERT_EQ(delayed.events.size(), live.events.size());
  EXPECT_TRUE(delayed.events.back().record().has_final_result());
}

// Reading in slices from the last index seen (as a client resuming after a
// disconnect does) gives every event once, in order.
TEST_P(SpectatorStreamTest, ResumingFromTheLastIndexMissesAndRepeatsNothing) {
  std::shared_ptr<Match> match = Start(21);
  Rng rng(9);
  for (int step = 0; step < 20000; ++step) {
    const Match::Progress p = match->progress();
    if (p.status != v1::MATCH_STATUS_IN_PROGRESS) break;
    const int seat = p.seat_to_act;
    auto obs = match->Observe(seat, tokens_[seat], p.version);
    ASSERT_TRUE(obs.ok());
    v1::SubmitActionRequest submit;
    submit.set_match_id(std::string(match->id()));
    submit.set_seat(seat);
    submit.set_token(tokens_[seat]);
    *submit.mutable_action() =
        obs->legal_actions(rng.Uniform(obs->legal_actions_size()));
    ASSERT_TRUE(match->Submit(submit).ok());
  }
  for (Audience audience : {Audience::kSpectator, Audience::kOrganiser}) {
    const EventBatch whole = match->EventsAfter(0, audience, 0, 1 << 20);
    std::vector<uint64_t> resumed;
    uint64_t after = 0;
    for (;;) {
      EventBatch slice = match->EventsAfter(after, audience, 0, 1 + rng.Uniform(5));
      for (const v1::MatchEvent& e : slice.events) resumed.push_back(e.index());
      if (!slice.events.empty()) after = slice.events.back().index();
      if (slice.complete) break;
      ASSERT_FALSE(slice.events.empty());
    }
    ASSERT_EQ(resumed.size(), whole.events.size());
    for (size_t i = 0; i < resumed.size(); ++i) {
      EXPECT_EQ(resumed[i], whole.events[i].index());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryGame, SpectatorStreamTest,
    ::testing::Values(GameCase{"craits", 2, {{"game_length", "SHORT"}}},
                      GameCase{"craits", 4, {{"game_length", "SHORT"}}},
                      GameCase{"krass_kariert", 3, {}},
                      GameCase{"krass_kariert", 5, {}},
                      GameCase{"kraken", 4, {}}),
    CaseName);

}  // namespace
}  // namespace cardref::service
