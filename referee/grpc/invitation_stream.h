// WatchInvitations: a bot's invitations, pushed as the organiser invites
// its entrant (service/invitation_board.h decides what each stream is due;
// this only writes it). The first message says what the referee granted;
// the stream ends when the credential is revoked or the referee stops.
#ifndef CARDREF_REFEREE_GRPC_INVITATION_STREAM_H_
#define CARDREF_REFEREE_GRPC_INVITATION_STREAM_H_

#include "cardref/v1/referee.pb.h"
#include "grpcpp/grpcpp.h"
#include "referee/service/match_manager.h"

namespace cardref::grpc_service {

// Opens a stream for `request` on `manager`'s invitation board, or a
// stream that ends at once with the refusal (MatchManager::OpenInvitations).
grpc::ServerWriteReactor<v1::InvitationEvent>* NewInvitationStream(
    service::MatchManager* manager, const v1::WatchInvitationsRequest& request);

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_INVITATION_STREAM_H_
