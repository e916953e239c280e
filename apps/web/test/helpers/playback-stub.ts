import type { PlaybackState } from '../../src/features/playback/usePlayback';

/**
 * What a test's mocked usePlayback returns: the given state and controls that do nothing, for tests
 * of what the page shows for a state. Load it with `await import` inside the vi.mock factory; it
 * imports no page, or the mock would import the module it mocks.
 */
export function idlePlayback(state: PlaybackState) {
  return {
    state,
    playAt: async () => undefined,
    pause: () => undefined,
    resume: () => undefined,
    setSpeed: () => undefined,
    step: () => undefined,
    position: () => undefined,
    stop: () => undefined,
  };
}
