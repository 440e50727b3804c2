// A stack's identity pinned in its config: the one place that survives whatever happens to the state and still differs between
// two stacks of one project and name. Unpinned, it is kept in the state, and a new one is said at preview.
import { randomBytes } from "node:crypto";
import { ConfigurationError } from "../errors";

/** The stack config key that pins the identity. Config only: an environment variable would be shared by every stack a job deploys. */
export const STACK_IDENTITY_CONFIG = "messaging:stackIdentity";

const FORM = /^[A-Za-z0-9][A-Za-z0-9._-]{7,99}$/;

export function stackIdentityProblem(value: string): string | undefined {
  return FORM.test(value)
    ? undefined
    : "expected 8 to 100 letters, digits, '.', '_' or '-', starting with a letter or digit (any unguessable value: " +
        `\`${pinCommand()}\` makes one)`;
}

export function pinnedStackIdentity(get: (key: string) => string | undefined): string | undefined {
  const value = get(STACK_IDENTITY_CONFIG);
  if (value === undefined || value === "") return undefined;
  const problem = stackIdentityProblem(value);
  if (problem) throw new ConfigurationError(`${STACK_IDENTITY_CONFIG} is not a stack identity: ${problem}.`);
  return value;
}

export function pinCommand(value = randomBytes(16).toString("hex")): string {
  return `pulumi config set ${STACK_IDENTITY_CONFIG} ${value}`;
}

const KEPT_IN = {
  state: {
    where: "the state's pulumi-messaging-stack-identity resource",
    lost:
      "every endpoint and batch of this package removed, that resource deleted from the state, or the program moved here " +
      "from YAML, Python or Go, whose identity was their messaging provider's id",
  },
  provider: {
    where: "the id of this stack's messaging provider",
    lost:
      "every resource of this package removed, a new plugin version (a new default provider), or the program moved here " +
      "from TypeScript's `pulumi-messaging` classes, whose identity was a resource of their own",
  },
} as const;

/** Said at preview when an unpinned identity is made: nothing a provider is told tells a first deployment from a lost identity. */
export function newIdentityWarning(route: keyof typeof KEPT_IN): string {
  const { where, lost } = KEPT_IN[route];
  return (
    `warning: this stack's identity is being made now: ${STACK_IDENTITY_CONFIG} is not set, so it is kept in ${where}. Every ` +
    "webhook endpoint and message batch this run creates is keyed by it. If this stack made them before under another " +
    `identity (${lost}), the service does not recognize them: each such endpoint is made again and each such batch's ` +
    "messages go out again. To keep one identity whatever happens to the state, stop and pin it first: " +
    `\`${pinCommand()}\` for a new stack, or the identity this stack had, to keep its keys.`
  );
}

export function identityChangedWarning(before: string, after: string): string {
  return (
    `warning: this stack's identity changes from ${before} to ${after} (${STACK_IDENTITY_CONFIG}). Resources already in ` +
    "the stack keep what they were made with, but a create that an interrupted run left unfinished is redone under the new " +
    "identity, and the service sends again what it had already taken. If a run of this stack was interrupted, pin " +
    `the old identity (\`${pinCommand(before)}\`) and run \`pulumi up\` to finish it first.`
  );
}

/** Said when a plugin-route stack first pins an identity: DiffConfig is not told the provider's id, so the two cannot be compared. */
export function identityPinnedWarning(after: string): string {
  return (
    `warning: this stack's identity is now ${after} (${STACK_IDENTITY_CONFIG}); until now it was the id of its messaging ` +
    "provider, as `pulumi stack --show-ids` lists it. If the two differ, a create that an interrupted run left unfinished " +
    "is redone under the new identity and the service sends again what it had already taken: pin the provider's id " +
    "instead to keep this stack's keys."
  );
}
