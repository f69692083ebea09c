// The game-agnostic rules-engine API, shared by the referee, the analyzer and
// the tools.
//
// Model (after OpenSpiel's spiel.h): a Game holds the validated parameters and
// creates States. A State is one position; at any time it is exactly one of
//   - a chance node: the engine needs a recorded random event (a deck order,
//     a new stock order, a separate deck) before anything else happens.
//     Chance may fall in the middle of an action's effects: the action is
//     applied, the state stops at the chance node, and the rest of the
//     effects run when the chance event arrives;
//   - a decision node: one seat must act (current_seat()), its legal actions
//     are listed, and ApplyAction either applies one or rejects it;
//   - terminal: the game is over and Outcome() is final.
// The engine has no RNG: (game id, parameters, chance events, actions)
// determine a game completely, which is what makes a log replayable.
//
// Actions are small integers whose bit fields each game documents (its
// <game>_action.h). They are the engine's internal currency; the proto and
// JSON codecs and the text notation translate them for the outside world.
//
// Cost contract (enforced by benchmarks, not tests): a State is a flat value
// (no heap allocation per decision); LegalActions writes into a
// caller-owned ActionList; Clone copies.
//
// Thread safety: Game is immutable after creation and may be shared by
// threads. State is thread-compatible (one thread at a time).
#ifndef CARDREF_GAMES_API_GAME_H_
#define CARDREF_GAMES_API_GAME_H_

#include <array>
#include <cassert>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "games/api/params.h"

namespace cardref {

using Action = uint32_t;  // game-defined encoding, see <game>_action.h
using Card = uint8_t;     // canonical card id of the game's spec

// Upper bound on the legal actions of any decision in any game.
inline constexpr int kMaxLegalActions = 1024;
inline constexpr int kMaxSeats = 5;

// A fixed-capacity list of actions, filled by State::LegalActions. Lives on
// the caller's stack; never allocates.
class ActionList {
 public:
  void clear() { size_ = 0; }
  void push_back(Action a) {
    assert(size_ < kMaxLegalActions);
    actions_[size_++] = a;
  }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Action operator[](int i) const { return actions_[i]; }
  const Action* begin() const { return actions_.data(); }
  const Action* end() const { return actions_.data() + size_; }
  bool contains(Action a) const;

 private:
  std::array<Action, kMaxLegalActions> actions_;
  int size_ = 0;
};

enum class NodeType { kChance, kDecision, kTerminal };

// What a chance node asks for. Every chance event is a permutation of a
// known multiset of cards (State::ChanceCards), recorded in the log.
enum class ChanceKind : uint8_t {
  kDeal = 1,       // the deck order of the round that starts now
  kReshuffle = 2,  // the stock rebuilt from a pile: new order, top first
  kTrumpDeck = 3,  // a separate deck of the round (e.g. to draw a trump)
};
absl::string_view ChanceKindName(ChanceKind kind);

// The per-seat summary of a finished game, the same for every game, used by
// the referee and statistics. Game-specific detail (chips, team components,
// ...) comes from the game's own typed accessors.
struct GameOutcome {
  std::vector<int64_t> scores;  // per seat: the game's headline number
  std::vector<int> ranks;       // per seat: 1 + number of seats ranked better
  std::vector<int> winners;     // ascending seats; empty for a drawn game
  bool higher_score_is_better = true;
};

// What generic code (fault policy, schedules, ratings, reports) needs to
// know of a game beyond its rules.
struct GameTraits {
  // Partnerships: the team of each seat at a table of `seats`, or empty
  // when every seat plays for itself. Partners share their result: they
  // forfeit together, are compared as one side, and a schedule never seats
  // one bot on two teams.
  std::function<std::vector<int>(int seats)> teams;
  // The outcome's ranks say only who won and who lost (every seat but the
  // loser wins): two seats of equal rank are no comparison, not a tie.
  bool ranks_only_winners_and_losers = false;
  // A game for the generic test suites only (games/testing/): registered
  // like the others, served only when the referee is told to.
  bool test_only = false;
};

// The team of each seat at a table of `seats`: GameTraits::teams, or each
// seat its own team (seat s is team s) in a game without partnerships.
std::vector<int> SeatTeams(const GameTraits& traits, int seats);

class Game;

class State {
 public:
  virtual ~State() = default;

