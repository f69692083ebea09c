// MatchManager: taking a seat (JoinMatch), with tickets, open seats and
// the retry keys that make a repeated join answer as the first did.
#include "referee/service/match_manager.h"

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "referee/base/status_macros.h"
#include "referee/codec/codec.h"
#include "referee/service/match_manager_internal.h"
#include "referee/service/text_limits.h"

namespace cardref::service {

using manager_internal::CheckKnownGame;
using manager_internal::ShuttingDown;

namespace {

v1::JoinMatchResponse JoinResponse(const Match& match,
                                   const JoinResult& joined) {
  v1::JoinMatchResponse response;
  response.set_match_id(match.id());
  response.set_seat(joined.seat);
  response.set_token(joined.token);
  response.set_game(std::string(match.game().id()));
  *response.mutable_params() = codec::ParamsToProto(match.game().params());
  response.set_num_seats(match.game().num_seats());
  return response;
}

}  // namespace

absl::StatusOr<v1::JoinMatchResponse> MatchManager::JoinMatch(
    const v1::JoinMatchRequest& request) {
  {
    absl::MutexLock lock(&mu_);
    if (!accepting_) return ShuttingDown();
  }
  if (!request.retry_key().empty()) return JoinWithRetryKey(request);
  std::shared_ptr<Match> joined_match;
  return JoinNew(request, &joined_match);
}

absl::StatusOr<v1::JoinMatchResponse> MatchManager::JoinWithRetryKey(
    const v1::JoinMatchRequest& request) {
  const std::string& key = request.retry_key();
  RETURN_IF_ERROR(CheckRetryKey(key));
  std::shared_ptr<Match> earlier;
  {
    absl::MutexLock lock(&mu_);
    ASSIGN_OR_RETURN(auto claimed, join_retry_keys_.Claim(key, "join"));
    if (claimed.has_value()) earlier = claimed->match;
  }
  if (earlier != nullptr) {
    // A resend: the same answer, if it asks for the same thing.
    if (!request.match_id().empty() && request.match_id() != earlier->id()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "this retry_key joined match ", earlier->id(), ", not ",
          QuotePrefix(request.match_id()),
          ": a key is for one join (choose a new random one)"));
    }
    ASSIGN_OR_RETURN(JoinResult joined, earlier->Rejoin(key));
    if (request.has_seat() && request.seat() != joined.seat) {
      return absl::InvalidArgumentError(absl::StrCat(
          "this retry_key joined seat ", joined.seat, ", not seat ",
          request.seat(), ": a key is for one join (choose a new random one)"));
    }
    return JoinResponse(*earlier, joined);
  }
  std::shared_ptr<Match> joined_match;
  absl::StatusOr<v1::JoinMatchResponse> response =
      JoinNew(request, &joined_match);
  absl::MutexLock lock(&mu_);
  join_retry_keys_.Settle(key, response.ok(), joined_match, {});
  return response;
}

absl::StatusOr<v1::JoinMatchResponse> MatchManager::JoinNew(
    const v1::JoinMatchRequest& request,
    std::shared_ptr<Match>* joined_match) {
  std::optional<int> seat;
  if (request.has_seat()) seat = request.seat();
  RETURN_IF_ERROR(CheckPlayerName("player_name", request.player_name()));
  RETURN_IF_ERROR(
      CheckPlayerVersion("player_version", request.player_version()));
  RETURN_IF_ERROR(CheckText("ticket", request.ticket(), kMaxSecretChars));
  std::vector<std::shared_ptr<Match>> candidates;
  if (!request.match_id().empty()) {
    absl::StatusOr<std::shared_ptr<Match>> match = Find(request.match_id());
    if (!match.ok()) return match.status();
    candidates.push_back(*match);
  } else {
    if (request.game().empty()) {
      return absl::InvalidArgumentError(
          "give 'match_id', or 'game' to join any open match of that game");
    }
    RETURN_IF_ERROR(CheckKnownGame(*registry_, request.game()));
    if (!request.ticket().empty()) {
      return absl::InvalidArgumentError(
          "a ticket is for one match: give its 'match_id' too");
    }
    // The oldest open matches with a free seat (a few, in case another
    // joiner takes a seat first or the asked-for seat is taken), without
    // looking at any other match.
    constexpr size_t kCandidates = 16;
    absl::MutexLock lock(&mu_);
    auto queue = free_seats_.find(request.game());
    if (queue != free_seats_.end()) {
      std::deque<std::weak_ptr<Match>>& q = queue->second.matches;
      // A match never gets a free seat back: drop full ones for good.
      for (;;) {
        std::shared_ptr<Match> front =
            q.empty() ? nullptr : q.front().lock();
        if (front != nullptr && front->HasFreeSeat()) break;
        if (q.empty()) break;
        q.pop_front();
      }
      for (size_t i = 0; i < q.size() && candidates.size() < kCandidates;
           ++i) {
        if (std::shared_ptr<Match> m = q[i].lock()) candidates.push_back(m);
      }
      if (q.empty()) free_seats_.erase(queue);
    }
  }
  absl::Status last = absl::NotFoundError(absl::StrCat(
      "no open match of game '", request.game(),
      "' has a free seat: an organiser creates matches (CreateMatch); see "
      "docs/bots.md"));
  for (const std::shared_ptr<Match>& match : candidates) {
    if (request.match_id().empty() && !match->HasFreeSeat()) continue;
    absl::StatusOr<JoinResult> joined =
        match->Join(seat, request.player_name(), request.player_version(),
                    request.ticket(), request.retry_key());
    if (!joined.ok()) {
      last = joined.status();
      // A race with another joiner: try the next open match.
      if (request.match_id().empty()) continue;
      return last;
    }
    *joined_match = match;
    return JoinResponse(*match, *joined);
  }
  return last;
}

}  // namespace cardref::service
