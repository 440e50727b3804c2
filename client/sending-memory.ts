/**
 * V8 settings for a process that sends a long stream of messages (`messaging send`, the plugin, the TypeScript route's provider
 * host), set once the process runs: V8 reads both flags when it next needs them. Figures: bench/README.md, sections 8 and 11.
 */
import { setFlagsFromString } from "node:v8";

/**
 * undici's HTTP parser is WebAssembly: V8's optimizing tier costs more memory compiling it than it saves on the few thousand
 * small answers a send reads, so only the baseline tier (Liftoff) compiles it. Must come before undici's first request.
 */
export function baselineWebAssembly(): void {
  setFlagsFromString("--liftoff-only");
}

/**
 * Every message lives until the service answers its call, so messages fill the old generation at a steady rate, and V8's default
 * lets the heap grow to 4 times what the last full GC left live: 50 % bounds it. For a sending process only (a server, such as
 * the emulator, keeps V8's pacing).
 */
export function boundHeapGrowth(): void {
  setFlagsFromString("--heap-growing-percent=50");
}

/** Both: for a process whose work is sending. */
export function boundSendingMemory(): void {
  baselineWebAssembly();
  boundHeapGrowth();
}
