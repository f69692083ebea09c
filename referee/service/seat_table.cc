#include "referee/service/seat_table.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "referee/service/text_limits.h"
#include "referee/service/token.h"

namespace cardref::service {

SeatTable::SeatTable(std::string match_id, int seats)
    : match_id_(std::move(match_id)), seats_(seats) {}

absl::Status SeatTable::Invite(const std::vector<std::string>& names) {
  for (size_t s = 0; s < seats_.size() && s < names.size(); ++s) {
    absl::StatusOr<std::string> ticket = NewSecretToken();
    if (!ticket.ok()) return ticket.status();
    seats_[s].ticket = *std::move(ticket);
    seats_[s].invited_name = names[s];
  }
  invited_ = true;
  return absl::OkStatus();
}

absl::StatusOr<int> SeatTable::Choose(std::optional<int> seat,
                                      const std::string& player_name,
                                      const std::string& ticket) const {
  const int n = size();
  if (seat.has_value() && (*seat < 0 || *seat >= n)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "seat ", *seat, " does not exist: this match has seats 0..", n - 1));
  }
  if (invited_) {
    if (ticket.empty()) {
      return absl::PermissionDeniedError(absl::StrCat(
          "match ", match_id_,
          " is by invitation: join with the ticket the organiser gave you "
          "(JoinMatchRequest.ticket)"));
    }
    int ticket_seat = -1;
    for (int s = 0; s < n; ++s) {  // compares every ticket, in constant time
      if (TokensEqual(seats_[s].ticket, ticket)) ticket_seat = s;
    }
    if (ticket_seat < 0) {
      return absl::PermissionDeniedError(
          absl::StrCat("the ticket is not a ticket of match ", match_id_));
    }
    if (seat.has_value() && *seat != ticket_seat) {
      return absl::PermissionDeniedError(absl::StrCat(
          "this ticket is for seat ", ticket_seat, ", not seat ", *seat));
    }
    const SeatHolder& wanted = seats_[ticket_seat];
    if (wanted.joined) {
      return absl::PermissionDeniedError(
          absl::StrCat("this ticket was already used: seat ", ticket_seat,
                       " is taken (tickets are single-use)"));
    }
    if (!player_name.empty() && player_name != wanted.invited_name) {
      return absl::PermissionDeniedError(absl::StrCat(
          "seat ", ticket_seat, " is invited as '",
          QuotePrefix(wanted.invited_name),
          "': leave player_name empty or send exactly that name"));
    }
    return ticket_seat;
  }
  if (!ticket.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "match ", match_id_, " is open and takes no ticket; leave 'ticket' empty"));
  }
  if (seat.has_value()) {
    if (seats_[*seat].joined) {
      return absl::AlreadyExistsError(
          absl::StrCat("seat ", *seat, " of match ", match_id_, " is taken"));
    }
    return *seat;
  }
  for (int s = 0; s < n; ++s) {
    if (!seats_[s].joined) return s;
  }
  return absl::FailedPreconditionError(
      absl::StrCat("match ", match_id_, " has no free seat"));
}

std::string SeatTable::NameFor(int seat, const std::string& player_name) const {
  return invited_               ? seats_[seat].invited_name
         : player_name.empty() ? absl::StrCat("seat", seat)
                               : player_name;
}

void SeatTable::Close(int seat, const std::string& reason) {
  if (seat < 0 || seat >= size()) return;
  seats_[seat].closed_reason = reason;
}

absl::StatusOr<JoinResult> SeatTable::Take(std::optional<int> seat,
                                           const std::string& player_name,
                                           const std::string& player_version,
                                           const std::string& ticket,
                                           const std::string& retry_key,
                                           const NameCheck& check) {
  absl::StatusOr<int> chosen = Choose(seat, player_name, ticket);
  if (!chosen.ok()) return chosen.status();
  if (!seats_[*chosen].closed_reason.empty()) {
    return absl::PermissionDeniedError(seats_[*chosen].closed_reason);
  }
  const std::string name = NameFor(*chosen, player_name);
  if (check) {
    if (absl::Status st = check(*chosen, name); !st.ok()) return st;
  }
  // Drawn first: if the generator fails, the seat stays free.
  absl::StatusOr<std::string> token = NewSecretToken();
  if (!token.ok()) return token.status();
  SeatHolder& taken = seats_[*chosen];
  taken.joined = true;
  taken.token = *std::move(token);
  taken.player_name = name;
  taken.player_version = player_version;
  taken.retry_key = retry_key;
  return JoinResult{*chosen, taken.token};
}

absl::StatusOr<JoinResult> SeatTable::Rejoin(
    const std::string& retry_key) const {
  JoinResult result;
  for (int s = 0; s < size(); ++s) {
    // Every seat compared, in constant time: the key is a credential.
    if (!retry_key.empty() && TokensEqual(seats_[s].retry_key, retry_key)) {
      result.seat = s;
      result.token = seats_[s].token;
    }
  }
  if (result.seat < 0) {
    return absl::NotFoundError(absl::StrCat(
        "no seat of match ", match_id_, " was joined with this retry_key"));
  }
  return result;
}

absl::Status SeatTable::Check(int seat, const std::string& token) const {
  const int n = size();
  if (seat < 0 || seat >= n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "seat ", seat, " does not exist: this match has seats 0..", n - 1));
  }
  if (token.empty()) {
    return absl::UnauthenticatedError(
        "no token: send the token JoinMatch returned for this seat");
  }
  if (token.size() > kMaxSecretChars) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the token has ", token.size(), " bytes; seat tokens have 32"));
  }
  if (!seats_[seat].joined || !TokensEqual(seats_[seat].token, token)) {
    return absl::PermissionDeniedError(absl::StrCat(
        "the token is not seat ", seat, "'s token in match ", match_id_));
  }
  if (!seats_[seat].closed_reason.empty()) {
    return absl::PermissionDeniedError(seats_[seat].closed_reason);
  }
  return absl::OkStatus();
}

std::vector<v1::SeatTicket> SeatTable::Tickets() const {
  std::vector<v1::SeatTicket> tickets;
  for (int s = 0; s < size(); ++s) {
    if (seats_[s].ticket.empty()) continue;
    v1::SeatTicket& t = tickets.emplace_back();
    t.set_seat(s);
    t.set_player_name(seats_[s].invited_name);
    t.set_ticket(seats_[s].ticket);
  }
  return tickets;
}

int SeatTable::joined() const {
  int n = 0;
  for (const SeatHolder& s : seats_) n += s.joined ? 1 : 0;
  return n;
}

}  // namespace cardref::service
