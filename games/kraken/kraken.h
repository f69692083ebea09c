// Kraken, a four-seat partnership trick-taking game of the Klaverjas family.
//
// Rules source: /work/shared/rules/kraken.md (normative; rule IDs KR-x.y),
// from the gamerules.com "Kraken" page (seed 003) with Klaverjas practice
// filling its gaps. Every rule cited in this folder refers to that text.
//
// Parameters (KR-3; names exactly as in the spec table; default last):
//   trump_mode          UTRECHT | FREE | RANDOM            UTRECHT
//   free_first_speaker  LEFT_OF_DEALER | DEALER (FREE)     LEFT_OF_DEALER
//   random_all_pass     SECOND_CARD | CALL_OTHER (RANDOM)  SECOND_CARD
//   rule_set            AMSTERDAM | ROTTERDAM              AMSTERDAM
//   spades_double       bool                               true
//   deal_pattern        3-2-3 | 4-4                        3-2-3
//   rounds              int 1..16                          16
//   last_trick_bonus    0 | 10                             0
//   pit_bonus           0 | 100                            0
//   first_dealer        int 0..3 (set-up data, KR-3)       0
//
// Implementation notes:
// - Always 4 seats; team(s) = s mod 2. Hands are 32-bit card masks; the
//   State is a flat value (Clone is a copy, no decision allocates).
// - Chance: ChanceKind::kDeal (the 32 cards) at each round start; in RANDOM
//   mode a separate ChanceKind::kTrumpDeck (32 cards) right after the deal.
//   The KR-6.4a all-pass step needs no event: the trump deck is known.
// - The pure rules (legal cards, trick bonus, declarations, contest,
//   scoring) are in kraken_rules.h; actions and their bit fields in
//   kraken_action.h; the text notation in kraken_notation.h.
// - Rejections start with the rule ID and say what was expected. The
//   generic State::ApplyAction acts for current_seat(); ApplyActionAs also
//   checks the seat, so out-of-turn actions are rejected with their rule.
// - Spec holes decided here are marked "Ruling:" in kraken.cc,
//   kraken_rejections.cc and kraken_action.cc, each with a test (grep
//   "Ruling" in kraken_*_test.cc). Rejections live in kraken_rejections.cc.
#ifndef CARDREF_GAMES_KRAKEN_KRAKEN_H_
#define CARDREF_GAMES_KRAKEN_KRAKEN_H_

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
#include "games/kraken/kraken_action.h"
#include "games/kraken/kraken_rules.h"

namespace cardref::kraken {

inline constexpr int kMaxRounds = 16;
inline constexpr int kRulesVersion = 1;
// Fills unused card slots of fixed arrays (never a card id).
inline constexpr Card kNoCard = 0xFF;

// The validated parameters in typed form.
struct KrakenConfig {
  TrumpMode trump_mode = TrumpMode::kUtrecht;
  FirstSpeaker free_first_speaker = FirstSpeaker::kLeftOfDealer;
  AllPass random_all_pass = AllPass::kSecondCard;
  RuleSet rule_set = RuleSet::kAmsterdam;
  bool spades_double = true;
  DealPattern deal_pattern = DealPattern::k323;
  int rounds = 16;
  int last_trick_bonus = 0;
  int pit_bonus = 0;
  int first_dealer = 0;
};

// The registry entry: id "kraken", display "Kraken", prefix "KR".
// What generic code needs to know of the game (game.h GameTraits).
GameTraits Traits();

GameInfo MakeGameInfo();

// KR-4.4 phases of a round; kDeal also stands for "deal pending" between
// rounds, kTrumpDeck for the RANDOM trump deck event.
enum class Phase : uint8_t {
  kDeal,
  kTrumpDeck,
  kTrumpSpeak,   // FREE / RANDOM speakers, one each (KR-6.3, KR-6.4)
  kTrumpForced,  // UTRECHT eldest, forced FREE speaker, CALL_OTHER eldest
  kChallenge,    // KR-7
  kDeclare,      // KR-8
  kPlay,         // KR-9
  kClaim,        // KR-12.3 window
  kGameOver,
};
absl::string_view PhaseName(Phase phase);

// A seat's action, for the public logs of trump selection and challenges.
struct SeatAction {
  int8_t seat = -1;
  Action action = 0;
  bool operator==(const SeatAction& o) const {
    return seat == o.seat && action == o.action;
  }
};

enum class ClaimStatus : uint8_t { kNoBonus, kOpen, kClaimed, kDeclined };
absl::string_view ClaimStatusName(ClaimStatus status);

// One trick (complete or in progress).
struct KrakenTrick {
  std::array<Card, 4> cards{kNoCard, kNoCard, kNoCard, kNoCard};  // play order
  int8_t size = 0;
  int8_t leader = -1;
  int8_t winner = -1;          // seat, once complete
  uint8_t points = 0;          // KR-5.2, once complete
  Bonus bonus = Bonus::kNone;  // KR-12.2 type, once complete
  ClaimStatus claim = ClaimStatus::kNoBonus;
  uint8_t stuk_mask = 0;  // bit i: cards[i] was played with declare_stuk
  bool operator==(const KrakenTrick& o) const;
};

// The typed result of one completed round (KR-14), every component per team.
struct KrakenRoundResult {
  int round = 0;  // from 1
  int dealer = 0;
  int trump = 0;
  int maker = 0;
  int contest_winner = -1;  // KR-8.4 seat, -1 when nothing was declared
  RoundScore score;
};

// The conformance README's Results: round_scores [team0, team1] per round,
// totals, winner team (-1 for a draw).
struct KrakenGameResult {
  std::vector<std::array<int64_t, 2>> round_scores;
  std::array<int64_t, 2> totals{};
  int winner_team = -1;
};

// What seat `seat` may see (KR-16.1 public information + KR-16.2 its own
// hand and legal actions). Never another seat's hand, a deck order or an
// unturned trump-deck card (KR-16.3).
struct KrakenObservation {
  int seat = 0;
  KrakenConfig config;  // parameters are public
  int round = 0;        // from 1
  int dealer = 0;
  int eldest = 0;
  Phase phase = Phase::kDeal;
  int seat_to_act = -1;  // -1 at chance nodes and at the end
  CardMask hand = 0;     // own hand
  std::array<int, kNumSeats> hand_sizes{};
  std::vector<Action> legal_actions;  // when `seat` must act (KR-16.2)