  const Game& game() const { return *game_; }
  virtual NodeType node_type() const = 0;
  bool IsTerminal() const { return node_type() == NodeType::kTerminal; }
  bool IsChance() const { return node_type() == NodeType::kChance; }

  // The seat that must act; -1 unless node_type() == kDecision.
  virtual int current_seat() const = 0;

  // At a decision node: the legal actions of current_seat(), each once, in a
  // deterministic order (ascending Action value). Empty elsewhere.
  virtual void LegalActions(ActionList& out) const = 0;

  // Applies `action` for current_seat() if it is legal; otherwise returns an
  // error whose message starts with the rule ID that forbids it and says
  // what was expected, and leaves the state unchanged.
  [[nodiscard]] absl::Status ApplyAction(Action action);

  // Whether `action` is in LegalActions(). Engines whose legal sets are
  // large answer without listing them (the referee and the audit ask this
  // for every action).
  virtual bool IsLegalAction(Action action) const;

  // Precondition: `action` is in LegalActions(). No validation: for
  // playouts and for replaying actions already validated.
  virtual void ApplyLegalAction(Action action) = 0;

  // How readily the referee plays `action` (legal here) for a seat that
  // cannot play itself (docs/fault_policy.md): lower first, the engine's
  // order breaking ties. The default prefers none: the first legal action.
  virtual int SubstitutePreference(Action /*action*/) const { return 1; }

  // At a chance node: the kind of event expected.
  virtual ChanceKind chance_kind() const = 0;
  // At a chance node: the cards the event must order, ascending. Returns the
  // count written (out must hold it; 64 always suffices).
  virtual int ChanceCards(absl::Span<Card> out) const = 0;
  // Applies a chance event: `order` must be a permutation of ChanceCards()
  // (checked; on error the state is unchanged).
  [[nodiscard]] virtual absl::Status ApplyChance(
      ChanceKind kind, absl::Span<const Card> order) = 0;

  // Round bookkeeping. Rounds are numbered from 1. round() is the round in
  // progress (or the last one, once terminal); rounds_completed() counts the
  // rounds whose results are final (the referee logs each as it completes).
  virtual int round() const = 0;
  virtual int rounds_completed() const = 0;

  // Precondition: IsTerminal().
  virtual GameOutcome Outcome() const = 0;

  // The cards `seat` may see now (-1: what every seat and a spectator may
  // see), in any order. No view the game's codec builds for the seat shows
  // a card outside it: the generic hidden-information walk checks every
  // card field of every observation against it. A game whose decks share
  // card ids lists the ids of both, so the walk is a necessary condition
  // there and the game's own tests tell the decks apart.
  virtual void VisibleCards(int seat, std::vector<Card>* out) const = 0;

  virtual std::unique_ptr<State> Clone() const = 0;

  // Human-readable notation of an action, parsed back by ParseAction (same
  // code, documented in docs/notation.md). Context-free: depends on the
  // action and the game only.
  virtual std::string ActionToString(Action action) const = 0;
  virtual absl::StatusOr<Action> ParseAction(absl::string_view text) const = 0;

  // Full state, every hidden card included: for debugging and test failures
  // only, never for a seat.
  virtual std::string DebugString() const = 0;

 protected:
  explicit State(const Game* game) : game_(game) {}
  State(const State&) = default;
  State& operator=(const State&) = default;

  // Called by ApplyAction for an action not in LegalActions(): must return a
  // non-OK status naming the rule and what was expected.
  virtual absl::Status ExplainIllegal(Action action) const = 0;

 private:
  const Game* game_;  // not owned; outlives the state
};

class Game {
 public:
  virtual ~Game() = default;

  virtual absl::string_view id() const = 0;
  // Bumped whenever a ruling changes what a given record means; logs carry
  // it and the analyzer refuses to silently audit across versions.
  virtual int rules_version() const = 0;
  virtual int num_seats() const = 0;
  // Complete and validated.
  const GameParams& params() const { return params_; }
  const GameTraits& traits() const { return traits_; }

  // A new game: the first node is the chance node of round 1's deal.
  virtual std::unique_ptr<State> NewInitialState() const = 0;

 protected:
  explicit Game(GameParams params, GameTraits traits = {})
      : params_(std::move(params)), traits_(std::move(traits)) {}

 private:
  GameParams params_;
  GameTraits traits_;
};

}  // namespace cardref

#endif  // CARDREF_GAMES_API_GAME_H_
