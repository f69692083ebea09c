// Krass Kariert ("Checkered Combos"), Amigo; rules engine.
//
// Rules source: /work/shared/rules/krass_kariert.md (normative; rule IDs
// KK-x.y are quoted in comments, rejections and tests). Seed manual:
// shared/seeds/000_4c72a92066a5d7a7.txt.
//
// Parameters (KK-0.3; plus the match setting num_players, KK-0.2):
//   num_players         3..5, default 4
//   chips_per_player    2 or 3, default 2
//   hand_size           1..10, default 10 if num_players <= 4 else 7;
//                       num_players * (hand_size + 2) <= 48
//   reserve_count       2 (fixed)
//   fallback_direction  CCW (default, right neighbour) or CW; KK-10.3
//
// Implementation notes:
// - Chance: one ChanceKind::kDeal event (all 54 cards, d[0] dealt first) at
//   the start of every round; nothing else is random.
// - Hands are ordered arrays of canonical card ids (KK-0.1); a card can only
//   be in one place: a hand, a reserve slot, the draw pile (deck_[pile_top_..]),
//   the pending drawn cards, or the discard pile (public, in play order).
// - Combination strength is one byte (rank * 16 + key, krass_kariert_cards.h)
//   so "beats" is `>`; the trick target is the last combination played.
// - The referee resolves everything that needs no decision (KK-16.4): trick
//   end, draws (the winner then places each drawn card with PLACE_DRAWN),
//   leaving, round end, stuck seats (KK-11.2, never asked), chip losses,
//   next leader and the next round's chance node.
// - Spec holes decided here (each also a test, named in the comment):
//   H1 Observation history (KK-15.1 "every action as it happens"): the
//      observation carries the current trick's actions with the cards they
//      played; earlier history is the service's event stream. (KK_15 test)
//   H2 While the winner places drawn cards, the trick number, leader,
//      participants, target and DRAW count stay those of the finished trick;
//      the next trick (and its number) starts after the last PLACE_DRAWN.
//      Others see drawing_seat and the counts, never the cards. (E13)
//   H3 Wrap-around rejections: a block that would be a run if 12 and 1 were
//      adjacent (12-1, 11-12-1, 12-1-2, X included) is refused as KK-3.2;
//      other non-combinations as KK-3.1 (KK-3.3 if the block holds an X);
//      a wrong number of X values is KK-3.3. (E3)
//   H4 A chip-loss event that ends the game makes the state terminal at
//      once (no further deal); round_losses lists that event too, the
//      eliminated seats included (conformance README). (E20)
//   H5 Untaken reserves (KK-6.3) and the hands of a finished round stay
//      where they are, without effect, until the next deal replaces them,
//      so every card stays accounted for. (random test, conservation)
//   H6 A DRAW trick with an empty pile (KK-14.2; unreachable with valid
//      parameters, KK-14.3) requests no PLACE_DRAWN and ends like a trick
//      without DRAW. (KK_14_2 test)
#ifndef CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_H_
#define CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_H_

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
#include "games/krass_kariert/krass_kariert_action.h"
#include "games/krass_kariert/krass_kariert_cards.h"
#include "games/krass_kariert/krass_kariert_scoring.h"

