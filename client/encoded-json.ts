/**
 * A JSON body already written, sent byte for byte: a `MessageBatch` sends each message as the canonical text its call's key was
 * computed from, so a key always carries the same bytes (a service answers the same key with another body by refusing it).
 */
export class EncodedJson {
  constructor(readonly text: string) {}

  /** A batch request of messages given as JSON texts, in the client's own envelope: `{"stream":…,"messages":[…]}`. */
  static batch(stream: string, messages: readonly string[]): EncodedJson {
    return new EncodedJson(`{"stream":${JSON.stringify(stream)},"messages":[${messages.join(",")}]}`);
  }
}
