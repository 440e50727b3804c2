/**
 * How the CLI shows a webhook signing secret: masked (`whsec_************`) unless the user
 * asked for it (`--show-secret`), so that terminal scrollback and CI logs do not keep it.
 */
export function displaySecret(secret: string, show: boolean): string {
  if (show) return secret;
  const prefix = /^[a-z]+_/.exec(secret)?.[0] ?? "";
  return `${prefix}************`;
}
