#include "games/testing/tiny_tricks/tiny_tricks.h"

#include <algorithm>
#include <cstddef>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "referee/base/rule_error.h"
#include "referee/base/status_macros.h"

namespace cardref::tiny_tricks {
namespace {

std::vector<ParamSpec> Schema() {
  return {
      ParamSpec::Int("num_players", 2, 2, 3, "TT-0", "players at the table"),
      ParamSpec::Int("rounds", 1, 1, 3, "TT-0", "rounds, each with a deal"),
  };
}

GameTraits Traits() {
  GameTraits traits;
  traits.test_only = true;
  return traits;
}

bool Holds(const std::vector<Card>& hand, Card c) {
  return std::find(hand.begin(), hand.end(), c) != hand.end();
}

}  // namespace

std::string CardName(Card c) {
  return absl::StrCat(SuitOf(c) == 0 ? "A" : "B", RankOf(c));
}

GameInfo MakeGameInfo() {
  GameInfo info;
  info.id = "tiny_tricks";
  info.display_name = "Tiny Tricks";
  info.rules_prefix = "TT";
  info.rules_version = kRulesVersion;
  info.min_seats = 2;
  info.max_seats = 3;
  info.params = Schema();
  info.traits = Traits();
  info.create =
      [](const GameParams& given) -> absl::StatusOr<std::unique_ptr<Game>> {
    ASSIGN_OR_RETURN(std::unique_ptr<TinyTricksGame> game,
                     TinyTricksGame::Create(given));
    return std::unique_ptr<Game>(std::move(game));
  };
  return info;
}

absl::StatusOr<std::unique_ptr<TinyTricksGame>> TinyTricksGame::Create(
    const GameParams& given) {
  ASSIGN_OR_RETURN(GameParams p, CompleteParams(given, Schema(), "TT-0"));
  const int players = static_cast<int>(p.GetInt("num_players"));
  const int rounds = static_cast<int>(p.GetInt("rounds"));
  return std::unique_ptr<TinyTricksGame>(
      new TinyTricksGame(std::move(p), players, rounds));
}

TinyTricksGame::TinyTricksGame(GameParams params, int num_players, int rounds)
    : Game(std::move(params), Traits()),
      num_players_(num_players),
      rounds_(rounds) {}

std::unique_ptr<State> TinyTricksGame::NewInitialState() const {
  return std::make_unique<TinyTricksState>(this);
}

TinyTricksState::TinyTricksState(const TinyTricksGame* game)
    : State(game),
      hands_(game->num_seats()),
      totals_(game->num_seats(), 0) {}

NodeType TinyTricksState::node_type() const {
  if (rounds_completed_ == tiny_game().rounds()) return NodeType::kTerminal;
  return dealt_ ? NodeType::kDecision : NodeType::kChance;
}

int TinyTricksState::current_seat() const {
  return node_type() == NodeType::kDecision ? to_act_ : -1;
}

int TinyTricksState::led_suit() const {
  if (tricks_.empty() || tricks_.back().cards.empty() ||
      tricks_.back().winner >= 0) {
    return -1;  // this seat leads
  }
  return SuitOf(tricks_.back().cards.front());
}

void TinyTricksState::LegalActions(ActionList& out) const {
  out.clear();
  if (node_type() != NodeType::kDecision) return;
  const std::vector<Card>& hand = hands_[to_act_];
  const int led = led_suit();
  const bool can_follow =
      led >= 0 && std::any_of(hand.begin(), hand.end(),
                              [led](Card c) { return SuitOf(c) == led; });
  std::vector<Card> sorted = hand;
  std::sort(sorted.begin(), sorted.end());
  for (Card c : sorted) {
    if (!can_follow || SuitOf(c) == led) out.push_back(c);  // TT-4
  }
}

absl::Status TinyTricksState::ExplainIllegal(Action action) const {
  if (node_type() != NodeType::kDecision) {
    return IllegalAction("TT-3", "no seat is to act");
  }
  if (action >= kDeckSize) {
    return IllegalAction("TT-1", "there is no card ", action);
  }
  const Card c = static_cast<Card>(action);
  if (!Holds(hands_[to_act_], c)) {
    return IllegalAction("TT-3", CardName(c), " is not in seat ", to_act_,
                         "'s hand");
  }
  std::vector<std::string> playable;
  ActionList legal;
  LegalActions(legal);
  for (Action a : legal) playable.push_back(CardName(static_cast<Card>(a)));
  return IllegalAction("TT-4", "follow the led suit ",
                       led_suit() == 0 ? "A" : "B", "; playable here: {",
                       absl::StrJoin(playable, ", "), "}");
}

void TinyTricksState::ApplyLegalAction(Action action) {
  const Card c = static_cast<Card>(action);
  std::vector<Card>& hand = hands_[to_act_];
  hand.erase(std::find(hand.begin(), hand.end(), c));
  if (tricks_.empty() || tricks_.back().winner >= 0) {
    Trick next;
    next.leader = to_act_;
    tricks_.push_back(next);
  }
  Trick& trick = tricks_.back();
  trick.cards.push_back(c);
  trick.seats.push_back(to_act_);
  const int n = num_seats();
  if (static_cast<int>(trick.cards.size()) < n) {
    to_act_ = (to_act_ + 1) % n;
    return;
  }
  // TT-5: the highest card of the led suit.
  size_t best = 0;
  for (size_t i = 1; i < trick.cards.size(); ++i) {
    if (SuitOf(trick.cards[i]) == SuitOf(trick.cards[0]) &&
        RankOf(trick.cards[i]) > RankOf(trick.cards[best])) {
      best = i;
    }
  }
  trick.winner = trick.seats[best];
  to_act_ = trick.winner;
  if (static_cast<int>(tricks_.size()) < kHandSize) return;
  // TT-6: the round is over.
  std::vector<int> won(n, 0);
  for (const Trick& t : tricks_) ++won[t.winner];
  for (int s = 0; s < n; ++s) totals_[s] += won[s];
  tricks_won_.push_back(std::move(won));
  ++rounds_completed_;
  to_act_ = -1;
  if (rounds_completed_ < tiny_game().rounds()) {
    ++round_;
    dealt_ = false;
  }
}

int TinyTricksState::ChanceCards(absl::Span<Card> out) const {
  if (node_type() != NodeType::kChance) return 0;
  for (int c = 0; c < kDeckSize; ++c) out[c] = static_cast<Card>(c);
  return kDeckSize;
}

absl::Status TinyTricksState::ApplyChance(ChanceKind kind,
                                          absl::Span<const Card> order) {
  if (node_type() != NodeType::kChance || kind != ChanceKind::kDeal) {
    return absl::FailedPreconditionError("TT-2: no deal is expected");
  }
  std::vector<Card> sorted(order.begin(), order.end());
  std::sort(sorted.begin(), sorted.end());
  for (int c = 0; c < kDeckSize; ++c) {
    if (sorted.size() != kDeckSize || sorted[c] != c) {
      return absl::InvalidArgumentError(
          "TT-2: a deal orders the 12 cards, each once");
    }
  }
  const int n = num_seats();
  for (int s = 0; s < n; ++s) {
    const std::ptrdiff_t first = static_cast<std::ptrdiff_t>(kHandSize) * s;
    hands_[s].assign(order.begin() + first, order.begin() + first + kHandSize);
  }
  tricks_.clear();  // the last round's tricks stay public until now
  dealt_ = true;
  to_act_ = (round_ - 1) % n;  // TT-3
  return absl::OkStatus();
}

int TinyTricksState::tricks_won(int seat, int round) const {
  return tricks_won_[round - 1][seat];
}

GameOutcome TinyTricksState::Outcome() const {
  GameOutcome outcome;
  const int n = num_seats();
  outcome.scores = totals_;
  const int64_t best = *std::max_element(totals_.begin(), totals_.end());
  bool all_tie = true;
  for (int s = 0; s < n; ++s) {
    int better = 0;
    for (int t = 0; t < n; ++t) better += totals_[t] > totals_[s] ? 1 : 0;
    outcome.ranks.push_back(better + 1);
    all_tie &= totals_[s] == best;
  }
  for (int s = 0; s < n && !all_tie; ++s) {
    if (totals_[s] == best) outcome.winners.push_back(s);
  }
  return outcome;
}

void TinyTricksState::VisibleCards(int seat, std::vector<Card>* out) const {
  out->clear();
  if (seat >= 0 && seat < num_seats()) {
    out->insert(out->end(), hands_[seat].begin(), hands_[seat].end());
  }
  for (const Trick& t : tricks_) {  // played cards are public
    out->insert(out->end(), t.cards.begin(), t.cards.end());
  }
}

std::unique_ptr<State> TinyTricksState::Clone() const {
  return std::make_unique<TinyTricksState>(*this);
}

std::string TinyTricksState::ActionToString(Action action) const {
  return absl::StrCat("play ", CardName(static_cast<Card>(action)));
}

absl::StatusOr<Action> TinyTricksState::ParseAction(
    absl::string_view text) const {
  absl::string_view rest = text;
  if (absl::ConsumePrefix(&rest, "play ") && rest.size() == 2 &&
      (rest[0] == 'A' || rest[0] == 'B') && rest[1] >= '1' && rest[1] <= '6') {
    return static_cast<Action>((rest[0] == 'A' ? 0 : 6) + (rest[1] - '1'));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "TT-1: not an action: '", text, "'; write 'play' and a card, e.g. 'play A3'"));
}

std::string TinyTricksState::DebugString() const {
  std::string out = absl::StrCat("round ", round_, " to act ", to_act_, "\n");
  for (int s = 0; s < num_seats(); ++s) {
    std::vector<std::string> cards;
    for (Card c : hands_[s]) cards.push_back(CardName(c));
    absl::StrAppend(&out, "seat ", s, ": ", absl::StrJoin(cards, " "),
                    " total ", totals_[s], "\n");
  }
  return out;
}

}  // namespace cardref::tiny_tricks
