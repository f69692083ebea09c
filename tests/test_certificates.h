// Test support: a self-signed certificate made on the spot with OpenSSL's
// libcrypto, so TLS tests need no files from anywhere.
#ifndef CARDREF_TESTS_TEST_CERTIFICATES_H_
#define CARDREF_TESTS_TEST_CERTIFICATES_H_

#include <string>

namespace cardref::testing_tls {

struct KeyAndCertificate {
  std::string private_key_pem;
  std::string certificate_pem;
};

// An EC P-256 key and a self-signed X.509 v3 certificate for `common_name`,
// valid for a day, with subjectAltName DNS:<common_name>, DNS:localhost and
// IP:127.0.0.1. Empty strings if OpenSSL fails.
KeyAndCertificate MakeSelfSigned(const std::string& common_name);

}  // namespace cardref::testing_tls

#endif  // CARDREF_TESTS_TEST_CERTIFICATES_H_
