/**
 * What the MSE player does with a new init segment on a socket that already plays one. A recording
 * whose camera changed its picture size or frame rate, or a live camera that came back (maybe at
 * another size; the server carries its timeline on), has a new init (new parameter sets, maybe a new
 * avc1 profile/level) but the same codecs: MSE takes a new initialization segment appended to the
 * same SourceBuffer, after `changeType` when the codec string changed, and the picture runs on
 * without a break. A new MediaSource stays for what one SourceBuffer cannot take (H.264 <-> H.265,
 * a track more or less) and for a server whose timeline restarts with the init (`continues` absent:
 * a seek, an older server's live reconnect), where media at the old times would overlap.
 */

export type InitSwitch = 'append' | 'changeType' | 'restart';

/** The codec strings of a MIME type's codecs parameter (`video/mp4; codecs="avc1.64001f,mp4a.40.2"`). */
export function codecsOf(mime: string): string[] {
  const m = /codecs\s*=\s*"?([^";]*)"?/i.exec(mime);
  return m ? m[1].split(',').map((c) => c.trim()).filter(Boolean) : [];
}

const FAMILIES: Record<string, string> = { avc1: 'h264', avc3: 'h264', hvc1: 'h265', hev1: 'h265', mp4a: 'aac' };

/** The codec family of a codec string: H.264's avc1/avc3 are one, H.265's hvc1/hev1 another. */
export function codecFamily(codec: string): string {
  const tag = codec.split('.')[0].toLowerCase();
  return FAMILIES[tag] ?? tag;
}

/**
 * `current`: the MIME type the SourceBuffer plays (undefined: none yet); `next`: the new init's MIME
 * type and whether the server's timeline continues across it; `canChangeType`: the browser has
 * SourceBuffer.changeType.
 */
export function initSwitch(current: string | undefined, next: { mime: string; continues?: boolean }, canChangeType: boolean): InitSwitch {
  if (current === undefined || !next.continues) return 'restart';
  const before = codecsOf(current);
  const after = codecsOf(next.mime);
  if (!before.length || before.length !== after.length) return 'restart';
  const families = (codecs: string[]) => codecs.map(codecFamily).sort().join();
  if (families(before) !== families(after)) return 'restart';
  if (current.split(';')[0].trim() !== next.mime.split(';')[0].trim()) return 'restart';
  if (before.join() === after.join()) return 'append';
  return canChangeType ? 'changeType' : 'restart';
}
