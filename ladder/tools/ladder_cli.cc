#include "ladder/tools/ladder_cli.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <numeric>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "games/all_games.h"
#include "ladder/rating/plackett_luce.h"
#include "ladder/store/open_store.h"
#include "ladder/store/pg_db.h"
#include "ladder/store/sqlite_store.h"
#include "ladder/store/validation.h"
#include "ladder/tools/content_hash.h"
#include "ladder/tools/remote_entrant.h"
#include "nlohmann/json.hpp"
#include "referee/base/hex.h"
#include "referee/base/sha256.h"
#include "referee/base/status_macros.h"

namespace cardref::ladder::cli {
namespace {

// A SQLite file or a postgresql:// URL (OpenStore).
absl::StatusOr<std::unique_ptr<LadderStore>> OpenExisting(
    const std::string& path) {
  if (path.empty()) return absl::InvalidArgumentError("--db is required");
  OpenStoreOptions options;
  options.create = false;
  return OpenStore(path, options);
}

absl::StatusOr<std::vector<LadderGame>> ParseGames(const InitOptions& options) {
  std::vector<LadderGame> games;
  for (absl::string_view spec :
       absl::StrSplit(options.games, ',', absl::SkipWhitespace())) {
    std::vector<absl::string_view> parts = absl::StrSplit(spec, ':');
    LadderGame game;
    game.game = std::string(absl::StripAsciiWhitespace(parts[0]));
    if (parts.size() != 2 || !absl::SimpleAtoi(parts[1], &game.players)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--games: '", spec, "' is not GAME:PLAYERS (e.g. ",
          ServedGames(false).Ids().front(), ":3)"));
    }
    absl::StatusOr<const GameInfo*> info = AllGames().Find(game.game);
    if (!info.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--games: ", info.status().message()));
    }
    if (game.players < (*info)->min_seats ||
        game.players > (*info)->max_seats) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--games: ", game.game, " is for ", (*info)->min_seats, " to ",
          (*info)->max_seats, " players, not ", game.players));
    }
    game.teams = SeatTeams((*info)->traits, game.players);
    std::vector<int> own(game.players);
    std::iota(own.begin(), own.end(), 0);
    if (game.teams == own) game.teams.clear();  // every seat for itself
    game.params = options.params;
    games.push_back(std::move(game));
  }
  if (games.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--games is required: GAME:PLAYERS,... (this build knows ",
                     absl::StrJoin(ServedGames(false).Ids(), ", "), ")"));
  }
  return games;
}

std::string GameName(const LadderGame& game) {
  return absl::StrCat(game.game, ":", game.players,
                      game.params.empty() ? "" : " ", game.params);
}

}  // namespace

absl::Status Init(const InitOptions& options, int64_t now_micros,
                  std::ostream& out) {
  if (options.store.empty()) {
    return absl::InvalidArgumentError("--db is required");
  }
  LadderConfig config;
  config.name = options.name;
  ASSIGN_OR_RETURN(config.games, ParseGames(options));
  config.duplicate = options.duplicate;
  config.frozen = options.frozen;
  config.decision_time_limit_ms = options.decision_time_limit_ms;
  config.match_budget_ms = options.match_budget_ms;
  config.reference_entrant = options.reference_entrant;
  OpenStoreOptions store_options;
  store_options.now_micros = now_micros;
  ASSIGN_OR_RETURN(std::unique_ptr<LadderStore> store,
                   OpenStore(options.store, store_options));
  RETURN_IF_ERROR(store->Initialize(config, now_micros));
  out << "ladder '" << config.name << "' in "
      << RedactPostgresUrl(options.store) << ":";
  for (const LadderGame& game : config.games) {
    out << " " << GameName(game)
        << (game.teams.empty() ? "" : " (teams " + FormatTeams(game.teams) + ")");
  }
  out << (config.duplicate ? ", duplicate deals" : "")
      << (config.frozen ? ", frozen" : "") << "\n";
  return absl::OkStatus();
}

