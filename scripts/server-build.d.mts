/** Types of server-build.mjs (for the TypeScript callers: e2e, bench and the server's tests). */
export declare const SERVER_DIST: string;
export declare const SERVER_MAIN: string;
export declare const SERVER_SOURCES: readonly string[];
export declare function newestMtime(p: string): number;
export declare function newestSource(root?: string): number;
export declare function isStale(built: string, sources: readonly string[]): boolean;
export declare function serverNeedsBuild(): boolean;
export declare function serverBuildOptions(opts?: { outdir?: string }): Record<string, unknown>;
export declare function buildServer(opts?: { force?: boolean; log?: (m: string) => void; outdir?: string }): Promise<boolean>;
