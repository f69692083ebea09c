// What every front of web/ answers with (docs/web.md, "Security"): the
// security headers of every answer, HTML and JSON answers, JSON errors, and
// the query string's parameters. The referee's match front (routes.h), the
// event front (event/) and the ladder front (ladder/) share them.
#ifndef CARDREF_WEB_HTTP_ANSWERS_H_
#define CARDREF_WEB_HTTP_ANSWERS_H_

#include <map>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"
#include "web/http_server.h"

namespace cardref::web {

// The Content-Security-Policy and the other headers of every answer.
void AddSecurityHeaders(HttpResponse* response);

HttpAnswer TextAnswer(int status, std::string content_type, std::string body,
                      const char* cache = "no-store");
HttpAnswer HtmlAnswer(int status, std::string page);
// ASCII JSON (match_json.h's JsonText).
HttpAnswer JsonAnswer(int status, const nlohmann::json& value);
// {"error": {"code": STATUS, "message": MESSAGE}}.
HttpAnswer JsonErrorAnswer(int status, absl::string_view message);
// 405 with `Allow: GET, HEAD`: the fronts have no action over HTTP.
HttpAnswer MethodNotAllowed();
bool IsReadMethod(const std::string& method);
// An /assets/ file, or 404.
HttpAnswer AssetAnswer(const std::string& name);

// The HTTP status of an absl::Status (404, 400, 403, 429, 503, else 500).
int HttpStatusOf(const absl::Status& status);

// application/x-www-form-urlencoded parameters (the last of a name wins);
// INVALID_ARGUMENT for a bad escape.
[[nodiscard]] absl::StatusOr<std::map<std::string, std::string>> ParseQuery(
    absl::string_view query);

// The credential of `Authorization: Bearer <credential>`; empty if the
// header is absent or of another scheme.
std::string BearerCredential(const HttpRequest& request);

}  // namespace cardref::web

#endif  // CARDREF_WEB_HTTP_ANSWERS_H_