absl::Status Add(const AddOptions& options, int64_t now_micros,
                 std::ostream& out) {
  if (options.remote) {
    if (options.entrant.empty() || !options.command.empty() ||
        !options.path.empty() || !options.content_hash.empty()) {
      return absl::InvalidArgumentError(
          "--remote=NAME adds a remote entrant: its bot runs on its "
          "author's machine, so give no --entrant, --command, --path or "
          "--content_hash with it");
    }
  } else if (options.entrant.empty() || options.command.empty()) {
    return absl::InvalidArgumentError(
        "--entrant and --command are required (or --remote=NAME)");
  } else if (IsRemoteCommand(options.command)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a command may not start with '", kRemoteCommandPrefix,
        "': add a remote entrant with --remote=NAME"));
  }
  const std::string command =
      options.remote ? RemoteCommand(options.entrant) : options.command;
  std::string hash = options.content_hash;
  if (options.remote) {
    crypto::Sha256Hasher hasher;
    hasher.Update(command);
    hash = ToHex(hasher.Finish());
  } else if (hash.empty()) {
    const std::string path =
        options.path.empty() ? VersionHashPath(options.command) : options.path;
    absl::StatusOr<std::string> computed = ContentHash(path);
    if (!computed.ok()) {
      return absl::Status(
          computed.status().code(),
          absl::StrCat(computed.status().message(),
                       "; give the bot's file or folder with --path, or "
                       "--content_hash"));
    }
    hash = *computed;
  }
  ASSIGN_OR_RETURN(std::unique_ptr<LadderStore> store,
                   OpenExisting(options.store));
  absl::StatusOr<Entrant> entrant =
      store->AddEntrant(options.entrant, now_micros);
  if (!entrant.ok() && !absl::IsAlreadyExists(entrant.status())) {
    return entrant.status();
  }
  ASSIGN_OR_RETURN(Version version,
                   store->AddVersion(options.entrant, command, hash,
                                     now_micros));
  out << "version " << version.id << " of " << version.entrant_name;
  if (!options.remote) {
    out << " (content " << hash.substr(0, 16) << "...): "
        << VersionStatusName(version.status) << "\n";
    return absl::OkStatus();
  }
  const std::string player =
      absl::StrCat(version.entrant_name, "-v", version.id);
  std::string folder = options.dir;
  if (folder.empty() && !IsPostgresUrl(options.store)) {
    folder = std::filesystem::absolute(options.store).string() + ".d";
  }
  out << " (remote, by invitation as " << player
      << "): " << VersionStatusName(version.status) << "\n"
      << "cardref_ladder run issues its bot credential and writes it to "
      << (folder.empty() ? "DIR" : folder)
      << CredentialFile("", player)
      << " (owner-only): hand that to its author, whose bot connects to the "
         "ladder's referee (--referee_host, --referee_port) with it in "
         "$CARDREF_BOT_CREDENTIAL\n";
  return absl::OkStatus();
}

absl::Status SetStatus(const std::string& store_path, int64_t version_id,
                       const std::string& status, const std::string& reason,
                       int64_t now_micros, std::ostream& out) {
  ASSIGN_OR_RETURN(VersionStatus to, ParseVersionStatus(status));
  ASSIGN_OR_RETURN(std::unique_ptr<LadderStore> store,
                   OpenExisting(store_path));
  RETURN_IF_ERROR(store->SetVersionStatus(version_id, to, reason, now_micros));
  ASSIGN_OR_RETURN(Version version, store->GetVersion(version_id));
  out << "version " << version.id << " of " << version.entrant_name << ": "
      << VersionStatusName(version.status)
      << (reason.empty() ? "" : " (" + reason + ")") << "\n";
  return absl::OkStatus();
}

