import { z } from "zod";
import { WebhookEndpointCreate, WebhookEndpointObject } from "../../schemas";

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
type OptionalCreateKey = { [K in keyof CreateShape]: CreateShape[K] extends z.ZodOptional ? K : never }[keyof CreateShape];

const optionalCreateFields = Object.fromEntries(
  Object.entries(WebhookEndpointCreate.shape)
    .filter(([, field]) => field instanceof z.ZodOptional)
    .map(([key]) => [key, (WebhookEndpointObject.shape[key as keyof WireShape] as z.ZodOptional).unwrap()]),
) as unknown as { [K in OptionalCreateKey]: ReturnType<WireShape[K]["unwrap"]> };

export const EmulatedWebhookEndpointSchema = z.object({ ...present(WebhookEndpointObject.shape), ...optionalCreateFields });
/**
 * A webhook endpoint as the emulator records it: every field of spec §2.2 present, an optional
 * create field null when not given. The client's type requires fewer: a real service may leave some out.
 */
export type EmulatedWebhookEndpoint = Readonly<z.output<typeof EmulatedWebhookEndpointSchema>>;
