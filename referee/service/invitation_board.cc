#include "referee/service/invitation_board.h"

#include <algorithm>
#include <climits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"

namespace cardref::service {

void InvitationBoard::Stream::Wake() {
  absl::MutexLock lock(&wake_mu_);
  if (wake_) wake_();
}

void InvitationBoard::Stream::Detach() {
  absl::MutexLock lock(&wake_mu_);
  wake_ = nullptr;
}

InvitationBoard::InvitationBoard(Bounds bounds, MetricsSink* metrics,
                                 OpsLog* ops_log)
    : bounds_(bounds), metrics_(metrics), ops_log_(ops_log) {}

void InvitationBoard::Log(const std::vector<OpsField>& fields) {
  ops_log_->Write(FormatOpsLine(absl::Now(), fields));
}

void InvitationBoard::WakeAll(
    const std::vector<std::shared_ptr<Stream>>& streams) {
  for (const std::shared_ptr<Stream>& s : streams) s->Wake();
}

void InvitationBoard::ReportLocked() {
  int connected = 0, streams = 0, queued = 0;
  for (const auto& [name, e] : entrants_) {
    connected += e.streams.empty() ? 0 : 1;
    streams += static_cast<int>(e.streams.size());
    queued += static_cast<int>(e.queued.size());
  }
  metrics_->InvitationsNow(connected, streams, queued,
                           static_cast<int>(held_.size()));
}

absl::StatusOr<std::shared_ptr<InvitationBoard::Stream>> InvitationBoard::Open(
    const std::string& entrant, const std::string& credential_id,
    const std::vector<std::string>& games, int asked,
    std::function<void()> wake) {
  if (asked < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "max_matches ", asked, " is negative: give how many matches the bot "
        "plays at once (0 means 1)"));
  }
  auto stream = std::make_shared<Stream>();
  {
    absl::MutexLock lock(&stream->wake_mu_);
    stream->wake_ = std::move(wake);
  }
  const int wanted = std::max(asked, 1);
  const int granted = std::min(wanted, bounds_.max_invitations_per_credential);
  stream->entrant = entrant;
  stream->granted = granted;
  stream->open.set_entrant(entrant);
  stream->open.set_max_matches(granted);
  for (const std::string& g : games) {
    stream->games.insert(g);
    stream->open.add_games(g);
  }
  if (granted < wanted) {
    stream->open.set_note(absl::StrCat(
        "asked for ", wanted, " matches at once; this referee gives a "
        "credential at most ", bounds_.max_invitations_per_credential,
        " over all its streams (--max_invitations_per_credential)"));
  }
  std::vector<std::shared_ptr<Stream>> wake_list;
  {
    absl::MutexLock lock(&mu_);
    Entrant& e = entrants_[entrant];
    if (static_cast<int>(e.streams.size()) >=
        bounds_.max_streams_per_credential) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "entrant '", entrant, "' has ", e.streams.size(),
          " invitation streams open, this referee's limit per credential "
          "(--max_invitation_streams_per_credential); close one first "
          "(docs/limits.md)"));
    }
    stream->serial = next_serial_++;
    e.streams.push_back(stream);
    Log({{"event", "invitations_open"},
         {"entrant", entrant},
         {"credential", credential_id},
         {"stream", absl::StrCat(stream->serial)},
         {"asked", absl::StrCat(wanted)},
         {"granted", absl::StrCat(granted)},
         {"games", games.empty() ? "all" : absl::StrJoin(games, ",")}});
    DispatchLocked(entrant, e, &wake_list);
    ReportLocked();
  }
  WakeAll(wake_list);
  return stream;
}

InvitationBoard::Next InvitationBoard::Take(Stream& stream) {
  absl::MutexLock lock(&mu_);
  Next next;
  if (stream.end.has_value()) {
    next.end = stream.end;
    return next;
  }
  if (!stream.open_sent) {
    stream.open_sent = true;
    *next.event.emplace().mutable_open() = stream.open;
    return next;
  }
  if (!stream.outbox.empty()) {
    *next.event.emplace().mutable_invitation() =
        std::move(stream.outbox.front());
    stream.outbox.pop_front();
  }
  return next;
}

namespace {

bool Plays(const std::string& game,
           const absl::flat_hash_set<std::string>& games) {
  return games.empty() || games.count(game) > 0;
}

}  // namespace