absl::Status Standings(const std::string& store_path, const std::string& game,
                       const std::string& format, std::ostream& out) {
  if (format != "text" && format != "json" && format != "csv") {
    return absl::InvalidArgumentError(absl::StrCat(
        "--format must be text, json or csv, got '", format, "'"));
  }
  ASSIGN_OR_RETURN(std::unique_ptr<LadderStore> store,
                   OpenExisting(store_path));
  ASSIGN_OR_RETURN(LadderConfig config, store->GetConfig());
  ASSIGN_OR_RETURN(std::vector<Version> ranked,
                   store->ListVersions(VersionStatus::kRanked));
  nlohmann::json json = {{"ladder", config.name},
                         {"frozen", config.frozen},
                         {"games", nlohmann::json::array()}};
  if (format == "csv") {
    out << "game,players,rank,player,entrant,version,rating,mu,sigma,games\n";
  }
  bool found = game.empty();
  for (const LadderGame& g : config.games) {
    if (!game.empty() && absl::StrCat(g.game, ":", g.players) != game) continue;
    found = true;
    ASSIGN_OR_RETURN(std::vector<Rating> ratings, store->Ratings(g.id));
    std::map<int64_t, Rating> by_version;
    for (const Rating& r : ratings) by_version[r.version_id] = r;
    struct Row {
      const Version* version;
      Rating rating;
      double conservative;
    };
    std::vector<Row> rows;
    for (const Version& v : ranked) {
      Rating r{v.id, g.id, config.rating.mu, config.rating.sigma, 0};
      if (auto it = by_version.find(v.id); it != by_version.end()) {
        r = it->second;
      }
      rows.push_back({&v, r, ConservativeRating({r.mu, r.sigma})});
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
      return a.conservative > b.conservative;
    });
    nlohmann::json standings = nlohmann::json::array();
    if (format == "text") {
      out << GameName(g) << ": " << rows.size() << " ranked versions"
          << (config.frozen ? " (frozen: finals)" : "") << "\n";
      out << absl::StrFormat("%4s  %-24s %7s %8s %8s %7s %7s\n", "#",
                             "entrant", "version", "rating", "mu", "sigma",
                             "games");
    }
    int place = 0;
    for (const Row& row : rows) {
      ++place;
      const std::string player =
          absl::StrCat(row.version->entrant_name, "-v", row.version->id);
      if (format == "text") {
        out << absl::StrFormat("%4d  %-24s %7d %8.2f %8.2f %7.2f %7d\n",
                               place, row.version->entrant_name,
                               row.version->id, row.conservative,
                               row.rating.mu, row.rating.sigma,
                               row.rating.games);
      } else if (format == "csv") {
        out << absl::StrFormat("%s,%d,%d,%s,%s,%d,%.6f,%.6f,%.6f,%d\n", g.game,
                               g.players, place, player,
                               row.version->entrant_name, row.version->id,
                               row.conservative, row.rating.mu,
                               row.rating.sigma, row.rating.games);
      }
      standings.push_back({{"rank", place},
                           {"player", player},
                           {"entrant", row.version->entrant_name},
                           {"version", row.version->id},
                           {"rating", row.conservative},
                           {"mu", row.rating.mu},
                           {"sigma", row.rating.sigma},
                           {"games", row.rating.games}});
    }
    json["games"].push_back({{"game", g.game},
                             {"players", g.players},
                             {"params", g.params},
                             {"standings", standings}});
  }
  if (!found) {
    return absl::NotFoundError(
        absl::StrCat("the ladder has no game '", game, "' (id:players)"));
  }
  if (format == "json") {
    out << json.dump(2) << "\n";
  } else if (format == "text") {
    // What an author whose version is missing from the table looks for.
    ASSIGN_OR_RETURN(std::vector<Version> others,
                     store->ListVersions(std::nullopt));
    for (const Version& v : others) {
      if (v.status == VersionStatus::kValidating) {
        out << "validating: " << v.entrant_name << " version " << v.id << "\n";
      } else if (v.status == VersionStatus::kRejected) {
        out << "rejected: " << v.entrant_name << " version " << v.id << ": "
            << v.reason << "\n";
      }
    }
  }
  return absl::OkStatus();
}

namespace {

// A CSV field: quoted when it holds a comma, a quote or a line break.
std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

}  // namespace

absl::Status Versions(const std::string& store_path, const std::string& format,
                      std::ostream& out) {
  if (format != "text" && format != "json" && format != "csv") {
    return absl::InvalidArgumentError(absl::StrCat(
        "--format must be text, json or csv, got '", format, "'"));
  }
  ASSIGN_OR_RETURN(std::unique_ptr<LadderStore> store,
                   OpenExisting(store_path));
  ASSIGN_OR_RETURN(std::vector<Version> versions,
                   store->ListVersions(std::nullopt));
  nlohmann::json json = nlohmann::json::array();
  if (format == "csv") out << "version,entrant,status,reason,command,content\n";
  if (format == "text") {
    out << absl::StrFormat("%7s  %-24s %-10s %s\n", "version", "entrant",
                           "status", "reason");
  }
  for (const Version& v : versions) {
    const std::string status(VersionStatusName(v.status));
    if (format == "text") {
      out << absl::StrFormat("%7d  %-24s %-10s %s\n", v.id, v.entrant_name,
                             status, v.reason);
    } else if (format == "csv") {
      out << v.id << "," << CsvField(v.entrant_name) << "," << status << ","
          << CsvField(v.reason) << "," << CsvField(v.command) << ","
          << v.content_hash << "\n";
    }
    json.push_back({{"version", v.id},
                    {"entrant", v.entrant_name},
                    {"player", absl::StrCat(v.entrant_name, "-v", v.id)},
                    {"status", status},
                    {"reason", v.reason},
                    {"command", v.command},
                    {"content_hash", v.content_hash}});
  }
  if (format == "json") out << json.dump(2) << "\n";
  return absl::OkStatus();
}

