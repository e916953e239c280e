/**
 * Which of the server's stream figures (the streamstat socket, one message a second) the live player
 * shows beside its picture. Messages from before the player showed pictures are not about what the
 * viewer sees: the first one said "0 viewers · 0 kbps" for about a second while the video already
 * played (it was sent before this player was counted), and after a reconnect the last one said
 * "retrying" for about a second over a picture that was back. So the player's own state wins: the
 * server's figures show only while it plays, from the first message that came in after it started
 * playing this time.
 */
import { useState } from 'react';

/** `stat` once a new one has come in since `playing` last became true; undefined otherwise. */
export function useFreshStat<T>(stat: T | undefined, playing: boolean): T | undefined {
  const [mark, setMark] = useState({ playing, before: stat });
  // React's "adjust state while rendering": the render in which playing changes already uses the new mark.
  const current = mark.playing === playing ? mark : { playing, before: stat };
  if (current !== mark) setMark(current);
  return playing && stat !== undefined && stat !== current.before ? stat : undefined;
}