void InvitationBoard::DispatchLocked(
    const std::string& name, Entrant& entrant,
    std::vector<std::shared_ptr<Stream>>* wake) {
  // Seats of one match go together: an entrant that holds some seats of a
  // match and waits for room for the rest would hold them for nothing
  // (and two such matches could wait on each other for ever).
  while (!entrant.queued.empty()) {
    bool sent_any = false;
    for (size_t first = 0; first < entrant.queued.size();) {
      const std::string match_id = entrant.queued[first].match_id();
      const std::string game = entrant.queued[first].game();
      std::vector<size_t> group;
      for (size_t i = first; i < entrant.queued.size(); ++i) {
        if (entrant.queued[i].match_id() == match_id) group.push_back(i);
      }
      const int size = static_cast<int>(group.size());
      int room = 0, granted = 0;
      for (const std::shared_ptr<Stream>& s : entrant.streams) {
        if (s->end.has_value() || s->closed || !Plays(game, s->games)) {
          continue;
        }
        granted += s->granted;
        room += std::max(0, s->granted - s->in_flight);
      }
      const bool fits_ever =
          granted >= size && size <= bounds_.max_invitations_per_credential;
      const bool fits_now =
          room >= size &&
          entrant.invited + size <= bounds_.max_invitations_per_credential;
      if (!fits_now) {
        // Waits for room, ahead of what was queued after it (else a match
        // with many seats could wait for ever behind small ones); one no
        // stream could ever take is passed over.
        if (fits_ever) return;
        ++first;
        while (first < entrant.queued.size() &&
               entrant.queued[first].match_id() == match_id) {
          ++first;
        }
        continue;
      }
      std::vector<v1::Invitation> batch;
      batch.reserve(group.size());
      for (size_t i : group) batch.push_back(std::move(entrant.queued[i]));
      for (size_t k = group.size(); k-- > 0;) {
        entrant.queued.erase(entrant.queued.begin() +
                             static_cast<std::ptrdiff_t>(group[k]));
      }
      for (v1::Invitation& invitation : batch) {
        // The stream with the most room that plays the game; ties to the
        // one that was sent the fewest.
        std::shared_ptr<Stream> best;
        for (const std::shared_ptr<Stream>& s : entrant.streams) {
          if (s->end.has_value() || s->closed || s->in_flight >= s->granted ||
              !Plays(game, s->games)) {
            continue;
          }
          const int r = s->granted - s->in_flight;
          const int best_room =
              best == nullptr ? -1 : best->granted - best->in_flight;
          if (r > best_room || (r == best_room && s->sent < best->sent)) {
            best = s;
          }
        }
        Held& held = held_[{invitation.match_id(), invitation.seat()}];
        held.entrant = name;
        held.stream = best;
        held.invited = true;
        held.invitation = invitation;
        ++entrant.invited;
        ++best->in_flight;
        ++best->sent;
        Log({{"event", "invitation_sent"},
             {"match", invitation.match_id()},
             {"seat", absl::StrCat(invitation.seat())},
             {"entrant", name},
             {"stream", absl::StrCat(best->serial)}});
        best->outbox.push_back(std::move(invitation));
        metrics_->InvitationCounted("sent");
        if (std::find(wake->begin(), wake->end(), best) == wake->end()) {
          wake->push_back(best);
        }
      }
      sent_any = true;
      break;  // the queue changed: start again from its front
    }
    if (!sent_any) return;
  }
}

void InvitationBoard::Close(const std::shared_ptr<Stream>& stream) {
  std::vector<std::shared_ptr<Stream>> wake;
  {
    absl::MutexLock lock(&mu_);
    stream->closed = true;
    auto e = entrants_.find(stream->entrant);
    const bool member =
        e != entrants_.end() &&
        std::find(e->second.streams.begin(), e->second.streams.end(),
                  stream) != e->second.streams.end();
    if (member) {
      Entrant& entrant = e->second;
      entrant.streams.erase(std::find(entrant.streams.begin(),
                                      entrant.streams.end(), stream));
      // Its seats not joined yet go to another stream of the entrant;
      // joined ones stay the entrant's until their match is over.
      int requeued = 0;
      std::vector<v1::Invitation> again;
      for (auto it = held_.begin(); it != held_.end();) {
        Held& held = it->second;
        if (held.stream != stream) {
          ++it;
          continue;
        }
        held.stream = nullptr;
        if (held.joined || !held.invited) {
          ++it;
          continue;
        }
        again.push_back(std::move(held.invitation));
        --entrant.invited;
        ++requeued;
        metrics_->InvitationCounted("requeued");
        it = held_.erase(it);
      }
      // Ahead of the rest: they were due first.
      entrant.queued.insert(entrant.queued.begin(), again.begin(),
                            again.end());
      Log({{"event", "invitations_closed"},
           {"entrant", stream->entrant},
           {"stream", absl::StrCat(stream->serial)},
           {"sent", absl::StrCat(stream->sent)},
           {"requeued", absl::StrCat(requeued)}});
      DispatchLocked(stream->entrant, entrant, &wake);
    }
    stream->outbox.clear();
    ReportLocked();
  }
  stream->Detach();
  WakeAll(wake);
}

void InvitationBoard::Offer(const std::string& entrant,
                            std::vector<v1::Invitation> seats) {
  std::vector<std::shared_ptr<Stream>> wake;
  {
    absl::MutexLock lock(&mu_);
    Entrant& e = entrants_[entrant];
    for (v1::Invitation& seat : seats) e.queued.push_back(std::move(seat));
    DispatchLocked(entrant, e, &wake);
    ReportLocked();
  }
  WakeAll(wake);
}

