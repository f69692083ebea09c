#include "games/krass_kariert/krass_kariert.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "referee/base/rule_error.h"
#include "referee/base/status_macros.h"
#include "games/krass_kariert/krass_kariert_notation.h"

namespace cardref::krass_kariert {

namespace {

constexpr absl::string_view kGameId = "krass_kariert";

bool IsSpecial(Card c) { return c >= kFirstStop; }  // STOP or DRAW
bool IsX(Card c) { return c >= kFirstX && c < kFirstStop; }

// The strongest combination a block of k cards can make (TRIPS 12 for k=3).
constexpr std::array<Strength, 4> kMaxStrengthOfLength = {
    kNoStrength, MakeStrength(ComboType::kSolo, kMaxValue),
    MakeStrength(ComboType::kPair, kMaxValue),
    MakeStrength(ComboType::kTrips, kMaxValue)};

std::vector<ParamSpec> Schema() {
  return {
      ParamSpec::Int("num_players", 4, 3, 5, "KK-0.2",
                     "number of seats (a match setting)"),
      ParamSpec::Int("chips_per_player", 2, 2, 3, "KK-0.3",
                     "chips each seat starts with (3 = longer game)"),
      ParamSpec::Int("hand_size", 10, 1, 10, "KK-0.3",
                     "cards dealt per hand; default 10 if num_players <= 4, "
                     "else 7; num_players * (hand_size + 2) <= 48"),
      ParamSpec::Int("reserve_count", 2, 2, 2, "KK-0.3",
                     "reserve cards per seat (fixed)"),
      ParamSpec::Enum("fallback_direction", "CCW", {"CCW", "CW"}, "KK-0.3",
                      "KK-10.3 next-leader walk: CCW = right neighbour"),
  };
}

std::vector<int> SeatVector(SeatMask mask) {
  std::vector<int> seats;
  for (int s = 0; s < kMaxSeats; ++s) {
    if (HasSeat(mask, s)) seats.push_back(s);
  }
  return seats;
}

std::string SeatList(SeatMask mask) {
  return absl::StrJoin(SeatVector(mask), ",");
}

}  // namespace

// ---------------------------------------------------------------- Game

absl::StatusOr<std::unique_ptr<KrassKariertGame>> NewKrassKariertGame(
    const GameParams& given) {
  const std::vector<ParamSpec> schema = Schema();
  GameParams params = given;
  // hand_size's default depends on num_players (KK-0.3), so num_players is
  // checked first and the default filled in before the generic completion.
  int64_t n = 4;
  auto it = given.values().find("num_players");
  if (it != given.values().end()) {
    RETURN_IF_ERROR(schema[0].Check(it->second));
    n = std::get<int64_t>(it->second);
  }
  if (!given.Has("hand_size")) params.Set("hand_size", int64_t{n <= 4 ? 10 : 7});
  ASSIGN_OR_RETURN(GameParams complete, CompleteParams(params, schema, "KK-0.3"));
  const int64_t h = complete.GetInt("hand_size");
  if (n * (h + 2) > 48) {
    return InvalidParameter(
        "KK-0.3", "num_players * (hand_size + 2) must be <= 48, got ", n,
        " * (", h, " + 2) = ", n * (h + 2));
  }
  return std::make_unique<KrassKariertGame>(std::move(complete));
}

GameTraits Traits() {
  GameTraits traits;
  // KK-13.1: the game's losers lose, everyone else wins.
  traits.ranks_only_winners_and_losers = true;
  return traits;
}

GameInfo MakeGameInfo() {
  GameInfo info;
  info.id = std::string(kGameId);
  info.display_name = "Krass Kariert";
  info.rules_prefix = "KK";
  info.rules_version = kRulesVersion;
  info.min_seats = 3;
  info.max_seats = 5;
  info.params = Schema();
  info.traits = Traits();
  info.create =
      [](const GameParams& given) -> absl::StatusOr<std::unique_ptr<Game>> {
    ASSIGN_OR_RETURN(std::unique_ptr<KrassKariertGame> game,
                     NewKrassKariertGame(given));
    return std::unique_ptr<Game>(std::move(game));
  };
  return info;
}

KrassKariertGame::KrassKariertGame(GameParams params)
    : Game(std::move(params), Traits()) {
  config_.num_players = static_cast<int>(this->params().GetInt("num_players"));
  config_.chips_per_player =
      static_cast<int>(this->params().GetInt("chips_per_player"));
  config_.hand_size = static_cast<int>(this->params().GetInt("hand_size"));
  config_.fallback_direction =
      this->params().GetEnum("fallback_direction") == "CW"
          ? FallbackDirection::kCw
          : FallbackDirection::kCcw;
}

std::unique_ptr<State> KrassKariertGame::NewInitialState() const {
  return std::make_unique<KrassKariertState>(this);
}

// ---------------------------------------------------------------- State

KrassKariertState::KrassKariertState(const KrassKariertGame* game)
    : State(game), config_(game->config()) {
  for (int s = 0; s < config_.num_players; ++s) {
    chips_[s] = config_.chips_per_player;  // KK-1.1
  }
  next_round_leader_ = 1;  // KK-12.2: seat 1 leads round 1
}

NodeType KrassKariertState::node_type() const {
  switch (phase_) {
    case Phase::kDeal:
      return NodeType::kChance;
    case Phase::kGameOver:
      return NodeType::kTerminal;
    default:
      return NodeType::kDecision;
  }
}

int KrassKariertState::current_seat() const {
  return node_type() == NodeType::kDecision ? to_act_ : -1;
}

int KrassKariertState::ChanceCards(absl::Span<Card> out) const {
  if (phase_ != Phase::kDeal) return 0;
  for (int c = 0; c < kNumCards; ++c) out[c] = static_cast<Card>(c);
  return kNumCards;
}

absl::Status KrassKariertState::ApplyChance(ChanceKind kind,
                                            absl::Span<const Card> order) {
  if (phase_ != Phase::kDeal) {
    return absl::FailedPreconditionError("no chance event is expected now");
  }
  if (kind != ChanceKind::kDeal) {
    return absl::InvalidArgumentError(absl::StrCat(
        "KK-1.2: expected a deal event, got ", ChanceKindName(kind)));
  }
  if (order.size() != kNumCards) {
    return absl::InvalidArgumentError(absl::StrCat(
        "KK-1.2: a deck order has 54 cards, got ", order.size()));
  }
  uint64_t seen = 0;
  for (Card c : order) {
    if (c >= kNumCards || ((seen >> c) & 1)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "KK-1.2: the deck order is not a permutation of 0..53 (card ",
          static_cast<int>(c), ")"));
    }
    seen |= uint64_t{1} << c;
  }
  Deal(order);
  return absl::OkStatus();
}

