/**
 * The names of the files a user saves from a channel (issue 5): a recording downloaded
 * (Content-Disposition of record/recordvideo and download/{id}) and a snapshot of the playing
 * frame. One rule for both, the download's: the channel's name as the console shows it (spaces
 * kept), then each local time YYYYMMDDHHmmss (spec 9), joined by _. Session 26's walk found the
 * snapshot of 'Gate camera 门口' saved as Gate_camera_门口_… beside the download Gate camera 门口_….
 */

/**
 * A channel's name as part of a file name: only what file systems refuse changes (\ / : * ? " < > |
 * and control characters become _); spaces at either end, dots at its end and a name left empty
 * do not make a file name ('channel').
 */
export function channelFilePart(channel: string): string {
  const safe = channel.replace(/[\\/:*?"<>|\u0000-\u001f\u007f]+/g, '_').trim().replace(/[.\s]+$/, '');
  return safe || 'channel';
}

/** `<channel>_<stamp>[_<stamp>].<ext>`: a download (start, end) or a snapshot (the frame's time). */
export function channelFileName(channel: string, stamps: readonly string[], ext: string): string {
  return `${[channelFilePart(channel), ...stamps].join('_')}.${ext}`;
}
