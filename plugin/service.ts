/**
 * `pulumirpc.ResourceProvider`, served by the plugin itself: `@pulumi/pulumi/provider`'s server (v3.239.0) answers Configure
 * without reading the config and leaves CheckConfig and DiffConfig unimplemented, so a provider behind it never gets its API key.
 * RPCs not offered answer UNIMPLEMENTED, which the engine handles for the optional ones.
 */
import * as grpc from "@grpc/grpc-js";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { ResourceProviderService, type IResourceProviderServer } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { InitFailure, MessagingProvider } from "./provider";
import * as requests from "./requests";
import type { Props } from "../provider/protocol";

// `undefined` cannot cross (Struct rejects it): JSON drops it, as a provider's outputs never hold one on purpose.
const toStruct = (props: Props): Struct => Struct.fromJavaScript(JSON.parse(JSON.stringify(props)));

/**
 * Every request that carries property values is read by the plugin's one reader (`./requests.ts`), and an answer may be bytes
 * written by hand (a request's own value sent back).
 */
function readBy<Rpc extends { requestDeserialize: unknown; responseSerialize: (response: never) => Buffer }>(
  rpc: Rpc,
  read: (bytes: Buffer) => unknown,
): Rpc {
  return {
    ...rpc,
    requestDeserialize: read,
    responseSerialize: (response: Parameters<Rpc["responseSerialize"]>[0] | Buffer) =>
      Buffer.isBuffer(response) ? response : rpc.responseSerialize(response as never),
  };
}

export const resourceProviderDefinition: typeof ResourceProviderService = {
  ...ResourceProviderService,
  checkConfig: readBy(ResourceProviderService.checkConfig, requests.readCheckRequest),
  diffConfig: readBy(ResourceProviderService.diffConfig, requests.readDiffRequest),
  configure: readBy(ResourceProviderService.configure, requests.readConfigureRequest),
  check: readBy(ResourceProviderService.check, requests.readCheckRequest),
  diff: readBy(ResourceProviderService.diff, requests.readDiffRequest),
  create: readBy(ResourceProviderService.create, requests.readCreateRequest),
  read: readBy(ResourceProviderService.read, requests.readReadRequest),
  update: readBy(ResourceProviderService.update, requests.readUpdateRequest),
  delete: readBy(ResourceProviderService.delete, requests.readDeleteRequest),
};

/** A gRPC error for a failed call; an init failure carries its details as the dynamic host sends them. */
function toServiceError(error: unknown): Partial<grpc.ServiceError> {
  const message = error instanceof Error ? error.message : String(error);
  const metadata = new grpc.Metadata();
  if (error instanceof InitFailure) {
    const detail = new proto.ErrorResourceInitFailed();
    detail.setId(error.id);
    detail.setProperties(toStruct(error.properties));
    detail.setReasonsList(error.reasons);
    const any = new Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(message);
    status.addDetails(any);
    // The engine reads the details from this trailer.
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, details: message, metadata };
}

function unary<Req, Res>(handle: (request: Req) => Promise<Res> | Res): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    Promise.resolve()
      .then(() => handle(call.request))
      .then(
        (response) => callback(null, response),
        (error: unknown) => {
          const serviceError = toServiceError(error);
          callback(serviceError, null, serviceError.metadata);
        },
      );
  };
}

function unimplemented(rpc: string, why: string): grpc.handleUnaryCall<unknown, never> {
  return (_call, callback) =>
    callback({ code: grpc.status.UNIMPLEMENTED, details: `The messaging provider does not implement ${rpc}: ${why}` }, null);
}

