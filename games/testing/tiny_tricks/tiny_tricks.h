// Tiny Tricks: a test-only trick-taking game, small enough to read in a
// minute, that exercises every generic part of cardref the way a real game
// does (OpenSpiel's tic-tac-toe): a deal with hidden hands and an unseen
// remainder, decisions with a follow-suit rule, several rounds, a result.
// It is registered like every game (games/games.cmake) but served only by a
// referee started with --serve_test_games (GameTraits::test_only).
//
// Rules (rule IDs TT-x; README.md in this folder has them in full):
//   TT-1  Deck: 12 cards, suits A and B, ranks 1..6; card id 6*suit +
//         rank - 1 (A1 = 0 .. A6 = 5, B1 = 6 .. B6 = 11).
//   TT-2  Deal: every round the deck is shuffled (a chance event); seat s
//         gets cards 3s..3s+2 of the order, the rest are never shown.
//   TT-3  Play: three tricks a round; the first leader of round r is seat
//         (r - 1) mod n, then turns go to the next seat up.
//   TT-4  A seat must follow the led suit if it can.
//   TT-5  The highest card of the led suit wins the trick and leads next.
//   TT-6  A trick is one point. After the last round the highest total
//         ranks first (ties share); a game where every seat ties has no
//         winner.
//
// Parameters:
//   num_players  int 2..3, default 2 (TT-0)
//   rounds       int 1..3, default 1 (TT-0)
#ifndef CARDREF_GAMES_TESTING_TINY_TRICKS_TINY_TRICKS_H_
#define CARDREF_GAMES_TESTING_TINY_TRICKS_TINY_TRICKS_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "games/api/game.h"
#include "games/api/registry.h"

namespace cardref::tiny_tricks {

inline constexpr int kDeckSize = 12;
inline constexpr int kHandSize = 3;
inline constexpr int kRulesVersion = 1;

constexpr int SuitOf(Card c) { return c / 6; }
constexpr int RankOf(Card c) { return c % 6 + 1; }
// "A1".."B6".
std::string CardName(Card c);

// The registry entry: id "tiny_tricks", test-only.
GameInfo MakeGameInfo();

class TinyTricksGame final : public Game {
 public:
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<TinyTricksGame>> Create(
      const GameParams& given);

  absl::string_view id() const override { return "tiny_tricks"; }
  int rules_version() const override { return kRulesVersion; }
  int num_seats() const override { return num_players_; }
  int rounds() const { return rounds_; }
  std::unique_ptr<State> NewInitialState() const override;

 private:
  TinyTricksGame(GameParams params, int num_players, int rounds);
  int num_players_;
  int rounds_;
};

// One trick: the cards played so far, in order, with who played them.
struct Trick {
  int leader = -1;
  std::vector<Card> cards;
  std::vector<int> seats;
  int winner = -1;  // once complete
};

class TinyTricksState final : public State {
 public:
  explicit TinyTricksState(const TinyTricksGame* game);

  NodeType node_type() const override;
  int current_seat() const override;
  void LegalActions(ActionList& out) const override;
  void ApplyLegalAction(Action action) override;
  ChanceKind chance_kind() const override { return ChanceKind::kDeal; }
  int ChanceCards(absl::Span<Card> out) const override;
  [[nodiscard]] absl::Status ApplyChance(
      ChanceKind kind, absl::Span<const Card> order) override;
  int round() const override { return round_; }
  int rounds_completed() const override { return rounds_completed_; }
  GameOutcome Outcome() const override;
  void VisibleCards(int seat, std::vector<Card>* out) const override;
  std::unique_ptr<State> Clone() const override;
  std::string ActionToString(Action action) const override;
  absl::StatusOr<Action> ParseAction(absl::string_view text) const override;
  std::string DebugString() const override;

  // What a view shows. Hands are for their own seat only (codec, views).
  const std::vector<Card>& hand(int seat) const { return hands_[seat]; }
  const std::vector<Trick>& tricks() const { return tricks_; }  // this round
  int tricks_won(int seat, int round) const;  // round 1-based, completed
  int64_t total(int seat) const { return totals_[seat]; }
  int num_seats() const { return static_cast<int>(hands_.size()); }

 protected:
  absl::Status ExplainIllegal(Action action) const override;

 private:
  const TinyTricksGame& tiny_game() const {
    return static_cast<const TinyTricksGame&>(game());
  }
  int led_suit() const;

  int round_ = 1;            // the round being played (or dealt)
  int rounds_completed_ = 0;
  bool dealt_ = false;       // this round's deal has happened
  int to_act_ = -1;
  std::vector<std::vector<Card>> hands_;
  std::vector<Trick> tricks_;                    // this round's
  std::vector<std::vector<int>> tricks_won_;     // per completed round
  std::vector<int64_t> totals_;
};

}  // namespace cardref::tiny_tricks

#endif  // CARDREF_GAMES_TESTING_TINY_TRICKS_TINY_TRICKS_H_
