#include "games/kraken/kraken.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "referee/base/rule_error.h"
#include "referee/base/status_macros.h"
#include "games/kraken/kraken_notation.h"

namespace cardref::kraken {

namespace {

std::vector<ParamSpec> ParamSchema() {
  return {
      ParamSpec::Enum("trump_mode", "UTRECHT", {"UTRECHT", "FREE", "RANDOM"},
                      "KR-3", "how trump is fixed (KR-6)"),
      ParamSpec::Enum("free_first_speaker", "LEFT_OF_DEALER",
                      {"LEFT_OF_DEALER", "DEALER"}, "KR-3",
                      "FREE: who speaks first (KR-6.3)"),
      ParamSpec::Enum("random_all_pass", "SECOND_CARD",
                      {"SECOND_CARD", "CALL_OTHER"}, "KR-3",
                      "RANDOM: what happens when all pass (KR-6.4)"),
      ParamSpec::Enum("rule_set", "AMSTERDAM", {"AMSTERDAM", "ROTTERDAM"},
                      "KR-3", "trumping obligations (KR-10, KR-11)"),
      ParamSpec::Bool("spades_double", true, "KR-3",
                      "spades as trump double the round (KR-14.4)"),
      ParamSpec::Enum("deal_pattern", "3-2-3", {"3-2-3", "4-4"}, "KR-3",
                      "packets of the deal (KR-4.3)"),
      ParamSpec::Int("rounds", 16, 1, 16, "KR-3",
                     "rounds in the game (KR-4.1, KR-15.1)"),
      ParamSpec::Int("last_trick_bonus", 0, 0, 10, "KR-3",
                     "0 or 10 card points for the last trick (KR-14.1)"),
      ParamSpec::Int("pit_bonus", 0, 0, 100, "KR-3",
                     "0 or 100 for all eight tricks (KR-14.2)"),
      ParamSpec::Int("first_dealer", 0, 0, 3, "KR-3",
                     "dealer of the first round (set-up data, KR-4.1)"),
  };
}

}  // namespace

absl::string_view PhaseName(Phase phase) {
  switch (phase) {
    case Phase::kDeal:
      return "DEAL";
    case Phase::kTrumpDeck:
      return "TRUMP_DECK";
    case Phase::kTrumpSpeak:
      return "TRUMP_SPEAK";
    case Phase::kTrumpForced:
      return "TRUMP_FORCED";
    case Phase::kChallenge:
      return "CHALLENGE";
    case Phase::kDeclare:
      return "DECLARE";
    case Phase::kPlay:
      return "PLAY";
    case Phase::kClaim:
      return "CLAIM";
    case Phase::kGameOver:
      return "GAME_OVER";
  }
  return "UNKNOWN";
}

absl::string_view ClaimStatusName(ClaimStatus status) {
  switch (status) {
    case ClaimStatus::kNoBonus:
      return "none";
    case ClaimStatus::kOpen:
      return "open";
    case ClaimStatus::kClaimed:
      return "claimed";
    case ClaimStatus::kDeclined:
      return "declined";
  }
  return "?";
}

bool KrakenTrick::operator==(const KrakenTrick& o) const {
  return cards == o.cards && size == o.size && leader == o.leader &&
         winner == o.winner && points == o.points && bonus == o.bonus &&
         claim == o.claim && stuk_mask == o.stuk_mask;
}

// --- Game ------------------------------------------------------------------

GameTraits Traits() {
  GameTraits traits;
  // KR-3: seats 0 and 2 play against seats 1 and 3.
  traits.teams = [](int seats) {
    std::vector<int> team(seats);
    for (int s = 0; s < seats; ++s) team[s] = s % 2;
    return team;
  };
  return traits;
}

GameInfo MakeGameInfo() {
  GameInfo info;
  info.id = "kraken";
  info.display_name = "Kraken";
  info.rules_prefix = "KR";
  info.rules_version = kRulesVersion;
  info.min_seats = kNumSeats;
  info.max_seats = kNumSeats;
  info.params = ParamSchema();
  info.traits = Traits();
  info.create =
      [](const GameParams& given) -> absl::StatusOr<std::unique_ptr<Game>> {
    ASSIGN_OR_RETURN(std::unique_ptr<KrakenGame> game,
                     KrakenGame::Create(given));
    return std::unique_ptr<Game>(std::move(game));
  };
  return info;
}

absl::StatusOr<std::unique_ptr<KrakenGame>> KrakenGame::Create(
    const GameParams& given) {
  ASSIGN_OR_RETURN(GameParams p, CompleteParams(given, ParamSchema(), "KR-3"));
  KrakenConfig c;
  const std::string& mode = p.GetEnum("trump_mode");
  c.trump_mode = mode == "UTRECHT" ? TrumpMode::kUtrecht
                 : mode == "FREE"  ? TrumpMode::kFree
                                   : TrumpMode::kRandom;
  c.free_first_speaker = p.GetEnum("free_first_speaker") == "DEALER"
                             ? FirstSpeaker::kDealer
                             : FirstSpeaker::kLeftOfDealer;
  c.random_all_pass = p.GetEnum("random_all_pass") == "CALL_OTHER"
                          ? AllPass::kCallOther
                          : AllPass::kSecondCard;
  c.rule_set = p.GetEnum("rule_set") == "ROTTERDAM" ? RuleSet::kRotterdam
                                                    : RuleSet::kAmsterdam;
  c.spades_double = p.GetBool("spades_double");
  c.deal_pattern =
      p.GetEnum("deal_pattern") == "4-4" ? DealPattern::k44 : DealPattern::k323;
  c.rounds = static_cast<int>(p.GetInt("rounds"));
  c.last_trick_bonus = static_cast<int>(p.GetInt("last_trick_bonus"));
  c.pit_bonus = static_cast<int>(p.GetInt("pit_bonus"));
  c.first_dealer = static_cast<int>(p.GetInt("first_dealer"));
  // Ruling: free_first_speaker outside FREE and random_all_pass outside
  // RANDOM are accepted and ignored (the conformance files give every
  // parameter whatever the mode).
  if (c.last_trick_bonus != 0 && c.last_trick_bonus != 10) {
    return InvalidParameter("KR-3", "last_trick_bonus must be 0 or 10, got ",
                            c.last_trick_bonus);
  }
  if (c.pit_bonus != 0 && c.pit_bonus != 100) {
    return InvalidParameter("KR-3", "pit_bonus must be 0 or 100, got ",
                            c.pit_bonus);
  }
  return std::unique_ptr<KrakenGame>(new KrakenGame(std::move(p), c));
}

KrakenGame::KrakenGame(GameParams params, KrakenConfig config)
    : Game(std::move(params), Traits()), config_(config) {}

std::unique_ptr<State> KrakenGame::NewInitialState() const {
  return NewKrakenState();
}

std::unique_ptr<KrakenState> KrakenGame::NewKrakenState() const {
  return std::make_unique<KrakenState>(this);
}

// --- State: set-up -------------------------------------------------------

KrakenState::KrakenState(const KrakenGame* game)
    : State(game), config_(game->config()) {
  dealer_ = static_cast<int8_t>(config_.first_dealer);
  ResetRound();
}

void KrakenState::ResetRound() {
  phase_ = Phase::kDeal;
  to_act_ = -1;
  trump_ = maker_ = proposed_ = -1;
  level_ = 0;
  passes_ = 0;
  challenge_step_ = 1;
  challenge_pos_ = 0;
  num_turned_ = num_trump_log_ = num_challenge_log_ = 0;
  trump_deck_.fill(kNoCard);
  trump_log_.fill(SeatAction{});
  challenge_log_.fill(SeatAction{});
  declared_mask_ = 0;
  contest_winner_ = -1;
  declarations_.fill(0);
  declaration_points_ = {0, 0};
  hands_.fill(0);
  stuk_holder_ = -1;
  stuk_declared_ = 0;
  trick_index_ = 0;
  tricks_.fill(KrakenTrick{});
}

absl::StatusOr<std::unique_ptr<KrakenState>> KrakenState::FromPosition(
    const KrakenGame& game, const KrakenPosition& pos) {
  auto bad = [](auto... why) {
    return absl::InvalidArgumentError(absl::StrCat("bad position: ", why...));
  };
  const int n = static_cast<int>(pos.trick.size());
  if (pos.round < 1 || pos.round > game.config().rounds) return bad("round");
  if (pos.dealer < 0 || pos.dealer > 3 || pos.maker < 0 || pos.maker > 3 ||
      pos.leader < 0 || pos.leader > 3 || pos.trump < 0 || pos.trump > 3 ||
      pos.level < 0 || pos.level > 3 || pos.trick_index < 0 ||
      pos.trick_index > 7 || n > 3 || pos.stuk_holder < -1 ||
      pos.stuk_holder > 3) {
    return bad("a field is out of range");
  }
  CardMask seen = 0;
  for (int s = 0; s < kNumSeats; ++s) {
    if (seen & pos.hands[s]) return bad("a card is in two hands");
    seen |= pos.hands[s];
    const int played_now = ((s - pos.leader) & 3) < n ? 1 : 0;
    if (CountCards(pos.hands[s]) != 8 - pos.trick_index - played_now) {
      return bad(SeatName(s), " must hold ", 8 - pos.trick_index - played_now,
                 " cards");
    }
  }
  for (Card c : pos.trick) {
    if (c >= kNumCards || (seen & CardBit(c))) return bad("trick card ", c);
    seen |= CardBit(c);
  }
  auto state = game.NewKrakenState();
  KrakenState& st = *state;
  st.round_index_ = static_cast<int8_t>(pos.round - 1);
  st.rounds_completed_ = static_cast<int8_t>(pos.round - 1);
  st.dealer_ = static_cast<int8_t>(pos.dealer);
  st.trump_ = static_cast<int8_t>(pos.trump);
  st.maker_ = static_cast<int8_t>(pos.maker);
  st.level_ = static_cast<int8_t>(pos.level);
  st.challenge_step_ = 4;  // done
  st.declared_mask_ = 0xF;
  st.hands_ = pos.hands;
  st.totals_ = pos.totals;
  st.stuk_holder_ = static_cast<int8_t>(pos.stuk_holder);
  st.stuk_declared_ = static_cast<uint8_t>(
      pos.stuk_declared && pos.stuk_holder >= 0 ? 1 << pos.stuk_holder : 0);
  // Earlier tricks: the out-of-play cards, ascending, led by `leader`.
  CardMask out = ~seen;
  for (int t = 0; t < pos.trick_index; ++t) {
    KrakenTrick& tr = st.tricks_[t];
    tr.leader = static_cast<int8_t>(pos.leader);
    tr.size = 4;
    for (int i = 0; i < 4; ++i) {
      tr.cards[i] = static_cast<Card>(__builtin_ctz(out));
      out &= out - 1;
    }
    const auto cards = absl::MakeConstSpan(tr.cards);
    tr.winner = static_cast<int8_t>(
        (tr.leader + TrickWinnerIndex(cards, pos.trump)) & 3);
    tr.points = static_cast<uint8_t>(TrickPoints(cards, pos.trump));
    tr.bonus = TrickBonus(tr.cards, pos.trump);
    tr.claim = tr.bonus == Bonus::kNone ? ClaimStatus::kNoBonus
                                        : ClaimStatus::kDeclined;
  }
  st.trick_index_ = static_cast<int8_t>(pos.trick_index);
  KrakenTrick& cur = st.tricks_[pos.trick_index];
  cur.leader = static_cast<int8_t>(pos.leader);
  cur.size = static_cast<int8_t>(n);
  for (int i = 0; i < n; ++i) cur.cards[i] = pos.trick[i];
  st.phase_ = Phase::kPlay;
  st.to_act_ = static_cast<int8_t>((pos.leader + n) & 3);
  return state;
}

// --- State API -------------------------------------------------------------

NodeType KrakenState::node_type() const {
  switch (phase_) {
    case Phase::kDeal:
    case Phase::kTrumpDeck:
      return NodeType::kChance;
    case Phase::kGameOver:
      return NodeType::kTerminal;
    default:
      return NodeType::kDecision;
  }
}

int KrakenState::current_seat() const {
  return node_type() == NodeType::kDecision ? to_act_ : -1;
}

int KrakenState::ChallengeSpeaker(int step, int pos) const {
  // KR-7.2..7.4: L then R, M then P, L then R.
  if (step == 2) return pos == 0 ? maker_ : PartnerOf(maker_);
  return pos == 0 ? LeftOf(maker_) : RightOf(maker_);
}

void KrakenState::LegalActions(ActionList& out) const {
  out.clear();
  switch (phase_) {
    case Phase::kTrumpSpeak:
      if (config_.trump_mode == TrumpMode::kFree) {
        for (int s = 0; s < kNumSuits; ++s) out.push_back(ChooseTrumpAction(s));
        out.push_back(PassTrumpAction());
      } else {
        out.push_back(PassTrumpAction());
        out.push_back(AcceptTrumpAction());
      }
      return;
    case Phase::kTrumpForced:
      for (int s = 0; s < kNumSuits; ++s) {
        if (s != proposed_) out.push_back(ChooseTrumpAction(s));
      }
      return;
    case Phase::kChallenge:
      out.push_back(ChallengeAction());
      out.push_back(PassChallengeAction());
      return;
    case Phase::kDeclare: {
      std::array<uint32_t, kMaxDeclarations> payloads;
      const int n = ListDeclarations(hands_[to_act_], payloads);
      for (int i = 0; i < n; ++i) out.push_back(DeclareAction(payloads[i]));
      return;
    }
    case Phase::kPlay: {
      CardMask legal =
          LegalCards(hands_[to_act_], CurrentCards(), trump_, config_.rule_set);
      // KR-13.1: the stuk variants of trump K and Q, right after the plain
      // PLAY, keep the list ascending.
      const CardMask stuk_cards = CanDeclareStuk(to_act_)
                                      ? (CardBit(MakeCard(trump_, kKing)) |
                                         CardBit(MakeCard(trump_, kQueen)))
                                      : 0;
      for (; legal != 0; legal &= legal - 1) {
        const Card c = static_cast<Card>(__builtin_ctz(legal));
        out.push_back(PlayAction(c, false));
        if (stuk_cards & CardBit(c)) out.push_back(PlayAction(c, true));
      }
      return;
    }
    case Phase::kClaim:
      out.push_back(ClaimBonusAction(current().bonus));
      out.push_back(DeclineBonusAction());
      return;
    default:
      return;
  }
}

void KrakenState::VisibleCards(int seat, std::vector<Card>* out) const {
  out->clear();
  auto add_mask = [out](CardMask m) {
    for (; m; m &= m - 1) out->push_back(static_cast<Card>(__builtin_ctz(m)));
  };
  if (seat >= 0 && seat < kNumSeats) add_mask(hands_[seat]);
  for (const KrakenTrick& t : tricks_) {
    for (int i = 0; i < t.size; ++i) out->push_back(t.cards[i]);
  }
  for (int s = 0; s < kNumSeats; ++s) {
    if (!((declared_mask_ >> s) & 1)) continue;
    const Declaration d = DecodeDeclaration(declarations_[s]);
    for (int i = 0; i < d.size; ++i) add_mask(d.combos[i].cards);
  }
  for (int i = 0; i < num_turned_; ++i) out->push_back(trump_deck_[i]);
}

int KrakenState::SubstitutePreference(Action action) const {
  switch (KindOf(action)) {
    case ActionKind::kPassTrump:
    case ActionKind::kPassChallenge:
    case ActionKind::kDeclineBonus:
      return 0;
    case ActionKind::kDeclare:
      return DecodeDeclaration(PayloadOf(action)).size == 0 ? 0 : 1;
    default:
      return 1;
  }
}

void KrakenState::ApplyLegalAction(Action action) {
  switch (phase_) {
    case Phase::kTrumpSpeak:
    case Phase::kTrumpForced:
      ApplyTrumpAction(action);
      return;
    case Phase::kChallenge:
      ApplyChallengeAction(action);
      return;
    case Phase::kDeclare:
      ApplyDeclare(action);
      return;
    case Phase::kPlay:
      ApplyPlay(action);
      return;
    case Phase::kClaim:
      current().claim = KindOf(action) == ActionKind::kClaimBonus
                            ? ClaimStatus::kClaimed
                            : ClaimStatus::kDeclined;
      FinishTrick();
      return;
    default:
      return;
  }
}

ChanceKind KrakenState::chance_kind() const {
  return phase_ == Phase::kTrumpDeck ? ChanceKind::kTrumpDeck
                                     : ChanceKind::kDeal;
}

int KrakenState::ChanceCards(absl::Span<Card> out) const {
  if (!IsChance()) return 0;
  for (int c = 0; c < kNumCards; ++c) out[c] = static_cast<Card>(c);
  return kNumCards;
}

absl::Status KrakenState::ApplyChance(ChanceKind kind,
                                      absl::Span<const Card> order) {
  if (!IsChance()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "no chance event is expected (phase ", PhaseName(phase_), ")"));
  }
  if (kind != chance_kind()) {
    return absl::FailedPreconditionError(
        absl::StrCat("expected a ", ChanceKindName(chance_kind()),
                     " event, got ", ChanceKindName(kind)));
  }
  CardMask seen = 0;
  for (Card c : order) {
    if (c < kNumCards) seen |= CardBit(c);
  }
  if (order.size() != kNumCards || seen != 0xFFFFFFFFu) {
    return absl::InvalidArgumentError(
        absl::StrCat("KR-4.2: a ", ChanceKindName(kind),
                     " event must order the 32 card ids 0..31, each once"));
  }
  if (kind == ChanceKind::kDeal) {
    ResetRound();
    hands_ = DealHands(order, dealer_, config_.deal_pattern);  // KR-4.3
    if (config_.trump_mode == TrumpMode::kRandom) {
      phase_ = Phase::kTrumpDeck;
    } else {
      StartTrumpSelection();
    }
    return absl::OkStatus();
  }
  // KR-6.4: the trump deck; its top card proposes a suit.
  // Ruling: the whole trump deck is recorded right after the deal in every
  // RANDOM round (KR-4.2), although only its first cards are ever turned.
  std::copy(order.begin(), order.end(), trump_deck_.begin());
  num_turned_ = 1;
  proposed_ = static_cast<int8_t>(SuitOf(trump_deck_[0]));
  phase_ = Phase::kTrumpSpeak;
  to_act_ = static_cast<int8_t>(eldest());
  return absl::OkStatus();
}

