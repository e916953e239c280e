/**
 * Live GB28181 video through the whole app with the real SIP INVITE: getchannelstream → the hub's GB
 * source → INVITE s=Play to the device double (over SIP UDP or TCP) → its SDP answer → ACK → PS over
 * RTP (UDP, TCP passive, TCP active) → a WebSocket fMP4 viewer whose fragments ffprobe decodes. Then
 * the BYE when the last viewer of the on-demand channel leaves, and the device ending the session.
 * Each test has its own rig (app, SIP port, device double: `rigFor`) and they run at once
 * (`describe.concurrent`): they wait on timers (the grace period, AckTimeout, retries), not on one another.
 */
import { reason, type Reason } from '@opencvr/shared';
import { header, userOf } from '@opencvr/sip';
import { describe, it, type TestContext } from 'vitest';
import { channelStream, CH, DEV, probe, startRig, streamstatOnce, view, type GbRig } from './invite-support.js';
import { until } from '../helpers/index.js';
import type { GbInviteError } from '../../src/gb/invite/client.js';

/** A rig for this test only (startRig's), closed when the test ends: the tests run at once. */
async function rigFor(onTestFinished: TestContext['onTestFinished'], o: Parameters<typeof startRig>[0] = {}): Promise<GbRig> {
  const r = await startRig(o);
  onTestFinished(() => r.close());
  return r;
}

const CASES = [
  { name: 'UDP', sip: 'UDP', gb: { MediaTransport: 'UDP' }, expect: 'udp', proto: 'RTP/AVP' },
  { name: 'TCP passive (SIP over TCP)', sip: 'TCP', gb: { MediaTransport: 'TCP', MediaTransportMode: 'passive' }, expect: 'tcp-passive', proto: 'TCP/RTP/AVP' },
  { name: 'TCP active', sip: 'UDP', gb: { MediaTransport: 'TCP', MediaTransportMode: 'active' }, expect: 'tcp-active', proto: 'TCP/RTP/AVP' },
] as const;

