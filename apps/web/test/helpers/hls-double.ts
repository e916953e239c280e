/**
 * hls.js replaced by an emitter the test drives: `vi.mock('hls.js', hlsDoubleModule)`; every player
 * the engine makes is in `hlsPlayers` (clear it before each test).
 */
type Handler = (event: string, data: unknown) => void;

export class HlsDouble {
  static Events = { MANIFEST_PARSED: 'hlsManifestParsed', BUFFER_CODECS: 'hlsBufferCodecs', FRAG_LOADED: 'hlsFragLoaded', ERROR: 'hlsError' };
  static ErrorTypes = { NETWORK_ERROR: 'networkError' };
  static isSupported = () => true;
  handlers = new Map<string, Handler[]>();
  /** How many times the engine destroyed this player. */
  destroyed = 0;
  constructor() {
    hlsPlayers.push(this);
  }
  on(event: string, h: Handler) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), h]);
  }
  emit(event: string, data: unknown) {
    for (const h of this.handlers.get(event) ?? []) h(event, data);
  }
  loadSource() {}
  attachMedia() {}
  destroy() {
    this.destroyed++;
  }
}

export const hlsPlayers: HlsDouble[] = [];

/** The factory for `vi.mock('hls.js', ...)`. */
export const hlsDoubleModule = () => ({ default: HlsDouble });
