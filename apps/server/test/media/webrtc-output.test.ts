/**
 * The WebRTC output's sending order (webrtc-send-queue.ts) and its per-viewer backlog
 * (WebRtcOutput): jobs run at once within the burst budget and after an event-loop turn past it,
 * in the order given; a viewer with too many units waiting in the queue skips to the next keyframe.
 */
import { describe, expect, it } from 'vitest';
import type { VideoAccessUnit, VideoTrack } from '@opencvr/codec';
import { SendQueue } from '../../src/media/outputs/webrtc-send-queue.js';
import { MAX_QUEUED_UNITS, WebRtcOutput } from '../../src/media/outputs/webrtc.js';

const turn = () => new Promise((r) => setImmediate(r));

describe('SendQueue', () => {
  it('runs jobs at once while the burst is within budget, the rest after I/O, in order', async () => {
    let clock = 0;
    const q = new SendQueue(5, () => clock);
    const ran: number[] = [];
    const job = (n: number, cost: number) => () => {
      ran.push(n);
      clock += cost;
    };
    q.push(job(1, 2));
    q.push(job(2, 2));
    expect(ran).toEqual([1, 2]); // each alone, nothing waiting
    // One burst: a job that pushes more work overruns the budget.
    q.push(() => {
      ran.push(3);
      for (let i = 4; i <= 8; i++) q.push(job(i, 2));
      clock += 1;
    });
    expect(ran).toEqual([1, 2, 3, 4, 5]); // 1 + 2 + 2 >= 5: the rest waits
    q.push(job(9, 0)); // after what waits, not before
    expect(q.pending).toBe(4);
    await turn();
    expect(ran).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    await turn();
    expect(ran).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(q.pending).toBe(0);
  });

  it('keeps going after a job that throws', () => {
    const q = new SendQueue(5, () => 0);
    const ran: string[] = [];
    q.push(() => {
      throw new Error('peer gone');
    });
    q.push(() => ran.push('next'));
    expect(ran).toEqual(['next']);
  });
});

describe('WebRtcOutput backlog', () => {
  const track = { kind: 'video', codec: 'h264', sps: Uint8Array.from([0x67, 0x42, 0xe0, 0x1f]), pps: Uint8Array.from([0x68, 0xce]) } as unknown as VideoTrack;
  const unit = (keyframe: boolean, pts: number): VideoAccessUnit => ({ kind: 'video', pts, dts: pts, keyframe, nalus: [Uint8Array.from([keyframe ? 0x65 : 0x41, 1, 2, 3])] });

  it('skips to the next keyframe once too many units wait to be sent', () => {
    const held: (() => void)[] = [];
    const sent: number[] = [];
    const out = new WebRtcOutput(
      { sendUnit: (_p, t) => (sent.push(t), Promise.resolve()) },
      () => true,
      undefined,
      undefined,
      { push: (job) => held.push(job) },
    );
    out.tracks([track]);
    out.unit(0, unit(true, 0));
    const n = MAX_QUEUED_UNITS + 5;
    for (let i = 1; i < n; i++) out.unit(0, unit(false, i * 3600));
    expect(held).toHaveLength(MAX_QUEUED_UNITS);
    expect(out.stats).toMatchObject({ units: MAX_QUEUED_UNITS, behind: 1 });
    for (const job of held.splice(0)) job();
    expect(sent).toHaveLength(MAX_QUEUED_UNITS);
    out.unit(0, unit(false, (n + 1) * 3600)); // still waiting for a keyframe
    expect(held).toHaveLength(0);
    out.unit(0, unit(true, (n + 2) * 3600));
    out.unit(0, unit(false, (n + 3) * 3600));
    expect(held).toHaveLength(2);
  });
});
