// Craits, a Crazy Eights relative with a "crank" of aces and twos.
//
// Rules source: /work/shared/rules/craits.md (normative; rule IDs CR-x.y),
// itself from the gamerules.com "Craits" page. Every rule cited in this
// folder refers to that text; its section 7 lists the rulings it made.
//
// Parameters (CR-0.4; names exactly as in the spec table):
//   num_players           int 2..5, default 4 (CR-0.3; a match setting)
//   game_length           FULL (15 rounds) | SHORT (8)     default FULL
//   first_dealer          int 0..num_players-1              default 0
//   fool_mode             AUTO | CALL                       default AUTO
//   voluntary_draw        bool                              default false
//   nines_wild            bool                              default false
//   seven_skips           bool                              default false
//   two_player_ten_skips  bool                              default false
//   surplus_threes        MINUS_50 | ZERO                   default MINUS_50
//   round_action_limit    int 50..100000                    default 1000
//
// Implementation notes:
// - Hands are 64-bit card masks; the stock and the discard pile are fixed
//   arrays (stock top = last element). A State is a flat value: Clone is a
//   copy and no decision allocates.
// - Chance: ChanceKind::kDeal (52 cards) before every round, and
//   ChanceKind::kReshuffle (the discard pile minus its top card) exactly
//   when a card must be drawn from an empty stock (CR-9.2). A reshuffle may
//   fall inside an action's effects (a 5's draws, a 7, a crank DRAW, an
//   AUTO fool penalty, the draws after going out): every effect of an action
//   is first written as a queue of draw obligations plus one continuation
//   (give the turn to a seat / keep the seat / end the round); the queue is
//   then drained, and if it stops at a reshuffle the state is a chance node
//   until ApplyChance, which resumes the queue where it stopped.
// - round() is the round being played, or the round whose deal is awaited
//   at a deal chance node; once terminal it is the last round.
// - Between rounds (deal pending) the phase is ROUND_OVER and all piles are
//   empty; the finished round's hands are in round_results().
// - Spec holes decided here are marked "Ruling:" in craits.cc and tested in
//   craits_test.cc.
#ifndef CARDREF_GAMES_CRAITS_CRAITS_H_
#define CARDREF_GAMES_CRAITS_CRAITS_H_

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
#include "games/craits/craits_action.h"
#include "games/craits/craits_cards.h"
#include "games/craits/craits_scoring.h"

namespace cardref::craits {

inline constexpr int kMaxRounds = 15;
inline constexpr int kRulesVersion = 1;

enum class GameLength { kFull, kShort };
enum class FoolMode { kAuto, kCall };

// The validated parameters in typed form.
struct CraitsParams {
  int num_players = 4;
  GameLength game_length = GameLength::kFull;
  int first_dealer = 0;
  FoolMode fool_mode = FoolMode::kAuto;
  bool voluntary_draw = false;
  bool nines_wild = false;
  bool seven_skips = false;
  bool two_player_ten_skips = false;
  SurplusThrees surplus_threes = SurplusThrees::kMinus50;
  int round_action_limit = 1000;