void KrakenState::StartTrumpSelection() {
  if (config_.trump_mode == TrumpMode::kUtrecht) {  // KR-6.2
    phase_ = Phase::kTrumpForced;
    to_act_ = static_cast<int8_t>(eldest());
  } else {  // KR-6.3
    phase_ = Phase::kTrumpSpeak;
    to_act_ = static_cast<int8_t>(FirstFreeSpeaker());
  }
}

void KrakenState::FixTrump(int suit, int maker) {
  trump_ = static_cast<int8_t>(suit);
  maker_ = static_cast<int8_t>(maker);
  // KR-13.2 "dealt both": no card has left a hand yet, so the hands now are
  // the hands as dealt.
  const CardMask kq =
      CardBit(MakeCard(suit, kKing)) | CardBit(MakeCard(suit, kQueen));
  stuk_holder_ = -1;
  for (int s = 0; s < kNumSeats; ++s) {
    if ((hands_[s] & kq) == kq) stuk_holder_ = static_cast<int8_t>(s);
  }
  phase_ = Phase::kChallenge;  // KR-7.1
  challenge_step_ = 1;
  challenge_pos_ = 0;
  to_act_ = static_cast<int8_t>(ChallengeSpeaker(1, 0));
}

void KrakenState::ApplyTrumpAction(Action action) {
  trump_log_[num_trump_log_++] = SeatAction{to_act_, action};
  switch (KindOf(action)) {
    case ActionKind::kChooseTrump:
      FixTrump(ChosenSuit(action), to_act_);
      return;
    case ActionKind::kAcceptTrump:
      FixTrump(proposed_, to_act_);
      return;
    default:
      break;
  }
  // PASS_TRUMP.
  if (++passes_ < kNumSeats) {
    to_act_ = static_cast<int8_t>(LeftOf(to_act_));
    return;
  }
  if (config_.trump_mode == TrumpMode::kFree) {  // KR-6.3: F is forced
    phase_ = Phase::kTrumpForced;
    to_act_ = static_cast<int8_t>(FirstFreeSpeaker());
    return;
  }
  if (config_.random_all_pass == AllPass::kCallOther) {  // KR-6.4b
    phase_ = Phase::kTrumpForced;
    to_act_ = static_cast<int8_t>(eldest());
    return;
  }
  // KR-6.4a: turn cards until a suit other than P appears; eldest is maker.
  // A 32-card deck holds 8 cards of P, so one appears by index 8.
  while (SuitOf(trump_deck_[num_turned_]) == proposed_) ++num_turned_;
  const int suit = SuitOf(trump_deck_[num_turned_++]);
  FixTrump(suit, eldest());
}

