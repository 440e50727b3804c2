import { z } from "zod";
import { MessagingEvent } from "../../schemas";

export const RecordedEventSchema = z.object({
  /** The event as delivered (basic format). */
  event: MessagingEvent,
  deliveryIds: z.array(z.string()).readonly(),
});
/** An event emitted through the emulator. */
export type RecordedEvent = Readonly<z.output<typeof RecordedEventSchema>>;
