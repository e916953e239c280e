/**
 * A double of the live player's engines (startWsFmp4, startFlv, startHls, startWebrtc) for LivePlayer
 * tests: every start is kept with its URL and events, and stopping it only marks it stopped, so a test
 * plays the engine's part by hand (events.onPlaying(), onState(...), ...) and sees which URL the player
 * opened and whether it stopped it. A test file mocks the engine modules with it, e.g.
 *   vi.mock('../src/components/player/flv', async () => ({ startFlv: (await import('./helpers/engine-starts')).fakeStart }));
 * and empties `started` before each test.
 */
import type { EngineEvents } from '../../src/components/player/engine';

export interface StartedEngine {
  url: string;
  events: EngineEvents;
  stopped: boolean;
}

/** Every engine started, whichever transport, in order. */
export const started: StartedEngine[] = [];

/** Takes an engine module's start function's place. */
export const fakeStart = (_video: HTMLVideoElement, url: string, events: EngineEvents) => {
  const e: StartedEngine = { url, events, stopped: false };
  started.push(e);
  return { stop: () => void (e.stopped = true) };
};
