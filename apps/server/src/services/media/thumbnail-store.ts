/**
 * The latest thumbnail of each channel, one JPEG per channel under DATA_DIR/thumbnails named by the
 * channel's row id (`<id>.jpg`: ids are never reused, SQLite AUTOINCREMENT and PostgreSQL serial, so a
 * file can only ever belong to its channel). Kept across restarts; the names are made here from an
 * integer and checked to stay inside the folder, never taken from a request.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

export interface StoredThumbnail {
  file: string;
  mtimeMs: number;
  size: number;
}

const NAME = /^(\d{1,12})\.jpg$/;

export class ThumbnailStore {
  readonly root: string;
  /** When each channel's thumbnail was written (ms), so the refresher picks the stalest without a stat per stream. */
  private written = new Map<number, number>();

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The file of a channel's thumbnail; undefined for anything but a positive integer id. */
  fileOf(channelPk: number): string | undefined {
    if (!Number.isSafeInteger(channelPk) || channelPk <= 0) return undefined;
    const abs = path.join(this.root, `${channelPk}.jpg`);
    return path.dirname(abs) === this.root ? abs : undefined;
  }

  /** When the channel's thumbnail was written, 0 when it has none. */
  writtenAt(channelPk: number): number {
    return this.written.get(channelPk) ?? 0;
  }

  /**
   * Reads what the folder holds (after a restart), drops half-written files and the thumbnails of
   * channels that no longer exist (`exists` false).
   */
  async load(exists: (channelPk: number) => boolean): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
    this.written.clear();
    for (const name of await fs.readdir(this.root)) {
      const abs = path.join(this.root, name);
      const m = NAME.exec(name);
      if (!m || !exists(Number(m[1]))) {
        if (m || name.endsWith('.tmp')) await fs.rm(abs, { force: true });
        continue;
      }
      const st = await fs.stat(abs).catch(() => undefined);
      if (st?.isFile()) this.written.set(Number(m[1]), st.mtimeMs);
    }
  }

  async write(channelPk: number, jpeg: Buffer): Promise<void> {
    const abs = this.fileOf(channelPk);
    if (!abs) throw new Error(`no thumbnail file for channel ${channelPk}`);
    await fs.mkdir(this.root, { recursive: true });
    // Written whole then renamed: a reader never sees half a JPEG.
    const tmp = `${abs}.tmp`;
    await fs.writeFile(tmp, jpeg);
    await fs.rename(tmp, abs);
    const st = await fs.stat(abs);
    this.written.set(channelPk, st.mtimeMs);
  }

  /** The stored thumbnail of a channel, read from the disk (not the memo), or undefined. */
  async stat(channelPk: number): Promise<StoredThumbnail | undefined> {
    const file = this.fileOf(channelPk);
    if (!file) return undefined;
    const st = await fs.stat(file).catch(() => undefined);
    return st?.isFile() ? { file, mtimeMs: st.mtimeMs, size: st.size } : undefined;
  }
}
