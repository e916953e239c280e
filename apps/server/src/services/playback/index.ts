/**
 * The app's one PlaybackService, kept beside its AppContext (the API and the media routes share it).
 */
import type { AppContext } from '../../context.js';
import { PlaybackService, type PlaybackServiceOptions } from './service.js';

const services = new WeakMap<AppContext, PlaybackService>();

type Log = { warn(obj: object, msg: string): void };

/** Options a test may set before the app's routes first ask (idle timeout, lead). */
export const playbackOptions = new WeakMap<AppContext, PlaybackServiceOptions>();

export function playbackOf(ctx: AppContext, log: Log): PlaybackService {
  let s = services.get(ctx);
  if (!s) {
    s = new PlaybackService(ctx.recording, log, () => playbackOptions.get(ctx) ?? {});
    services.set(ctx, s);
  }
  return s;
}

export { PlaybackBusyError, PlaybackService } from './service.js';
export { PlaybackSession, SPEEDS, type PlaybackState } from './session.js';