void KrassKariertState::Deal(absl::Span<const Card> order) {
  const int n = config_.num_players;
  const int h = config_.hand_size;
  std::copy(order.begin(), order.end(), deck_.begin());
  for (int s = 0; s < n; ++s) {
    const int o = (s + n - 1) % n;  // KK-1.3: seat 1 receives first
    hand_len_[s] = static_cast<uint8_t>(h);
    for (int k = 0; k < h; ++k) hands_[s][k] = order[k * n + o];
    for (int r = 0; r < kReserveSlots; ++r) {  // KK-1.4
      reserves_[s][r] = order[h * n + r * n + o];
    }
  }
  pile_top_ = static_cast<uint8_t>(n * (h + 2));  // KK-1.5
  num_discards_ = 0;
  drawn_count_ = drawn_next_ = 0;
  active_ = static_cast<SeatMask>((1u << n) - 1);  // KK-12.1: every seat
  trick_ = 0;
  phase_ = Phase::kPlay;
  StartTrick(next_round_leader_);
}

void KrassKariertState::StartTrick(int leader) {
  ++trick_;
  leader_ = to_act_ = static_cast<int8_t>(leader);
  participants_ = active_;  // KK-4.2
  target_ = kNoStrength;
  target_seat_ = stop_seat_ = winner_ = -1;
  draws_ = 0;
  played_ = {};
  trick_length_ = 0;
  // KK-5.1 note: an active leader holds a card, so it always has a legal
  // play (any single card); no stuck check is needed here.
}

// ------------------------------------------------------- Legal actions

