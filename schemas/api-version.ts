import { z } from "zod";

// `Date.UTC` rolls 2024-02-30 over to March: a date is real only if it survives the round trip.
function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A value of the `X-Service-Version` header: a real calendar date written `YYYY-MM-DD`. */
export const ApiVersion = z
  .string({ error: "expected a date written YYYY-MM-DD, such as 2024-06-01" })
  .refine(isCalendarDate, { error: "expected a calendar date written YYYY-MM-DD, such as 2024-06-01" });
export type ApiVersion = z.infer<typeof ApiVersion>;
