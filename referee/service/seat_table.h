// Who holds each seat of a match: the player's name and version, the seat's
// token, the tickets of an invited match and the retry key of the join that
// took the seat. It decides which seat a join takes and checks a seat's
// token; the match it belongs to starts the game once every seat is taken.
//
// Thread-compatible: Match calls it with its lock held.
#ifndef CARDREF_REFEREE_SERVICE_SEAT_TABLE_H_
#define CARDREF_REFEREE_SERVICE_SEAT_TABLE_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "cardref/v1/referee.pb.h"

namespace cardref::service {

struct JoinResult {
  int seat = -1;
  std::string token;
};

// One seat. Secrets (token, ticket, retry key) never leave the referee but
// through the answers of the calls that create them.
struct SeatHolder {
  bool joined = false;
  std::string token;
  std::string ticket;        // invited matches only
  std::string invited_name;  // invited matches only
  std::string player_name;
  std::string player_version;
  std::string retry_key;  // of the join that took the seat
  // Set: the seat is closed to its holder (its entrant's bot credential was
  // revoked); every call for it, and any join of it, is refused with this.
  std::string closed_reason;
};

// Who may take a seat under a name (bot credentials bind names: docs/auth.md,
// "Bot credentials"): called with the seat a join would take and the name
// it would take it under; an error refuses the join.
using NameCheck =
    std::function<absl::Status(int seat, const std::string& player_name)>;

class SeatTable {
 public:
  // `match_id` names the match in error messages.
  SeatTable(std::string match_id, int seats);

  // An invited match: a fresh single-use ticket per seat, each seat taken
  // only with its ticket and under `names[seat]`.
  [[nodiscard]] absl::Status Invite(const std::vector<std::string>& names);
  bool invited() const { return invited_; }

  // Takes `seat` (or, with a ticket, the ticket's seat; with neither, the
  // lowest free seat) under `player_name` ("seat<n>" if empty) and gives
  // it a new token. A non-empty `retry_key` is kept for Rejoin. The error
  // a bot author can act on otherwise: the seat does not exist or is taken,
  // the ticket is missing, wrong, used or for another seat, the name is not
  // the invited one.
  // `check`, if set, may refuse the name.
  absl::StatusOr<JoinResult> Take(std::optional<int> seat,
                                  const std::string& player_name,
                                  const std::string& player_version,
                                  const std::string& ticket,
                                  const std::string& retry_key,
                                  const NameCheck& check = nullptr);
  // Closes `seat` to its holder, joined or not: PERMISSION_DENIED with
  // `reason` from then on.
  void Close(int seat, const std::string& reason);
  // The name a join of `seat` would be under: the invited one, else
  // `player_name`, else "seat<n>".
  std::string NameFor(int seat, const std::string& player_name) const;
  // The seat an earlier Take with `retry_key` took, and its token.
  // NOT_FOUND if none was (compares every seat's key in constant time).
  absl::StatusOr<JoinResult> Rejoin(const std::string& retry_key) const;

  // OK if `token` is `seat`'s; the error a bot author can act on otherwise
  // (no such seat, no token, the wrong one).
  absl::Status Check(int seat, const std::string& token) const;

  // One ticket per seat of an invited match (none otherwise).
  std::vector<v1::SeatTicket> Tickets() const;

  int size() const { return static_cast<int>(seats_.size()); }
  int joined() const;
  bool AllJoined() const { return joined() == size(); }
  const SeatHolder& operator[](int seat) const { return seats_[seat]; }

 private:
  // The seat a join asks for, or its error.
  absl::StatusOr<int> Choose(std::optional<int> seat,
                             const std::string& player_name,
                             const std::string& ticket) const;

  const std::string match_id_;
  bool invited_ = false;
  std::vector<SeatHolder> seats_;
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_SEAT_TABLE_H_