template <typename Emit>
bool KrassKariertState::ForEachPlay(int seat, Emit&& emit) const {
  const Card* hand = hands_[seat].data();
  const int len = hand_len_[seat];
  const Strength target = target_;
  for (int i = 0; i < len; ++i) {
    int values[3];
    int x_index[2];
    int nx = 0;
    int lo_num = kMaxValue + 1, hi_num = 0;
    for (int k = 1; k <= 3 && i + k <= len; ++k) {
      const Card c = hand[i + k - 1];
      if (IsSpecial(c)) {
        // KK-7.1, KK-8.1, KK-3.4: STOP and DRAW alone, whatever the target.
        if (k == 1 && emit(EncodePlay(i, 1))) return true;
        break;  // no longer block contains it either
      }
      if (IsX(c)) {
        x_index[nx++] = k - 1;
      } else {
        const int v = ValueOf(c);
        values[k - 1] = v;
        lo_num = std::min(lo_num, v);
        hi_num = std::max(hi_num, v);
      }
      if (kMaxStrengthOfLength[k] <= target) continue;  // cannot beat it
      if (nx == 0) {
        if (Classify(values, k) > target && emit(EncodePlay(i, k))) {
          return true;
        }
        continue;
      }
      // Every value of a combination of <= 3 cards lies within 2 of every
      // other, which bounds each X's candidate values; Classify decides.
      int lo = kMinValue, hi = kMaxValue;
      if (hi_num > 0) {
        lo = std::max(kMinValue, hi_num - 2);
        hi = std::min(kMaxValue, lo_num + 2);
      } else if (k == 1) {
        // A lone X: SOLO d beats the target (at most a SOLO here) iff d
        // exceeds its key.
        for (int d = TypeOf(target) == ComboType::kSolo ? KeyOf(target) + 1
                                                        : kMinValue;
             d <= kMaxValue; ++d) {
          if (emit(EncodePlay(i, 1, d))) return true;
        }
        continue;
      }
      for (int d0 = lo; d0 <= hi; ++d0) {
        values[x_index[0]] = d0;
        if (nx == 1) {
          if (Classify(values, k) > target && emit(EncodePlay(i, k, d0))) {
            return true;
          }
          continue;
        }
        const int lo1 = std::max(lo, d0 - 2), hi1 = std::min(hi, d0 + 2);
        for (int d1 = lo1; d1 <= hi1; ++d1) {
          values[x_index[1]] = d1;
          if (Classify(values, k) > target &&
              emit(EncodePlay(i, k, d0, d1))) {
            return true;
          }
        }
      }
    }
  }
  return false;
}

bool KrassKariertState::HasLegalAction(int seat) const {
  if (reserves_[seat][0] != kNoCard || reserves_[seat][1] != kNoCard) {
    return true;  // KK-5.2(d), for any non-leader
  }
  return ForEachPlay(seat, [](Action) { return true; });
}

void KrassKariertState::LegalActions(ActionList& out) const {
  out.clear();
  if (phase_ == Phase::kPlaceDrawn) {  // KK-16.3
    for (int p = 0; p <= hand_len_[winner_]; ++p) {
      out.push_back(EncodePlaceDrawn(p));
    }
    return;
  }
  if (phase_ != Phase::kPlay) return;
  const int seat = to_act_;
  ForEachPlay(seat, [&out](Action a) {
    out.push_back(a);
    return false;
  });
  if (seat == leader_) return;  // KK-5.1
  for (int slot = 0; slot < kReserveSlots; ++slot) {  // KK-6.1, KK-16.2
    if (reserves_[seat][slot] == kNoCard) continue;
    for (int p = 0; p <= hand_len_[seat]; ++p) {
      out.push_back(EncodeTakeReserve(slot, p));
    }
  }
}

// A play is looked for among the plays alone, stopping at it: the same
// enumeration as LegalActions, without listing the rest (a hand of 20 cards
// has dozens of plays; the referee and the audit check every action).
bool KrassKariertState::IsLegalAction(Action action) const {
  if (phase_ == Phase::kPlay && (action >> kTypeShift) == 0) {
    return ForEachPlay(to_act_, [action](Action a) { return a == action; });
  }
  return State::IsLegalAction(action);
}

// ------------------------------------------------------- Applying

void KrassKariertState::ApplyLegalAction(Action action) {
  const Action type = action >> kTypeShift;
  if (type == 0) {
    ApplyPlay((action >> kStartShift) & 31, (action >> kCountShift) & 3,
              (action >> kX0Shift) & 15, action & 15);
  } else if (type == 1) {
    ApplyTakeReserve((action >> kSlotShift) & 1, action & 31);
  } else {
    ApplyPlaceDrawn(action & 31);
  }
}

void KrassKariertState::InsertCard(int seat, int position, Card card) {
  Card* hand = hands_[seat].data();
  const int len = hand_len_[seat];
  // KK-2.3: before the card at `position`; position == len appends.
  std::memmove(hand + position + 1, hand + position, len - position);
  hand[position] = card;
  hand_len_[seat] = static_cast<uint8_t>(len + 1);
}

