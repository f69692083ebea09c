#include "ladder/run/reproduce.h"

#include <filesystem>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "games/api/game.h"
#include "grpcpp/grpcpp.h"
#include "ladder/run/play_match.h"
#include "ladder/store/open_store.h"
#include "ladder/tools/content_hash.h"
#include "ladder/tools/remote_entrant.h"
#include "referee/base/status_macros.h"
#include "tournament/local_referee.h"

namespace cardref::ladder::run {

absl::StatusOr<Reproduction> Reproduce(const ReproduceOptions& options,
                                       std::ostream& out) {
  if ((options.match_id > 0) == !options.log.empty()) {
    return absl::InvalidArgumentError(
        "give the match to reproduce as --match=ID or --log=FILE (one)");
  }
  OpenStoreOptions store_options;
  store_options.create = false;
  ASSIGN_OR_RETURN(std::unique_ptr<LadderStore> store,
                   OpenStore(options.db, store_options));
  ASSIGN_OR_RETURN(LadderConfig config, store->GetConfig());
  ASSIGN_OR_RETURN(const LadderPaths paths,
                   LadderFolder(options.db, options.dir));

  std::optional<MatchResult> result;
  Reproduction r;
  if (!options.log.empty()) {
    ASSIGN_OR_RETURN(std::string hash, FileSha256(options.log));
    ASSIGN_OR_RETURN(result, store->GetResult(hash));
    if (!result.has_value()) {
      return absl::NotFoundError(absl::StrCat(
          options.log, " is no recorded log of this ladder (no result has ",
          "its hash ", hash.substr(0, 16), "...)"));
    }
    r.old_log = options.log;
  } else {
    ASSIGN_OR_RETURN(result, store->ResultOfMatch(options.match_id));
    if (!result.has_value()) {
      absl::StatusOr<Match> exists = store->GetMatch(options.match_id);
      if (!exists.ok()) return exists.status();
      return absl::FailedPreconditionError(
          absl::StrCat("match ", options.match_id, " has no recorded result (",
                       MatchStateName(exists->state), "): nothing to compare"));
    }
    r.old_log = absl::StrCat(paths.logs, "/", result->log_hash, ".cardlog");
  }
  r.match_id = result->match_id;
  ASSIGN_OR_RETURN(Match match, store->GetMatch(r.match_id));
  const LadderGame* game = nullptr;
  for (const LadderGame& g : config.games) {
    if (g.id == match.game_id) game = &g;
  }
  if (game == nullptr) {
    return absl::DataLossError(absl::StrCat("match ", match.id,
                                            " names a game the ladder lacks"));
  }
  std::vector<Version> seats;
  for (int64_t id : match.seat_versions) {
    ASSIGN_OR_RETURN(Version v, store->GetVersion(id));
    // Hashed as `add` hashes by default: the bot's folder (or, for
    // versions added before that, and the reference bot, its program).
    const std::string program = v.command.substr(0, v.command.find(' '));
    absl::StatusOr<std::string> hash = ContentHash(program);
    if (!hash.ok() || *hash != v.content_hash) {
      hash = ContentHash(VersionHashPath(v.command));
    }
    if (!IsRemoteCommand(v.command) &&
        (!hash.ok() || *hash != v.content_hash)) {
      r.changed_versions.push_back(PlayerName(v));
    }
    seats.push_back(std::move(v));
  }
  // The old game's digest: the recorded log, as the ladder kept it.
  ASSIGN_OR_RETURN(PlayedMatch old_game, ReadAuditedLog(r.old_log, "", match));
  r.old_digest = old_game.game_digest;

  // A referee of its own, beside the ladder's, with a key of its own.
  const std::string dir =
      absl::StrCat(paths.root, "/reproduce/m", match.id, "-",
                   absl::ToUnixMillis(absl::Now()));
  LadderPaths work;
  work.root = absl::StrCat(paths.root, "/reproduce");
  work.referee = dir;
  work.logs = absl::StrCat(dir, "/kept");
  work.bots = absl::StrCat(dir, "/bots");
  RETURN_IF_ERROR(MakeDir(paths.root));
  RETURN_IF_ERROR(MakeLadderDirs(work));
  const std::string binary = options.referee_binary.empty()
                                 ? tournament::DefaultRefereeBinary()
                                 : options.referee_binary;
  ASSIGN_OR_RETURN(tournament::LocalReferee referee,
                   tournament::StartLocalReferee(binary, work.referee,
                                                 4 * kMaxSeats + 16));
  auto stub = cardref::v1::Referee::NewStub(
      grpc::CreateChannel(referee.address, grpc::InsecureChannelCredentials()));
  Table table;
  table.stub = stub.get();
  table.logs_dir = work.logs;
  table.match.server = referee.address;
  table.match.organiser_token = referee.token;
  table.match.bot_output_dir = work.bots;
  table.match.run_as = options.run_as;
  cardref::v1::GameInfo info;
  {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(10));
    cardref::v1::RefereeKey key;
    if (stub->GetRefereeKey(&context, cardref::v1::GetRefereeKeyRequest(), &key)
            .ok()) {
      table.referee_public_key = key.public_key();
    }
    grpc::ClientContext list_context;
    list_context.set_deadline(std::chrono::system_clock::now() +
                              std::chrono::seconds(10));
    cardref::v1::ListGamesResponse listed;
    if (stub->ListGames(&list_context, cardref::v1::ListGamesRequest(),
                        &listed)
            .ok()) {
      for (const cardref::v1::GameInfo& g : listed.games()) {
        if (g.id() == game->game) info = g;
      }
    }
  }
  PlayedMatch replay = PlayLadderMatch(table, config, *game, info, match, seats,
                                       "reproduce");
  referee.process.Kill();
  if (replay.outcome != Outcome::kScored) {
    return absl::UnavailableError(absl::StrCat(
        "the replay of match ", match.id, " did not finish: ", replay.reason));
  }
  r.new_log = replay.referee_log;
  r.new_digest = replay.game_digest;
  r.same = r.new_digest == r.old_digest;
  out << "match " << match.id << " (" << game->game << ":" << game->players
      << ", deal set " << match.deal_set << ") replayed with the same deal, "
      << "versions and bot seeds\n"
      << "  recorded log: " << r.old_log << "\n"
      << "  new log:      " << r.new_log << "\n"
      << "  game digests: " << r.old_digest.substr(0, 16) << "... and "
      << r.new_digest.substr(0, 16) << "...\n";
  if (!r.changed_versions.empty()) {
    out << "  note: the files of ";
    for (size_t i = 0; i < r.changed_versions.size(); ++i) {
      out << (i > 0 ? ", " : "") << r.changed_versions[i];
    }
    out << " changed since they were recorded\n";
  }
  out << (r.same ? "the new log matches the old one: the same game, move for "
                   "move\n"
                 : "the new log DIFFERS from the old one: a bot did not play "
                   "the same moves (it may not be deterministic given its "
                   "seed, or its files changed)\n");
  return r;
}

}  // namespace cardref::ladder::run
