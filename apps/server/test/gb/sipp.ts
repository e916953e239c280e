/** Runs one sipp scenario (apps/server/test/fixtures/sipp) as a GB28181 device against a SIP port on loopback. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const SIPP_DIR = path.resolve(import.meta.dirname, '../fixtures/sipp');
export const hasSipp = fs.existsSync('/usr/bin/sipp');

export interface SippRun {
  code: number | null;
  /** sipp's error log (unexpected messages, failed checks) when it failed. */
  errors: string;
}

export async function runSipp(
  scenario: string,
  o: {
    port: number;
    transport: 'UDP' | 'TCP';
    deviceId: string;
    password?: string;
    platform?: string;
    realm?: string;
    expires?: number;
    /** More -key NAME VALUE pairs for the scenario. */
    keys?: Record<string, string>;
    /** Out-of-call scenario (in the sipp folder) answering the platform's own requests. */
    ooc?: string;
    /** sipp's -timeout (default 20s). */
    timeout?: string;
  },
): Promise<SippRun> {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'sipp-'));
  const args = [
    `127.0.0.1:${o.port}`,
    '-sf', path.join(SIPP_DIR, scenario),
    '-t', o.transport === 'TCP' ? 't1' : 'u1',
    '-i', '127.0.0.1',
    '-p', '0',
    '-m', '1',
    '-s', o.deviceId,
    '-au', o.deviceId,
    '-ap', o.password ?? 'password',
    '-key', 'platform', o.platform ?? '34020000002000000001',
    '-key', 'realm', o.realm ?? '3402000000',
    '-key', 'expires', String(o.expires ?? 3600),
    ...Object.entries(o.keys ?? {}).flatMap(([k, v]) => ['-key', k, v]),
    ...(o.ooc ? ['-oocsf', path.join(SIPP_DIR, o.ooc)] : []),
    '-timeout', o.timeout ?? '20s',
    '-timeout_error',
    '-nostdin',
    '-trace_err',
  ];
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn('/usr/bin/sipp', args, { cwd, stdio: 'ignore' });
    child.on('exit', (c) => resolve(c));
    child.on('error', () => resolve(-1));
  });
  let errors = '';
  for (const f of fs.readdirSync(cwd)) if (f.endsWith('_errors.log')) errors += fs.readFileSync(path.join(cwd, f), 'utf8');
  // sipp logs each use of the out-of-call scenario as an "event"; those are expected, not errors.
  errors = errors
    .replace(/^The following events occurred:\n?/m, '')
    .replace(/[^\n]*?Received out-of-call \w+ message, using the out-of-call scenario/g, '')
    // The platform queries a device as soon as it registers (Catalog, DeviceInfo...); the out-of-call
    // scenario answers them, and one still open when the scenario ends is aborted by sipp's exit. Those
    // calls carry the platform's Call-ID (no '@'); sipp's own calls have `N-PID@host`.
    .replace(/[^\n]*?Aborted call with Call-ID '[^'@]*'/g, '')
    .trim();
  fs.rmSync(cwd, { recursive: true, force: true });
  return { code, errors };
}
