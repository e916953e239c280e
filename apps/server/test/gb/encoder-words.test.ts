/**
 * An encoder's or SDP parser's own words (English, naming protocol fields) go to the log; the user's
 * reason is the catalogue's, wholly in their language: a PTZ command the MANSCDP encoder refuses
 * (GbPtzCalls.run) and an INVITE that cannot be made (the INVITE client, on a registered device double).
 */
import { ManscdpError } from '@opencvr/manscdp';
import { reason } from '@opencvr/shared';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/context.js';
import { ApiError } from '../../src/http/errors.js';
import { GbPtzCalls } from '../../src/routes/api/gb-ptz.js';
import { GbInviteError } from '../../src/gb/invite/client.js';
import { CH, DEV, startRig, type GbRig } from './invite-support.js';

let rig: GbRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('a PTZ command the encoder refuses', () => {
  it('answers 400 with the reason in the language, the encoder’s words in the log only', async () => {
    const warned: object[] = [];
    const ctx = { gbDevices: { client: { answersOf: () => undefined } }, gb: { gbConfig: async () => ({}) } } as unknown as AppContext;
    const calls = new GbPtzCalls(ctx, { warn: (obj) => void warned.push(obj) });
    const err = await calls
      .run({ device: DEV, channel: CH }, async () => {
        throw new ManscdpError('bad-argument', 'PTZ speed 300 is not an integer in 0..255');
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.status).toBe(400);
    expect(e.text('zh-CN')).toBe('参数 command 不合法: 无法组成GB28181命令（详情见服务器日志）');
    expect(e.text('en-US')).toBe('Invalid parameter command: cannot make the GB28181 command (details in the server log)');
    expect(JSON.stringify(warned)).toContain('PTZ speed 300 is not an integer in 0..255');
  });
});

describe('an INVITE the encoder cannot make', () => {
  it('is refused with a reason in the language, naming the channel; the encoder’s words stay out of it', async () => {
    rig = await startRig();
    const err = await rig.t.ctx.gbInvite
      .invite({ deviceId: DEV, channelId: CH, session: 'Play', offer: { ip: 'not-an-ip', port: 40000, transport: 'udp' }, onEnded: () => undefined })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GbInviteError);
    const why = (err as GbInviteError).why!;
    expect(reason(why.key, 'zh-CN', why.vars)).toBe(`无法组成通道 ${CH} 的 INVITE（详情见服务器日志）`);
    expect(reason(why.key, 'en-US', why.vars)).toBe(`cannot make the INVITE for channel ${CH} (details in the server log)`);
    // Nothing was sent, and the SSRC went back.
    expect(rig.media.invites).toHaveLength(0);
    expect(rig.t.ctx.gbInvite.ssrcs.inUse('live')).toBe(0);
  });
});
