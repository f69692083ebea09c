// MatchManager's bot credentials and invitations (match_manager.h;
// docs/bots.md, "Invitations"; docs/auth.md, "Bot credentials").
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "referee/base/status_macros.h"
#include "referee/service/match_manager.h"
#include "referee/service/text_limits.h"

namespace cardref::service {
namespace {

// The games one stream may name: far more than any referee serves.
constexpr int kMaxInvitationGames = 32;

v1::BotEntrant ToProto(const BotEntrant& entrant,
                       const InvitationBoard::Counts& counts) {
  v1::BotEntrant out;
  out.set_name(entrant.name);
  out.set_latency_allowance_millis(entrant.latency_allowance_millis);
  out.set_issued_unix_millis(entrant.issued_unix_millis);
  out.set_credential_id(entrant.credential_id());
  out.set_streams(counts.streams);
  out.set_invitations(counts.invitations);
  out.set_queued(counts.queued);
  return out;
}

bool Over(v1::MatchStatus status) {
  return status == v1::MATCH_STATUS_FINISHED ||
         status == v1::MATCH_STATUS_ABORTED ||
         status == v1::MATCH_STATUS_CANCELLED;
}

}  // namespace

absl::StatusOr<std::vector<int64_t>> MatchManager::SeatAllowances(
    const v1::CreateMatchRequest& request) {
  std::vector<int64_t> allowances;
  bool any = false;
  for (int s = 0; s < request.seat_assignments_size(); ++s) {
    const v1::SeatAssignment& seat = request.seat_assignments(s);
    const std::optional<BotEntrant> entrant =
        credentials_->FindByName(seat.player_name());
    if (seat.invite() && !entrant.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "seat_assignments[", s, "] invites '",
          QuotePrefix(seat.player_name()),
          "', who has no bot credential: issue one (IssueBotCredential) or "
          "leave 'invite' unset and hand the seat's ticket over yourself"));
    }
    const int64_t ms = entrant.has_value() ? entrant->latency_allowance_millis
                                           : 0;
    any |= ms > 0;
    allowances.push_back(ms);
  }
  if (!any) allowances.clear();
  return allowances;
}

void MatchManager::OfferInvitations(const v1::CreateMatchRequest& request,
                                    const v1::CreateMatchResponse& created,
                                    int64_t decision_time_limit_millis,
                                    const std::vector<int64_t>& allowances) {
  const int64_t join_ms = request.has_fault_policy()
                              ? request.fault_policy().join_deadline_millis()
                              : options_.default_fault_policy
                                    .join_deadline_millis();
  // Each entrant's seats of the match together (invitation_board.h).
  std::map<std::string, std::vector<v1::Invitation>> by_entrant;
  for (const v1::SeatTicket& ticket : created.tickets()) {
    const int s = ticket.seat();
    if (s < 0 || s >= request.seat_assignments_size() ||
        !request.seat_assignments(s).invite()) {
      continue;
    }
    v1::Invitation invitation;
    invitation.set_match_id(created.match_id());
    invitation.set_seat(s);
    invitation.set_ticket(ticket.ticket());
    invitation.set_game(request.game());
    *invitation.mutable_params() = created.params();
    invitation.set_num_seats(created.num_seats());
    invitation.set_player_name(ticket.player_name());
    invitation.set_match_seed(request.seat_assignments(s).match_seed());
    const int64_t allowance =
        s < static_cast<int>(allowances.size()) ? allowances[s] : 0;
    invitation.set_decision_time_limit_millis(
        decision_time_limit_millis > 0 ? decision_time_limit_millis + allowance
                                       : 0);
    if (join_ms > 0) {
      // From the match's creation, as the match counts it.
      invitation.set_join_deadline_unix_millis(
          absl::ToUnixMillis(options_.clock->Now()) + join_ms);
    }
    by_entrant[ticket.player_name()].push_back(std::move(invitation));
  }
  for (auto& [entrant, seats] : by_entrant) {
    invitations_.Offer(entrant, std::move(seats));
  }
}

NameCheck MatchManager::JoinNameCheck(
    const std::optional<BotEntrant>& caller) const {
  return [credentials = credentials_, caller](
             int seat, const std::string& name) -> absl::Status {
    if (caller.has_value()) {
      if (name == caller->name) return absl::OkStatus();
      return absl::PermissionDeniedError(absl::StrCat(
          "this bot credential is entrant '", QuotePrefix(caller->name),
          "''s, and seat ", seat, " is '", QuotePrefix(name),
          "''s: a credential joins only under its entrant's name"));
    }
    if (credentials->IsEntrant(name)) {
      return absl::PermissionDeniedError(absl::StrCat(
          "'", QuotePrefix(name),
          "' is an entrant with a bot credential: only that credential "
          "joins under the name (JoinMatchRequest.credential; docs/auth.md, "
          "\"Bot credentials\")"));
    }
    return absl::OkStatus();
  };
}

