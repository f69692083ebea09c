#include "games/craits/craits.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "referee/base/rule_error.h"
#include "referee/base/status_macros.h"

namespace cardref::craits {

namespace {

constexpr CardMask kCrankCards = RankMask(kAce) | RankMask(kTwo);
constexpr uint8_t kNoChance = 0;
constexpr uint8_t kDealPending = static_cast<uint8_t>(ChanceKind::kDeal);
constexpr uint8_t kReshufflePending =
    static_cast<uint8_t>(ChanceKind::kReshuffle);

std::vector<ParamSpec> Schema() {
  // Values outside the CR-0.4 table are rejected naming CR-0.4; the help
  // names the rule each parameter modifies.
  return {
      ParamSpec::Int("num_players", 4, 2, kMaxSeats, "CR-0.3",
                     "number of seats N (CR-0.3)"),
      ParamSpec::Enum("game_length", "FULL", {"FULL", "SHORT"}, "CR-0.4",
                      "FULL = 15 rounds, SHORT = the first 8 (CR-1.1)"),
      ParamSpec::Int("first_dealer", 0, 0, kMaxSeats - 1, "CR-0.4",
                     "dealer of round 1, 0..N-1 (CR-1.2)"),
      ParamSpec::Enum("fool_mode", "AUTO", {"AUTO", "CALL"}, "CR-0.4",
                      "fool penalty automatic or on a call (CR-10)"),
      ParamSpec::Bool("voluntary_draw", false, "CR-0.4",
                      "a seat may draw while holding a playable card (CR-4.3)"),
      ParamSpec::Bool("nines_wild", false, "CR-0.4",
                      "every 9 is playable (CR-4.1)"),
      ParamSpec::Bool("seven_skips", false, "CR-0.4",
                      "the drawer of a 7 also loses its turn (CR-6.1)"),
      ParamSpec::Bool("two_player_ten_skips", false, "CR-0.4",
                      "with N = 2 a T gives the player another turn (CR-6.1)"),
      ParamSpec::Enum("surplus_threes", "MINUS_50", {"MINUS_50", "ZERO"},
                      "CR-0.4", "value of a 3 with nothing to cancel (CR-13.2)"),
      ParamSpec::Int("round_action_limit", 1000, 50, 100000, "CR-0.4",
                     "actions after which a round ends exhausted (CR-12)"),
  };
}

absl::StatusOr<std::pair<GameParams, CraitsParams>> Validate(
    const GameParams& given) {
  ASSIGN_OR_RETURN(GameParams p, CompleteParams(given, Schema(), "CR-0.4"));
  CraitsParams t;
  t.num_players = static_cast<int>(p.GetInt("num_players"));
  t.game_length = p.GetEnum("game_length") == "FULL" ? GameLength::kFull
                                                     : GameLength::kShort;
  t.first_dealer = static_cast<int>(p.GetInt("first_dealer"));
  t.fool_mode =
      p.GetEnum("fool_mode") == "AUTO" ? FoolMode::kAuto : FoolMode::kCall;
  t.voluntary_draw = p.GetBool("voluntary_draw");
  t.nines_wild = p.GetBool("nines_wild");
  t.seven_skips = p.GetBool("seven_skips");
  t.two_player_ten_skips = p.GetBool("two_player_ten_skips");
  t.surplus_threes = p.GetEnum("surplus_threes") == "MINUS_50"
                         ? SurplusThrees::kMinus50
                         : SurplusThrees::kZero;
  t.round_action_limit = static_cast<int>(p.GetInt("round_action_limit"));
  if (t.first_dealer >= t.num_players) {
    return InvalidParameter("CR-0.4", "first_dealer must be in 0..",
                            t.num_players - 1, " for num_players = ",
                            t.num_players, ", got ", t.first_dealer);
  }
  return std::make_pair(std::move(p), t);
}

std::string SuitName(int suit) { return std::string(1, SuitLetter(suit)); }

}  // namespace

absl::string_view PhaseName(Phase phase) {
  switch (phase) {
    case Phase::kNameSuit:
      return "NAME_SUIT";
    case Phase::kTurn:
      return "TURN";
    case Phase::kCrank:
      return "CRANK";
    case Phase::kPostOut:
      return "POST_OUT";
    case Phase::kRoundOver:
      return "ROUND_OVER";
    case Phase::kGameOver:
      return "GAME_OVER";
  }
  return "?";
}

absl::string_view DrawCauseName(DrawCause cause) {
  switch (cause) {
    case DrawCause::kDrawAction:
      return "draw";
    case DrawCause::kCrankLoss:
      return "crank";
    case DrawCause::kFive:
      return "five";
    case DrawCause::kSeven:
      return "seven";
    case DrawCause::kFoolPenalty:
      return "fool_penalty";
    case DrawCause::kFoolCalled:
      return "fool_called";
  }
  return "?";
}

GameInfo MakeGameInfo() {
  GameInfo info;
  info.id = "craits";
  info.display_name = "Craits";
  info.rules_prefix = "CR";
  info.rules_version = kRulesVersion;
  info.min_seats = 2;
  info.max_seats = kMaxSeats;
  info.params = Schema();
  info.create =
      [](const GameParams& given) -> absl::StatusOr<std::unique_ptr<Game>> {
    ASSIGN_OR_RETURN(std::unique_ptr<CraitsGame> game,
                     CraitsGame::Create(given));
    return std::unique_ptr<Game>(std::move(game));
  };
  return info;
}

// ---------------------------------------------------------------- Game

CraitsGame::CraitsGame(GameParams params, CraitsParams typed)
    : Game(std::move(params)), params_(typed) {}

absl::StatusOr<std::unique_ptr<CraitsGame>> CraitsGame::Create(
    const GameParams& given) {
  ASSIGN_OR_RETURN(auto validated, Validate(given));
  return std::unique_ptr<CraitsGame>(
      new CraitsGame(std::move(validated.first), validated.second));
}

std::unique_ptr<State> CraitsGame::NewInitialState() const {
  return NewCraitsState();
}

std::unique_ptr<CraitsState> CraitsGame::NewCraitsState() const {
  return std::make_unique<CraitsState>(this);
}

// ---------------------------------------------------------------- State

CraitsState::CraitsState(const CraitsGame* game)
    : State(game), params_(game->craits_params()) {
  round_ = 1;
  PrepareDeal();
}

NodeType CraitsState::node_type() const {
  if (phase_ == Phase::kGameOver) return NodeType::kTerminal;
  return pending_chance_ != kNoChance ? NodeType::kChance
                                      : NodeType::kDecision;
}

int CraitsState::current_seat() const {
  return node_type() == NodeType::kDecision ? cur_ : -1;
}

CardMask CraitsState::Playable(int seat) const {
  const CardMask hand = hands_[seat];
  if (phase_ != Phase::kTurn) return hand & kCrankCards;  // CR-7.2, CR-11.3
  // CR-4.1: an 8, the active suit, the top card's rank; 9s if wild.
  CardMask ok = SuitMask(sigma_) |
                RankMask(RankOf(discard_[discard_size_ - 1])) |
                RankMask(kEight);
  if (params_.nines_wild) ok |= RankMask(kNine);
  return hand & ok;
}

void CraitsState::LegalActions(ActionList& out) const {
  out.clear();
  if (pending_chance_ != kNoChance || phase_ >= Phase::kRoundOver) return;
  const int p = cur_;
  if (phase_ == Phase::kNameSuit) {  // CR-8.2
    const Card starter = discard_[0];
    if (RankOf(starter) == kEight) {
      for (int s = 0; s < kNumSuits; ++s) out.push_back(EncodeNameSuit(s));
    } else {
      const int s = SuitOf(starter);
      out.push_back(EncodeNameSuit(std::min(s, PartnerSuit(s))));
      out.push_back(EncodeNameSuit(std::max(s, PartnerSuit(s))));
    }
    return;
  }
  const CardMask playable = Playable(p);
  // CR-10.1: announce only when one card is left; never in POST_OUT.
  const bool may_announce =
      phase_ != Phase::kPostOut && HasExactlyTwo(hands_[p]);
  for (CardMask m = playable; m != 0; m &= m - 1) {
    const Card c = LowestCard(m);
    const Action base = kTypePlay | (Action{c} << kCardShift);
    const int rank = RankOf(c);
    if (rank == kEight || rank == kNine) {  // CR-16.2: a suit is named
      int suits[kNumSuits];
      int n = 0;
      if (rank == kEight) {
        for (int s = 0; s < kNumSuits; ++s) suits[n++] = s;
      } else {
        const int s = SuitOf(c);
        suits[n++] = std::min(s, PartnerSuit(s));
        suits[n++] = std::max(s, PartnerSuit(s));
      }
      for (int i = 0; i < n; ++i) {
        const Action a = base | (static_cast<Action>(suits[i] + 1) << kSuitShift);
        out.push_back(a);
        if (may_announce) out.push_back(a | kAnnounceBit);
      }
    } else {
      out.push_back(base);
      if (may_announce) out.push_back(base | kAnnounceBit);
    }
  }
  // CR-4.3, CR-7.4, CR-16.3. Ruling: POST_OUT is crank resolution, so
  // voluntary_draw does not apply there either (CR-7.4).
  if (playable == 0 || (phase_ == Phase::kTurn && params_.voluntary_draw &&
                        DrawYieldsCard())) {
    out.push_back(kDrawAction);
  }
  // CR-10.4, CR-16.4 (V is only ever set in CALL mode).
  if (vulnerable_ >= 0 && vulnerable_ != p && phase_ != Phase::kPostOut) {
    out.push_back(EncodeCallFool(vulnerable_));
  }
}

void CraitsState::QueueDraw(int seat, int count, DrawCause cause) {
  DrawRecord& r = draws_[draw_tail_++];
  r.seat = seat;
  r.requested = count;
  r.drawn = 0;
  r.cause = cause;
}

void CraitsState::GiveTurn(int seat) {
  // CR-3.1. Each flag passed is cleared, so this ends within N steps even if
  // every seat is flagged. Ruling: with every seat flagged, each loses its
  // turn once and the turn comes back to `seat` (each flag is consumed when
  // the turn reaches its seat, exactly as the rule says).
  while ((missed_ >> seat) & 1) {
    missed_ &= static_cast<uint8_t>(~(1u << seat));
    seat = Next(seat);
  }
  cur_ = static_cast<int8_t>(seat);
}

void CraitsState::Resume() {
  while (draw_head_ < draw_tail_) {
    DrawRecord& r = draws_[draw_head_];
    CardMask& hand = hands_[r.seat];
    while (r.drawn < r.requested) {
      if (stock_size_ == 0) {
        if (discard_size_ >= 2) {  // CR-9.2: stop for the new stock order
          pending_chance_ = kReshufflePending;
          return;
        }
        break;  // CR-9.3: the rest of this obligation lapses
      }
      hand |= Bit(stock_[--stock_size_]);
      ++r.drawn;
    }
    ++draw_head_;
  }
  switch (after_) {
    case After::kGiveTurn:
      GiveTurn(after_seat_);
      break;
    case After::kStay:
      break;
    case After::kEndRound:
      EndRound(/*exhausted=*/false);
      return;
  }
  // CR-12: only while nobody has gone out (POST_OUT may exceed the limit).
  if (round_actions_ >= params_.round_action_limit &&
      (phase_ == Phase::kTurn || phase_ == Phase::kCrank ||
       phase_ == Phase::kNameSuit)) {
    EndRound(/*exhausted=*/true);
  }
}

void CraitsState::PrepareDeal() {
  dealer_ = static_cast<int8_t>((params_.first_dealer + round_ - 1) %
                                params_.num_players);  // CR-1.2
  phase_ = Phase::kRoundOver;
  pending_chance_ = kDealPending;
  hands_ = {};
  stock_size_ = 0;
  discard_size_ = 0;
  sigma_ = -1;
  count_ = 0;
  cur_ = -1;
  missed_ = 0;
  vulnerable_ = -1;
  dir_ = 1;
  round_actions_ = 0;
}

void CraitsState::Deal(absl::Span<const Card> order) {
  const int n = params_.num_players;
  const int dealt = n * HandSizeForRound(round_);
  hands_ = {};
  int seat = dealer_;
  for (int i = 0; i < dealt; ++i) {  // CR-1.4
    seat = seat + 1 == n ? 0 : seat + 1;
    hands_[seat] |= Bit(order[i]);
  }
  discard_[0] = order[dealt];  // CR-1.5
  discard_size_ = 1;
  stock_size_ = static_cast<uint8_t>(kNumCards - 1 - dealt);
  for (int k = 0; k < stock_size_; ++k) stock_[k] = order[kNumCards - 1 - k];
  // CR-1.6
  dir_ = 1;
  count_ = 0;
  missed_ = 0;
  vulnerable_ = -1;
  round_actions_ = 0;
  draw_head_ = draw_tail_ = 0;
  pending_chance_ = kNoChance;
  phase_ = Phase::kTurn;
  ResolveStarter();
}

void CraitsState::ResolveStarter() {
  // CR-8: the starter is the dealer's play, with P = d and dir = +1; no
  // announcement or going out applies (CR-8.1).
  const Card c = discard_[0];
  const int d = dealer_;
  sigma_ = static_cast<int8_t>(SuitOf(c));
  const int rank = RankOf(c);
  if (rank == kEight || rank == kNine) {
    // Ruling (CR-2.1): until the dealer names a suit, sigma stays the
    // starter's own suit (the suit of the top card).
    phase_ = Phase::kNameSuit;
    cur_ = static_cast<int8_t>(d);
    return;
  }
  CardEffect(rank, d);
  Resume();
}

void CraitsState::VisibleCards(int seat, std::vector<Card>* out) const {
  out->clear();
  for (Card c : discard_pile()) out->push_back(c);
  const int n = params_.num_players;
  if (seat >= 0 && seat < n) {
    for (CardMask m = hand(seat); m; m &= m - 1) {
      out->push_back(static_cast<Card>(__builtin_ctzll(m)));
    }
  }
  if (rounds_completed_ > 0) {
    const CraitsRoundResult& last = results_[rounds_completed_ - 1];
    for (int s = 0; s < n; ++s) {
      for (CardMask m = last.hands[s]; m; m &= m - 1) {
        out->push_back(static_cast<Card>(__builtin_ctzll(m)));
      }
    }
  }
}

int CraitsState::SubstitutePreference(Action action) const {
  absl::StatusOr<CraitsMove> move = CraitsMove::Decode(action);
  if (!move.ok()) return 1;
  switch (move->type) {
    case CraitsMove::Type::kDraw:
      return 0;
    case CraitsMove::Type::kCallFool:
      return 9;
    default:
      return 1;
  }
}

void CraitsState::ApplyLegalAction(Action action) {
  ++round_actions_;  // CR-12.1 counts every accepted action
  draw_head_ = draw_tail_ = 0;
  switch (ActionType(action)) {
    case kTypePlay:
      ApplyPlay(action);
      break;
    case kTypeDraw:
      ApplyDraw();
      break;
    case kTypeCallFool: {  // CR-10.4: the caller then still acts
      const int v = ActionTarget(action);
      vulnerable_ = -1;
      QueueDraw(v, 2, DrawCause::kFoolCalled);
      missed_ |= static_cast<uint8_t>(1u << v);
      AfterEffects(After::kStay, cur_);
      break;
    }
    default:  // NAME_SUIT, CR-8.2 / CR-16.1
      sigma_ = static_cast<int8_t>(ActionSuit(action));
      phase_ = Phase::kTurn;
      AfterEffects(After::kGiveTurn, Next(dealer_));
      break;
  }
  Resume();
}

void CraitsState::ApplyPlay(Action action) {
  const int p = cur_;
  const Card c = ActionCard(action);
  const int rank = RankOf(c);
  // CR-10.3: any PLAY clears V (another seat's, or V's own hand changes);
  // step (4) below may set it again.
  vulnerable_ = -1;
  // CR-5.1 steps (1) and (2).
  hands_[p] &= ~Bit(c);
  discard_[discard_size_++] = c;
  const int named = ActionSuit(action);
  sigma_ = static_cast<int8_t>(named >= 0 ? named : SuitOf(c));
  if (phase_ == Phase::kPostOut) {  // CR-11.3; no announcement (CR-10.6)
    count_ += rank == kAce ? 1 : 2;
    PassCrank(p);
    return;
  }
  const CardMask hand = hands_[p];
  if (hand == 0) {  // step (3)
    GoOut(p, rank);
    return;
  }
  // Step (4), CR-10.2: one card left and no announcement.
  if ((hand & (hand - 1)) == 0 && !ActionAnnounce(action)) {
    if (params_.fool_mode == FoolMode::kAuto) {  // CR-10.5
      QueueDraw(p, 2, DrawCause::kFoolPenalty);
      missed_ |= static_cast<uint8_t>(1u << p);
    } else {  // CR-10.3
      vulnerable_ = static_cast<int8_t>(p);
    }
  }
  // Step (5) and (6).
  if (phase_ == Phase::kCrank) {  // CR-7.3
    count_ += rank == kAce ? 1 : 2;
    AfterEffects(After::kGiveTurn, Next(p));
    return;
  }
  CardEffect(rank, p);
}

void CraitsState::CardEffect(int rank, int p) {
  switch (rank) {  // CR-6.1
    case kTwo:
      count_ = 2;
      phase_ = Phase::kCrank;
      AfterEffects(After::kGiveTurn, Next(p));
      break;
    case kFour:
      AfterEffects(After::kGiveTurn, Next(Next(p)));
      break;
    case kFive:
      for (int s = Next(p); s != p; s = Next(s)) {
        QueueDraw(s, 1, DrawCause::kFive);
      }
      AfterEffects(After::kGiveTurn, Next(p));
      break;
    case kSix:
      AfterEffects(After::kGiveTurn, p);
      break;
    case kSeven:
      QueueDraw(Next(p), 1, DrawCause::kSeven);
      AfterEffects(After::kGiveTurn,
                   params_.seven_skips ? Next(Next(p)) : Next(p));
      break;
    case kTen:
      dir_ = static_cast<int8_t>(-dir_);
      AfterEffects(After::kGiveTurn,
                   params_.num_players == 2 && params_.two_player_ten_skips
                       ? p
                       : Next(p));
      break;
    default:  // A, 3, 8, 9, J, Q, K
      AfterEffects(After::kGiveTurn, Next(p));
      break;
  }
}

void CraitsState::GoOut(int p, int rank) {
  // CR-11.1-11.2. V is already clear (CR-10.3: someone goes out).
  if (phase_ == Phase::kCrank) {  // (c): an ace or 2 adds to the crank
    count_ += rank == kAce ? 1 : 2;
    PassCrank(p);
    return;
  }
  switch (rank) {
    case kTwo:  // (c): a 2 in TURN starts a crank that is resolved at once
      count_ = 2;
      PassCrank(p);
      return;
    case kSeven:  // (a)
      QueueDraw(Next(p), 1, DrawCause::kSeven);
      break;
    case kFive:  // (b)
      for (int s = Next(p); s != p; s = Next(s)) {
        QueueDraw(s, 1, DrawCause::kFive);
      }
      break;
    default:  // (d)
      break;
  }
  AfterEffects(After::kEndRound, p);
}

void CraitsState::PassCrank(int from) {
  // CR-11.3: the first seat after `from` in direction dir holding a card;
  // missed-turn flags are ignored and kept.
  int s = from;
  for (int k = 1; k < params_.num_players; ++k) {
    s = Next(s);
    if (hands_[s] != 0) {
      phase_ = Phase::kPostOut;
      cur_ = static_cast<int8_t>(s);
      AfterEffects(After::kStay, s);
      return;
    }
  }
  AfterEffects(After::kEndRound, from);  // nobody can take it: it lapses
}

void CraitsState::ApplyDraw() {
  const int p = cur_;
  // CR-10.3: V is cleared by another seat's DRAW, or by V's own DRAW when it
  // changes V's hand size (a DRAW that yields nothing leaves V set).
  if (vulnerable_ != p || DrawYieldsCard()) vulnerable_ = -1;
  switch (phase_) {
    case Phase::kTurn:  // CR-4.3
      QueueDraw(p, 1, DrawCause::kDrawAction);
      AfterEffects(After::kGiveTurn, Next(p));
      break;
    case Phase::kCrank:  // CR-7.4
      QueueDraw(p, count_, DrawCause::kCrankLoss);
      count_ = 0;
      phase_ = Phase::kTurn;
      AfterEffects(After::kGiveTurn, Next(p));
      break;
    default:  // POST_OUT, CR-11.3: the DRAW ends the resolution
      // Ruling (CR-2.2): C is cleared as the DRAW starts; if its cards need a
      // reshuffle, the chance node shows POST_OUT with C = 0 (likewise a
      // crank DRAW shows TURN with C = 0, and the draws after going out show
      // the phase of the last card until the round ends).
      QueueDraw(p, count_, DrawCause::kCrankLoss);
      count_ = 0;
      AfterEffects(After::kEndRound, p);
      break;
  }
}

void CraitsState::EndRound(bool exhausted) {
  // CR-11.5, CR-13.
  CraitsRoundResult& r = results_[rounds_completed_];
  for (int s = 0; s < params_.num_players; ++s) {
    r.hands[s] = hands_[s];
    r.scores[s] = RoundScore(hands_[s], params_.surplus_threes);
    totals_[s] += r.scores[s];
  }
  r.exhausted = exhausted;
  ++rounds_completed_;
  if (rounds_completed_ < params_.num_rounds()) {
    ++round_;
    PrepareDeal();
    return;
  }
  PrepareDeal();  // clears the piles; round_ stays the last round
  phase_ = Phase::kGameOver;  // CR-14.1
  pending_chance_ = kNoChance;
}

ChanceKind CraitsState::chance_kind() const {
  return pending_chance_ == kReshufflePending ? ChanceKind::kReshuffle
                                              : ChanceKind::kDeal;
}

int CraitsState::ChanceCards(absl::Span<Card> out) const {
  if (pending_chance_ == kNoChance) return 0;
  int n = 0;
  if (pending_chance_ == kDealPending) {
    for (int c = 0; c < kNumCards && n < static_cast<int>(out.size()); ++c) {
      out[n++] = static_cast<Card>(c);
    }
    return n;
  }
  CardMask under_top = 0;  // CR-9.2: the discard pile minus its top card
  for (int i = 0; i + 1 < discard_size_; ++i) under_top |= Bit(discard_[i]);
  for (CardMask m = under_top; m != 0 && n < static_cast<int>(out.size());
       m &= m - 1) {
    out[n++] = LowestCard(m);
  }
  return n;
}

absl::Status CraitsState::ApplyChance(ChanceKind kind,
                                      absl::Span<const Card> order) {
  if (pending_chance_ == kNoChance) {
    return absl::FailedPreconditionError(
        IsTerminal() ? "the game is over: no chance event is expected"
                     : "a seat must act: no chance event is expected");
  }
  const absl::string_view rule =
      pending_chance_ == kDealPending ? "CR-1.3" : "CR-9.2";
  if (kind != chance_kind()) {
    return IllegalAction(rule, "expected a ", ChanceKindName(chance_kind()),
                         " event, got ", ChanceKindName(kind));
  }
  Card expected[kNumCards];
  const int n = ChanceCards(absl::MakeSpan(expected));
  CardMask want = 0;
  for (int i = 0; i < n; ++i) want |= Bit(expected[i]);
  CardMask got = 0;
  for (Card c : order) {
    if (c >= kNumCards || (got & Bit(c))) {
      return IllegalAction(rule, "the ", ChanceKindName(kind),
                           " order must be a permutation of ", n,
                           " cards; card id ", static_cast<int>(c),
                           c >= kNumCards ? " is not a card" : " repeats");
    }
    got |= Bit(c);
  }
  if (static_cast<int>(order.size()) != n || got != want) {
    return IllegalAction(rule, "the ", ChanceKindName(kind),
                         " order must be a permutation of ",
                         CardsToString(want), "; got ", order.size(),
                         " cards ", CardsToString(got));
  }
  if (pending_chance_ == kDealPending) {
    Deal(order);
    return absl::OkStatus();
  }
  // CR-9.2: new stock, top first; the top card stays as the discard pile.
  stock_size_ = static_cast<uint8_t>(n);
  for (int i = 0; i < n; ++i) stock_[n - 1 - i] = order[i];
  discard_[0] = discard_[discard_size_ - 1];
  discard_size_ = 1;
  pending_chance_ = kNoChance;
  Resume();
  return absl::OkStatus();
}

// ---------------------------------------------------------------- Rejections

absl::Status CraitsState::ExplainIllegal(Action action) const {
  if (phase_ == Phase::kGameOver) {
    return absl::FailedPreconditionError(
        "CR-14.1: the game is over: no action is expected");
  }
  if (pending_chance_ != kNoChance) {
    return absl::FailedPreconditionError(absl::StrCat(
        pending_chance_ == kDealPending ? "CR-1.3" : "CR-9.2", ": a ",
        ChanceKindName(chance_kind()),
        " event is pending: no action is expected"));
  }
  ASSIGN_OR_RETURN(CraitsMove m, CraitsMove::Decode(action));
  const int p = cur_;
  if (phase_ == Phase::kNameSuit) {
    const Card starter = discard_[0];
    const std::string allowed =
        RankOf(starter) == kEight
            ? std::string("any suit")
            : absl::StrCat(SuitName(SuitOf(starter)), " or ",
                           SuitName(PartnerSuit(SuitOf(starter))));
    if (m.type != CraitsMove::Type::kNameSuit) {
      return IllegalAction("CR-8.2", "the starter is ", CardToString(starter),
                           ": the dealer (seat ", p,
                           ") must first name a suit with NAME_SUIT (",
                           allowed, ")");
    }
    return IllegalAction("CR-8.2", "a starter ", CardToString(starter),
                         " allows naming ", allowed, ", not ",
                         SuitName(m.suit));
  }
  switch (m.type) {
    case CraitsMove::Type::kNameSuit:
      return IllegalAction(
          "CR-16.1",
          "NAME_SUIT is legal only in phase NAME_SUIT (the dealer's starter "
          "8 or 9); the phase is ",
          PhaseName(phase_));
    case CraitsMove::Type::kCallFool:
      if (params_.fool_mode == FoolMode::kAuto) {
        return IllegalAction("CR-10.5",
                             "CALL_FOOL is never legal with fool_mode AUTO "
                             "(penalties are applied automatically)");
      }
      if (phase_ == Phase::kPostOut) {
        return IllegalAction("CR-10.6",
                             "no calls after a seat has gone out this round");
      }
      if (vulnerable_ < 0) {
        return IllegalAction(
            "CR-10.4",
            "no seat is vulnerable now (V is cleared by the first PLAY or "
            "DRAW after a failure to announce)");
      }
      if (vulnerable_ == p) {
        return IllegalAction("CR-16.4", "seat ", p,
                             " cannot call the fool on itself");
      }
      return IllegalAction("CR-16.4", "CALL_FOOL must target the vulnerable "
                           "seat V = ", static_cast<int>(vulnerable_),
                           ", not ", m.target);
    case CraitsMove::Type::kDraw: {
      const std::string playable = CardsToString(Playable(p));
      if (phase_ == Phase::kTurn) {
        if (params_.voluntary_draw) {
          return IllegalAction(
              "CR-4.3",
              "a voluntary DRAW must yield a card, but the stock is empty "
              "and the discard pile holds only its top card (CR-9.3); play "
              "one of ",
              playable);
        }
        return IllegalAction(
            "CR-4.3", "DRAW is legal only without a playable card (CR-16.3); "
            "you must play one of ", playable, " on ",
            CardToString(discard_[discard_size_ - 1]), " (active suit ",
            SuitName(sigma_), ", CR-4.2)");
      }
      return IllegalAction(
          phase_ == Phase::kCrank ? "CR-7.3" : "CR-11.3", "you hold ",
          playable,
          " and must continue the crank with an ace or 2 (voluntary_draw "
          "never applies to a crank, CR-7.4)");
    }
    case CraitsMove::Type::kPlay:
      return ExplainPlay(m);
  }
  return absl::InternalError("unreachable");
}

absl::Status CraitsState::ExplainPlay(const CraitsMove& m) const {
  const int p = cur_;
  const CardMask hand = hands_[p];
  const std::string card = CardToString(m.card);
  if ((hand & Bit(m.card)) == 0) {
    return IllegalAction("CR-16.2", card, " is not in your hand ",
                         CardsToString(hand));
  }
  const int rank = RankOf(m.card);
  if ((Playable(p) & Bit(m.card)) == 0) {
    if (phase_ == Phase::kTurn) {
      const Card top = discard_[discard_size_ - 1];
      return IllegalAction(
          "CR-4.1", card, " is not playable on ", CardToString(top),
          " (active suit ", SuitName(sigma_), "); a playable card is an 8",
          params_.nines_wild ? " or a 9" : "", ", a card of suit ",
          SuitName(sigma_), " or a card of rank ",
          CardToString(top).substr(0, 1), "; playable here: ",
          CardsToString(Playable(p)));
    }
    return IllegalAction(phase_ == Phase::kCrank ? "CR-7.2" : "CR-11.3",
                         "while a crank is being resolved only aces and 2s "
                         "are playable, not ",
                         card, " (C = ", static_cast<int>(count_), ")");
  }
  if (rank == kEight || rank == kNine) {
    if (m.suit < 0) {
      return IllegalAction("CR-16.2", "a PLAY of ", card,
                           " must name a suit, e.g. 'play ", card, ":",
                           SuitName(SuitOf(m.card)), "'");
    }
    const int s = SuitOf(m.card);
    if (rank == kNine && m.suit != s && m.suit != PartnerSuit(s)) {
      return IllegalAction("CR-16.2", "a 9 names its own suit or its partner "
                           "suit (CR-6.1): ", card, " allows ", SuitName(s),
                           " or ", SuitName(PartnerSuit(s)), ", not ",
                           SuitName(m.suit));
    }
  } else if (m.suit >= 0) {
    return IllegalAction("CR-16.2", "only an 8 or 9 names a suit; play ",
                         card, " without one");
  }
  if (m.announce) {
    if (phase_ == Phase::kPostOut) {
      return IllegalAction("CR-10.1",
                           "announce must be false in phase POST_OUT (a seat "
                           "has gone out, CR-10.6)");
    }
    return IllegalAction("CR-10.1",
                         "announce is allowed only when the play leaves "
                         "exactly one card; this play leaves ",
                         CountCards(hand) - 1);
  }
  return absl::InternalError(absl::StrCat(
      "CR-16.2: ", CraitsActionToString(m.Encode()), " is not legal now"));
}

// ---------------------------------------------------------------- Views

GameOutcome CraitsState::Outcome() const {
  GameOutcome o;
  o.higher_score_is_better = false;  // CR-14.2: lowest total wins
  const int n = params_.num_players;
  for (int s = 0; s < n; ++s) o.scores.push_back(totals_[s]);
  for (int s = 0; s < n; ++s) {
    int rank = 1;
    for (int t = 0; t < n; ++t) rank += totals_[t] < totals_[s];
    o.ranks.push_back(rank);
  }
  o.winners = Winners();
  return o;
}

std::vector<int> CraitsState::Winners() const {
  // Ruling (CR-14.2, A17 "ties share the win"): a tie of every seat lists
  // every seat, never the empty "drawn game" list of GameOutcome.
  const int n = params_.num_players;
  const int best = *std::min_element(totals_.begin(), totals_.begin() + n);
  std::vector<int> w;
  for (int s = 0; s < n; ++s) {
    if (totals_[s] == best) w.push_back(s);
  }
  return w;
}

std::unique_ptr<State> CraitsState::Clone() const {
  return std::make_unique<CraitsState>(*this);
}

std::string CraitsState::ActionToString(Action action) const {
  return CraitsActionToString(action);
}

absl::StatusOr<Action> CraitsState::ParseAction(absl::string_view text) const {
  return ParseCraitsAction(text);
}

std::vector<Card> CraitsState::StockTopFirst() const {
  std::vector<Card> out;
  for (int i = stock_size_ - 1; i >= 0; --i) out.push_back(stock_[i]);
  return out;
}

int CraitsState::CardsInPlay() const {
  CardMask all = 0;
  int n = stock_size_ + discard_size_;
  for (int s = 0; s < params_.num_players; ++s) {
    all |= hands_[s];
    n += CountCards(hands_[s]);
  }
  for (int i = 0; i < stock_size_; ++i) all |= Bit(stock_[i]);
  for (int i = 0; i < discard_size_; ++i) all |= Bit(discard_[i]);
  // A card in two places would make the count exceed the distinct cards.
  return n == CountCards(all) ? n : -1;
}

CraitsObservation CraitsState::Observe(int seat) const {
  CraitsObservation o;
  const int n = params_.num_players;
  o.seat = seat;
  o.num_players = n;
  o.round = round_;
  o.hand_size_dealt = HandSizeForRound(round_);
  o.dealer = dealer_;
  o.dir = dir_;
  o.phase = phase_;
  o.seat_to_act = current_seat();
  o.top_card = top_card();
  o.active_suit = sigma_;
  o.count = count_;
  o.discard_pile.assign(discard_.begin(), discard_.begin() + discard_size_);
  o.stock_size = stock_size_;
  for (int s = 0; s < n; ++s) {
    o.seats.push_back({CountCards(hands_[s]), missed_turn(s), totals_[s]});
  }
  o.vulnerable = vulnerable_;
  if (seat >= 0 && seat < n) {
    for (CardMask m = hands_[seat]; m != 0; m &= m - 1) {
      o.hand.push_back(LowestCard(m));
    }
    if (o.seat_to_act == seat) {
      ActionList legal;
      LegalActions(legal);
      o.legal_actions.assign(legal.begin(), legal.end());
    }
  }
  o.last_draws.assign(draws_.begin(), draws_.begin() + draw_tail_);
  for (int r = 0; r < rounds_completed_; ++r) {
    CraitsRoundSummary sum;
    sum.scores.assign(results_[r].scores.begin(),
                      results_[r].scores.begin() + n);
    sum.exhausted = results_[r].exhausted;
    o.completed_rounds.push_back(std::move(sum));
  }
  if (rounds_completed_ > 0) {
    const CraitsRoundResult& last = results_[rounds_completed_ - 1];
    for (int s = 0; s < n; ++s) {
      std::vector<Card> h;
      for (CardMask m = last.hands[s]; m != 0; m &= m - 1) {
        h.push_back(LowestCard(m));
      }
      o.last_round_hands.push_back(std::move(h));
    }
  }
  return o;
}

std::string CraitsState::DebugString() const {
  const int n = params_.num_players;
  std::string s = absl::StrCat(
      "round ", round_, "/", params_.num_rounds(), " (done ",
      rounds_completed_, ") dealer ", dealer_, " phase ", PhaseName(phase_),
      " chance ", pending_chance_, " seat ", cur_, " dir ", dir_, " sigma ",
      sigma_ >= 0 ? SuitName(sigma_) : "-", " C ", count_, " V ",
      vulnerable_, " actions ", round_actions_, "\n");
  for (int p = 0; p < n; ++p) {
    absl::StrAppend(&s, "  S", p, (missed_ >> p) & 1 ? " (missed)" : "",
                    " total ", totals_[p], " hand ", CardsToString(hands_[p]),
                    "\n");
  }
  std::vector<std::string> stock, discard;
  for (Card c : StockTopFirst()) stock.push_back(CardToString(c));
  for (int i = 0; i < discard_size_; ++i) {
    discard.push_back(CardToString(discard_[i]));
  }
  absl::StrAppend(&s, "  stock (top first) [", absl::StrJoin(stock, " "),
                  "]\n  discard (bottom first) [", absl::StrJoin(discard, " "),
                  "]\n  effects ", draw_head_, "/", draw_tail_, " after ",
                  static_cast<int>(after_), ":", after_seat_, "\n");
  for (int i = 0; i < draw_tail_; ++i) {
    absl::StrAppend(&s, "  draw S", draws_[i].seat, " ", draws_[i].drawn, "/",
                    draws_[i].requested, " ", DrawCauseName(draws_[i].cause),
                    "\n");
  }
  for (int r = 0; r < rounds_completed_; ++r) {
    absl::StrAppend(&s, "  round ", r + 1,
                    results_[r].exhausted ? " (exhausted)" : "", ":");
    for (int p = 0; p < n; ++p) absl::StrAppend(&s, " ", results_[r].scores[p]);
    absl::StrAppend(&s, "\n");
  }
  return s;
}

// ---------------------------------------------------------------- Positions

absl::StatusOr<std::unique_ptr<CraitsState>> CraitsState::FromPosition(
    const CraitsGame& game, const CraitsPosition& pos) {
  const CraitsParams& params = game.craits_params();
  const int n = params.num_players;
  auto bad = [](auto... why) {
    return absl::InvalidArgumentError(absl::StrCat("position: ", why...));
  };
  if (pos.round < 1 || pos.round > params.num_rounds()) return bad("round");
  if (pos.dealer < 0 || pos.dealer >= n) return bad("dealer");
  if (pos.dir != 1 && pos.dir != -1) return bad("dir must be +1 or -1");
  if (pos.seat_to_act < 0 || pos.seat_to_act >= n) return bad("seat_to_act");
  if (pos.vulnerable < -1 || pos.vulnerable >= n) return bad("vulnerable");
  if (pos.active_suit < -1 || pos.active_suit >= kNumSuits) {
    return bad("active_suit");
  }
  const bool crank =
      pos.phase == Phase::kCrank || pos.phase == Phase::kPostOut;
  if (pos.phase == Phase::kRoundOver || pos.phase == Phase::kGameOver) {
    return bad("phase must be NAME_SUIT, TURN, CRANK or POST_OUT");
  }
  if ((pos.count > 0) != crank || pos.count > 60) {
    return bad("C > 0 exactly in CRANK and POST_OUT (CR-2.2)");
  }
  if (pos.discard.empty()) return bad("the discard pile is empty");
  if (pos.stock.size() + pos.discard.size() > kNumCards) return bad("piles");
  CardMask seen = 0;
  auto take = [&seen](Card c) {
    if (c >= kNumCards || (seen & Bit(c))) return false;
    seen |= Bit(c);
    return true;
  };
  auto state = game.NewCraitsState();
  for (int s = 0; s < kMaxSeats; ++s) {
    if (s >= n && !pos.hands[s].empty()) return bad("hand of seat ", s);
    for (Card c : pos.hands[s]) {
      if (!take(c)) return bad("card ", static_cast<int>(c), " repeats");
      state->hands_[s] |= Bit(c);
    }
  }
  if (pos.phase != Phase::kNameSuit && state->hands_[pos.seat_to_act] == 0) {
    return bad("the seat to act holds no card");
  }
  if (pos.phase == Phase::kNameSuit &&
      (pos.discard.size() != 1 || pos.seat_to_act != pos.dealer ||
       (RankOf(pos.discard[0]) != kEight && RankOf(pos.discard[0]) != kNine))) {
    return bad("NAME_SUIT needs a lone starter 8 or 9 and the dealer to act");
  }
  const int stock_n = static_cast<int>(pos.stock.size());
  for (int i = 0; i < stock_n; ++i) {
    if (!take(pos.stock[i])) return bad("stock card repeats");
    state->stock_[stock_n - 1 - i] = pos.stock[i];
  }
  for (size_t i = 0; i < pos.discard.size(); ++i) {
    if (!take(pos.discard[i])) return bad("discard card repeats");
    state->discard_[i] = pos.discard[i];
  }
  state->stock_size_ = static_cast<uint8_t>(stock_n);
  state->discard_size_ = static_cast<uint8_t>(pos.discard.size());
  state->round_ = static_cast<uint8_t>(pos.round);
  state->rounds_completed_ = static_cast<uint8_t>(pos.round - 1);
  state->dealer_ = static_cast<int8_t>(pos.dealer);
  state->dir_ = static_cast<int8_t>(pos.dir);
  state->phase_ = pos.phase;
  state->pending_chance_ = kNoChance;
  state->cur_ = static_cast<int8_t>(pos.seat_to_act);
  state->sigma_ = static_cast<int8_t>(
      pos.active_suit >= 0 ? pos.active_suit : SuitOf(pos.discard.back()));
  state->count_ = static_cast<uint8_t>(pos.count);
  state->missed_ = 0;
  for (int s = 0; s < n; ++s) {
    if (pos.missed[s]) state->missed_ |= static_cast<uint8_t>(1u << s);
  }
  state->vulnerable_ = static_cast<int8_t>(pos.vulnerable);
  state->round_actions_ = pos.actions_this_round;
  for (int s = 0; s < n; ++s) state->totals_[s] = pos.totals[s];
  return state;
}

}  // namespace cardref::craits
