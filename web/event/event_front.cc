#include "web/event/event_front.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "analyzer/log_tools/log_html.h"
#include "analyzer/log_tools/playback.h"
#include "games/all_games.h"
#include "referee/codec/logged_actions.h"
#include "referee/record/game_log.h"
#include "tournament/report.h"
#include "web/http_answers.h"
#include "web/pages.h"

namespace cardref::web {

using nlohmann::json;

class EventFront::Routes : public HttpHandler {
 public:
  explicit Routes(const EventBoard* board) : board_(board) {}
  HttpAnswer Handle(const HttpRequest& request) override {
    if (!IsReadMethod(request.method)) return MethodNotAllowed();
    const std::string& path = request.path;
    if (path == "/api/event") return JsonAnswer(200, board_->EventJson());
    if (path == "/api/standings") {
      return JsonAnswer(200, board_->StandingsJson());
    }
    if (path.rfind("/assets/", 0) == 0) {
      return AssetAnswer(path.substr(sizeof("/assets/") - 1));
    }
    if (path == "/") return HtmlAnswer(200, Page());
    if (path.rfind("/matches/", 0) == 0) {
      return Replay(path.substr(sizeof("/matches/") - 1));
    }
    if (path.rfind("/api/", 0) == 0) {
      return JsonErrorAnswer(404, "no such address");
    }
    return HtmlAnswer(404, MessagePage("Not found", "No such page."));
  }

 private:
  // A finished match's replay from its log, once its deal set is over: the
  // event's referee (and its match pages) stop with the event, this does
  // not.
  HttpAnswer Replay(const std::string& key) const {
    const std::string log_path = board_->ReplayLog(key);
    if (log_path.empty()) {
      return HtmlAnswer(404, MessagePage("Not shown",
                                         "No such match, or its deal set "
                                         "is still being played."));
    }
    absl::StatusOr<record::GameLog> log = record::ReadGameLog(log_path);
    if (log.ok()) {
      codec::DeriveTypedActions(&*log, AllGames());
      absl::StatusOr<log_tools::Playback> playback =
          log_tools::BuildPlayback(*log, AllGames(), -1);
      if (playback.ok()) return HtmlAnswer(200, ReplayPage(*playback));
    }
    return HtmlAnswer(500, MessagePage("Error", "Its log cannot be drawn."));
  }

  // The page's tables are drawn by event.js from the JSON it is given
  // here and fetches again every few seconds.
  std::string Page() const {
    const json event = board_->EventJson();
    const json data = {{"event", event},
                       {"standings", board_->StandingsJson()},
                       {"eventUrl", "/api/event"},
                       {"standingsUrl", "/api/standings"}};
    return absl::StrCat(
        PageHead("cardref event", {"replay.css", "web.css", "ladder.css"}),
        "<body>\n<header><h1>Event <span id=\"event-name\"></span></h1>"
        "</header>\n<div class=\"page\">\n"
        "<p id=\"summary\" class=\"note\"></p>\n"
        "<h2>Standings</h2>\n<div id=\"standings\"></div>\n"
        "<h2>Matches</h2>\n<div id=\"matches\"></div>\n"
        "<h2>Faults per bot</h2>\n<div id=\"faults\"></div>\n"
        "<p class=\"note\">The same as JSON: <a href=\"/api/event\">"
        "/api/event</a>, <a href=\"/api/standings\">/api/standings</a></p>\n"
        "</div>\n<script type=\"application/json\" id=\"page-data\">",
        log_tools::JsonForPage(data),
        "</script>\n<script src=\"/assets/event.js\"></script>\n"
        "</body>\n</html>\n");
  }

  const EventBoard* board_;
};

EventFront::EventFront(EventFrontOptions options)
    : options_(std::move(options)) {
  if (!options_.standings) {
    options_.standings = [](const std::vector<std::string>& logs,
                            const std::string& key)
        -> absl::StatusOr<std::string> {
      absl::StatusOr<tournament::Standings> s =
          tournament::ComputeStandings(logs, key);
      if (!s.ok()) return s.status();
      return s->json;
    };
  }
}

absl::StatusOr<std::unique_ptr<EventFront>> EventFront::Start(
    EventFrontOptions options) {
  std::unique_ptr<EventFront> front(new EventFront(std::move(options)));
  front->routes_ = std::make_unique<Routes>(&front->board_);
  absl::StatusOr<std::unique_ptr<HttpServer>> server =
      HttpServer::Start(front->options_.http, front->routes_.get());
  if (!server.ok()) return server.status();
  front->server_ = *std::move(server);
  front->standings_thread_ = std::thread([f = front.get()] { f->StandingsLoop(); });
  return front;
}

EventFront::~EventFront() {
  if (server_ != nullptr) server_->Stop();
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  if (standings_thread_.joinable()) standings_thread_.join();
  server_.reset();
}

void EventFront::OnStart(const tournament::EventStart& start) {
  board_.Start(start);
  WantStandings();  // a resumed event's finished logs
}

void EventFront::OnStarted(const tournament::MatchRecord& record) {
  board_.Started(record);
}

void EventFront::OnDone(const tournament::ScheduledMatch& match,
                        const tournament::MatchOutcome& outcome) {
  if (board_.Done(match, outcome)) WantStandings();
}

void EventFront::OnEnd() { board_.End(); }

void EventFront::WantStandings() {
  absl::MutexLock lock(&mu_);
  wanted_ = true;
}

bool EventFront::WantedOrStopping() const { return wanted_ || stopping_; }

void EventFront::StandingsLoop() {
  absl::Time last = absl::InfinitePast();
  for (;;) {
    {
      absl::MutexLock lock(&mu_);
      mu_.Await(absl::Condition(this, &EventFront::WantedOrStopping));
      if (stopping_) return;
      // At most once per interval: what finishes meanwhile waits for it.
      const absl::Duration wait =
          options_.standings_interval - (absl::Now() - last);
      if (wait > absl::ZeroDuration()) {
        mu_.AwaitWithTimeout(absl::Condition(&stopping_), wait);
        if (stopping_) return;
      }
      wanted_ = false;
      computing_ = true;
    }
    last = absl::Now();
    const std::vector<std::string> logs = board_.StandingsLogs();
    if (logs.empty()) {
      board_.SetStandings(0, "", "");
    } else {
      absl::StatusOr<std::string> ratings =
          options_.standings(logs, board_.referee_key());
      board_.SetStandings(static_cast<int>(logs.size()),
                          ratings.ok() ? *ratings : "",
                          ratings.ok() ? "" : std::string(ratings.status().message()));
    }
    absl::MutexLock lock(&mu_);
    computing_ = false;
  }
}

bool EventFront::WaitForStandings(absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  while (absl::Now() < deadline) {
    const size_t want = board_.StandingsLogs().size();
    bool idle = false;
    {
      absl::MutexLock lock(&mu_);
      idle = !wanted_ && !computing_;
    }
    if (idle && board_.StandingsJson()["logs"].get<size_t>() == want) {
      return true;
    }
    absl::SleepFor(absl::Milliseconds(20));
  }
  return false;
}

}  // namespace cardref::web
