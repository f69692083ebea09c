// Which hosts a listener may take without an organiser credential
// (referee/grpc/loopback_host.h): loopback is judged on the addresses a name
// resolves to, never on its spelling, for the gRPC port and the metrics
// port alike.
#include "referee/grpc/loopback_host.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/grpc/server.h"

namespace cardref::grpc_service {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A numeric IPv4 or IPv6 address as getaddrinfo would give it.
sockaddr_storage Address(const char* text) {
  sockaddr_storage addr{};
  auto* in = reinterpret_cast<sockaddr_in*>(&addr);
  auto* in6 = reinterpret_cast<sockaddr_in6*>(&addr);
  if (inet_pton(AF_INET, text, &in->sin_addr) == 1) {
    in->sin_family = AF_INET;
  } else {
    EXPECT_EQ(inet_pton(AF_INET6, text, &in6->sin6_addr), 1) << text;
    in6->sin6_family = AF_INET6;
  }
  return addr;
}

std::vector<sockaddr_storage> Addresses(
    const std::vector<const char*>& texts) {
  std::vector<sockaddr_storage> out;
  out.reserve(texts.size());
  for (const char* t : texts) out.push_back(Address(t));
  return out;
}

TEST(LoopbackHostTest, EveryAddressMustBeLoopback) {
  for (const char* loopback :
       {"127.0.0.1", "127.1.2.3", "127.255.255.254", "::1",
        "::ffff:127.0.0.1", "::ffff:127.9.9.9"}) {
    EXPECT_TRUE(AllLoopback(Addresses({loopback}))) << loopback;
  }
  for (const char* other :
       {"0.0.0.0", "::", "10.0.0.1", "128.0.0.1", "126.255.255.255",
        "192.168.1.1", "::ffff:10.0.0.1", "::ffff:0.0.0.0", "::2", "fe80::1",
        "::127.0.0.1"}) {
    EXPECT_FALSE(AllLoopback(Addresses({other}))) << other;
  }
  EXPECT_TRUE(AllLoopback(Addresses({"127.0.0.1", "::1"})));
  EXPECT_FALSE(AllLoopback(Addresses({"127.0.0.1", "0.0.0.0"})));
  EXPECT_FALSE(AllLoopback(Addresses({"::1", "::"})));
  EXPECT_FALSE(AllLoopback(Addresses({"10.0.0.1", "127.0.0.1"})));
  EXPECT_FALSE(AllLoopback({}));  // nothing resolved: nothing proven
}

TEST(LoopbackHostTest, AddressTextIsNumeric) {
  EXPECT_EQ(AddressText(Address("127.0.0.1")), "127.0.0.1");
  EXPECT_EQ(AddressText(Address("::1")), "::1");
  EXPECT_EQ(AddressText(Address("0.0.0.0")), "0.0.0.0");
}

TEST(LoopbackHostTest, TheResolverGivesWhatAListenerWouldBind) {
  absl::StatusOr<std::vector<sockaddr_storage>> localhost =
      ResolveListenAddresses("localhost");
  ASSERT_TRUE(localhost.ok()) << localhost.status();
  EXPECT_FALSE(localhost->empty());
  EXPECT_TRUE(AllLoopback(*localhost));

  for (const char* numeric : {"127.0.0.1", "0.0.0.0", "::", "::1"}) {
    absl::StatusOr<std::vector<sockaddr_storage>> found =
        ResolveListenAddresses(numeric);
    ASSERT_TRUE(found.ok()) << numeric << ": " << found.status();
    ASSERT_FALSE(found->empty()) << numeric;
    for (const sockaddr_storage& a : *found) {
      EXPECT_EQ(AddressText(a), numeric);
    }
  }
  absl::StatusOr<std::vector<sockaddr_storage>> bracketed =
      ResolveListenAddresses("[::1]");
  ASSERT_TRUE(bracketed.ok()) << bracketed.status();
  EXPECT_TRUE(AllLoopback(*bracketed));
  // An empty host binds every interface (the wildcard).
  absl::StatusOr<std::vector<sockaddr_storage>> wildcard =
      ResolveListenAddresses("");
  ASSERT_TRUE(wildcard.ok()) << wildcard.status();
  EXPECT_FALSE(AllLoopback(*wildcard));
  // The .invalid top-level domain never resolves (RFC 6761).
  absl::StatusOr<std::vector<sockaddr_storage>> unknown =
      ResolveListenAddresses("127.0.0.1.cardref.invalid");
  EXPECT_FALSE(unknown.ok());
}

TEST(LoopbackHostTest, LoopbackIsJudgedOnTheAddressesNotTheSpelling) {
  EXPECT_TRUE(IsLoopbackHost("localhost"));
  EXPECT_TRUE(IsLoopbackHost("127.0.0.1"));
  EXPECT_TRUE(IsLoopbackHost("127.1"));  // inet_aton's short form
  EXPECT_TRUE(IsLoopbackHost("[::1]"));
  EXPECT_TRUE(IsLoopbackHost("::1"));
  // Names that look loopback but are not (or resolve to nothing known).
  EXPECT_FALSE(IsLoopbackHost("127.evil.invalid"));
  EXPECT_FALSE(IsLoopbackHost("127.0.0.1.cardref.invalid"));
  EXPECT_FALSE(IsLoopbackHost("localhost.cardref.invalid"));
  EXPECT_FALSE(IsLoopbackHost("0.0.0.0"));
  EXPECT_FALSE(IsLoopbackHost("0"));  // inet_aton: 0.0.0.0
  EXPECT_FALSE(IsLoopbackHost("::"));
  EXPECT_FALSE(IsLoopbackHost("[::]"));
  EXPECT_FALSE(IsLoopbackHost(""));
}

TEST(LoopbackHostTest, EveryListenerNeedsLoopbackOrACredential) {
  const absl::Status spoofed =
      CheckListenHost("--host", "127.evil.invalid", /*has_credential=*/false);
  EXPECT_EQ(spoofed.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(spoofed.message(),
              HasSubstr("refusing to listen on 127.evil.invalid without an "
                        "organiser credential"));
  EXPECT_THAT(spoofed.message(),
              HasSubstr("--host=127.evil.invalid: cannot resolve "
                        "127.evil.invalid"));
  const absl::Status everywhere =
      CheckListenHost("--metrics_host", "0.0.0.0", false);
  EXPECT_EQ(everywhere.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(everywhere.message(),
              HasSubstr("--metrics_host=0.0.0.0 resolves to 0.0.0.0, which "
                        "is not loopback"));
  EXPECT_THAT(everywhere.message(), HasSubstr("--organiser_token_file"));
  EXPECT_TRUE(CheckListenHost("--metrics_host", "0.0.0.0", true).ok());
  EXPECT_TRUE(CheckListenHost("--host", "localhost", false).ok());
  EXPECT_TRUE(CheckListenHost("--host", "::1", false).ok());
}

TEST(LoopbackHostTest, TheServerChecksBothItsListeners) {
  ServerOptions options;
  options.host = "127.evil.invalid";
  absl::Status st = CheckServerOptions(options);
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition) << st;
  EXPECT_THAT(st.message(), HasSubstr("--host=127.evil.invalid"));

  options.host = "localhost";
  options.metrics_port = 0;
  options.metrics_host = "0.0.0.0";
  st = CheckServerOptions(options);
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition) << st;
  EXPECT_THAT(st.message(), HasSubstr("--metrics_host=0.0.0.0"));
  options.metrics_host = "127.0.0.1.cardref.invalid";
  EXPECT_EQ(CheckServerOptions(options).code(),
            absl::StatusCode::kFailedPrecondition);

  // No metrics listener: its host does not matter.
  options.metrics_port = -1;
  options.metrics_host = "0.0.0.0";
  EXPECT_TRUE(CheckServerOptions(options).ok());
  // With the credential, any host.
  options.metrics_port = 0;
  options.host = "0.0.0.0";
  options.organiser_token = std::string(32, 'k');
  st = CheckServerOptions(options);
  EXPECT_TRUE(st.ok()) << st;
  EXPECT_THAT(std::string(st.message()), Not(HasSubstr("refusing")));
}

}  // namespace
}  // namespace cardref::grpc_service