  // Trump selection (KR-6).
  int proposed_suit = -1;  // RANDOM: suit of the first turned card
  std::vector<Card> turned_trump_cards;  // RANDOM: turned, in order
  std::vector<SeatAction> trump_actions;
  int trump = -1;
  int maker = -1;

  // Challenges (KR-7).
  std::vector<SeatAction> challenge_actions;
  int level = 0;

  // Declarations (KR-8): payloads of the DECLARE actions accepted so far.
  std::array<bool, kNumSeats> declared{};
  std::array<uint32_t, kNumSeats> declarations{};
  bool contest_decided = false;  // after the fourth DECLARE
  int contest_winner = -1;
  std::array<int, 2> declaration_points{};

  // Play (KR-9, KR-12, KR-13).
  std::vector<KrakenTrick> completed_tricks;  // with winners, bonus types
  KrakenTrick current_trick;                  // 0..3 cards
  bool claim_window_open = false;
  std::array<bool, kNumSeats> stuk_declared{};

  // Scores (KR-14).
  std::array<int64_t, 2> totals{};
  std::vector<std::array<int64_t, 2>> round_scores;
};

// A play-phase position for tests and analysis: trick `trick_index` with
// `trick` already played (from `leader`), after trump, challenges and
// declarations. Cards in no hand and no trick count as already played.
struct KrakenPosition {
  int round = 1;
  int dealer = 0;
  int trump = kHearts;
  int maker = 0;
  int level = 0;
  std::array<CardMask, kNumSeats> hands{};
  int trick_index = 0;  // 0..7
  int leader = 1;
  std::vector<Card> trick;  // 0..3 cards, play order
  // The seat dealt trump K and Q (-1 none) and whether it declared stuk.
  int stuk_holder = -1;
  bool stuk_declared = false;
  // Running totals before this round (KR-14.6); the results of earlier
  // rounds are not known to a position and read as zero.
  std::array<int64_t, 2> totals{};
};

class KrakenState;

class KrakenGame final : public Game {
 public:
  // Validates `given` (schema and KR-3 value sets) and fills defaults.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<KrakenGame>> Create(
      const GameParams& given);

  absl::string_view id() const override { return "kraken"; }
  int rules_version() const override { return kRulesVersion; }
  int num_seats() const override { return kNumSeats; }
  std::unique_ptr<State> NewInitialState() const override;
  std::unique_ptr<KrakenState> NewKrakenState() const;

  const KrakenConfig& config() const { return config_; }

 private:
  KrakenGame(GameParams params, KrakenConfig config);
  KrakenConfig config_;
};

class KrakenState final : public State {
 public:
  explicit KrakenState(const KrakenGame* game);

  // Builds a play-phase position (decision node); INVALID_ARGUMENT if it is
  // inconsistent (a card twice, wrong hand sizes, ...).
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<KrakenState>>
  FromPosition(const KrakenGame& game, const KrakenPosition& position);

  // State API.
  NodeType node_type() const override;
  int current_seat() const override;
  void LegalActions(ActionList& out) const override;
  void ApplyLegalAction(Action action) override;
  // Passing, declining and an empty declaration first.
  int SubstitutePreference(Action action) const override;
  ChanceKind chance_kind() const override;
  int ChanceCards(absl::Span<Card> out) const override;
  [[nodiscard]] absl::Status ApplyChance(ChanceKind kind,
                                         absl::Span<const Card> order) override;
  int round() const override { return round_index_ + 1; }
  int rounds_completed() const override { return rounds_completed_; }
  GameOutcome Outcome() const override;
  // KR-16: the seat's own hand, the cards played and declared this round and
  // the turned trump-deck cards (a second deck whose ids overlap the first:
  // kraken_codec_test tells them apart).
  void VisibleCards(int seat, std::vector<Card>* out) const override;
  std::unique_ptr<State> Clone() const override;
  std::string ActionToString(Action action) const override;
  absl::StatusOr<Action> ParseAction(absl::string_view text) const override;
  std::string DebugString() const override;