void KrakenState::ApplyChallengeAction(Action action) {
  challenge_log_[num_challenge_log_++] = SeatAction{to_act_, action};
  bool over = false;
  if (KindOf(action) == ActionKind::kChallenge) {
    level_ = challenge_step_;  // KR-7.2..7.4: the step's challenge
    over = challenge_step_ == 3;
    ++challenge_step_;
    challenge_pos_ = 0;
  } else {
    over = ++challenge_pos_ == 2;  // both passed: level stays
  }
  if (!over) {
    to_act_ =
        static_cast<int8_t>(ChallengeSpeaker(challenge_step_, challenge_pos_));
    return;
  }
  challenge_step_ = 4;       // done
  phase_ = Phase::kDeclare;  // KR-8.1
  to_act_ = static_cast<int8_t>(eldest());
}

void KrakenState::ApplyDeclare(Action action) {
  declarations_[to_act_] = PayloadOf(action);
  declared_mask_ |= static_cast<uint8_t>(1 << to_act_);
  if (declared_mask_ != 0xF) {
    to_act_ = static_cast<int8_t>(LeftOf(to_act_));
    return;
  }
  const ContestResult r =
      DeclarationContest(declarations_, eldest());  // KR-8.4
  contest_winner_ = static_cast<int8_t>(r.winner_seat);
  declaration_points_ = r.points;
  phase_ = Phase::kPlay;
  trick_index_ = 0;
  tricks_[0].leader = static_cast<int8_t>(eldest());  // KR-9.1
  to_act_ = static_cast<int8_t>(eldest());
}

