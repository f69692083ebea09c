// Who plays whom next (docs/ladder.md, "Matchmaking"), after Halite's
// coordinator: favour entrants with few games and an uncertain rating,
// seat them with opponents of close rating, rotate seats, and never starve
// anyone.
//
// One call picks one round of one game: a group of `seats` distinct
// entrants and the seatings it plays (one match, or with duplicate deals
// one match per seating, all on one deal set).
//
//  1. Urgent first. An entrant that has waited U = ceil(N / seats) rounds
//     or more (N: the candidates) is urgent; urgent entrants are seated
//     before anyone else, longest wait first. An entrant becomes urgent
//     after U rounds and at most N - seats - 1 others are ahead of it, so
//     it waits at most U + floor((N - seats - 1) / seats) < 2 N / seats
//     rounds: inside the promised bound of 3 N / seats while N does not
//     shrink.
//  2. The seed. With no urgent entrant, one entrant is drawn with
//     probability proportional to sigma / (1 + games): new and uncertain
//     entrants play more.
//  3. Opponents. The rest of the group is drawn one at a time, without
//     replacement, with weight exp(-|mu - mu_seed| / closeness_scale).
//  4. Seats. Without duplicate deals, the seating of the group that puts
//     each member where it has sat least (the smallest sum of the members'
//     counts for their seats; ties drawn), so every entrant sits in every
//     seat about equally often. With duplicate deals, every distinct
//     seating: all permutations of the group for up to 4 seats (so
//     partnerships change too), and for 5 seats the 5 rotations of a cyclic
//     order whose step k = 1 + (round mod 4) varies with the round, so that
//     over four rounds of a group each entrant sits right after each other
//     exactly once.
//
// Deterministic: the same seed and the same sequence of calls give the same
// rounds (the project's Rng, referee/base/rng.h).
//
// Thread-safety: a Matchmaker is not thread-safe (it owns its Rng).
#ifndef CARDREF_LADDER_MATCHMAKING_MATCHMAKER_H_
#define CARDREF_LADDER_MATCHMAKING_MATCHMAKER_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "referee/base/rng.h"

namespace cardref::ladder {

struct MatchmakingOptions {
  int seats = 0;           // players per match, 2 to 5
  bool duplicate = false;  // play every distinct seating on one deal set
  // Opponents' preference halves every ln(2) * closeness_scale of mu
  // distance. Default: twice OpenSkill's beta.
  double closeness_scale = 25.0 / 3.0;
};

// One active entrant (its ranked version) in one game.
struct Candidate {
  int64_t id = 0;
  double mu = 25.0;
  double sigma = 25.0 / 3.0;
  int64_t games = 0;
  int64_t rounds_waited = 0;  // rounds of this game since its last
  std::vector<int64_t> seat_counts;  // per seat; empty means all zero
};

struct MatchmakingRound {
  std::vector<int64_t> group;                  // entrant ids, as chosen
  std::vector<std::vector<int64_t>> seatings;  // each: seat -> id
};

class Matchmaker {
 public:
  Matchmaker(const MatchmakingOptions& options, uint64_t seed)
      : options_(options), rng_(seed) {}

  // The next round among `candidates` (any order). `round` is the round's
  // number, which only picks the cyclic order for 5 seats with duplicate
  // deals. INVALID_ARGUMENT for bad options, duplicate ids or seat counts
  // of the wrong length; FAILED_PRECONDITION with fewer candidates than
  // seats.
  [[nodiscard]] absl::StatusOr<MatchmakingRound> Next(
      const std::vector<Candidate>& candidates, int64_t round = 0);

  // Rounds waited from which an entrant is urgent, among `candidates`.
  static int64_t UrgentAfter(int candidates, int seats);

  const MatchmakingOptions& options() const { return options_; }

 private:
  MatchmakingOptions options_;
  Rng rng_;
};

// Every seating a group plays with duplicate deals (see above).
std::vector<std::vector<int64_t>> DuplicateSeatings(
    const std::vector<int64_t>& group, int64_t round);

// What a round changes: the group's games and seat counts grow by its
// seatings and their waits restart; everyone else has waited one more
// round. For simulations and in-memory coordinators (the store derives the
// same from its matches).
void ApplyRound(const MatchmakingRound& round,
                std::vector<Candidate>* candidates);

}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_MATCHMAKING_MATCHMAKER_H_
