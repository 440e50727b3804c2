/**
 * Compile-time checks that each resource class declares exactly the outputs its state
 * schema records (the classes spell their types out, so the package root's declarations
 * never reach zod's).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { MessageBatch } from "./message-batch";
import type { MessageBatchState } from "./message-batch-schema";
import type { WebhookEndpoint } from "./webhook-endpoint";
import type { WebhookEndpointState } from "./webhook-endpoint-schema";

type Unwrapped<R, K extends keyof R> = { [P in K]: R[P] extends pulumi.Output<infer T> ? T : never };
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

export type WebhookEndpointOutputsMatchState = Assert<Same<Unwrapped<WebhookEndpoint, keyof WebhookEndpointState>, WebhookEndpointState>>;
export type MessageBatchOutputsMatchState = Assert<Same<Unwrapped<MessageBatch, keyof MessageBatchState>, MessageBatchState>>;
