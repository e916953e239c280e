/**
 * kill -9 while recording, on the real server process (node --import tsx src/main.ts) and a real
 * camera: after a restart on the same data, the interrupted segment is indexed, complete, playable,
 * and ends within 2 s of the kill (issue 5); manual recording resumes by itself. The same at the
 * longest fragments, killed at random moments: kill-longest-fragments.test.ts; crash-bound.test.ts
 * checks the rule itself at every instant.
 */
import { describe, expect, it } from 'vitest';
import { sleep } from '../helpers/index.js';
import { useKillRig } from './kill-support.js';

const rig = useKillRig();

describe('kill -9 while recording', () => {
  it('loses at most the last fragment: the interrupted segment is closed at its last whole fragment on restart', async () => {
    const server = await rig.recordingServer();
    const row = await server.recordingRow();
    await sleep(6000);
    const killedAt = await server.kill();
    // nothing closed the row: it is still 'recording'
    expect((await server.db.kysely.selectFrom('recordings').select('status').where('id', '=', row.id).executeTakeFirstOrThrow()).status).toBe('recording');

    await server.start();
    const fixed = await server.closed(row.id);
    server.checkClosed(fixed, killedAt);
    expect(Number(fixed.duration_ms)).toBeGreaterThan(4000);
    // the manual recording resumes after the restart, in a new segment
    await server.recordingRow(row.id);
  }, 90000);
});