void KrakenState::ApplyPlay(Action action) {
  const Card c = PlayedCard(action);
  KrakenTrick& t = current();
  hands_[to_act_] &= ~CardBit(c);
  if (PlayStuk(action)) {  // KR-13.3
    stuk_declared_ |= static_cast<uint8_t>(1 << to_act_);
    t.stuk_mask |= static_cast<uint8_t>(1 << t.size);
  }
  t.cards[t.size++] = c;
  if (t.size < 4) {
    to_act_ = static_cast<int8_t>(LeftOf(to_act_));
    return;
  }
  const auto cards = absl::MakeConstSpan(t.cards);
  t.winner =
      static_cast<int8_t>((t.leader + TrickWinnerIndex(cards, trump_)) & 3);
  t.points = static_cast<uint8_t>(TrickPoints(cards, trump_));
  t.bonus = TrickBonus(t.cards, trump_);
  to_act_ = t.winner;
  if (t.bonus != Bonus::kNone) {  // KR-12.3: the winner acts first
    t.claim = ClaimStatus::kOpen;
    phase_ = Phase::kClaim;
    return;
  }
  FinishTrick();
}

void KrakenState::FinishTrick() {
  const int winner = current().winner;
  if (++trick_index_ == kNumTricks) {
    ScoreRoundAndAdvance();
    return;
  }
  phase_ = Phase::kPlay;
  current().leader = static_cast<int8_t>(winner);  // KR-9.1
  to_act_ = static_cast<int8_t>(winner);
}

