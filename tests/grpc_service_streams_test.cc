// The referee's own health checking and server reflection
// (referee/grpc/health_service.h, reflection_service.h), and the streams a
// connection may hold: Health/Watch and ServerReflectionInfo streams take
// slots of their connection's budget, reflection holds no thread per
// stream, and a connection holds at most so many streams of any kind: a
// client that respects the limit waits, one that ignores it loses its
// connection. docs/limits.md, "Streams".
#include <dirent.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "google/protobuf/descriptor_database.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "gtest/gtest.h"
#include "tests/raw_connect.h"
#include "tests/referee_fixture.h"

namespace cardref {
namespace {

using ::grpc::health::v1::Health;
using ::grpc::health::v1::HealthCheckRequest;
using ::grpc::health::v1::HealthCheckResponse;
using ::grpc::reflection::v1alpha::ServerReflection;
using ::grpc::reflection::v1alpha::ServerReflectionRequest;
using ::grpc::reflection::v1alpha::ServerReflectionResponse;
using ::testing::HasSubstr;

class ServiceStreamsTest : public RefereeFixture {
 protected:
  // An open Watch stream of `service`, and its first message.
  struct Watching {
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<HealthCheckResponse>> reader;
    HealthCheckResponse first;
    bool got_first = false;
  };
  std::unique_ptr<Watching> Watch(Health::Stub& stub,
                                  const std::string& service = "") {
    auto w = std::make_unique<Watching>();
    HealthCheckRequest request;
    request.set_service(service);
    w->reader = stub.Watch(&w->context, request);
    w->got_first = w->reader->Read(&w->first);
    return w;
  }
};

// Threads of this process now.
int ThreadCount() {
  int n = 0;
  if (DIR* dir = opendir("/proc/self/task")) {
    while (dirent* e = readdir(dir)) n += e->d_name[0] != '.';
    closedir(dir);
  }
  return n;
}

TEST_F(ServiceStreamsTest, HealthCheckAnswersForTheRefereeAndNamesTheKnown) {
  StartServer();
  auto health = Health::NewStub(NewChannel());
  for (const char* service : {"", "cardref.v1.Referee"}) {
    HealthCheckRequest request;
    request.set_service(service);
    HealthCheckResponse response;
    grpc::ClientContext context;
    grpc::Status s = health->Check(&context, request, &response);
    ASSERT_TRUE(s.ok()) << service << ": " << s.error_message();
    EXPECT_EQ(response.status(), HealthCheckResponse::SERVING) << service;
  }
  HealthCheckRequest unknown;
  unknown.set_service(std::string(5000, 'x'));
  HealthCheckResponse response;
  grpc::ClientContext context;
  grpc::Status s = health->Check(&context, unknown, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(s.error_message(), HasSubstr("cardref.v1.Referee"));
  EXPECT_LT(s.error_message().size(), 200u) << "quotes a prefix only";

  // Watch of an unknown service: SERVICE_UNKNOWN, and the stream stays.
  std::unique_ptr<Watching> w = Watch(*health, "nope.Service");
  ASSERT_TRUE(w->got_first);
  EXPECT_EQ(w->first.status(), HealthCheckResponse::SERVICE_UNKNOWN);
  w->context.TryCancel();
  EXPECT_EQ(w->reader->Finish().error_code(), grpc::StatusCode::CANCELLED);
}

// The cap per connection, shared by Health/Watch and reflection streams;
// another connection has its own, and a slot comes back when its stream
// ends.
TEST_F(ServiceStreamsTest, WatchAndReflectionStreamsPerConnectionAreCapped) {
  constexpr int kCap = 3;
  options_.manager.limits.max_service_streams_per_connection = kCap;
  StartServer();
  std::shared_ptr<grpc::Channel> channel = NewChannel();
  auto health = Health::NewStub(channel);
  std::vector<std::unique_ptr<Watching>> open;
  for (int i = 0; i < kCap; ++i) {
    open.push_back(Watch(*health));
    ASSERT_TRUE(open.back()->got_first) << i;
    EXPECT_EQ(open.back()->first.status(), HealthCheckResponse::SERVING);
  }
  std::unique_ptr<Watching> refused = Watch(*health);
  EXPECT_FALSE(refused->got_first);
  grpc::Status s = refused->reader->Finish();
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(s.error_message(), HasSubstr("this connection"));
  EXPECT_THAT(s.error_message(), HasSubstr("docs/limits.md"));

  // Reflection shares the budget.
  auto reflection = ServerReflection::NewStub(channel);
  grpc::ClientContext reflect_context;
  auto reflect = reflection->ServerReflectionInfo(&reflect_context);
  ServerReflectionRequest list;
  list.set_list_services("");
  reflect->Write(list);
  ServerReflectionResponse answer;
  EXPECT_FALSE(reflect->Read(&answer));
  EXPECT_EQ(reflect->Finish().error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);

  // Another connection is not this one.
  auto other = Health::NewStub(NewChannel());
  std::unique_ptr<Watching> elsewhere = Watch(*other);
  ASSERT_TRUE(elsewhere->got_first);

  // One ends: its slot is given back once gRPC is done with the stream.
  open.front()->context.TryCancel();
  (void)open.front()->reader->Finish();
  std::unique_ptr<Watching> again;
  for (int i = 0; i < 200; ++i) {
    again = Watch(*health);
    if (again->got_first) break;
    (void)again->reader->Finish();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(again->got_first);
  for (auto* w : {again.get(), elsewhere.get(), open[1].get(),
                  open[2].get()}) {
    w->context.TryCancel();
    (void)w->reader->Finish();
  }
}

// Shutting down: NOT_SERVING at once, then the stream ends rather than
// holding the shutdown for its grace.
TEST_F(ServiceStreamsTest, WatchSeesNotServingAndEndsWhenTheRefereeStops) {
  StartServer();
  auto health = Health::NewStub(NewChannel());
  std::unique_ptr<Watching> w = Watch(*health, "cardref.v1.Referee");
  ASSERT_TRUE(w->got_first);
  EXPECT_EQ(w->first.status(), HealthCheckResponse::SERVING);
  std::thread stop([&] { server_->ShutDownGracefully(absl::Seconds(30)); });
  HealthCheckResponse next;
  ASSERT_TRUE(w->reader->Read(&next));
  EXPECT_EQ(next.status(), HealthCheckResponse::NOT_SERVING);
  EXPECT_FALSE(w->reader->Read(&next));
  grpc::Status s = w->reader->Finish();
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_THAT(s.error_message(), HasSubstr("shutting down"));
  stop.join();
  EXPECT_EQ(server_->health().watchers(), 0);
}

// What grpcurl asks: the services, then the files that describe one, from
// which a client builds the API's descriptors; errors are answers, and the
// stream goes on after them.
TEST_F(ServiceStreamsTest, ReflectionDescribesTheApi) {
  StartServer();
  auto reflection = ServerReflection::NewStub(NewChannel());
  grpc::ClientContext context;
  auto stream = reflection->ServerReflectionInfo(&context);
  auto ask = [&](const ServerReflectionRequest& request) {
    ServerReflectionResponse response;
    EXPECT_TRUE(stream->Write(request));
    EXPECT_TRUE(stream->Read(&response));
    EXPECT_EQ(response.original_request().SerializeAsString(),
              request.SerializeAsString());
    return response;
  };

  ServerReflectionRequest list;
  list.set_host("localhost");
  list.set_list_services("*");
  ServerReflectionResponse listed = ask(list);
  EXPECT_EQ(listed.valid_host(), "localhost");
  std::vector<std::string> names;
  for (const auto& service : listed.list_services_response().service()) {
    names.push_back(service.name());
  }
  EXPECT_THAT(names, ::testing::UnorderedElementsAre(
                         "cardref.v1.Referee", "grpc.health.v1.Health",
                         "grpc.reflection.v1alpha.ServerReflection"));

  ServerReflectionRequest symbol;
  symbol.set_file_containing_symbol("cardref.v1.Referee");
  ServerReflectionResponse files = ask(symbol);
  ASSERT_TRUE(files.has_file_descriptor_response());
  google::protobuf::SimpleDescriptorDatabase database;
  std::vector<std::string> file_names;
  for (const std::string& bytes :
       files.file_descriptor_response().file_descriptor_proto()) {
    google::protobuf::FileDescriptorProto file;
    ASSERT_TRUE(file.ParseFromString(bytes));
    file_names.push_back(file.name());
    ASSERT_TRUE(database.Add(file)) << file.name();
  }
  ASSERT_FALSE(file_names.empty());
  EXPECT_EQ(file_names.front(), "cardref/v1/referee.proto");
  // Every import came along: the client's pool builds the whole service.
  google::protobuf::DescriptorPool pool(&database);
  const google::protobuf::ServiceDescriptor* referee =
      pool.FindServiceByName("cardref.v1.Referee");
  ASSERT_NE(referee, nullptr);
  const google::protobuf::MethodDescriptor* submit =
      referee->FindMethodByName("SubmitAction");
  ASSERT_NE(submit, nullptr);
  EXPECT_EQ(submit->input_type()->full_name(),
            "cardref.v1.SubmitActionRequest");
  EXPECT_NE(pool.FindMessageTypeByName("cardref.v1.Observation"), nullptr);

  ServerReflectionRequest by_name;
  by_name.set_file_by_filename("grpc/health/v1/health.proto");
  ServerReflectionResponse health_file = ask(by_name);
  ASSERT_EQ(health_file.file_descriptor_response().file_descriptor_proto_size(),
            1);

  // The card option (options.proto) is an extension of FieldOptions.
  ServerReflectionRequest numbers;
  numbers.set_all_extension_numbers_of_type("google.protobuf.FieldOptions");
  ServerReflectionResponse extensions = ask(numbers);
  EXPECT_EQ(extensions.all_extension_numbers_response().base_type_name(),
            "google.protobuf.FieldOptions");
  EXPECT_THAT(extensions.all_extension_numbers_response().extension_number(),
              ::testing::Contains(50001));
  ServerReflectionRequest extension;
  extension.mutable_file_containing_extension()->set_containing_type(
      "google.protobuf.FieldOptions");
  extension.mutable_file_containing_extension()->set_extension_number(50001);
  google::protobuf::FileDescriptorProto options_file;
  ASSERT_TRUE(options_file.ParseFromString(
      ask(extension).file_descriptor_response().file_descriptor_proto(0)));
  EXPECT_EQ(options_file.name(), "cardref/v1/options.proto");

  ServerReflectionRequest missing;
  missing.set_file_containing_symbol("cardref.v1.NoSuchThing");
  ServerReflectionResponse error = ask(missing);
  EXPECT_EQ(error.error_response().error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(error.error_response().error_message(),
              HasSubstr("cardref.v1.NoSuchThing"));
  ServerReflectionResponse empty = ask(ServerReflectionRequest());
  EXPECT_EQ(empty.error_response().error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  // Still answering.
  EXPECT_TRUE(ask(list).has_list_services_response());

  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());
}

// gRPC's reflection plugin held a thread per open stream (2,000 streams,
// 2,000 threads); the referee's holds none.
TEST_F(ServiceStreamsTest, OpenReflectionStreamsHoldNoThread) {
  constexpr int kConnections = 10;
  constexpr int kPerConnection = 4;
  options_.manager.limits.max_service_streams_per_connection = kPerConnection;
  StartServer();
  struct Open {
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReaderWriter<ServerReflectionRequest,
                                             ServerReflectionResponse>>
        stream;
  };
  std::vector<std::unique_ptr<ServerReflection::Stub>> stubs;
  std::vector<std::unique_ptr<Open>> open;
  // One round trip first, so the connections and gRPC's pools are up.
  stubs.reserve(kConnections);
  for (int c = 0; c < kConnections; ++c) {
    stubs.push_back(ServerReflection::NewStub(NewChannel()));
  }
  ServerReflectionRequest list;
  list.set_list_services("");
  auto open_one = [&](ServerReflection::Stub& stub) {
    auto o = std::make_unique<Open>();
    o->stream = stub.ServerReflectionInfo(&o->context);
    ServerReflectionResponse response;
    EXPECT_TRUE(o->stream->Write(list));
    EXPECT_TRUE(o->stream->Read(&response));
    open.push_back(std::move(o));
  };
  for (auto& stub : stubs) open_one(*stub);
  const int threads_before = ThreadCount();
  for (auto& stub : stubs) {
    for (int i = 1; i < kPerConnection; ++i) open_one(*stub);
  }
  const int threads_after = ThreadCount();
  std::printf("[figures] %d more reflection streams: threads %d -> %d\n",
              kConnections * (kPerConnection - 1), threads_before,
              threads_after);
  EXPECT_LT(threads_after - threads_before, kConnections);
  for (auto& o : open) {
    o->stream->WritesDone();
    EXPECT_TRUE(o->stream->Finish().ok());
  }
}

// ---------------------------------------------------------------------------
// A client that ignores HTTP/2's SETTINGS_MAX_CONCURRENT_STREAMS, by hand:
// gRPC closes its connection, and every stream on it, at the first stream
// past the limit.
// ---------------------------------------------------------------------------

constexpr uint8_t kHeaders = 0x1, kSettings = 0x4;

std::string Frame(uint8_t type, uint8_t flags, uint32_t stream,
                  const std::string& payload) {
  std::string f;
  const uint32_t n = payload.size();
  f += static_cast<char>(n >> 16);
  f += static_cast<char>(n >> 8);
  f += static_cast<char>(n);
  f += static_cast<char>(type);
  f += static_cast<char>(flags);
  for (int shift = 24; shift >= 0; shift -= 8) {
    f += static_cast<char>(stream >> shift);
  }
  return f + payload;
}

// HPACK "literal header field without indexing, new name" (RFC 7541 6.2.2),
// names and values under 127 bytes.
std::string Literal(const std::string& name, const std::string& value) {
  std::string out(1, '\0');
  out += static_cast<char>(name.size());
  out += name;
  out += static_cast<char>(value.size());
  out += value;
  return out;
}

struct RawFrame {
  uint8_t type;
  uint8_t flags;
  uint32_t stream;
  std::string payload;
};

enum class Read { kFrame, kClosed, kTimedOut };

// Reads one frame, waiting at most `timeout_ms` for each part.
Read ReadFrame(int fd, int timeout_ms, RawFrame* frame) {
  timeval tv{timeout_ms / 1000,
             static_cast<suseconds_t>(timeout_ms % 1000) * 1000};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  auto read_exactly = [fd](char* out, size_t n) {
    while (n > 0) {
      const ssize_t got = recv(fd, out, n, 0);
      if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        return Read::kTimedOut;
      }
      if (got <= 0) return Read::kClosed;
      out += got;
      n -= got;
    }
    return Read::kFrame;
  };
  unsigned char header[9];
  if (Read r = read_exactly(reinterpret_cast<char*>(header), 9);
      r != Read::kFrame) {
    return r;
  }
  const size_t length = (header[0] << 16) | (header[1] << 8) | header[2];
  frame->type = header[3];
  frame->flags = header[4];
  frame->stream = ((header[5] & 0x7f) << 24) | (header[6] << 16) |
                  (header[7] << 8) | header[8];
  frame->payload.assign(length, '\0');
  return read_exactly(frame->payload.data(), length);
}

bool SendAll(int fd, const std::string& bytes) {
  return send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
         static_cast<ssize_t>(bytes.size());
}

TEST_F(ServiceStreamsTest, AClientPastTheStreamLimitLosesItsConnection) {
  constexpr int kLimit = 5;
  constexpr int kSent = 12;
  options_.manager.limits.max_streams_per_connection = kLimit;
  StartServer();
  const int fd = testing_net::ConnectRaw(server_->port());
  ASSERT_GE(fd, 0);
  ASSERT_TRUE(SendAll(fd, std::string("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n") +
                              Frame(kSettings, 0, 0, "")));
  // The limit binds once the client has acknowledged the server's SETTINGS.
  RawFrame frame;
  bool limit_announced = false;
  while (ReadFrame(fd, 5000, &frame) == Read::kFrame) {
    if (frame.type != kSettings || (frame.flags & 0x1) != 0) continue;
    for (size_t i = 0; i + 6 <= frame.payload.size(); i += 6) {
      const auto* p =
          reinterpret_cast<const unsigned char*>(frame.payload.data() + i);
      const uint16_t id = (p[0] << 8) | p[1];
      const uint32_t value = (p[2] << 24) | (p[3] << 16) | (p[4] << 8) | p[5];
      if (id == 0x3) limit_announced = value == kLimit;
    }
    break;
  }
  EXPECT_TRUE(limit_announced) << "SETTINGS_MAX_CONCURRENT_STREAMS";
  ASSERT_TRUE(SendAll(fd, Frame(kSettings, 0x1, 0, "")));
  // Calls whose request never comes: each holds a stream.
  std::string frames;
  for (int i = 0; i < kSent; ++i) {
    const std::string block =
        Literal(":method", "POST") + Literal(":scheme", "http") +
        Literal(":path", "/cardref.v1.Referee/GetMatch") +
        Literal(":authority", "localhost") +
        Literal("content-type", "application/grpc") +
        Literal("te", "trailers");
    frames += Frame(kHeaders, 0x4 /*END_HEADERS*/, 1 + 2 * i, block);
  }
  ASSERT_TRUE(SendAll(fd, frames));
  // gRPC ends the streams it had taken (UNAVAILABLE in their trailers),
  // answers none past the limit, and closes the connection.
  uint32_t last_answered = 0;
  int answered = 0;
  Read r;
  while ((r = ReadFrame(fd, 5000, &frame)) == Read::kFrame) {
    if (frame.type == kHeaders) {
      ++answered;
      last_answered = std::max(last_answered, frame.stream);
    }
  }
  close(fd);
  std::printf("[figures] %d streams opened against a limit of %d: %d ended, "
              "the connection %s\n",
              kSent, kLimit, answered,
              r == Read::kClosed ? "closed" : "still open after 5 s");
  EXPECT_EQ(r, Read::kClosed);
  EXPECT_LE(answered, kLimit);
  EXPECT_LE(last_answered, 2u * kLimit - 1) << "a stream past the limit";
  // The referee serves others meanwhile.
  v1::ListGamesResponse games;
  grpc::ClientContext context;
  EXPECT_TRUE(NewStub()->ListGames(&context, v1::ListGamesRequest(), &games)
                  .ok());
}

// A client that respects the limit queues its calls past it: they go out
// as earlier ones end, and none fails.
TEST_F(ServiceStreamsTest, CallsPastTheStreamLimitWaitForAFreeStream) {
  constexpr int kLimit = 4;
  options_.manager.limits.max_streams_per_connection = kLimit;
  options_.manager.limits.max_service_streams_per_connection = kLimit;
  StartServer();
  std::shared_ptr<grpc::Channel> channel = NewChannel();
  auto health = Health::NewStub(channel);
  auto referee = v1::Referee::NewStub(channel);
  // kLimit Watch streams fill the connection.
  std::vector<std::unique_ptr<Watching>> open;
  for (int i = 0; i < kLimit; ++i) {
    open.push_back(Watch(*health));
    ASSERT_TRUE(open.back()->got_first) << i;
  }
  // The next call on this connection waits.
  v1::ListGamesResponse games;
  grpc::ClientContext waiting;
  waiting.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::milliseconds(300));
  EXPECT_EQ(referee->ListGames(&waiting, v1::ListGamesRequest(), &games)
                .error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);
  // One stream ends: the call goes out.
  open.front()->context.TryCancel();
  (void)open.front()->reader->Finish();
  grpc::ClientContext served;
  served.set_deadline(std::chrono::system_clock::now() +
                      std::chrono::seconds(10));
  EXPECT_TRUE(
      referee->ListGames(&served, v1::ListGamesRequest(), &games).ok());
  for (size_t i = 1; i < open.size(); ++i) {
    open[i]->context.TryCancel();
    (void)open[i]->reader->Finish();
  }
}

}  // namespace
}  // namespace cardref
