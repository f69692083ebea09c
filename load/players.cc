// What a player counts of one submission, and the channel of a match slot
// (players.h), shared by both clients.
#include "load/players.h"

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/support/channel_arguments.h"

namespace cardref::load {

std::shared_ptr<grpc::Channel> SlotChannel(const std::string& address,
                                           int slot) {
  grpc::ChannelArguments args;
  args.SetInt("cardref.load.connection", slot / kSlotsPerConnection);
  return grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(),
                                   args);
}

void AddBearer(const std::string& token, grpc::ClientContext* context) {
  if (!token.empty()) {
    context->AddMetadata("authorization", absl::StrCat("Bearer ", token));
  }
}

void Totals::AddError(const std::string& what, const grpc::Status& status) {
  std::lock_guard<std::mutex> lock(mu);
  ++errors;
  if (first_error.empty()) {
    first_error = absl::StrCat(what, ": ", status.error_message());
  }
}

grpc::Status JoinSeat(v1::Referee::Stub& stub, const std::string& match_id,
                      int seat, Clock::time_point end, Totals* totals,
                      v1::JoinMatchResponse* me) {
  v1::JoinMatchRequest join;
  join.set_match_id(match_id);
  join.set_seat(seat);
  join.set_player_name(absl::StrCat("load", seat));
  grpc::ClientContext context;
  SetAnswerDeadline(end, &context);
  grpc::Status st = stub.JoinMatch(&context, join, me);
  if (!st.ok() && Unanswered(st, end, Clock::now())) totals->AddUnanswered();
  return st;
}

bool CountSubmission(grpc::StatusCode code, const SendTime& sent,
                     int64_t deadline_unix_millis, Clock::time_point done,
                     Tally* tally) {
  const bool in_time = sent.InTimeFor(deadline_unix_millis);
  if (!in_time) ++tally->late_answers;
  if (code == grpc::StatusCode::OK) {
    ++tally->decisions;
    tally->latencies_us.push_back(
        std::chrono::duration_cast<std::chrono::microseconds>(done -
                                                              sent.steady)
            .count());
    return true;
  }
  if (code == grpc::StatusCode::DEADLINE_EXCEEDED) {
    ++tally->timeouts;
    if (in_time) ++tally->false_timeouts;
    return true;
  }
  return false;
}

namespace {
std::atomic<int64_t> answer_grace_s{10};
}  // namespace

std::chrono::seconds AnswerGrace() {
  return std::chrono::seconds(answer_grace_s.load(std::memory_order_relaxed));
}

void SetAnswerGrace(std::chrono::seconds grace) {
  answer_grace_s.store(grace.count(), std::memory_order_relaxed);
}

void SetAnswerDeadline(Clock::time_point end, grpc::ClientContext* context) {
  const Clock::duration left = std::max(end - Clock::now(),
                                        Clock::duration::zero());
  context->set_deadline(
      std::chrono::system_clock::now() +
      std::chrono::duration_cast<std::chrono::system_clock::duration>(
          left + AnswerGrace()));
}

bool Unanswered(const grpc::Status& status, Clock::time_point end,
                Clock::time_point done) {
  return status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED &&
         done >= end + AnswerGrace() - std::chrono::seconds(1);
}

}  // namespace cardref::load