void KrakenState::ScoreRoundAndAdvance() {
  RoundFacts f;
  f.trump = trump_;
  f.maker = maker_;
  f.level = level_;
  f.spades_double = config_.spades_double;
  f.last_trick_bonus = config_.last_trick_bonus;
  f.pit_bonus = config_.pit_bonus;
  for (int t = 0; t < kNumTricks; ++t) {
    f.tricks[t] = tricks_[t].cards;
    f.leaders[t] = tricks_[t].leader;
    f.claimed[t] = tricks_[t].claim == ClaimStatus::kClaimed;
  }
  for (int s = 0; s < kNumSeats; ++s) f.stuk[s] = (stuk_declared_ >> s) & 1;
  f.declarations = declaration_points_;
  KrakenRoundResult& r = results_[rounds_completed_];
  r.round = round_index_ + 1;
  r.dealer = dealer_;
  r.trump = trump_;
  r.maker = maker_;
  r.contest_winner = contest_winner_;
  r.score = ScoreRound(f);
  totals_[0] += r.score.score[0];  // KR-14.6
  totals_[1] += r.score.score[1];
  ++rounds_completed_;
  to_act_ = -1;
  if (rounds_completed_ == config_.rounds) {  // KR-15.1
    phase_ = Phase::kGameOver;
    return;
  }
  ++round_index_;
  dealer_ =
      static_cast<int8_t>((config_.first_dealer + round_index_) & 3);  // KR-4.1
  phase_ = Phase::kDeal;
}

