/**
 * What a `go` command said about the code, without the progress lines Go prints while it fills an empty module cache
 * (`go: downloading …`): a test that wants a quiet `go vet` must pass on a fresh machine, where the first run downloads.
 */
const CACHE_PROGRESS = /^go: (?:downloading|extracting|finding) .*\r?\n/gm;

export function goDiagnostics(stderr: string): string {
  return stderr.replace(CACHE_PROGRESS, "");
}
