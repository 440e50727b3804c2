/**
 * JSON number spellings for the generated-text tests of the JSON readers: plain ones and the
 * ones a reader must treat with care (`-0`, overflow to ±Infinity, underflow to 0, integers
 * past 2^53 that no double carries exactly, digits past a double's precision).
 */
export const NUMBER_SPELLINGS: readonly string[] = [
  "0",
  "-0",
  "7",
  "-12",
  "3.25",
  "1e3",
  "1E-3",
  "2.5e+10",
  "1e400",
  "-1e400",
  "1e-400",
  "9007199254740991",
  "9007199254740993",
  "9007199254740994",
  "0.10000000000000001",
  "123456789012345",
  "-0.0e5",
  "100E-2",
];