void KrassKariertState::ApplyPlay(int start, int count, int x0, int x1) {
  const int seat = to_act_;
  Card* hand = hands_[seat].data();
  const int len = hand_len_[seat];
  KrassKariertTrickEntry& entry = trick_log_[trick_length_++];
  entry.seat = seat;
  entry.action = EncodePlay(start, count, x0, x1);
  entry.num_cards = count;
  entry.combination = kNoStrength;
  const int xs[2] = {x0, x1};
  int values[3];
  int nx = 0;
  for (int j = 0; j < count; ++j) {
    const Card c = hand[start + j];
    entry.cards[j] = c;
    discards_[num_discards_++] = c;  // KK-5.4
    values[j] = IsX(c) ? xs[nx++] : ValueOf(c);
  }
  // KK-2.2: the rest keeps its order and closes the gap.
  std::memmove(hand + start, hand + start + count, len - start - count);
  hand_len_[seat] = static_cast<uint8_t>(len - count);

  const Card first = entry.cards[0];
  if (KindOf(first) == CardKind::kStop) {  // KK-7.2: the trick ends now
    stop_seat_ = static_cast<int8_t>(seat);
    EndTrick();
    return;
  }
  if (KindOf(first) == CardKind::kDraw) {
    ++draws_;  // KK-8.2: the target is unchanged
  } else {
    const Strength s = Classify(values, count);
    target_ = s;  // KK-4.4
    target_seat_ = static_cast<int8_t>(seat);
    played_[seat] = s;
    entry.combination = s;
  }
  AdvanceTurn();
}

void KrassKariertState::ApplyTakeReserve(int slot, int position) {
  const int seat = to_act_;
  KrassKariertTrickEntry& entry = trick_log_[trick_length_++];
  entry.seat = seat;
  entry.action = EncodeTakeReserve(slot, position);
  entry.num_cards = 0;
  entry.combination = kNoStrength;
  InsertCard(seat, position, reserves_[seat][slot]);  // KK-6.1
  reserves_[seat][slot] = kNoCard;  // KK-1.4: the slot stays empty
  AdvanceTurn();
}

void KrassKariertState::ApplyPlaceDrawn(int position) {
  InsertCard(winner_, position, drawn_[drawn_next_++]);
  if (drawn_next_ < drawn_count_) return;
  drawn_count_ = drawn_next_ = 0;
  phase_ = Phase::kPlay;
  FinishTrick();
}

void KrassKariertState::AdvanceTurn() {
  const int n = config_.num_players;
  int s = to_act_;
  do {  // KK-4.2: clockwise among the participants, once each
    s = s + 1 == n ? 0 : s + 1;
    if (s == leader_) {
      EndTrick();  // KK-4.3(a)
      return;
    }
  } while (!HasSeat(participants_, s));
  if (!HasLegalAction(s)) {
    // KK-11.2: stuck; the trick is abandoned (no winner, no draw, nobody
    // leaves) and the round ends at once.
    to_act_ = static_cast<int8_t>(s);
    ChargeChips(SeatBit(s));
    return;
  }
  to_act_ = static_cast<int8_t>(s);
}

void KrassKariertState::EndTrick() {
  // KK-9.1: STOP player, else the last (strongest) combination, else leader.
  winner_ = stop_seat_ >= 0    ? stop_seat_
            : target_seat_ >= 0 ? target_seat_
                                : leader_;
  if (draws_ > 0) {  // KK-8.4, KK-14.2
    const int m = std::min(3 * draws_, pile_size());
    for (int j = 0; j < m; ++j) drawn_[j] = deck_[pile_top_ + j];
    pile_top_ = static_cast<uint8_t>(pile_top_ + m);
    drawn_count_ = static_cast<uint8_t>(m);
    drawn_next_ = 0;
    if (m > 0) {  // KK-16.3: m PLACE_DRAWN requests in a row
      phase_ = Phase::kPlaceDrawn;
      to_act_ = winner_;
      return;
    }
  }
  FinishTrick();
}

void KrassKariertState::FinishTrick() {
  // KK-9.3: empty hands leave (reserves ignored, KK-6.3).
  for (int s = 0; s < config_.num_players; ++s) {
    if (HasSeat(participants_, s) && hand_len_[s] == 0) {
      active_ &= static_cast<SeatMask>(~SeatBit(s));
    }
  }
  const int num_active = CountSeats(active_);
  if (num_active == 1) {  // KK-11.1(a)
    ChargeChips(active_);
  } else if (num_active == 0) {  // KK-11.1(b), A14
    ChargeChips(static_cast<SeatMask>(participants_ & ~SeatBit(winner_)));
  } else {
    StartTrick(NextLeader());  // KK-9.4, KK-10
  }
}