absl::StatusOr<v1::IssueBotCredentialResponse> MatchManager::IssueBotCredential(
    const v1::IssueBotCredentialRequest& request) {
  const std::optional<BotEntrant> old =
      credentials_->FindByName(request.entrant());
  ASSIGN_OR_RETURN(BotCredentials::Issued issued,
                   credentials_->Issue(request.entrant(),
                                       request.latency_allowance_millis(),
                                       request.replace(),
                                       options_.max_latency_allowance_millis,
                                       options_.clock->Now()));
  if (old.has_value()) {
    CloseEntrant(*old, absl::StrCat("the bot credential of '", old->name,
                                    "' was replaced by the organiser"));
  }
  options_.ops_log->Write(
      FormatOpsLine(absl::Now(), {{"event", "credential_issued"},
                                  {"entrant", issued.entrant.name},
                                  {"credential", issued.entrant.credential_id()},
                                  {"latency_allowance_ms",
                                   absl::StrCat(issued.entrant
                                                    .latency_allowance_millis)},
                                  {"replaced", old.has_value() ? "yes" : "no"}}));
  v1::IssueBotCredentialResponse response;
  *response.mutable_entrant() = ToProto(issued.entrant, {});
  response.set_credential(std::move(issued.credential));
  return response;
}

v1::RevokeBotCredentialResponse MatchManager::CloseEntrant(
    const BotEntrant& entrant, const std::string& why) {
  v1::RevokeBotCredentialResponse response;
  *response.mutable_entrant() =
      ToProto(entrant, invitations_.CountsOf(entrant.name));
  const InvitationBoard::Ended ended =
      invitations_.EndEntrant(entrant.name, absl::PermissionDeniedError(why));
  response.set_streams_ended(ended.streams);
  int closed = 0;
  for (const auto& [match_id, seat] : ended.seats) {
    std::shared_ptr<Match> match;
    {
      absl::MutexLock lock(&mu_);
      auto it = matches_.find(match_id);
      if (it != matches_.end()) match = it->second;
    }
    if (match == nullptr || Over(match->status())) continue;
    match->CloseSeat(seat, why);
    ++closed;
  }
  response.set_seats_closed(closed);
  return response;
}

absl::StatusOr<v1::RevokeBotCredentialResponse>
MatchManager::RevokeBotCredential(
    const v1::RevokeBotCredentialRequest& request) {
  RETURN_IF_ERROR(CheckText("reason", request.reason(), kMaxReasonChars));
  RETURN_IF_ERROR(CheckText("entrant", request.entrant(), kMaxPlayerNameChars));
  ASSIGN_OR_RETURN(BotEntrant revoked,
                   credentials_->Revoke(request.entrant()));
  std::string why = absl::StrCat("the bot credential of '", revoked.name,
                                 "' was revoked by the organiser");
  if (!request.reason().empty()) absl::StrAppend(&why, ": ", request.reason());
  v1::RevokeBotCredentialResponse response = CloseEntrant(revoked, why);
  options_.ops_log->Write(FormatOpsLine(
      absl::Now(), {{"event", "credential_revoked"},
                    {"entrant", revoked.name},
                    {"credential", revoked.credential_id()},
                    {"streams_ended", absl::StrCat(response.streams_ended())},
                    {"seats_closed", absl::StrCat(response.seats_closed())},
                    {"reason", request.reason()}}));
  return response;
}

v1::ListBotCredentialsResponse MatchManager::ListBotCredentials() {
  v1::ListBotCredentialsResponse response;
  for (const BotEntrant& e : credentials_->List()) {
    *response.add_entrants() = ToProto(e, invitations_.CountsOf(e.name));
  }
  return response;
}

absl::StatusOr<std::shared_ptr<InvitationBoard::Stream>>
MatchManager::OpenInvitations(const v1::WatchInvitationsRequest& request,
                              std::function<void()> wake) {
  if (request.credential().empty()) {
    return absl::UnauthenticatedError(
        "no credential: send the bot credential the organiser issued you "
        "(WatchInvitationsRequest.credential; docs/bots.md, \"Invitations\")");
  }
  RETURN_IF_ERROR(
      CheckText("credential", request.credential(), kMaxSecretChars));
  if (request.games_size() > kMaxInvitationGames) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'games' has ", request.games_size(), " entries; at most ",
        kMaxInvitationGames));
  }
  std::vector<std::string> games;
  for (const std::string& game : request.games()) {
    RETURN_IF_ERROR(CheckText("games", game, kMaxGameIdChars));
    RETURN_IF_ERROR(registry_->Find(game).status());
    games.push_back(game);
  }
  const std::optional<BotEntrant> caller =
      credentials_->FindByCredential(request.credential());
  if (!caller.has_value()) return UnknownCredentialError();
  {
    absl::MutexLock lock(&mu_);
    if (!accepting_) {
      return absl::UnavailableError(
          "the referee is shutting down: it sends no more invitations");
    }
  }
  return invitations_.Open(caller->name, caller->credential_id(), games,
                           request.max_matches(), std::move(wake));
}

}  // namespace cardref::service