  int num_rounds() const { return game_length == GameLength::kFull ? 15 : 8; }
};

// CR-1.1: cards per seat in round r (1-based): |8 - r| + 1.
constexpr int HandSizeForRound(int round) {
  return (round > 8 ? round - 8 : 8 - round) + 1;
}

// The registry entry: id "craits", params as above.
GameInfo MakeGameInfo();

// CR-2.2 phases. ROUND_OVER also stands for "deal pending" before round 1.
enum class Phase : uint8_t {
  kNameSuit,
  kTurn,
  kCrank,
  kPostOut,
  kRoundOver,
  kGameOver
};
absl::string_view PhaseName(Phase phase);  // "NAME_SUIT", "TURN", ...

// Why cards were drawn (CR-15.1 "every draw as (seat, number, cause)").
enum class DrawCause : uint8_t {
  kDrawAction,   // a seat's own DRAW in TURN (CR-4.3)
  kCrankLoss,    // a DRAW in CRANK or POST_OUT: C cards (CR-7.4, CR-11.3)
  kFive,         // a 5's effect (CR-6.1, CR-8.3, CR-11.2b)
  kSeven,        // a 7's effect (CR-6.1, CR-8.3, CR-11.2a)
  kFoolPenalty,  // AUTO penalty for a failure to announce (CR-10.5)
  kFoolCalled,   // penalty after CALL_FOOL (CR-10.4)
};
absl::string_view DrawCauseName(DrawCause cause);

struct DrawRecord {
  int seat = 0;
  int requested = 0;
  int drawn = 0;  // < requested when the obligation lapsed (CR-9.3)
  DrawCause cause = DrawCause::kDrawAction;
};

// The final data of one completed round (CR-11.5, CR-12).
struct CraitsRoundResult {
  std::array<int, kMaxSeats> scores{};      // seats >= num_players: 0
  bool exhausted = false;                   // ended by CR-12
  std::array<CardMask, kMaxSeats> hands{};  // revealed at round end
};

// Per-seat public data (CR-15.1).
struct CraitsSeatView {
  int hand_size = 0;
  bool missed_turn = false;
  int total = 0;
};

struct CraitsRoundSummary {
  std::vector<int> scores;  // per seat
  bool exhausted = false;
};

// What seat `seat` may see (CR-15.1 public + CR-15.2 its own hand). Never
// another seat's hand of the current round, nor the stock order.
struct CraitsObservation {
  int seat = 0;
  int num_players = 0;
  int round = 0;
  int hand_size_dealt = 0;  // h of `round`
  int dealer = 0;
  int dir = 1;
  Phase phase = Phase::kRoundOver;
  int seat_to_act = -1;  // -1 at chance nodes and at the end
  int top_card = -1;     // -1 when no round is in play
  int active_suit = -1;  // sigma; -1 when no round is in play
  int count = 0;         // C
  std::vector<Card> discard_pile;  // bottom to top
  int stock_size = 0;
  std::vector<CraitsSeatView> seats;  // per seat
  int vulnerable = -1;                // V, -1 = none
  std::vector<Card> hand;             // own hand, ascending ids
  std::vector<Action> legal_actions;  // if `seat` must act now (CR-15.4)
  // Draws made by the effects of the last action or deal (public counts).
  std::vector<DrawRecord> last_draws;
  std::vector<CraitsRoundSummary> completed_rounds;
  // Every seat's hand at the end of the last completed round (CR-11.5),
  // empty before the first round ends.
  std::vector<std::vector<Card>> last_round_hands;
};

class CraitsState;

// A position for tests and analysis tools (CraitsState::FromPosition).
// Cards listed nowhere are out of play for that position.
struct CraitsPosition {
  int round = 1;
  int dealer = 0;
  int dir = 1;
  Phase phase = Phase::kTurn;  // kNameSuit, kTurn, kCrank or kPostOut
  int seat_to_act = 0;
  std::array<std::vector<Card>, kMaxSeats> hands;
  std::vector<Card> stock;    // top first
  std::vector<Card> discard;  // bottom to top; not empty
  int active_suit = -1;       // -1: the top card's suit
  int count = 0;              // C; > 0 exactly in kCrank and kPostOut
  std::array<bool, kMaxSeats> missed{};
  int vulnerable = -1;
  int actions_this_round = 0;
  std::array<int, kMaxSeats> totals{};
};

class CraitsGame final : public Game {
 public:
  // Validates `given` (schema and CR-0.4 cross-checks) and fills defaults.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<CraitsGame>> Create(
      const GameParams& given);

  absl::string_view id() const override { return "craits"; }
  int rules_version() const override { return kRulesVersion; }
  int num_seats() const override { return params_.num_players; }
  std::unique_ptr<State> NewInitialState() const override;
  std::unique_ptr<CraitsState> NewCraitsState() const;

  const CraitsParams& craits_params() const { return params_; }

 private:
  CraitsGame(GameParams params, CraitsParams typed);
  CraitsParams params_;
};

class CraitsState final : public State {
 public:
  explicit CraitsState(const CraitsGame* game);

  // Builds a mid-round position (decision node). INVALID_ARGUMENT if it is
  // inconsistent (a card twice, seat out of range, C vs phase, ...).
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<CraitsState>>
  FromPosition(const CraitsGame& game, const CraitsPosition& position);

  // State API.
  NodeType node_type() const override;
  int current_seat() const override;
  void LegalActions(ActionList& out) const override;
  void ApplyLegalAction(Action action) override;
  // Drawing first; calling a fool never while anything else is legal.
  int SubstitutePreference(Action action) const override;
  ChanceKind chance_kind() const override;
  int ChanceCards(absl::Span<Card> out) const override;
  [[nodiscard]] absl::Status ApplyChance(ChanceKind kind,
                                         absl::Span<const Card> order) override;
  int round() const override { return round_; }
  int rounds_completed() const override { return rounds_completed_; }
  GameOutcome Outcome() const override;
  // CR-15: the discard pile, the seat's own hand and, once a round is over,
  // every hand of it (revealed for scoring).
  void VisibleCards(int seat, std::vector<Card>* out) const override;
  std::unique_ptr<State> Clone() const override;
  std::string ActionToString(Action action) const override;
  absl::StatusOr<Action> ParseAction(absl::string_view text) const override;
  std::string DebugString() const override;