int KrassKariertState::NextLeader() const {
  if (HasSeat(active_, winner_)) return winner_;  // KK-10.1
  // KK-10.2 (A2): the strongest combination among the other participants
  // still active. Combinations in a trick strictly increase, so each seat's
  // only combination is its strongest and no two seats tie.
  int best = -1;
  Strength best_strength = kNoStrength;
  for (int s = 0; s < config_.num_players; ++s) {
    if (s != winner_ && HasSeat(active_, s) && played_[s] > best_strength) {
      best = s;
      best_strength = played_[s];
    }
  }
  if (best >= 0) return best;
  // KK-10.3 (A1): walk from W among active players.
  const int n = config_.num_players;
  const int step = config_.fallback_direction == FallbackDirection::kCw ? 1
                                                                        : n - 1;
  int s = winner_;
  do {
    s = (s + step) % n;
  } while (!HasSeat(active_, s));
  return s;
}

void KrassKariertState::ChargeChips(SeatMask charged) {
  round_losses_[round_ - 1] = charged;
  const ChipLossResult r = ApplyChipLoss(chips_, charged);  // KK-11.3
  chips_ = r.chips;
  rounds_completed_ = round_;
  to_act_ = -1;
  drawn_count_ = drawn_next_ = 0;
  if (r.game_over()) {  // KK-13: no further deal (H3)
    losers_ = r.eliminated;
    phase_ = Phase::kGameOver;
    return;
  }
  next_round_leader_ = static_cast<int8_t>(NextRoundLeader(charged));
  ++round_;
  phase_ = Phase::kDeal;  // KK-12.1: reshuffle and deal again
}

// ------------------------------------------------------- Rejections

absl::Status KrassKariertState::ExplainIllegal(Action action) const {
  ASSIGN_OR_RETURN(const KrassKariertAction a, DecodeAction(action));
  if (phase_ == Phase::kPlaceDrawn) {
    const int len = hand_len_[winner_];
    if (a.type != ActionType::kPlaceDrawn) {
      return IllegalAction(
          "KK-16.3", "seat ", static_cast<int>(winner_),
          " must first place drawn card ", drawn_next_ + 1, " of ",
          static_cast<int>(drawn_count_), " (expected PLACE_DRAWN{position 0..",
          len, "})");
    }
    return IllegalAction("KK-16.3", "position ", a.position,
                         " is outside 0..", len, " (the hand has ", len,
                         " cards)");
  }
  const int seat = to_act_;
  const int len = hand_len_[seat];
  switch (a.type) {
    case ActionType::kPlaceDrawn:
      return IllegalAction("KK-16.3",
                           "no drawn card is pending placement (expected "
                           "PLAY or TAKE_RESERVE)");
    case ActionType::kTakeReserve:
      if (seat == leader_) {
        return IllegalAction("KK-5.1",
                             "the leader may not take a reserve (expected a "
                             "combination, a STOP or a DRAW)");
      }
      if (reserves_[seat][a.slot] == kNoCard) {
        const bool other = reserves_[seat][1 - a.slot] != kNoCard;
        return IllegalAction("KK-16.2", "reserve slot ", a.slot, " of seat ",
                             seat, " is empty (",
                             other ? absl::StrCat("slot ", 1 - a.slot,
                                                  " holds a card")
                                   : std::string("no reserve card left"),
                             ")");
      }
      return IllegalAction("KK-16.2", "position ", a.position,
                           " is outside 0..", len, " (the hand has ", len,
                           " cards)");
    case ActionType::kPlay:
      return ExplainPlay(a);
  }
  return absl::InternalError("unreachable");
}

