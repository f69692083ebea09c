// The web front as the referee starts it (referee/grpc/server.cc): HTTPS
// with the referee's own TLS certificate and key, the loopback rule of
// every listener, and a stop with the server.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "referee/grpc/server.h"
#include "tests/test_certificates.h"
#include "web/pages.h"
#include "web/referee_front.h"
#include "web/testing/http_client.h"

namespace cardref::web {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// A TCP connection to 127.0.0.1:port; -1 if refused.
int ConnectLoopback(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// GET `target` over TLS, trusting only `ca_pem` and checking the name
// "localhost": the whole answer, or "" if the handshake or its check fails.
std::string HttpsGet(int port, const std::string& ca_pem,
                     const std::string& target) {
  std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> ctx(
      SSL_CTX_new(TLS_client_method()), SSL_CTX_free);
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(
      BIO_new_mem_buf(ca_pem.data(), static_cast<int>(ca_pem.size())),
      BIO_free);
  X509* ca = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr);
  if (ca == nullptr) return "";
  X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx.get()), ca);
  X509_free(ca);
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  const int fd = ConnectLoopback(port);
  if (fd < 0) return "";
  std::unique_ptr<SSL, decltype(&SSL_free)> ssl(SSL_new(ctx.get()), SSL_free);
  SSL_set_fd(ssl.get(), fd);
  SSL_set_tlsext_host_name(ssl.get(), "localhost");
  SSL_set1_host(ssl.get(), "localhost");
  std::string answer;
  if (SSL_connect(ssl.get()) == 1) {
    const std::string request = absl::StrCat(
        "GET ", target, " HTTP/1.1\r\nHost: localhost\r\n\r\n");
    SSL_write(ssl.get(), request.data(), static_cast<int>(request.size()));
    char chunk[16384];
    int n;
    while ((n = SSL_read(ssl.get(), chunk, sizeof chunk)) > 0) {
      answer.append(chunk, static_cast<size_t>(n));
    }
  }
  ERR_clear_error();
  ::close(fd);
  return answer;
}

class RefereeWebTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing_util::FreshTestDir("referee_web_test_");
    options_.manager.log_dir = (dir_ / "logs").string();
    options_.front_end = RefereeFrontEnd(WebOptions());
  }

  std::string WriteOwnerOnly(const std::string& name, const std::string& text) {
    std::string path = (dir_ / name).string();
    FILE* f = std::fopen(path.c_str(), "w");
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    ::chmod(path.c_str(), 0600);  // a key others may read is refused
    return path;
  }

  std::filesystem::path dir_;
  grpc_service::ServerOptions options_;
};

TEST_F(RefereeWebTest, ServesHttpsWithTheRefereesCertificate) {
  const testing_tls::KeyAndCertificate made =
      testing_tls::MakeSelfSigned("localhost");
  ASSERT_FALSE(made.certificate_pem.empty());
  options_.tls.cert_file = WriteOwnerOnly("server.crt", made.certificate_pem);
  options_.tls.key_file = WriteOwnerOnly("server.key", made.private_key_pem);
  absl::StatusOr<std::unique_ptr<grpc_service::RefereeServer>> server =
      grpc_service::RefereeServer::Start(options_);
  ASSERT_TRUE(server.ok()) << server.status();
  const grpc_service::FrontEnd* front = (*server)->front_end();
  ASSERT_NE(front, nullptr);
  EXPECT_TRUE(front->tls());
  const int port = front->port();
  ASSERT_GT(port, 0);
  const std::string index = HttpsGet(port, made.certificate_pem, "/");
  EXPECT_THAT(index, StartsWith("HTTP/1.1 200"));
  EXPECT_THAT(index, HasSubstr(absl::StrCat("Content-Security-Policy: ",
                                            kContentSecurityPolicy)));
  EXPECT_THAT(index, HasSubstr("<h1>Matches</h1>"));
  EXPECT_THAT(HttpsGet(port, made.certificate_pem, "/api/matches"),
              HasSubstr("{\"matches\":[]}"));
  // A certificate the client does not trust: no answer.
  const testing_tls::KeyAndCertificate other =
      testing_tls::MakeSelfSigned("localhost");
  EXPECT_EQ(HttpsGet(port, other.certificate_pem, "/"), "");
  // Plain HTTP on the HTTPS port gets no page.
  const testing::Reply plain = testing::Fetch(port, "/");
  EXPECT_NE(plain.status, 200);
  EXPECT_THAT(plain.body, ::testing::Not(HasSubstr("Matches")));
  // Stopped with the server.
  (*server)->Shutdown(absl::Seconds(1));
  EXPECT_EQ(ConnectLoopback(port), -1);
}

TEST_F(RefereeWebTest, PlaintextWithoutTls) {
  absl::StatusOr<std::unique_ptr<grpc_service::RefereeServer>> server =
      grpc_service::RefereeServer::Start(options_);
  ASSERT_TRUE(server.ok()) << server.status();
  ASSERT_NE((*server)->front_end(), nullptr);
  EXPECT_FALSE((*server)->front_end()->tls());
  EXPECT_EQ(testing::Fetch((*server)->front_end()->port(), "/").status, 200);
  options_.front_end.reset();
  absl::StatusOr<std::unique_ptr<grpc_service::RefereeServer>> without =
      grpc_service::RefereeServer::Start(options_);
  ASSERT_TRUE(without.ok()) << without.status();
  EXPECT_EQ((*without)->front_end(), nullptr);
}

TEST_F(RefereeWebTest, LoopbackOnlyWithoutAnOrganiserCredential) {
  options_.front_end = RefereeFrontEnd([] {
    WebOptions web;
    web.host = "0.0.0.0";
    return web;
  }());
  const absl::Status refused = grpc_service::CheckServerOptions(options_);
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(refused.message(), HasSubstr("--http_host"));
  EXPECT_FALSE(grpc_service::RefereeServer::Start(options_).ok());
  options_.organiser_token = std::string(32, 'k');
  EXPECT_TRUE(grpc_service::CheckServerOptions(options_).ok());
  options_.front_end->host = "127.0.0.1";
  options_.organiser_token.reset();
  EXPECT_TRUE(grpc_service::CheckServerOptions(options_).ok());
}

}  // namespace
}  // namespace cardref::web