export function resourceProviderService(provider: MessagingProvider, version: string, schema: () => string): IResourceProviderServer {
  // A resource's call is answered once the lines it logged reached the engine: the engine may stop the plugin right after.
  const resourceCall = <Req, Res>(handle: (request: Req) => Promise<Res>): grpc.handleUnaryCall<Req, Res> =>
    unary(async (request: Req) => {
      try {
        return await handle(request);
      } finally {
        await provider.settled();
      }
    });
  return {
    handshake: unimplemented("Handshake", "the engine then takes the protocol from Configure's answer"),
    parameterize: unimplemented("Parameterize", "the package has no parameters"),
    invoke: unimplemented("Invoke", "the package has no functions"),
    call: unimplemented("Call", "the package has no methods"),
    construct: unimplemented("Construct", "the package has no components"),
    getMapping: unimplemented("GetMapping", "there is no Terraform mapping"),
    getMappings: unimplemented("GetMappings", "there is no Terraform mapping"),
    list: (call) => call.emit("error", { code: grpc.status.UNIMPLEMENTED, details: "The messaging provider does not implement List" }),

    getPluginInfo: unary(() => new PluginInfo().setVersion(version)),
    getSchema: unary((request: proto.GetSchemaRequest) => {
      if (request.getVersion() !== 0) throw new Error(`unsupported schema version ${request.getVersion()}`);
      return new proto.GetSchemaResponse().setSchema(schema());
    }),
    attach: unary(() => new Empty()),
    cancel: unary(() => new Empty()),

    // The requests below come from `./requests.ts`'s readers (see `resourceProviderDefinition`), not as google-protobuf's classes.
    checkConfig: unary((raw: proto.CheckRequest) => {
      const request = raw as unknown as requests.CheckRequest;
      const { inputs, failures } = provider.checkConfig(request.olds, request.news, request.urn);
      return checkResponse(inputs, failures);
    }),
    diffConfig: resourceCall(async (raw: proto.DiffRequest) => {
      const request = raw as unknown as requests.DiffRequest;
      return diffResponse(provider.diffConfig(request.olds, request.news, request.id));
    }),
    configure: unary((raw: proto.ConfigureRequest) => {
      const request = raw as unknown as requests.ConfigureRequest;
      provider.configure(request.args, request.variables, request.id);
      // Secrets stay secrets: inputs arrive wrapped and the provider marks its secret outputs
      // itself. No provider-side preview: the engine answers a preview's Create and Update with
      // the inputs, as it does for the dynamic host.
      return new proto.ConfigureResponse().setAcceptsecrets(true).setAcceptresources(false).setSupportspreview(false);
    }),

    check: resourceCall(async (raw: proto.CheckRequest) => {
      const request = raw as unknown as requests.CheckRequest;
      const { inputs, failures, asSent } = await provider.check(request.urn, request.olds, request.news);
      return (asSent ? requests.checkResponseBytes(request.newsBytes, failures) : checkResponse(inputs, failures)) as proto.CheckResponse;
    }),
    diff: resourceCall(async (raw: proto.DiffRequest) => {
      const request = raw as unknown as requests.DiffRequest;
      return diffResponse(await provider.diff(request.urn, request.id, request.olds, request.news));
    }),
    create: resourceCall(async (raw: proto.CreateRequest) => {
      const request = raw as unknown as requests.CreateRequest;
      // Not called in a preview (supportsPreview is false); answered like the engine would, should it be.
      if (request.preview) return requests.previewCreateBytes(request.propertiesBytes) as unknown as proto.CreateResponse;
      const created = await provider.create(request.urn, request.properties);
      return new proto.CreateResponse().setId(created.id).setProperties(toStruct(created.properties));
    }),
    read: resourceCall(async (raw: proto.ReadRequest) => {
      const request = raw as unknown as requests.ReadRequest;
      const read = await provider.read(request.urn, request.id, request.properties);
      return requests.readResponseBytes(read.id, read.properties, request.inputsBytes) as unknown as proto.ReadResponse;
    }),
    update: resourceCall(async (raw: proto.UpdateRequest) => {
      const request = raw as unknown as requests.UpdateRequest;
      if (request.preview) return requests.previewUpdateBytes(request.newsBytes) as unknown as proto.UpdateResponse;
      const updated = await provider.update(request.urn, request.id, request.olds, request.news);
      return new proto.UpdateResponse().setProperties(toStruct(updated.properties));
    }),
    delete: resourceCall(async (raw: proto.DeleteRequest) => {
      const request = raw as unknown as requests.DeleteRequest;
      await provider.delete(request.urn, request.id, request.properties);
      return new Empty();
    }),
  };
}

function checkResponse(inputs: Props, failures: Array<{ property: string; reason: string }>): proto.CheckResponse {
  const response = new proto.CheckResponse().setInputs(toStruct(inputs));
  response.setFailuresList(failures.map(({ property, reason }) => new proto.CheckFailure().setProperty(property).setReason(reason)));
  return response;
}

function diffResponse(diff: { changes: boolean; replaces: string[]; deleteBeforeReplace: boolean }): proto.DiffResponse {
  const { DIFF_SOME, DIFF_NONE } = proto.DiffResponse.DiffChanges;
  return new proto.DiffResponse()
    .setChanges(diff.changes ? DIFF_SOME : DIFF_NONE)
    .setReplacesList(diff.replaces)
    .setDeletebeforereplace(diff.deleteBeforeReplace);
}