  // What `seat` may see now.
  CraitsObservation Observe(int seat) const;

  // Typed results (CR-11.5, CR-14), valid at any time for the rounds
  // completed so far.
  absl::Span<const CraitsRoundResult> round_results() const {
    return absl::MakeConstSpan(results_.data(), rounds_completed_);
  }
  absl::Span<const int> totals() const {
    return absl::MakeConstSpan(totals_.data(), params_.num_players);
  }
  // Seats with the lowest total, ascending (CR-14.2); meaningful once the
  // game is over.
  std::vector<int> Winners() const;

  // Public round state.
  Phase phase() const { return phase_; }
  int dealer() const { return dealer_; }
  int dir() const { return dir_; }
  int active_suit() const { return sigma_; }
  int crank_count() const { return count_; }
  int vulnerable() const { return vulnerable_; }
  bool missed_turn(int seat) const { return (missed_ >> seat) & 1; }
  int stock_size() const { return stock_size_; }
  int hand_size(int seat) const { return CountCards(hands_[seat]); }
  int actions_this_round() const { return round_actions_; }
  absl::Span<const Card> discard_pile() const {  // bottom to top
    return absl::MakeConstSpan(discard_.data(), discard_size_);
  }
  int top_card() const {
    return discard_size_ > 0 ? discard_[discard_size_ - 1] : -1;
  }
  absl::Span<const DrawRecord> last_draws() const {
    return absl::MakeConstSpan(draws_.data(), draw_tail_);
  }

  // Full information, for the referee's log and the analyzer; never for a
  // seat.
  CardMask hand(int seat) const { return hands_[seat]; }
  std::vector<Card> StockTopFirst() const;

  // Every card of the round is in exactly one hand, the stock or the
  // discard pile (52 while a round is in play).
  int CardsInPlay() const;

 protected:
  absl::Status ExplainIllegal(Action action) const override;

 private:
  // What happens once the queued draws are done.
  enum class After : uint8_t { kGiveTurn, kStay, kEndRound };
  static constexpr int kMaxDraws = 8;

  int Next(int seat) const {
    int s = seat + dir_;
    if (s == params_.num_players) return 0;
    if (s < 0) return params_.num_players - 1;
    return s;
  }
  CardMask Playable(int seat) const;
  bool DrawYieldsCard() const { return stock_size_ > 0 || discard_size_ >= 2; }

  void Deal(absl::Span<const Card> order);
  void ResolveStarter();
  void ApplyPlay(Action action);
  // CR-6.1: the effect of a card of `rank` played by seat p in TURN, also
  // the starter's as the dealer's play (CR-8; dir is +1 then, so a 10 turns
  // it to -1). Sets the continuation; the caller resumes.
  void CardEffect(int rank, int p);
  void ApplyDraw();
  void GoOut(int seat, int rank);
  void PassCrank(int from);  // CR-11.3
  void QueueDraw(int seat, int count, DrawCause cause);
  void GiveTurn(int seat);  // CR-3.1
  void AfterEffects(After after, int seat) {
    after_ = after;
    after_seat_ = static_cast<int8_t>(seat);
  }
  void Resume();  // drains the draw queue, then runs the continuation
  void EndRound(bool exhausted);
  void PrepareDeal();

  absl::Status ExplainPlay(const CraitsMove& move) const;

  CraitsParams params_;

  // Round state.
  std::array<CardMask, kMaxSeats> hands_{};
  std::array<Card, kNumCards> stock_{};  // stock_[stock_size_ - 1] is the top
  std::array<Card, kNumCards> discard_{};
  uint8_t stock_size_ = 0;
  uint8_t discard_size_ = 0;
  Phase phase_ = Phase::kRoundOver;
  uint8_t pending_chance_ = 0;  // 0 or a ChanceKind
  int8_t cur_ = -1;
  int8_t dir_ = 1;
  int8_t dealer_ = 0;
  int8_t sigma_ = -1;
  int8_t vulnerable_ = -1;
  uint8_t missed_ = 0;  // bit per seat
  uint8_t count_ = 0;
  uint8_t round_ = 1;
  uint8_t rounds_completed_ = 0;
  int32_t round_actions_ = 0;

  // Effects in progress (and, after they are done, the record of the draws
  // of the last action).
  std::array<DrawRecord, kMaxDraws> draws_{};
  uint8_t draw_head_ = 0;
  uint8_t draw_tail_ = 0;
  After after_ = After::kStay;
  int8_t after_seat_ = 0;

  // Results.
  std::array<int, kMaxSeats> totals_{};
  std::array<CraitsRoundResult, kMaxRounds> results_{};
};

}  // namespace cardref::craits

#endif  // CARDREF_GAMES_CRAITS_CRAITS_H_