GameOutcome KrakenState::Outcome() const {
  GameOutcome o;
  o.scores.resize(kNumSeats);
  o.ranks.resize(kNumSeats);
  const int winner = totals_[0] > totals_[1]   ? 0
                     : totals_[1] > totals_[0] ? 1
                                               : -1;
  for (int s = 0; s < kNumSeats; ++s) {
    o.scores[s] = totals_[TeamOf(s)];
    o.ranks[s] = (winner < 0 || TeamOf(s) == winner) ? 1 : 3;
    if (TeamOf(s) == winner) o.winners.push_back(s);
  }
  return o;
}

KrakenGameResult KrakenState::Result() const {
  KrakenGameResult r;
  for (int i = 0; i < rounds_completed_; ++i) {
    r.round_scores.push_back(
        {results_[i].score.score[0], results_[i].score.score[1]});
  }
  r.totals = totals_;
  if (IsTerminal() && totals_[0] != totals_[1]) {
    r.winner_team = totals_[0] > totals_[1] ? 0 : 1;
  }
  return r;
}

std::unique_ptr<State> KrakenState::Clone() const {
  return std::make_unique<KrakenState>(*this);
}

std::string KrakenState::ActionToString(Action action) const {
  return KrakenActionToString(action);
}

absl::StatusOr<Action> KrakenState::ParseAction(absl::string_view text) const {
  return ParseKrakenAction(text);
}

