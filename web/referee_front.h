// The web front as the referee's front end (grpc_service::FrontEndOptions):
// RefereeServer::Start starts it with its MatchManager and TLS pair (HTTPS
// when the referee has TLS), after checking its host like every listener of
// the referee, and stops it with itself. It asks the manager's twin rule
// (ManagerPublicView) before it shows a match's events.
#ifndef CARDREF_WEB_REFEREE_FRONT_H_
#define CARDREF_WEB_REFEREE_FRONT_H_

#include "referee/grpc/server.h"
#include "web/web_front.h"

namespace cardref::web {

// `options`' host is the front end's to check and bind (FrontEndOptions::
// host), its TLS pair replaced by the referee's.
grpc_service::FrontEndOptions RefereeFrontEnd(WebOptions options);

}  // namespace cardref::web

#endif  // CARDREF_WEB_REFEREE_FRONT_H_
