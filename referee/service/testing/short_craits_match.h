// Test support: a started 2-seat Craits match (game_length SHORT) for the
// Match tests that drive one on a FakeClock.
#ifndef CARDREF_REFEREE_SERVICE_TESTING_SHORT_CRAITS_MATCH_H_
#define CARDREF_REFEREE_SERVICE_TESTING_SHORT_CRAITS_MATCH_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "games/all_games.h"
#include "referee/service/match.h"

namespace cardref::service::testing_match {

// The clock of the tests that time decisions: a decision's limit and the
// bank it draws on past the limit.
constexpr int64_t kLimitMs = 200;
constexpr int64_t kBankMs = 1000;

// Creates the match with `options` (its log in a fresh folder named after
// `options.match_id`), and both seats join as p0 and p1, each opening an
// observation stream first if `open_streams`. Use with
// ASSERT_NO_FATAL_FAILURE.
inline void StartShortCraits(MatchOptions options, bool open_streams,
                             std::unique_ptr<Match>* match,
                             std::vector<std::string>* tokens) {
  GameParams params;
  params.Set("num_players", int64_t{2});
  params.Set("game_length", std::string("SHORT"));
  auto game = AllGames().Create("craits", params);
  ASSERT_TRUE(game.ok()) << game.status();
  // A fresh folder: a log left by an earlier run whose process had the
  // same pid made Create fail ("File exists"), once 458 had piled up.
  options.log_path = (testing_util::FreshTestDir("match_" + options.match_id +
                                                 "_test_") /
                      (options.match_id + ".cardlog"))
                         .string();
  auto created = Match::Create(std::move(*game), options);
  ASSERT_TRUE(created.ok()) << created.status();
  *match = std::move(*created);
  for (int s = 0; s < 2; ++s) {
    auto joined = (*match)->Join(s, "p" + std::to_string(s), "1");
    ASSERT_TRUE(joined.ok()) << joined.status();
    tokens->push_back(joined->token);
    if (open_streams) (*match)->StreamOpened(s);
  }
  ASSERT_EQ((*match)->status(), v1::MATCH_STATUS_IN_PROGRESS);
}

// `seat`'s answer (with `token`) to the decision `obs` showed it: its legal
// action number `choice`.
inline v1::SubmitActionRequest Answer(const std::string& match_id, int seat,
                                      const std::string& token,
                                      const v1::Observation& obs,
                                      int choice) {
  v1::SubmitActionRequest answer;
  answer.set_match_id(match_id);
  answer.set_seat(seat);
  answer.set_token(token);
  *answer.mutable_action() = obs.legal_actions(choice);
  answer.set_decision_version(obs.version());
  return answer;
}

}  // namespace cardref::service::testing_match

#endif  // CARDREF_REFEREE_SERVICE_TESTING_SHORT_CRAITS_MATCH_H_