bool KrakenState::operator==(const KrakenState& o) const {
  auto tie = [](const KrakenState& s) {
    return std::tie(
        s.phase_, s.round_index_, s.rounds_completed_, s.dealer_, s.to_act_,
        s.trump_, s.maker_, s.proposed_, s.level_, s.passes_, s.challenge_step_,
        s.challenge_pos_, s.num_turned_, s.num_trump_log_, s.num_challenge_log_,
        s.trump_deck_, s.trump_log_, s.challenge_log_, s.declared_mask_,
        s.contest_winner_, s.declarations_, s.declaration_points_, s.hands_,
        s.stuk_holder_, s.stuk_declared_, s.trick_index_, s.tricks_, s.totals_);
  };
  if (tie(*this) != tie(o)) return false;
  for (int i = 0; i < rounds_completed_; ++i) {
    const RoundScore& a = results_[i].score;
    const RoundScore& b = o.results_[i].score;
    if (results_[i].round != o.results_[i].round ||
        results_[i].dealer != o.results_[i].dealer ||
        results_[i].trump != o.results_[i].trump ||
        results_[i].maker != o.results_[i].maker ||
        results_[i].contest_winner != o.results_[i].contest_winner ||
        a.raw != b.raw || a.score != b.score || a.factor != b.factor ||
        a.card_points != b.card_points || a.trick_bonus != b.trick_bonus ||
        a.stuk != b.stuk || a.declarations != b.declarations ||
        a.last_trick != b.last_trick || a.pit != b.pit ||
        a.burden_team != b.burden_team || a.success != b.success ||
        a.tricks_won != b.tricks_won || a.level != b.level) {
      return false;
    }
  }
  return true;
}

// --- Observation -----------------------------------------------------------

