import { z } from "zod";
import { WebhookEndpointCreate, WebhookEndpointObject } from "../../schemas";
import { wireNameOf } from "../../schemas/field-meta";

type Present<S> = { [K in keyof S]: S[K] extends z.ZodOptional<z.ZodNullable<infer T>> ? T : S[K] };
function present<S extends z.ZodRawShape>(shape: S): Present<S> {
  const unwrapped = (field: z.ZodType): z.ZodType =>
    field instanceof z.ZodOptional && field.unwrap() instanceof z.ZodNullable
      ? ((field.unwrap() as z.ZodNullable).unwrap() as z.ZodType)
      : field;
  return Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, unwrapped(field as z.ZodType)])) as unknown as Present<S>;
}

type CreateShape = typeof WebhookEndpointCreate.shape;
type WireShape = typeof WebhookEndpointObject.shape;
// The type knows the optional create fields named alike in the object; one renamed on the wire (`.meta({ wireName })`) is
// nullable all the same at run time, and typed as the object's field.
type OptionalCreateKey = Extract<
  { [K in keyof CreateShape]: CreateShape[K] extends z.ZodOptional ? K : never }[keyof CreateShape],
  keyof WireShape
>;

// An optional create field not given is null in the record, under its wire name.
const optionalCreateFields = Object.fromEntries(
  Object.entries(WebhookEndpointCreate.shape)
    .filter(([, field]) => field instanceof z.ZodOptional)
    .map(([key]) => wireNameOf(WebhookEndpointCreate, key))
    .map((wireName) => [wireName, (WebhookEndpointObject.shape[wireName as keyof WireShape] as z.ZodOptional).unwrap()]),
) as unknown as { [K in OptionalCreateKey]: ReturnType<WireShape[K]["unwrap"]> };

export const EmulatedWebhookEndpointSchema = z.object({ ...present(WebhookEndpointObject.shape), ...optionalCreateFields });
/**
 * A webhook endpoint as the emulator records it: every field of spec §2.2 present, an optional
 * create field null when not given. The client's type requires fewer: a real service may leave some out.
 */
export type EmulatedWebhookEndpoint = Readonly<z.output<typeof EmulatedWebhookEndpointSchema>>;
