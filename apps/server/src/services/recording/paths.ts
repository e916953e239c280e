/**
 * Where segment files live, and the one check every file operation goes through: a path taken from
 * the index must resolve inside its record root, or the operation is refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { localStamp } from './time.js';

export class UnsafePathError extends Error {
  constructor(readonly rel: string) {
    super(`recording path escapes the record root: ${rel}`);
    this.name = 'UnsafePathError';
  }
}

/** The absolute folder of a RecordPath setting ('' = DATA_DIR/records). */
export const recordRoot = (setting: string, dataDir: string) => path.resolve(setting || path.join(dataDir, 'records'));

/** <channel pk>/<YYYYMMDD>/<HHmmss>.mp4 (server local time), with a suffix for a second file in the same second. */
export function segmentPath(channelPk: number, start: Date, attempt = 0): string {
  const s = localStamp(start);
  return `${channelPk}/${s.slice(0, 8)}/${s.slice(8)}${attempt ? `-${attempt}` : ''}.mp4`;
}

/** Channel and local start of a segment file from its relative path, for orphans the index lost. */
export function parseSegmentPath(rel: string): { channelPk: number; day: string; time: string } | undefined {
  const m = /^(\d{1,12})\/(\d{8})\/(\d{6})(?:-\d{1,4})?\.mp4$/.exec(rel.split(path.sep).join('/'));
  return m ? { channelPk: Number(m[1]), day: m[2], time: m[3] } : undefined;
}

/**
 * The absolute file of `rel` under `root`; throws UnsafePathError for anything outside it: by its
 * name (`..`, absolute, NUL), and where it really is. A symbolic link inside the root (the file, or a
 * channel's or day's folder on the way) that leads out of the root is refused too, so no read and no
 * delete reaches a file outside through it; a link that stays inside the root is followed.
 */
export function safeJoin(root: string, rel: string): string {
  const base = path.resolve(root);
  if (typeof rel !== 'string' || !rel || rel.includes('\0') || path.isAbsolute(rel)) throw new UnsafePathError(String(rel));
  const file = path.resolve(base, rel);
  if (!file.startsWith(base + path.sep)) throw new UnsafePathError(rel);
  if (!realInside(base, file)) throw new UnsafePathError(rel);
  return file;
}

/**
 * Whether `file` (lexically under `base`) really lies under `base`'s real folder: the real path of
 * its deepest existing part (the file, else the nearest folder above it that exists) is checked. A
 * part not there yet (a segment about to be written) is confined by the folders above it; a root
 * not there yet holds nothing to follow.
 */
function realInside(base: string, file: string): boolean {
  let realBase: string;
  try {
    realBase = fs.realpathSync(base);
  } catch {
    return true;
  }
  for (let p = file; p !== base && p.startsWith(base + path.sep); p = path.dirname(p)) {
    let real: string;
    try {
      real = fs.realpathSync(p);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      return false; // a loop of links, no permission: not followed
    }
    return real === realBase || real.startsWith(realBase + path.sep);
  }
  return true;
}

/**
 * Folders that never hold recordings: the file system's root, kernel file systems (Node's recursive
 * mkdir spins forever under /proc) and the system's own programs, libraries and configuration. The
 * real location counts: a link elsewhere to /etc is /etc.
 */
const SYSTEM_FOLDERS = ['/proc', '/sys', '/dev', '/etc', '/boot', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/usr'];
export function isSystemFolder(abs: string): boolean {
  const inSystem = (p: string) => p === '/' || SYSTEM_FOLDERS.some((s) => p === s || p.startsWith(`${s}/`));
  return inSystem(abs) || inSystem(realOfExisting(abs));
}

/** The real path of `abs`: its nearest existing folder's real path, with the parts not there yet. */
function realOfExisting(abs: string): string {
  const rest: string[] = [];
  for (let p = abs; ; p = path.dirname(p)) {
    try {
      return path.join(fs.realpathSync(p), ...rest);
    } catch {
      if (p === path.dirname(p)) return abs;
      rest.unshift(path.basename(p));
    }
  }
}