namespace cardref::krass_kariert {

inline constexpr int kRulesVersion = 1;
inline constexpr int kReserveSlots = 2;
// A hand holds at most H + 2 reserves + 6 drawn cards (two DRAWs, KK-14.3).
inline constexpr int kMaxHand = 10 + kReserveSlots + 6;
inline constexpr int kMaxDrawn = 6;
// Every round but the last removes a chip; at most 5 * 3 chips exist.
inline constexpr int kMaxRounds = kMaxSeats * 3 + 1;

enum class FallbackDirection : uint8_t { kCcw, kCw };  // KK-10.3

// The game's parameters, typed.
struct KrassKariertConfig {
  int num_players = 4;
  int chips_per_player = 2;
  int hand_size = 10;
  FallbackDirection fallback_direction = FallbackDirection::kCcw;
};

// What generic code needs to know of the game (game.h GameTraits).
GameTraits Traits();

GameInfo MakeGameInfo();

// One action of the current trick as everyone saw it (KK-15.1).
struct KrassKariertTrickEntry {
  int seat = -1;
  Action action = 0;
  int num_cards = 0;                  // PLAY: the cards played (public)
  std::array<Card, 3> cards = {kNoCard, kNoCard, kNoCard};
  Strength combination = kNoStrength;  // PLAY of a combination
};

// What seat `seat` may see (KK-15): public information plus its own ordered
// hand and its own drawn cards still pending placement. Nothing else: no
// other hand's contents, no pile order, no deck order.
struct KrassKariertObservation {
  int seat = 0;
  KrassKariertConfig config;
  int dealer = 0;
  int round = 0;  // 1-based
  int trick = 0;  // 1-based within the round; 0 before the deal
  std::array<int, kMaxSeats> chips = {};
  std::array<bool, kMaxSeats> active = {};
  std::array<int, kMaxSeats> hand_sizes = {};
  std::array<std::array<Card, kReserveSlots>, kMaxSeats> reserves = {};  // kNoCard: empty
  int leader = -1;
  std::array<bool, kMaxSeats> participants = {};
  Strength target = kNoStrength;  // none yet
  int target_seat = -1;
  int draws_in_trick = 0;
  int seat_to_act = -1;  // -1 at chance and terminal nodes
  int pile_size = 0;
  int num_discards = 0;
  std::array<Card, kNumCards> discards = {};  // in the order played
  int trick_length = 0;
  std::array<KrassKariertTrickEntry, kMaxSeats> trick_actions = {};
  // KK-8.4/16.3: the seat placing drawn cards (-1 if none), how many it drew
  // and how many it still has to place (public counts).
  int drawing_seat = -1;
  int drawn_count = 0;
  int pending_count = 0;
  // Private (KK-15.2): own hand, position 0 first, and own pending drawn
  // cards in draw order (empty unless seat == drawing_seat).
  int hand_length = 0;
  std::array<Card, kMaxHand> hand = {};
  int own_pending_count = 0;
  std::array<Card, kMaxDrawn> own_pending = {};
  // Results so far (public).
  int rounds_completed = 0;
  std::array<SeatMask, kMaxRounds> round_losses = {};  // per completed round
  bool game_over = false;
  SeatMask losers = 0;
};

// Results table of the conformance README: seat lists ascending.
struct KrassKariertRoundLoss {
  int round = 0;
  std::vector<int> seats;  // charged a chip loss, eliminated seats included
};
struct KrassKariertResult {
  std::vector<int> chips;    // per seat
  std::vector<int> losers;   // empty until the game is over
  std::vector<int> winners;  // empty until the game is over
  std::vector<KrassKariertRoundLoss> round_losses;  // completed rounds
};

// A mid-round position for tests and worked examples. Cards not placed in a
// hand, a reserve or the pile go to the discard pile, so all 54 stay
// accounted for.
struct KrassKariertSetup {
  int round = 1;
  std::array<int, kMaxSeats> chips = {-1, -1, -1, -1, -1};  // -1: C
  std::array<std::vector<Card>, kMaxSeats> hands;
  std::array<std::array<Card, kReserveSlots>, kMaxSeats> reserves = {{
      {kNoCard, kNoCard}, {kNoCard, kNoCard}, {kNoCard, kNoCard},
      {kNoCard, kNoCard}, {kNoCard, kNoCard}}};
  std::vector<Card> pile;  // top first
  SeatMask active = 0;     // 0: every seat
  int leader = 1;          // leads trick 1 of this position
  std::vector<SeatMask> previous_round_losses;  // for rounds before `round`
};

class KrassKariertGame;

class KrassKariertState : public State {
 public:
  explicit KrassKariertState(const KrassKariertGame* game);

  NodeType node_type() const override;
  int current_seat() const override;
  void LegalActions(ActionList& out) const override;
  bool IsLegalAction(Action action) const override;
  void ApplyLegalAction(Action action) override;
  ChanceKind chance_kind() const override { return ChanceKind::kDeal; }
  int ChanceCards(absl::Span<Card> out) const override;
  [[nodiscard]] absl::Status ApplyChance(
      ChanceKind kind, absl::Span<const Card> order) override;
  int round() const override { return round_; }
  int rounds_completed() const override { return rounds_completed_; }
  GameOutcome Outcome() const override;
  // KK-15: the seat's own hand and, while it places them, the cards it drew;
  // every reserve and the discard pile (which holds the trick in play).
  void VisibleCards(int seat, std::vector<Card>* out) const override;
  std::unique_ptr<State> Clone() const override;
  std::string ActionToString(Action action) const override;
  absl::StatusOr<Action> ParseAction(absl::string_view text) const override;
  std::string DebugString() const override;

