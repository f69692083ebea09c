#include "ladder/store/validation.h"

#include <cmath>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace cardref::ladder {

absl::Status ValidateEntrantName(absl::string_view name) {
  if (name.empty() || name.size() > 64) {
    return absl::InvalidArgumentError(absl::StrCat(
        "entrant name must be 1 to 64 characters, got ", name.size()));
  }
  for (char c : name) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_' &&
        c != '-' && c != '.') {
      return absl::InvalidArgumentError(
          absl::StrCat("entrant name '", name,
                       "' may hold only letters, digits and _ - ."));
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateHex64(absl::string_view hex, absl::string_view what) {
  bool ok = hex.size() == 64;
  for (char c : hex) {
    ok = ok && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
  }
  if (!ok) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, " must be 64 lowercase hex digits (32 bytes), got '",
        hex.substr(0, 80), "'"));
  }
  return absl::OkStatus();
}

std::string FormatTeams(const std::vector<int>& teams) {
  return absl::StrJoin(teams, ",");
}

absl::StatusOr<std::vector<int>> ParseTeams(absl::string_view text) {
  std::vector<int> teams;
  if (text.empty()) return teams;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    int team = 0;
    if (!absl::SimpleAtoi(part, &team)) {
      return absl::DataLossError(
          absl::StrCat("stored teams '", text, "' are not numbers"));
    }
    teams.push_back(team);
  }
  return teams;
}

int SideOfSeat(const LadderGame& game, int seat) {
  return game.teams.empty() ? seat : game.teams[seat];
}

absl::Status ValidateConfig(const LadderConfig& config) {
  if (config.name.empty()) {
    return absl::InvalidArgumentError("the ladder needs a name");
  }
  if (config.games.empty()) {
    return absl::InvalidArgumentError("the ladder needs at least one game");
  }
  std::set<std::tuple<std::string, int, std::string>> seen;
  for (const LadderGame& game : config.games) {
    if (game.game.empty()) {
      return absl::InvalidArgumentError("a ladder game has no rules id");
    }
    if (game.players < 2 || game.players > 5) {
      return absl::InvalidArgumentError(
          absl::StrCat(game.game, ": players must be 2 to 5, got ",
                       game.players));
    }
    if (!game.teams.empty()) {
      std::set<int> distinct(game.teams.begin(), game.teams.end());
      const bool in_range = *distinct.begin() >= 0 &&
                            *distinct.rbegin() < game.players;
      if (static_cast<int>(game.teams.size()) != game.players ||
          !in_range || distinct.size() < 2) {
        return absl::InvalidArgumentError(absl::StrCat(
            game.game, ":", game.players, ": teams [",
            FormatTeams(game.teams),
            "] must give each seat a team in 0..players-1, at least two"));
      }
    }
    if (!seen.insert({game.game, game.players, game.params}).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(game.game, ":", game.players, " (params '",
                       game.params, "') is listed twice"));
    }
  }
  if (config.decision_time_limit_ms <= 0 || config.match_budget_ms <= 0) {
    return absl::InvalidArgumentError(
        "decision_time_limit_ms and match_budget_ms must be positive");
  }
  const RatingParams& r = config.rating;
  if (!std::isfinite(r.mu) || !(r.sigma > 0) || !(r.beta > 0) ||
      !(r.kappa > 0) || !(r.tau >= 0) || !std::isfinite(r.sigma) ||
      !std::isfinite(r.beta) || !std::isfinite(r.tau)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "rating parameters need a finite mu and sigma, beta, kappa > 0, "
        "tau >= 0; got mu=", r.mu, " sigma=", r.sigma, " beta=", r.beta,
        " kappa=", r.kappa, " tau=", r.tau));
  }
  if (!config.reference_entrant.empty()) {
    absl::Status name = ValidateEntrantName(config.reference_entrant);
    if (!name.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("reference entrant: ", name.message()));
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateResult(const LadderGame& game, const Match& match,
                            const MatchResult& result) {
  const int players = static_cast<int>(match.seat_versions.size());
  if (static_cast<int>(result.seats.size()) != players) {
    return absl::InvalidArgumentError(
        absl::StrCat("match ", match.id, " has ", players,
                     " seats; the result gives ", result.seats.size()));
  }
  std::vector<int> rank_of_seat(players, 0);
  for (const SeatResult& seat : result.seats) {
    if (seat.seat < 0 || seat.seat >= players) {
      return absl::InvalidArgumentError(absl::StrCat(
          "match ", match.id, ": seat ", seat.seat, " out of range"));
    }
    if (rank_of_seat[seat.seat] != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "match ", match.id, ": seat ", seat.seat, " given twice"));
    }
    if (seat.version_id != match.seat_versions[seat.seat]) {
      return absl::InvalidArgumentError(absl::StrCat(
          "match ", match.id, ": seat ", seat.seat, " was scheduled for "
          "version ", match.seat_versions[seat.seat], ", the result says ",
          seat.version_id));
    }
    if (seat.rank < 1 || seat.rank > players) {
      return absl::InvalidArgumentError(
          absl::StrCat("match ", match.id, ": seat ", seat.seat, " has rank ",
                       seat.rank, ", outside 1..", players));
    }
    if (!std::isfinite(seat.score)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "match ", match.id, ": seat ", seat.seat, " has no finite score"));
    }
    rank_of_seat[seat.seat] = seat.rank;
  }
  for (int s = 0; s < players; ++s) {
    for (int t = s + 1; t < players; ++t) {
      if (SideOfSeat(game, s) == SideOfSeat(game, t) &&
          rank_of_seat[s] != rank_of_seat[t]) {
        return absl::InvalidArgumentError(absl::StrCat(
            "match ", match.id, ": partners in seats ", s, " and ", t,
            " have ranks ", rank_of_seat[s], " and ", rank_of_seat[t]));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace cardref::ladder
