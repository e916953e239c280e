export interface MseResult {
  /** MediaSource.isTypeSupported(mime). */
  supported: boolean;
  /** Set when an append failed. */
  error?: string;
  /** SourceBuffer.buffered after every append, in seconds. */
  ranges?: [number, number][];
  /** currentTime after 1.5 s of play from the first buffered second. */
  played?: number;
  videoError?: number | null;
}

export function playInPage(arg: { mime: string; segments: string[] }): Promise<MseResult>;
