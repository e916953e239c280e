/** Types of server-node-args.mjs (for the TypeScript callers: e2e and bench). */
export declare const SERVER_V8_ARGS: readonly string[];
export declare const SERVER_BUILD_MAIN: string;
export declare const SERVER_SOURCE_MAIN: string;
export declare function serverNodeArgs(opts?: { watch?: boolean; source?: boolean }): string[];
