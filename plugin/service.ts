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
import { checkResponseBytes, readCheckRequest, readDiffRequest, type RawCheckRequest, type RawDiffRequest } from "./raw-requests";
import type { Props } from "../provider/protocol";

const toJs = (struct: Struct | undefined): Props => (struct?.toJavaScript() ?? {}) as Props;
// `undefined` cannot cross (Struct rejects it): JSON drops it, as a provider's outputs never hold one on purpose.
const toStruct = (props: Props): Struct => Struct.fromJavaScript(JSON.parse(JSON.stringify(props)));

// Check and Diff are read from their bytes (`./raw-requests.ts`).
export const resourceProviderDefinition: typeof ResourceProviderService = {
  ...ResourceProviderService,
  check: {
    ...ResourceProviderService.check,
    requestDeserialize: (bytes: Buffer) => readCheckRequest(bytes) as unknown as proto.CheckRequest,
    responseSerialize: (response: proto.CheckResponse | Buffer) =>
      Buffer.isBuffer(response) ? response : ResourceProviderService.check.responseSerialize(response),
  },
  diff: {
    ...ResourceProviderService.diff,
    requestDeserialize: (bytes: Buffer) => readDiffRequest(bytes) as unknown as proto.DiffRequest,
  },
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

    checkConfig: unary((request: proto.CheckRequest) => {
      const { inputs, failures } = provider.checkConfig(toJs(request.getOlds()), toJs(request.getNews()), request.getUrn());
      return checkResponse(inputs, failures);
    }),
    diffConfig: resourceCall(async (request: proto.DiffRequest) =>
      diffResponse(provider.diffConfig(toJs(request.getOlds()), toJs(request.getNews()), request.getId())),
    ),
    configure: unary((request: proto.ConfigureRequest) => {
      provider.configure(toJs(request.getArgs()), new Map(request.getVariablesMap().toArray()), request.getId());
      // Secrets stay secrets: inputs arrive wrapped and the provider marks its secret outputs
      // itself. No provider-side preview: the engine answers a preview's Create and Update with
      // the inputs, as it does for the dynamic host.
      return new proto.ConfigureResponse().setAcceptsecrets(true).setAcceptresources(false).setSupportspreview(false);
    }),

    check: resourceCall(async (raw: proto.CheckRequest) => {
      const request = raw as unknown as RawCheckRequest;
      const { inputs, failures, asSent } = await provider.check(request.urn, request.olds, request.news);
      return (asSent ? checkResponseBytes(request.newsBytes, failures) : checkResponse(inputs, failures)) as proto.CheckResponse;
    }),
    diff: resourceCall(async (raw: proto.DiffRequest) => {
      const request = raw as unknown as RawDiffRequest;
      return diffResponse(await provider.diff(request.urn, request.id, request.olds, request.news));
    }),
    create: resourceCall(async (request: proto.CreateRequest) => {
      // Not called in a preview (supportsPreview is false); answered like the engine would, should it be.
      if (request.getPreview()) return new proto.CreateResponse().setProperties(request.getProperties());
      const created = await provider.create(request.getUrn(), toJs(request.getProperties()));
      return new proto.CreateResponse().setId(created.id).setProperties(toStruct(created.properties));
    }),
    read: resourceCall(async (request: proto.ReadRequest) => {
      const read = await provider.read(request.getUrn(), request.getId(), toJs(request.getProperties()), toJs(request.getInputs()));
      return new proto.ReadResponse().setId(read.id).setProperties(toStruct(read.properties)).setInputs(toStruct(read.inputs));
    }),
    update: resourceCall(async (request: proto.UpdateRequest) => {
      if (request.getPreview()) return new proto.UpdateResponse().setProperties(request.getNews());
      const updated = await provider.update(request.getUrn(), request.getId(), toJs(request.getOlds()), toJs(request.getNews()));
      return new proto.UpdateResponse().setProperties(toStruct(updated.properties));
    }),
    delete: resourceCall(async (request: proto.DeleteRequest) => {
      await provider.delete(request.getUrn(), request.getId(), toJs(request.getProperties()));
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
