/** Reads a fixture body as the bytes a device sent (see fixtures/README.md for where each came from). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

export const fixture = (name: string): Uint8Array => new Uint8Array(fs.readFileSync(path.join(dir, name)));