  // Typed views. Observe: what `seat` (0 <= seat < num_players) may see
  // now (KK-15), at any node.
  KrassKariertObservation Observe(int seat) const;
  KrassKariertResult Result() const;
  const KrassKariertConfig& config() const { return config_; }
  int chips(int seat) const { return chips_[seat]; }
  bool is_active(int seat) const { return HasSeat(active_, seat); }
  SeatMask active_seats() const { return active_; }
  int hand_length(int seat) const { return hand_len_[seat]; }
  absl::Span<const Card> hand(int seat) const {
    return absl::MakeConstSpan(hands_[seat].data(), hand_len_[seat]);
  }
  Card reserve(int seat, int slot) const { return reserves_[seat][slot]; }
  int pile_size() const { return kNumCards - pile_top_; }
  // The draw pile, top first: hidden information (KK-15.3), for the
  // analyzer and tests only, never for a seat.
  absl::Span<const Card> pile() const {
    return absl::MakeConstSpan(deck_.data() + pile_top_, pile_size());
  }
  absl::Span<const Card> discards() const {
    return absl::MakeConstSpan(discards_.data(), num_discards_);
  }
  absl::Span<const Card> pending_drawn() const {
    return absl::MakeConstSpan(drawn_.data() + drawn_next_,
                               drawn_count_ - drawn_next_);
  }
  int trick() const { return trick_; }
  int leader() const { return leader_; }
  Strength target() const { return target_; }
  int draws_in_trick() const { return draws_; }
  // Set once the game is over (KK-13.1).
  SeatMask losers() const { return losers_; }
  // The seats charged in completed round r (1-based).
  SeatMask round_loss(int r) const { return round_losses_[r - 1]; }

  // Replaces the whole position by `setup` (tests and worked examples):
  // decision node, trick 1 of setup.round led by setup.leader. Errors if the
  // cards are not distinct or a hand is too long.
  [[nodiscard]] absl::Status SetUpForTest(const KrassKariertSetup& setup);

  bool operator==(const KrassKariertState& o) const;

 protected:
  absl::Status ExplainIllegal(Action action) const override;

 private:
  enum class Phase : uint8_t { kDeal, kPlay, kPlaceDrawn, kGameOver };

  // Calls emit(Action) for every legal PLAY of `seat` in ascending order;
  // stops early (returning true) when emit returns true.
  template <typename Emit>
  bool ForEachPlay(int seat, Emit&& emit) const;
  bool HasLegalAction(int seat) const;
  absl::Status ExplainPlay(const KrassKariertAction& a) const;

  void Deal(absl::Span<const Card> order);
  void StartTrick(int leader);
  void ApplyPlay(int start, int count, int x0, int x1);
  void ApplyTakeReserve(int slot, int position);
  void ApplyPlaceDrawn(int position);
  void InsertCard(int seat, int position, Card card);
  void AdvanceTurn();
  void EndTrick();
  void FinishTrick();
  int NextLeader() const;
  void ChargeChips(SeatMask charged);

  KrassKariertConfig config_;
  Phase phase_ = Phase::kDeal;
  int8_t round_ = 1;
  int8_t rounds_completed_ = 0;
  int8_t trick_ = 0;
  int8_t next_round_leader_ = 1;  // KK-12.2
  std::array<int, kMaxSeats> chips_ = {};
  std::array<SeatMask, kMaxRounds> round_losses_ = {};
  SeatMask losers_ = 0;

  // The round.
  SeatMask active_ = 0;
  std::array<uint8_t, kMaxSeats> hand_len_ = {};
  std::array<std::array<Card, kMaxHand>, kMaxSeats> hands_ = {};
  std::array<std::array<Card, kReserveSlots>, kMaxSeats> reserves_ = {};
  std::array<Card, kNumCards> deck_ = {};  // the pile is deck_[pile_top_..]
  uint8_t pile_top_ = kNumCards;
  uint8_t num_discards_ = 0;
  std::array<Card, kNumCards> discards_ = {};

  // The trick.
  int8_t leader_ = -1;
  int8_t to_act_ = -1;
  SeatMask participants_ = 0;
  Strength target_ = kNoStrength;
  int8_t target_seat_ = -1;
  int8_t stop_seat_ = -1;
  int8_t winner_ = -1;
  uint8_t draws_ = 0;
  std::array<Strength, kMaxSeats> played_ = {};  // each seat's combination
  uint8_t trick_length_ = 0;
  std::array<KrassKariertTrickEntry, kMaxSeats> trick_log_ = {};
  // KK-8.4 drawn cards: drawn_[drawn_next_ .. drawn_count_) are pending.
  uint8_t drawn_count_ = 0;
  uint8_t drawn_next_ = 0;
  std::array<Card, kMaxDrawn> drawn_ = {};
};

class KrassKariertGame : public Game {
 public:
  // `params` complete and validated (MakeGameInfo().create does it).
  explicit KrassKariertGame(GameParams params);

  absl::string_view id() const override { return "krass_kariert"; }
  int rules_version() const override { return kRulesVersion; }
  int num_seats() const override { return config_.num_players; }
  std::unique_ptr<State> NewInitialState() const override;
  const KrassKariertConfig& config() const { return config_; }

 private:
  KrassKariertConfig config_;
};

// Creates a game from (possibly partial) parameters, validated as
// MakeGameInfo().create does.
[[nodiscard]] absl::StatusOr<std::unique_ptr<KrassKariertGame>>
NewKrassKariertGame(const GameParams& given);

}  // namespace cardref::krass_kariert

#endif  // CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_H_