absl::Status KrassKariertState::ExplainPlay(const KrassKariertAction& a) const {
  const int seat = to_act_;
  const int len = hand_len_[seat];
  const int last = a.start + a.count - 1;
  if (last >= len) {
    return IllegalAction("KK-16.1", "positions ", a.start, "..", last,
                         " are outside the hand (positions 0..", len - 1, ")");
  }
  const Card* block = hands_[seat].data() + a.start;
  int nx = 0;
  for (int j = 0; j < a.count; ++j) {
    const Card c = block[j];
    if (IsSpecial(c) && a.count > 1) {
      return IllegalAction("KK-3.4", CardName(c), " at position ", a.start + j,
                           " is played alone (STOP and DRAW are never part "
                           "of a combination)");
    }
    nx += IsX(c);
  }
  if (IsSpecial(block[0])) {
    return IllegalAction("KK-16.1", "a ", CardName(block[0]),
                         " takes no x_values, got ", a.num_x_values);
  }
  if (a.num_x_values != nx) {
    return IllegalAction("KK-3.3", "the block holds ", nx, " X but ",
                         a.num_x_values,
                         " values were declared (expected one value 1..12 "
                         "per X, in position order)");
  }
  int values[3];
  std::vector<std::string> shown;
  bool has_one = false, has_twelve = false;
  for (int j = 0, x = 0; j < a.count; ++j) {
    if (IsX(block[j])) {
      values[j] = a.x_values[x++];
      shown.push_back(absl::StrCat("X=", values[j]));
    } else {
      values[j] = ValueOf(block[j]);
      shown.push_back(absl::StrCat(values[j]));
    }
    has_one |= values[j] == 1;
    has_twelve |= values[j] == 12;
  }
  const Strength s = Classify(values, a.count);
  if (s == kNoStrength) {
    const std::string cards = absl::StrJoin(shown, ",");
    if (has_one && has_twelve) {
      // Would be a run if 12 and 1 were adjacent (12 read as 0, or 1 as 13).
      int low[3], high[3];
      for (int j = 0; j < a.count; ++j) {
        low[j] = values[j] == 12 ? 0 : values[j];
        high[j] = values[j] == 1 ? 13 : values[j];
      }
      if (Classify(low, a.count) != kNoStrength ||
          Classify(high, a.count) != kNoStrength) {
        return IllegalAction("KK-3.2", cards,
                             " is not a combination (no wrap-around: 12 and "
                             "1 are not consecutive)");
      }
    }
    return IllegalAction(nx > 0 ? "KK-3.3" : "KK-3.1", cards,
                         " is not a combination (expected SOLO, RUN2 v,v+1, "
                         "PAIR, RUN3 v,v+1,v+2 or TRIPS)");
  }
  if (s <= target_) {
    return IllegalAction(
        "KK-3.5", StrengthName(s), " does not beat the target ",
        StrengthName(target_),
        s == target_ ? " (equal strength never beats)"
                     : " (expected a higher type, or the same type with a "
                       "higher key)");
  }
  return absl::InternalError(absl::StrCat(
      "action ", KrassKariertActionToString(EncodeAction(a)),
      " was refused without a reason"));
}

// ------------------------------------------------------- Views

void KrassKariertState::VisibleCards(int seat, std::vector<Card>* out) const {
  out->clear();
  const int n = static_cast<int>(game().num_seats());
  if (seat >= 0 && seat < n) {
    for (Card c : hand(seat)) out->push_back(c);
    if (current_seat() == seat) {
      for (Card c : pending_drawn()) out->push_back(c);
    }
  }
  for (int p = 0; p < n; ++p) {
    for (int r = 0; r < kReserveSlots; ++r) {
      if (reserve(p, r) != kNoCard) out->push_back(reserve(p, r));
    }
  }
  for (Card c : discards()) out->push_back(c);
}

GameOutcome KrassKariertState::Outcome() const {
  return MakeOutcome(chips_, config_.num_players, losers_);
}

std::unique_ptr<State> KrassKariertState::Clone() const {
  return std::make_unique<KrassKariertState>(*this);
}

std::string KrassKariertState::ActionToString(Action action) const {
  return KrassKariertActionToString(action);
}

absl::StatusOr<Action> KrassKariertState::ParseAction(
    absl::string_view text) const {
  return ParseKrassKariertAction(text);
}

KrassKariertObservation KrassKariertState::Observe(int seat) const {
  KrassKariertObservation o;
  const int n = config_.num_players;
  o.seat = seat;
  o.config = config_;
  o.dealer = 0;
  o.round = round_;
  o.trick = phase_ == Phase::kDeal ? 0 : trick_;
  for (int s = 0; s < n; ++s) {
    o.chips[s] = chips_[s];
    o.active[s] = HasSeat(active_, s);
    o.hand_sizes[s] = hand_len_[s];
    o.reserves[s] = reserves_[s];
    o.participants[s] = HasSeat(participants_, s);
  }
  for (int s = n; s < kMaxSeats; ++s) o.reserves[s] = {kNoCard, kNoCard};
  o.leader = leader_;
  o.target = target_;
  o.target_seat = target_seat_;
  o.draws_in_trick = draws_;
  o.seat_to_act = current_seat();
  o.pile_size = pile_size();
  o.num_discards = num_discards_;
  std::copy(discards_.begin(), discards_.begin() + num_discards_,
            o.discards.begin());
  o.trick_length = trick_length_;
  std::copy(trick_log_.begin(), trick_log_.begin() + trick_length_,
            o.trick_actions.begin());
  if (phase_ == Phase::kPlaceDrawn) {
    o.drawing_seat = winner_;
    o.drawn_count = drawn_count_;
    o.pending_count = drawn_count_ - drawn_next_;
    if (seat == winner_) {  // KK-16.3: revealed to the drawer only
      o.own_pending_count = o.pending_count;
      std::copy(drawn_.begin() + drawn_next_, drawn_.begin() + drawn_count_,
                o.own_pending.begin());
    }
  }
  if (seat >= 0 && seat < config_.num_players) {  // a spectator has no hand
    o.hand_length = hand_len_[seat];
    std::copy(hands_[seat].begin(), hands_[seat].begin() + hand_len_[seat],
              o.hand.begin());
  }
  o.rounds_completed = rounds_completed_;
  o.round_losses = round_losses_;
  o.game_over = phase_ == Phase::kGameOver;
  o.losers = losers_;
  return o;
}

