/**
 * Alarm snapshot files under DATA_DIR/alarms. Stored paths are relative; every path is resolved and
 * checked to stay inside the folder, so a bad row can never read or delete a file elsewhere.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

export class AlarmSnapshots {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The absolute path of a stored relative path, or undefined when it would leave the folder. */
  resolve(rel: string): string | undefined {
    if (!rel || path.isAbsolute(rel) || rel.includes('\0')) return undefined;
    const abs = path.resolve(this.root, rel);
    return abs.startsWith(this.root + path.sep) ? abs : undefined;
  }

  async write(rel: string, data: Buffer): Promise<void> {
    const abs = this.resolve(rel);
    if (!abs) throw new Error(`snapshot path outside ${this.root}: ${rel}`);
    await fs.mkdir(path.dirname(abs), { recursive: true });
    // Written whole then renamed: a reader never sees half a JPEG.
    const tmp = `${abs}.tmp`;
    await fs.writeFile(tmp, data);
    await fs.rename(tmp, abs);
  }

  async remove(rel: string): Promise<void> {
    const abs = this.resolve(rel);
    if (abs) await fs.rm(abs, { force: true });
  }
}
