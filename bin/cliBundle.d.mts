// Types of cliBundle.mjs (plain JavaScript, read by the bin before any TypeScript loads).
export declare const CLI_INPUTS: string;
export declare function cliBundle(
  root: string,
  dir?: string,
): { entry: string; reason: null } | { entry: null; reason: string };