KrassKariertResult KrassKariertState::Result() const {
  KrassKariertResult r;
  const int n = config_.num_players;
  for (int s = 0; s < n; ++s) r.chips.push_back(chips_[s]);
  if (phase_ == Phase::kGameOver) {
    r.losers = SeatVector(losers_);
    r.winners =
        SeatVector(static_cast<SeatMask>(((1u << n) - 1) & ~losers_));
  }
  for (int i = 0; i < rounds_completed_; ++i) {
    r.round_losses.push_back({i + 1, SeatVector(round_losses_[i])});
  }
  return r;
}

std::string KrassKariertState::DebugString() const {
  auto cards = [](const Card* c, int len) {
    std::vector<std::string> names;
    names.reserve(len);
    for (int i = 0; i < len; ++i) names.push_back(CardName(c[i]));
    return absl::StrCat("[", absl::StrJoin(names, ","), "]");
  };
  std::string s = absl::StrCat(
      "round ", round_, " trick ", trick_, " phase ", static_cast<int>(phase_),
      " leader ", leader_, " to_act ", to_act_, " target ",
      StrengthName(target_), " draws ", draws_, " active {",
      SeatList(active_), "} participants {", SeatList(participants_), "}\n");
  for (int p = 0; p < config_.num_players; ++p) {
    absl::StrAppend(&s, "S", p, " chips ", chips_[p], " hand ",
                    cards(hands_[p].data(), hand_len_[p]), " reserve ",
                    reserves_[p][0] == kNoCard ? "-" : CardName(reserves_[p][0]),
                    "/",
                    reserves_[p][1] == kNoCard ? "-" : CardName(reserves_[p][1]),
                    "\n");
  }
  absl::StrAppend(&s, "pile ", cards(deck_.data() + pile_top_, pile_size()),
                  " pending ", cards(drawn_.data() + drawn_next_,
                                     drawn_count_ - drawn_next_),
                  " discards ", num_discards_, "\n");
  return s;
}

bool KrassKariertState::operator==(const KrassKariertState& o) const {
  const int n = config_.num_players;
  if (config_.num_players != o.config_.num_players ||
      config_.hand_size != o.config_.hand_size ||
      config_.chips_per_player != o.config_.chips_per_player ||
      config_.fallback_direction != o.config_.fallback_direction ||
      phase_ != o.phase_ || round_ != o.round_ ||
      rounds_completed_ != o.rounds_completed_ || trick_ != o.trick_ ||
      next_round_leader_ != o.next_round_leader_ || chips_ != o.chips_ ||
      round_losses_ != o.round_losses_ || losers_ != o.losers_ ||
      active_ != o.active_ || hand_len_ != o.hand_len_ ||
      reserves_ != o.reserves_ || pile_top_ != o.pile_top_ ||
      num_discards_ != o.num_discards_ || leader_ != o.leader_ ||
      to_act_ != o.to_act_ || participants_ != o.participants_ ||
      target_ != o.target_ || target_seat_ != o.target_seat_ ||
      stop_seat_ != o.stop_seat_ || winner_ != o.winner_ ||
      draws_ != o.draws_ || played_ != o.played_ ||
      trick_length_ != o.trick_length_ || drawn_count_ != o.drawn_count_ ||
      drawn_next_ != o.drawn_next_) {
    return false;
  }
  for (int s = 0; s < n; ++s) {
    if (!std::equal(hands_[s].begin(), hands_[s].begin() + hand_len_[s],
                    o.hands_[s].begin())) {
      return false;
    }
  }
  for (int i = 0; i < trick_length_; ++i) {
    const KrassKariertTrickEntry& a = trick_log_[i];
    const KrassKariertTrickEntry& b = o.trick_log_[i];
    if (a.seat != b.seat || a.action != b.action ||
        a.num_cards != b.num_cards || a.combination != b.combination ||
        !std::equal(a.cards.begin(), a.cards.begin() + a.num_cards,
                    b.cards.begin())) {
      return false;
    }
  }
  return std::equal(deck_.begin() + pile_top_, deck_.end(),
                    o.deck_.begin() + pile_top_) &&
         std::equal(discards_.begin(), discards_.begin() + num_discards_,
                    o.discards_.begin()) &&
         std::equal(drawn_.begin(), drawn_.begin() + drawn_count_,
                    o.drawn_.begin());
}