KrakenObservation KrakenState::Observe(int seat) const {
  KrakenObservation o;
  o.seat = seat;
  o.config = config_;
  o.round = round();
  o.dealer = dealer_;
  o.eldest = eldest();
  o.phase = phase_;
  o.seat_to_act = current_seat();
  o.hand = seat >= 0 && seat < kNumSeats ? hands_[seat] : 0;  // spectator: none
  for (int s = 0; s < kNumSeats; ++s) o.hand_sizes[s] = CountCards(hands_[s]);
  if (o.seat_to_act == seat) {
    ActionList legal;
    LegalActions(legal);
    o.legal_actions.assign(legal.begin(), legal.end());
  }
  o.proposed_suit = proposed_;
  o.turned_trump_cards.assign(trump_deck_.begin(),
                              trump_deck_.begin() + num_turned_);  // KR-6.5
  o.trump_actions.assign(trump_log_.begin(),
                         trump_log_.begin() + num_trump_log_);
  o.trump = trump_;
  o.maker = maker_;
  o.challenge_actions.assign(challenge_log_.begin(),
                             challenge_log_.begin() + num_challenge_log_);
  o.level = level_;
  for (int s = 0; s < kNumSeats; ++s) {
    o.declared[s] = (declared_mask_ >> s) & 1;
    o.declarations[s] = o.declared[s] ? declarations_[s] : 0;
    o.stuk_declared[s] = (stuk_declared_ >> s) & 1;
  }
  o.contest_decided = declared_mask_ == 0xF;  // KR-16.1: after the 4th
  if (o.contest_decided) {
    o.contest_winner = contest_winner_;
    o.declaration_points = declaration_points_;
  }
  // Tricks with four cards are complete (a claim window may be open on the
  // last one); the trick in progress has 0..3. Ruling: the tricks of a
  // finished round stay visible (they are public) until the next deal.
  for (int t = 0; t < kNumTricks; ++t) {
    if (tricks_[t].size == 4) {
      o.completed_tricks.push_back(tricks_[t]);
    } else if (t == trick_index_ && phase_ == Phase::kPlay) {
      o.current_trick = tricks_[t];
    }
  }
  o.claim_window_open = phase_ == Phase::kClaim;
  o.totals = totals_;
  for (int i = 0; i < rounds_completed_; ++i) {
    o.round_scores.push_back(
        {results_[i].score.score[0], results_[i].score.score[1]});
  }
  return o;
}

std::string KrakenState::DebugString() const {
  std::string s =
      absl::StrCat("round ", round(), "/", config_.rounds, " dealer ", dealer_,
                   " phase ", PhaseName(phase_), " to_act ", to_act_, "\n");
  for (int i = 0; i < kNumSeats; ++i) {
    absl::StrAppend(&s, "  seat ", i, ": ", CardsToString(hands_[i]), "\n");
  }
  absl::StrAppend(
      &s, "  trump ",
      trump_ < 0 ? std::string("-") : std::string(1, SuitLetter(trump_)),
      " maker ", maker_, " level ", level_, " proposed ", proposed_, " turned ",
      num_turned_, " stuk_holder ", stuk_holder_, " stuk_declared ",
      stuk_declared_, "\n");
  for (int i = 0; i < kNumSeats; ++i) {
    if ((declared_mask_ >> i) & 1) {
      absl::StrAppend(&s, "  declared s", i, ": ",
                      KrakenActionToString(DeclareAction(declarations_[i])),
                      "\n");
    }
  }
  for (int t = 0; t <= std::min<int>(trick_index_, kNumTricks - 1); ++t) {
    const KrakenTrick& tr = tricks_[t];
    if (tr.size == 0) continue;
    absl::StrAppend(&s, "  trick ", t + 1, " led by s", tr.leader, ":");
    for (int i = 0; i < tr.size; ++i) {
      absl::StrAppend(&s, " ", CardName(tr.cards[i]),
                      ((tr.stuk_mask >> i) & 1) ? "+stuk" : "");
    }
    if (tr.size == 4) {
      absl::StrAppend(&s, " -> s", tr.winner, " ", tr.points, " pts ",
                      BonusName(tr.bonus), " ", ClaimStatusName(tr.claim));
    }
    absl::StrAppend(&s, "\n");
  }
  absl::StrAppend(&s, "  totals ", totals_[0], " / ", totals_[1], "\n");
  return s;
}

}  // namespace cardref::kraken