describe.concurrent.each(CASES)('live over $name', (c) => {
  it('plays in a WebSocket fMP4 viewer; the BYE follows when the last viewer of the on-demand channel leaves', async ({ expect, onTestFinished }) => {
    const r = await rigFor(onTestFinished, { sip: c.sip, gb: c.gb });
    const { URL, Stream } = await channelStream(r);
    // One fragment per frame (the cached GOP as the first): 16 fragments hold at least 16 frames.
    const got = await view(r, URL, 16);
    expect(got.text.find((m) => m.type === 'init')).toMatchObject({ mime: expect.stringMatching(/^video\/mp4; codecs="avc1\./) });
    const s = probe(r, `invite-${c.expect}`, got.binary);
    expect(s).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
    expect(Number(s.nb_read_frames)).toBeGreaterThan(10);

    // The INVITE as GB/T 28181 writes it.
    expect(r.media.invites).toHaveLength(1);
    const invite = r.media.invites[0];
    expect(userOf(`<${invite.uri}>`)).toBe(CH);
    expect(userOf(header(invite, 'To'))).toBe(CH);
    const sdp = new TextDecoder().decode(invite.body);
    const ssrc = /\r\ny=(\d{10})\r\n/.exec(sdp)?.[1];
    // 0 (live) + digits 4-8 of the realm 3402000000 + a counter.
    expect(ssrc).toMatch(/^020000\d{4}$/);
    expect(header(invite, 'Subject')).toBe(`${CH}:${ssrc},34020000002000000001:0`);
    expect(header(invite, 'Content-Type')?.toLowerCase()).toBe('application/sdp');
    expect(sdp).toContain('s=Play\r\n');
    expect(sdp).toContain('c=IN IP4 127.0.0.1\r\n');
    expect(sdp).toMatch(new RegExp(`m=video \\d+ ${c.proto.replace('/', '\\/')} 96`));
    if (c.expect === 'tcp-active') expect(sdp).toContain('a=setup:active');
    if (c.expect === 'tcp-passive') expect(sdp).toContain('a=setup:passive');
    expect(r.media.sessions[0]).toMatchObject({ transport: c.expect, acked: true, endedBy: '' });
    expect(r.media.acks).toHaveLength(1);

    // The platform's dialog, its SSRC held.
    const [dialog] = r.t.ctx.gbInvite.sessions();
    expect(dialog.ids).toMatchObject({ deviceId: DEV, channelId: CH, session: 'Play', callId: header(invite, 'Call-ID') });
    expect(r.t.ctx.gbInvite.ssrcs.inUse('live')).toBe(1);
    // The stream status names the session feeding it.
    const stat = await streamstatOnce(r, Stream);
    expect(stat).toMatchObject({
      type: 'streamstat',
      stream: Stream,
      state: 'live',
      gb: { DeviceID: DEV, ChannelID: CH, Session: 'Play', Transport: c.expect, SSRC: ssrc, AnswerSSRC: ssrc, CallID: header(invite, 'Call-ID') },
    });

    // The viewer left: after the grace period the hub stops and the device gets the BYE.
    await until(() => r.media.byes.length === 1, 12000, { what: 'the BYE' });
    expect(r.media.sessions[0].endedBy).toBe('platform');
    const bye = r.media.byes[0];
    expect(header(bye, 'Call-ID')).toBe(header(invite, 'Call-ID'));
    expect(header(bye, 'From')).toBe(header(invite, 'From'));
    expect(Number(header(bye, 'CSeq')!.split(' ')[0])).toBeGreaterThan(Number(header(invite, 'CSeq')!.split(' ')[0]));
    expect(r.t.ctx.streams.hubs.get(Stream)?.state ?? 'stopped').toBe('stopped');
    expect(r.t.ctx.gbInvite.sessions()).toHaveLength(0);
    expect(r.t.ctx.gbInvite.ssrcs.inUse('live')).toBe(0);
  });
});

describe.concurrent('the session ends', () => {
  it("on the device's BYE: answered 200, the stream says why and the SSRC is released", async ({ expect, onTestFinished }) => {
    const r = await rigFor(onTestFinished, { graceMs: 30_000 });
    const { URL, Stream } = await channelStream(r);
    await view(r, URL, 2);
    const hub = r.t.ctx.streams.get(Stream)!;
    expect(hub.state).toBe('live');
    // The next INVITE (the hub's retry) is refused, so the state stays on the BYE's reason.
    r.media.set({ status: 486 });
    const res = await r.media.bye(r.media.sessions[0]);
    expect(res.status).toBe(200);
    await until(() => hub.state === 'retrying', 10000, { what: 'the hub to fail' });
    expect(hub.reason).toBe('the device ended the media session: the device sent BYE');
    expect(hub.why).toEqual({ key: 'gbDeviceSentBye' });
    expect(r.t.ctx.gbInvite.ssrcs.inUse('live')).toBe(0);
    // No BYE back for a session the device ended.
    expect(r.media.byes).toHaveLength(0);
    // The retry asks again; the refusal is the next reason.
    await until(() => r.media.invites.length === 2 && hub.reason.includes('486'), 8000, { what: 'the retry' });
    expect(hub.reason).toBe(`device ${DEV} refused the live stream of channel ${CH}: 486 Busy Here`);
  });

  it('when the platform shuts down: a BYE to the device still sending', async ({ expect, onTestFinished }) => {
    const r = await rigFor(onTestFinished, { graceMs: 30_000 });
    const { URL } = await channelStream(r);
    await view(r, URL, 1);
    expect(r.media.byes).toHaveLength(0);
    await r.t.close();
    expect(r.media.byes).toHaveLength(1);
    expect(r.media.sessions[0].endedBy).toBe('platform');
  });

  it("a BYE for a dialog the platform does not know gets 481", async ({ expect, onTestFinished }) => {
    const r = await rigFor(onTestFinished, { graceMs: 30_000 });
    const { URL } = await channelStream(r);
    await view(r, URL, 1);
    const s = r.media.sessions[0];
    const res = await r.media.bye({ ...s, callId: 'not-a-dialog@127.0.0.1', sender: undefined });
    expect(res.status).toBe(481);
    expect(r.t.ctx.gbInvite.sessions()).toHaveLength(1);
  });

  it('when the device unregisters: the stream fails with the reason, no BYE is sent', async ({ expect, onTestFinished }) => {
    const r = await rigFor(onTestFinished, { graceMs: 30_000 });
    const { URL, Stream } = await channelStream(r);
    await view(r, URL, 1);
    const hub = r.t.ctx.streams.get(Stream)!;
    expect((await r.dev.unregister()).status).toBe(200);
    await until(() => hub.state === 'retrying', 10000, { what: 'the hub to fail' });
    expect(hub.reason).toBe('the device ended the media session: the device went offline (unregistered)');
    expect(r.t.ctx.gbInvite.sessions()).toHaveLength(0);
    await until(() => hub.reason.includes('not registered'), 8000, { what: 'the retry' });
    expect(hub.reason).toBe(`device ${DEV} is not registered (offline): cannot ask it for channel ${CH}`);
    // What the user reads (getchannelstream, the live socket's code): the catalogue's, not the words.
    expect(hub.why).toEqual({ key: 'streamGbOffline' });
  });
});

describe.concurrent('failures reach the stream status with their cause', () => {
  it('no RTP after the 200: the receiver names the port and the media IP announced; the session is closed with a BYE', async ({ expect, onTestFinished }) => {
    const r = await rigFor(onTestFinished, { media: { noMedia: true }, gb: { AckTimeout: 1 }, graceMs: 30_000 });
    const { Stream } = await channelStream(r);
    const hub = r.t.ctx.streams.get(Stream)!;
    await until(() => hub.state === 'retrying', 10000, { what: 'the hub to fail' });
    expect(hub.reason).toMatch(
      /^no RTP received on UDP port \d+ within 1 s: check the media IP announced \(127\.0\.0\.1\) and that the port is reachable from the device$/,
    );
    expect(hub.why).toMatchObject({ key: 'gbNoRtpUdp', vars: { seconds: 1, ip: '127.0.0.1' } });
    await until(() => r.media.byes.length >= 1, 10000, { what: 'the BYE' });
    expect(header(r.media.byes[0], 'Call-ID')).toBe(header(r.media.invites[0], 'Call-ID'));
  });

  it('no answer to the INVITE within AckTimeout (after its 100 Trying)', async ({ expect, onTestFinished }) => {
    const r = await rigFor(onTestFinished, { media: { silent: true }, gb: { AckTimeout: 1 }, graceMs: 30_000 });
    const { Stream } = await channelStream(r);
    const hub = r.t.ctx.streams.get(Stream)!;
    await until(() => hub.state === 'retrying', 10000, { what: 'the hub to fail' });
    expect(hub.reason).toBe(
      `device ${DEV} did not answer the INVITE for channel ${CH} within 1 s (AckTimeout): check that it is online and reachable`,
    );
    expect(r.t.ctx.gbInvite.ssrcs.inUse('live')).toBe(0);
  });

  it('a 200 that comes after AckTimeout is closed at once with a BYE', async ({ expect, onTestFinished }) => {
    const r = await rigFor(onTestFinished, { media: { delayMs: 1600, noMedia: true }, gb: { AckTimeout: 1 }, graceMs: 30_000 });
    const { Stream } = await channelStream(r);
    const hub = r.t.ctx.streams.get(Stream)!;
    await until(() => hub.state === 'retrying', 10000, { what: 'the hub to fail' });
    expect(hub.reason).toMatch(/did not answer the INVITE .* within 1 s/);
    await until(() => r.media.byes.some((b) => header(b, 'Call-ID') === header(r.media.invites[0], 'Call-ID')), 5000, { what: 'the late 200 to be closed' });
    expect(r.media.sessions[0].endedBy).toBe('platform');
  });

  it('a slow device that answers after its 100 Trying but within AckTimeout plays', async ({ expect, onTestFinished }) => {
    const r = await rigFor(onTestFinished, { media: { delayMs: 1500 }, gb: { AckTimeout: 4 } });
    const { URL } = await channelStream(r);
    const got = await view(r, URL, 2);
    expect(got.binary.length).toBe(2);
    expect(r.media.invites).toHaveLength(1);
  });

  it('an SDP answer without a usable port: the dialog is closed and the reason says why', async ({ expect, onTestFinished }) => {
    const r = await rigFor(onTestFinished, { gb: { AckTimeout: 2 }, graceMs: 30_000 });
    // The device answers TCP active with UDP: nothing to connect to.
    await r.t.ctx.config.set('gb', { MediaTransport: 'TCP', MediaTransportMode: 'active' });
    r.dev.responders.add((req, tx) => {
      if (req.method !== 'INVITE') return false;
      r.media.invites.push(req);
      void import('@opencvr/sip').then(({ responseTo }) =>
        tx.respond(
          responseTo(req, 200, {
            toTag: 'devtag1',
            body: 'v=0\r\no=x 0 0 IN IP4 127.0.0.1\r\ns=Play\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=video 0 RTP/AVP 96\r\ny=0002000001\r\n',
            contentType: 'APPLICATION/SDP',
          }),
        ),
      );
      return true;
    });
    // Put the test's responder first: the double asks responders in insertion order.
    const responders = [...r.dev.responders];
    r.dev.responders.clear();
    for (const x of [responders[responders.length - 1], ...responders.slice(0, -1)]) r.dev.responders.add(x);
    const { Stream } = await channelStream(r);
    const hub = r.t.ctx.streams.get(Stream)!;
    await until(() => hub.state === 'retrying', 10000, { what: 'the hub to fail' });
    expect(hub.reason).toMatch(/^device 34020000001320000001 answered the INVITE for channel 34020000001310000001 with an SDP that cannot be used: the device refused the stream or sent port 0$/);
    await until(() => r.media.byes.length >= 1, 10000, { what: 'the BYE' });
    expect(r.t.ctx.gbInvite.sessions()).toHaveLength(0);
    // The user's reason (a device playback's, a download's) is wholly in their language: the parser's words are the log's.
    const err = (await r.t.ctx.gbInvite
      .invite({ deviceId: DEV, channelId: CH, session: 'Play', offer: { ip: '127.0.0.1', port: 40000, transport: 'tcp-active' }, onEnded: () => undefined })
      .catch((e: unknown) => e)) as GbInviteError;
    expect(err.code).toBe('bad-answer');
    expect(reason(err.why!.key, 'zh-CN', err.why!.vars)).toBe(`通道 ${CH} 的 INVITE 回应中的SDP无法使用（详情见服务器日志）`);
    expect(reason(err.why!.key, 'en-US', err.why!.vars)).toBe(`the SDP answering the INVITE for channel ${CH} cannot be used (details in the server log)`);
  });
});

describe.concurrent('the INVITE client (ctx.gbInvite) for playback sessions', () => {
  it("a device that unregisters ends its sessions; why is said wholly in the user's language (the log keeps the service's words)", async ({ expect, onTestFinished }) => {
    const r = await rigFor(onTestFinished, { graceMs: 30_000, media: { noMedia: true } });
    const ended: { reason: string; why?: Reason }[] = [];
    await r.t.ctx.gbInvite.invite({
      deviceId: DEV,
      channelId: CH,
      session: 'Playback',
      offer: { ip: '127.0.0.1', port: 40004, transport: 'udp' },
      startTime: 1_700_000_000,
      endTime: 1_700_000_600,
      onEnded: (reason, why) => ended.push({ reason, why }),
    });
    expect((await r.dev.unregister()).status).toBe(200);
    await until(() => ended.length === 1, 10000, { what: 'the session to end' });
    expect(ended[0].reason).toBe('the device went offline (unregistered)');
    expect(reason(ended[0].why!.key, 'zh-CN', ended[0].why!.vars)).toBe('设备已离线（设备已注销）');
    expect(reason(ended[0].why!.key, 'en-US', ended[0].why!.vars)).toBe('the device went offline (it unregistered)');
  });

  it('s=Playback takes a history SSRC; MediaStatus 121 ends it with a BYE and leaves live sessions alone', async ({ expect, onTestFinished }) => {
    const r = await rigFor(onTestFinished, { graceMs: 30_000, media: { noMedia: true } });
    const ended: string[] = [];
    const live = await r.t.ctx.gbInvite.invite({
      deviceId: DEV,
      channelId: CH,
      session: 'Play',
      offer: { ip: '127.0.0.1', port: 40000, transport: 'udp' },
      onEnded: (reason) => ended.push(`live: ${reason}`),
    });
    const playback = await r.t.ctx.gbInvite.invite({
      deviceId: DEV,
      channelId: CH,
      session: 'Playback',
      offer: { ip: '127.0.0.1', port: 40002, transport: 'udp' },
      startTime: 1_700_000_000,
      endTime: 1_700_000_600,
      onEnded: (reason) => ended.push(`playback: ${reason}`),
    });
    const sdp = new TextDecoder().decode(r.media.invites[1].body);
    expect(sdp).toContain('s=Playback\r\n');
    expect(sdp).toContain(`u=${CH}:0\r\n`);
    expect(sdp).toContain('t=1700000000 1700000600\r\n');
    expect(playback.dialog.ssrc.text).toMatch(/^120000\d{4}$/);
    expect(header(r.media.invites[1], 'Subject')).toBe(`${CH}:${playback.dialog.ssrc.text},34020000002000000001:0`);
    expect(r.t.ctx.gbInvite.ssrcs.inUse('history')).toBe(1);

    expect((await r.media.mediaStatus(CH)).status).toBe(200);
    await until(() => ended.length === 1, 10000, { what: 'the playback to end' });
    expect(ended).toEqual(['playback: the recording reached its end (MediaStatus 121)']);
    await until(() => r.media.byes.length === 1, 10000, { what: 'its BYE' });
    expect(header(r.media.byes[0], 'Call-ID')).toBe(playback.dialog.ids.callId);
    expect(r.t.ctx.gbInvite.ssrcs.inUse('history')).toBe(0);
    expect(r.t.ctx.gbInvite.sessions()).toEqual([live.dialog]);

    await live.close();
    await live.close(); // once only
    expect(r.media.byes).toHaveLength(2);
    expect(r.t.ctx.gbInvite.sessions()).toHaveLength(0);
  });
});
