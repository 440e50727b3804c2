/** Error messages: field errors are rendered one way everywhere; no network. */
import {
  ConflictError,
  InvalidRequestError,
  PartialSendError,
  ResponseSchemaError,
  ValidationError,
  errorFromResponse,
  isConflictError,
  isInvalidRequestError,
  isPartialSendError,
} from "../../errors";
import { describeFieldErrors, type FieldErrors } from "../../schemas";

const errors: FieldErrors = { "messages[0].tos[0]": ["expected an E.164 phone number"], stream: ["expected a string", "too short"] };
const indented = describeFieldErrors(errors, { indent: "  " });
const request = { method: "POST", path: "/v1/message_batches", requestId: "req_1" };

describe("field errors in messages", () => {
  it("ValidationError lists them under a heading", () => {
    expect(new ValidationError("message batch", errors).message).toBe(`Invalid message batch:\n${indented}`);
  });

  it("ResponseSchemaError lists them, then the id the service returned", () => {
    expect(new ResponseSchemaError(request, errors, "we_1").message).toBe(
      `POST /v1/message_batches: unexpected response body:\n${indented}\nthe service did accept the call and returned id we_1`,
    );
  });

  it("ApiError lists the problem's field errors after its detail and before the request id", () => {
    const error = errorFromResponse(400, request, { title: "validation_failed", detail: "2 invalid fields", errors });
    expect(error.message).toBe(
      `POST /v1/message_batches failed with HTTP 400 (validation_failed)\n2 invalid fields\n${indented}\nrequest id: req_1`,
    );
  });

  it("ApiError without field errors has no empty line for them", () => {
    expect(errorFromResponse(500, request, { title: "internal_error", errors: {} }).message).toBe(
      "POST /v1/message_batches failed with HTTP 500 (internal_error)\nrequest id: req_1",
    );
  });
});

describe("409 and 422 for idempotency keys", () => {
  it("maps 422 idempotency_key_reused (same key, another body) to InvalidRequestError", () => {
    const error = errorFromResponse(422, request, { title: "idempotency_key_reused" });
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(isInvalidRequestError(error)).toBe(true);
  });

  it("maps 409 idempotency_key_in_use (surfacing once retries run out) to ConflictError", () => {
    const error = errorFromResponse(409, request, { title: "idempotency_key_in_use" }, 1000);
    expect(error).toBeInstanceOf(ConflictError);
    expect(isConflictError(error)).toBe(true);
  });
});

describe("PartialSendError", () => {
  const sent = [{ index: 0, id: "msba_1", count: 1000, idempotencyKey: "run-7-0" }];

  it("carries the idempotency key prefix and says how to resume with it", () => {
    const error = new PartialSendError(sent, 1, "run-7", new Error("HTTP 503"));
    expect(isPartialSendError(error)).toBe(true);
    expect(error.idempotencyKeyPrefix).toBe("run-7");
    expect(error.sent).toBe(sent);
    expect(error.failedIndex).toBe(1);
    expect(error.message).toBe(
      "sending stopped at chunk 1: 1000 message(s) in 1 chunk(s) were accepted before it failed: HTTP 503\n" +
        'resume with idempotencyKeyPrefix "run-7" (same messages, same batchSize) to send nothing twice',
    );
    expect((error.cause as Error).message).toBe("HTTP 503");
  });
});