void InvitationBoard::Joined(const std::string& entrant,
                             const std::string& match_id, int seat) {
  absl::MutexLock lock(&mu_);
  Held& held = held_[{match_id, seat}];
  if (held.entrant.empty()) held.entrant = entrant;
  held.joined = true;
  // Sent again after its stream closed, and joined meanwhile: not again.
  auto e = entrants_.find(entrant);
  if (e != entrants_.end()) {
    auto& queued = e->second.queued;
    queued.erase(std::remove_if(queued.begin(), queued.end(),
                                [&](const v1::Invitation& q) {
                                  return q.match_id() == match_id &&
                                         q.seat() == seat;
                                }),
                 queued.end());
  }
  ReportLocked();
}

void InvitationBoard::DropQueuedLocked(const std::string& match_id,
                                       const char* why) {
  for (auto& [name, e] : entrants_) {
    for (auto it = e.queued.begin(); it != e.queued.end();) {
      if (it->match_id() != match_id) {
        ++it;
        continue;
      }
      Log({{"event", "invitation_dropped"},
           {"match", match_id},
           {"seat", absl::StrCat(it->seat())},
           {"entrant", name},
           {"why", why}});
      metrics_->InvitationCounted("dropped");
      it = e.queued.erase(it);
    }
  }
}

void InvitationBoard::JoinsClosed(const std::string& match_id) {
  absl::MutexLock lock(&mu_);
  DropQueuedLocked(match_id,
                   "the match started without the seat (join deadline)");
  ReportLocked();
}

void InvitationBoard::MatchEnded(const std::string& match_id) {
  std::vector<std::shared_ptr<Stream>> wake;
  {
    absl::MutexLock lock(&mu_);
    DropQueuedLocked(match_id, "the match ended before a stream took it");
    std::vector<std::string> freed;
    auto it = held_.lower_bound({match_id, INT_MIN});
    while (it != held_.end() && it->first.first == match_id) {
      Held& held = it->second;
      if (held.stream != nullptr) --held.stream->in_flight;
      auto e = entrants_.find(held.entrant);
      if (e != entrants_.end()) {
        if (held.invited) --e->second.invited;
        freed.push_back(held.entrant);
      }
      it = held_.erase(it);
    }
    std::sort(freed.begin(), freed.end());
    freed.erase(std::unique(freed.begin(), freed.end()), freed.end());
    for (const std::string& name : freed) {
      auto e = entrants_.find(name);
      DispatchLocked(name, e->second, &wake);
    }
    ReportLocked();
  }
  WakeAll(wake);
}

InvitationBoard::Ended InvitationBoard::EndEntrant(const std::string& entrant,
                                                   const absl::Status& why) {
  Ended ended;
  std::vector<std::shared_ptr<Stream>> wake;
  {
    absl::MutexLock lock(&mu_);
    auto e = entrants_.find(entrant);
    if (e != entrants_.end()) {
      for (const std::shared_ptr<Stream>& s : e->second.streams) {
        s->end = why;
        s->outbox.clear();
        wake.push_back(s);
      }
      ended.streams = static_cast<int>(e->second.streams.size());
      for (const v1::Invitation& q : e->second.queued) {
        ended.seats.emplace_back(q.match_id(), q.seat());
      }
      entrants_.erase(e);
    }
    for (auto it = held_.begin(); it != held_.end();) {
      if (it->second.entrant != entrant) {
        ++it;
        continue;
      }
      ended.seats.push_back(it->first);
      it = held_.erase(it);
    }
    Log({{"event", "credential_ended"},
         {"entrant", entrant},
         {"streams", absl::StrCat(ended.streams)},
         {"seats", absl::StrCat(ended.seats.size())},
         {"why", std::string(why.message())}});
    ReportLocked();
  }
  WakeAll(wake);
  return ended;
}

void InvitationBoard::EndAll(const absl::Status& why) {
  std::vector<std::shared_ptr<Stream>> wake;
  {
    absl::MutexLock lock(&mu_);
    for (auto& [name, e] : entrants_) {
      for (const std::shared_ptr<Stream>& s : e.streams) {
        if (s->end.has_value()) continue;
        s->end = why;
        s->outbox.clear();
        wake.push_back(s);
      }
    }
  }
  WakeAll(wake);
}

InvitationBoard::Counts InvitationBoard::CountsOf(
    const std::string& entrant) const {
  absl::MutexLock lock(&mu_);
  Counts counts;
  auto e = entrants_.find(entrant);
  if (e != entrants_.end()) {
    counts.streams = static_cast<int>(e->second.streams.size());
    counts.queued = static_cast<int>(e->second.queued.size());
  }
  for (const auto& [key, held] : held_) {
    if (held.entrant == entrant) ++counts.invitations;
  }
  return counts;
}

}  // namespace cardref::service
