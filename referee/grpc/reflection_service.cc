#include "referee/grpc/reflection_service.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.pb.h"
#include "referee/grpc/grpc_status.h"
#include "referee/service/text_limits.h"

namespace cardref::grpc_service {

namespace {

using ::google::protobuf::Descriptor;
using ::google::protobuf::FieldDescriptor;
using ::google::protobuf::FileDescriptor;
using ::grpc::reflection::v1alpha::ServerReflectionRequest;
using ::grpc::reflection::v1alpha::ServerReflectionResponse;

// One stream: read a request, write its answer, read the next.
class ReflectionStream
    : public grpc::ServerBidiReactor<ServerReflectionRequest,
                                     ServerReflectionResponse> {
 public:
  ReflectionStream(ReflectionService* service,
                   grpc::CallbackServerContext* context,
                   service::StreamSlot slot)
      : service_(service), context_(context), slot_(std::move(slot)) {
    service_->metrics()->StreamOpened("reflection");
    StartRead(&request_);
  }

  void OnReadDone(bool ok) override {
    if (!ok) {  // the client is done (or gone)
      Finish(grpc::Status::OK);
      return;
    }
    if (CallGate* gate = service_->gate(); gate != nullptr) {
      if (absl::Status st = gate->Admit(*context_, ""); !st.ok()) {
        Finish(ToGrpcStatus(st));
        return;
      }
    }
    response_.Clear();
    service_->Answer(request_, &response_);
    StartWrite(&response_);
  }

  void OnWriteDone(bool ok) override {
    if (!ok) {
      Finish(grpc::Status(grpc::StatusCode::UNAVAILABLE,
                          "the stream broke while writing"));
      return;
    }
    request_.Clear();
    StartRead(&request_);
  }

  void OnDone() override {
    service_->metrics()->StreamClosed("reflection");
    delete this;
  }

 private:
  ReflectionService* const service_;
  grpc::CallbackServerContext* const context_;
  service::StreamSlot slot_;  // given back when the stream is done
  // One of each at a time: a read starts only after the write is done.
  ServerReflectionRequest request_;
  ServerReflectionResponse response_;
};

// A reflection reactor refused before its first read.
class RefusedStream
    : public grpc::ServerBidiReactor<ServerReflectionRequest,
                                     ServerReflectionResponse> {
 public:
  explicit RefusedStream(const absl::Status& status) {
    Finish(ToGrpcStatus(status));
  }
  void OnDone() override { delete this; }
};

void SetError(grpc::StatusCode code, std::string message,
              ServerReflectionResponse* response) {
  response->mutable_error_response()->set_error_code(code);
  response->mutable_error_response()->set_error_message(std::move(message));
}

std::string Quoted(const std::string& name) {
  return absl::StrCat("\"", service::QuotePrefix(name), "\"");
}

}  // namespace

ReflectionService::ReflectionService(std::vector<std::string> services,
                                     CallGate* gate,
                                     service::MetricsSink* metrics)
    : services_(std::move(services)),
      gate_(gate),
      metrics_(metrics),
      pool_(google::protobuf::DescriptorPool::generated_pool()) {}

grpc::ServerBidiReactor<ServerReflectionRequest, ServerReflectionResponse>*
ReflectionService::ServerReflectionInfo(grpc::CallbackServerContext* context) {
  service::StreamSlot slot;
  if (gate_ != nullptr) {
    absl::StatusOr<service::StreamSlot> acquired =
        gate_->OpenServiceStream(*context);
    if (!acquired.ok()) return new RefusedStream(acquired.status());
    slot = *std::move(acquired);
  }
  return new ReflectionStream(this, context, std::move(slot));
}

const std::string& ReflectionService::Serialized(const FileDescriptor* file) {
  absl::MutexLock lock(&mu_);
  auto [it, inserted] = serialized_.try_emplace(file);
  if (inserted) {
    google::protobuf::FileDescriptorProto proto;
    file->CopyTo(&proto);
    proto.SerializeToString(&it->second);
  }
  return it->second;
}

void ReflectionService::AddFileAndImports(
    const FileDescriptor* file, ServerReflectionResponse* response) {
  // The file first, then every file it imports, directly or not, once
  // each: a client needs them all to build the file's descriptors.
  absl::flat_hash_set<const FileDescriptor*> seen = {file};
  std::vector<const FileDescriptor*> queue = {file};
  auto* files = response->mutable_file_descriptor_response();
  for (size_t i = 0; i < queue.size(); ++i) {
    files->add_file_descriptor_proto(Serialized(queue[i]));
    for (int d = 0; d < queue[i]->dependency_count(); ++d) {
      const FileDescriptor* import = queue[i]->dependency(d);
      if (seen.insert(import).second) queue.push_back(import);
    }
  }
}

void ReflectionService::Answer(const ServerReflectionRequest& request,
                               ServerReflectionResponse* response) {
  // Echoing the request back is the protocol's; it is at most a request's
  // size (Limits::max_request_bytes).
  response->set_valid_host(request.host());
  *response->mutable_original_request() = request;
  switch (request.message_request_case()) {
    case ServerReflectionRequest::kListServices:
      for (const std::string& name : services_) {
        response->mutable_list_services_response()->add_service()->set_name(
            name);
      }
      return;
    case ServerReflectionRequest::kFileByFilename: {
      const FileDescriptor* file =
          pool_->FindFileByName(request.file_by_filename());
      if (file == nullptr) {
        SetError(grpc::StatusCode::NOT_FOUND,
                 absl::StrCat("no file ", Quoted(request.file_by_filename()),
                              " in this referee's API"),
                 response);
        return;
      }
      AddFileAndImports(file, response);
      return;
    }
    case ServerReflectionRequest::kFileContainingSymbol: {
      const FileDescriptor* file =
          pool_->FindFileContainingSymbol(request.file_containing_symbol());
      if (file == nullptr) {
        SetError(grpc::StatusCode::NOT_FOUND,
                 absl::StrCat("no symbol ",
                              Quoted(request.file_containing_symbol()),
                              " in this referee's API (a fully qualified "
                              "name, such as cardref.v1.Referee)"),
                 response);
        return;
      }
      AddFileAndImports(file, response);
      return;
    }
    case ServerReflectionRequest::kFileContainingExtension: {
      const auto& wanted = request.file_containing_extension();
      const Descriptor* type =
          pool_->FindMessageTypeByName(wanted.containing_type());
      const FieldDescriptor* extension =
          type == nullptr
              ? nullptr
              : pool_->FindExtensionByNumber(type, wanted.extension_number());
      if (extension == nullptr) {
        SetError(grpc::StatusCode::NOT_FOUND,
                 absl::StrCat("no extension ", wanted.extension_number(),
                              " of ", Quoted(wanted.containing_type()),
                              " in this referee's API"),
                 response);
        return;
      }
      AddFileAndImports(extension->file(), response);
      return;
    }
    case ServerReflectionRequest::kAllExtensionNumbersOfType: {
      const Descriptor* type =
          pool_->FindMessageTypeByName(request.all_extension_numbers_of_type());
      if (type == nullptr) {
        SetError(grpc::StatusCode::NOT_FOUND,
                 absl::StrCat("no message type ",
                              Quoted(request.all_extension_numbers_of_type()),
                              " in this referee's API"),
                 response);
        return;
      }
      std::vector<const FieldDescriptor*> extensions;
      pool_->FindAllExtensions(type, &extensions);
      auto* numbers = response->mutable_all_extension_numbers_response();
      numbers->set_base_type_name(type->full_name());
      for (const FieldDescriptor* e : extensions) {
        numbers->add_extension_number(e->number());
      }
      return;
    }
    case ServerReflectionRequest::MESSAGE_REQUEST_NOT_SET:
      break;
  }
  SetError(grpc::StatusCode::INVALID_ARGUMENT,
           "the request asks nothing: set one of file_by_filename, "
           "file_containing_symbol, file_containing_extension, "
           "all_extension_numbers_of_type or list_services",
           response);
}

}  // namespace cardref::grpc_service
