import { z } from "zod";

/** E.164: `+`, then 7–15 digits, the first 1–9. */
export const E164_PATTERN = /^\+[1-9][0-9]{6,14}$/;

/** A recipient phone number in E.164 form. The spec shows only `+254…` numbers; any country is accepted. */
export const PhoneNumber = z
  .string()
  .regex(E164_PATTERN, { error: "expected an E.164 phone number: '+' then 7–15 digits, the first 1–9 (e.g. +254712345678)" });
export type PhoneNumber = z.infer<typeof PhoneNumber>;