absl::Status Export(const std::string& store_path, const std::string& game,
                    const std::string& format, std::ostream& out) {
  if (format != "json" && format != "csv") {
    return absl::InvalidArgumentError(
        absl::StrCat("--format must be csv or json, got '", format, "'"));
  }
  ASSIGN_OR_RETURN(std::unique_ptr<LadderStore> store,
                   OpenExisting(store_path));
  ASSIGN_OR_RETURN(LadderConfig config, store->GetConfig());
  ASSIGN_OR_RETURN(std::vector<Version> versions,
                   store->ListVersions(std::nullopt));
  std::map<int64_t, std::string> player;
  for (const Version& v : versions) {
    player[v.id] = absl::StrCat(v.entrant_name, "-v", v.id);
  }
  ASSIGN_OR_RETURN(std::vector<Match> finished,
                   store->ListMatches(MatchState::kFinished));
  std::map<int64_t, const Match*> match_of;
  for (const Match& m : finished) match_of[m.id] = &m;
  if (format == "csv") {
    out << "game,players,match,kind,deal_set,log_hash,worker,seat,player,"
           "version,rank,score\n";
  }
  nlohmann::json json = nlohmann::json::array();
  bool found = game.empty();
  for (const LadderGame& g : config.games) {
    if (!game.empty() && absl::StrCat(g.game, ":", g.players) != game) continue;
    found = true;
    ASSIGN_OR_RETURN(std::vector<MatchResult> results,
                     store->ListResults(g.id, std::nullopt));
    for (const MatchResult& r : results) {
      auto it = match_of.find(r.match_id);
      const std::string kind =
          it == match_of.end() ? "" : std::string(MatchKindName(it->second->kind));
      const std::string deal_set =
          it == match_of.end() ? "" : it->second->deal_set;
      nlohmann::json seats = nlohmann::json::array();
      for (const SeatResult& s : r.seats) {
        if (format == "csv") {
          out << g.game << "," << g.players << "," << r.match_id << "," << kind
              << "," << CsvField(deal_set) << "," << r.log_hash << ","
              << CsvField(r.worker) << "," << s.seat << ","
              << CsvField(player[s.version_id]) << "," << s.version_id << ","
              << s.rank << "," << s.score << "\n";
        }
        seats.push_back({{"seat", s.seat},
                         {"player", player[s.version_id]},
                         {"version", s.version_id},
                         {"rank", s.rank},
                         {"score", s.score}});
      }
      json.push_back({{"game", g.game},
                      {"players", g.players},
                      {"match", r.match_id},
                      {"kind", kind},
                      {"deal_set", deal_set},
                      {"log_hash", r.log_hash},
                      {"worker", r.worker},
                      {"seats", seats}});
    }
  }
  if (!found) {
    return absl::NotFoundError(
        absl::StrCat("the ladder has no game '", game, "' (id:players)"));
  }
  if (format == "json") out << json.dump(2) << "\n";
  return absl::OkStatus();
}

absl::Status Freeze(const std::string& store_path, bool frozen,
                    std::ostream& out) {
  ASSIGN_OR_RETURN(std::unique_ptr<LadderStore> store,
                   OpenExisting(store_path));
  RETURN_IF_ERROR(store->SetFrozen(frozen));
  out << (frozen ? "frozen: no new versions, no rating drift (tau = 0); "
                   "`cardref_ladder run` now plays the finals\n"
                 : "thawed: new versions are taken again and ratings drift\n");
  return absl::OkStatus();
}

absl::Status Backup(const std::string& store_path, const std::string& to,
                    std::ostream& out) {
  if (to.empty()) return absl::InvalidArgumentError("--to is required");
  if (IsPostgresUrl(store_path)) {
    return absl::FailedPreconditionError(
        "backup copies a SQLite file; back a PostgreSQL ladder up with "
        "pg_dump (docs/ladder.md, \"Backup and restore\")");
  }
  SqliteStoreOptions options;
  options.open.create = false;
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteStore> store,
                   SqliteStore::Open(store_path, options));
  RETURN_IF_ERROR(store->Backup(to));
  out << "backup of " << store_path << " in " << to << "\n";
  return absl::OkStatus();
}

absl::Status Restore(const std::string& from, const std::string& to,
                     std::ostream& out) {
  if (from.empty() || to.empty()) {
    return absl::InvalidArgumentError("--from and --to are required");
  }
  RETURN_IF_ERROR(RestoreSqliteBackup(from, to));
  out << "restored " << from << " into " << to << "\n";
  return absl::OkStatus();
}

}  // namespace cardref::ladder::cli