  // ApplyAction on behalf of `seat`: rejects (state unchanged) an action by
  // a seat that is not to act, naming the turn-order rule (KR-17.3).
  [[nodiscard]] absl::Status ApplyActionAs(int seat, Action action);

  // What `seat` may see now.
  KrakenObservation Observe(int seat) const;

  // Typed results, valid at any time for the rounds completed so far.
  absl::Span<const KrakenRoundResult> round_results() const {
    return absl::MakeConstSpan(results_.data(), rounds_completed_);
  }
  const std::array<int64_t, 2>& totals() const { return totals_; }
  // Round scores, totals and the winner team (-1: draw, or not over yet).
  KrakenGameResult Result() const;

  // Public round state.
  Phase phase() const { return phase_; }
  int dealer() const { return dealer_; }
  int eldest() const { return LeftOf(dealer_); }
  int trump() const { return trump_; }
  int maker() const { return maker_; }
  int level() const { return level_; }
  int proposed_suit() const { return proposed_; }
  int hand_size(int seat) const { return CountCards(hands_[seat]); }
  int trick_index() const { return trick_index_; }  // tricks completed
  const KrakenTrick& trick(int i) const { return tricks_[i]; }
  int contest_winner() const { return contest_winner_; }
  const std::array<int, 2>& declaration_points() const {
    return declaration_points_;
  }

  // Full information (referee log, analyzer); never for a seat.
  CardMask hand(int seat) const { return hands_[seat]; }

  bool operator==(const KrakenState& o) const;
  bool operator!=(const KrakenState& o) const { return !(*this == o); }

 protected:
  absl::Status ExplainIllegal(Action action) const override;

 private:
  const KrakenTrick& current() const { return tricks_[trick_index_]; }
  KrakenTrick& current() { return tricks_[trick_index_]; }
  absl::Span<const Card> CurrentCards() const {
    return absl::MakeConstSpan(current().cards.data(), current().size);
  }
  bool CanDeclareStuk(int seat) const {
    return stuk_holder_ == seat && !((stuk_declared_ >> seat) & 1);
  }
  int FirstFreeSpeaker() const {
    return config_.free_first_speaker == FirstSpeaker::kDealer ? dealer_
                                                               : eldest();
  }
  int ChallengeSpeaker(int step, int pos) const;
  // The rule and description of the phase, for messages.
  absl::string_view PhaseRule() const;
  std::string Expected() const;  // "seat 2 must ..." for messages

  void ResetRound();
  void StartTrumpSelection();
  void FixTrump(int suit, int maker);
  void ApplyTrumpAction(Action action);
  void ApplyChallengeAction(Action action);
  void ApplyDeclare(Action action);
  void ApplyPlay(Action action);
  void FinishTrick();
  void ScoreRoundAndAdvance();

  absl::Status ExplainWrongKind(ActionKind kind) const;

  KrakenConfig config_;

  // Progress.
  Phase phase_ = Phase::kDeal;
  int8_t round_index_ = 0;  // 0-based
  int8_t rounds_completed_ = 0;
  int8_t dealer_ = 0;
  int8_t to_act_ = -1;

  // Trump selection and challenges.
  int8_t trump_ = -1;
  int8_t maker_ = -1;
  int8_t proposed_ = -1;
  int8_t level_ = 0;
  int8_t passes_ = 0;          // trump passes so far
  int8_t challenge_step_ = 1;  // 1..3
  int8_t challenge_pos_ = 0;   // 0..1
  uint8_t num_turned_ = 0;
  uint8_t num_trump_log_ = 0;
  uint8_t num_challenge_log_ = 0;
  std::array<Card, kNumCards> trump_deck_{};
  std::array<SeatAction, 5> trump_log_{};
  std::array<SeatAction, 6> challenge_log_{};

  // Declarations.
  uint8_t declared_mask_ = 0;
  int8_t contest_winner_ = -1;
  std::array<uint32_t, kNumSeats> declarations_{};
  std::array<int, 2> declaration_points_{};

  // Play.
  std::array<CardMask, kNumSeats> hands_{};
  int8_t stuk_holder_ = -1;
  uint8_t stuk_declared_ = 0;  // bit per seat
  int8_t trick_index_ = 0;     // index of the trick in progress / completed
  std::array<KrakenTrick, kNumTricks> tricks_{};

  // Results.
  std::array<int64_t, 2> totals_{};
  std::array<KrakenRoundResult, kMaxRounds> results_{};
};

}  // namespace cardref::kraken

#endif  // CARDREF_GAMES_KRAKEN_KRAKEN_H_