// ------------------------------------------------------- Test set-up

absl::Status KrassKariertState::SetUpForTest(const KrassKariertSetup& setup) {
  const int n = config_.num_players;
  uint64_t used = 0;
  auto take = [&used](Card c) -> absl::Status {
    if (c >= kNumCards || ((used >> c) & 1)) {
      return absl::InvalidArgumentError(
          absl::StrCat("set-up: card ", static_cast<int>(c),
                       " is invalid or used twice"));
    }
    used |= uint64_t{1} << c;
    return absl::OkStatus();
  };
  int total_chips = 0;
  for (int s = 0; s < n; ++s) {
    const int c = setup.chips[s] < 0 ? config_.chips_per_player : setup.chips[s];
    if (c > 3) return absl::InvalidArgumentError("set-up: at most 3 chips");
    total_chips += c;
  }
  if (setup.round < 1 || setup.round + total_chips > kMaxRounds ||
      static_cast<int>(setup.previous_round_losses.size()) != setup.round - 1 ||
      setup.leader < 0 || setup.leader >= n) {
    return absl::InvalidArgumentError("set-up: bad round, leader or losses");
  }
  for (int s = 0; s < n; ++s) {
    if (setup.hands[s].size() > kMaxHand) {
      return absl::InvalidArgumentError("set-up: hand too long");
    }
    for (Card c : setup.hands[s]) RETURN_IF_ERROR(take(c));
    for (Card c : setup.reserves[s]) {
      if (c != kNoCard) RETURN_IF_ERROR(take(c));
    }
  }
  for (Card c : setup.pile) RETURN_IF_ERROR(take(c));
  const SeatMask all = static_cast<SeatMask>((1u << n) - 1);
  const SeatMask active = setup.active == 0 ? all : (setup.active & all);
  for (int s = 0; s < n; ++s) {
    if (HasSeat(active, s) == setup.hands[s].empty()) {
      return absl::InvalidArgumentError(
          "set-up: exactly the active seats hold cards");
    }
  }
  if (!HasSeat(active, setup.leader) || CountSeats(active) < 2) {
    return absl::InvalidArgumentError("set-up: leader inactive or < 2 active");
  }
  for (int s = 0; s < n; ++s) {
    chips_[s] = setup.chips[s] < 0 ? config_.chips_per_player : setup.chips[s];
    hand_len_[s] = static_cast<uint8_t>(setup.hands[s].size());
    std::copy(setup.hands[s].begin(), setup.hands[s].end(), hands_[s].begin());
    reserves_[s] = setup.reserves[s];
  }
  round_ = static_cast<int8_t>(setup.round);
  rounds_completed_ = static_cast<int8_t>(setup.round - 1);
  round_losses_ = {};
  for (size_t i = 0; i < setup.previous_round_losses.size(); ++i) {
    round_losses_[i] = setup.previous_round_losses[i];
  }
  losers_ = 0;
  pile_top_ = static_cast<uint8_t>(kNumCards - setup.pile.size());
  std::copy(setup.pile.begin(), setup.pile.end(), deck_.begin() + pile_top_);
  num_discards_ = 0;
  for (int c = 0; c < kNumCards; ++c) {
    if (!((used >> c) & 1)) discards_[num_discards_++] = static_cast<Card>(c);
  }
  // The dealt part of deck_ is never read; keep it a valid permutation.
  int k = 0;
  for (int c = 0; c < kNumCards && k < pile_top_; ++c) {
    if (std::find(setup.pile.begin(), setup.pile.end(), c) == setup.pile.end()) {
      deck_[k++] = static_cast<Card>(c);
    }
  }
  drawn_count_ = drawn_next_ = 0;
  active_ = active;
  trick_ = 0;
  phase_ = Phase::kPlay;
  StartTrick(setup.leader);
  return absl::OkStatus();
}

}  // namespace cardref::krass_kariert
