/**
 * The last English that could reach a user on the GB28181 paths: a device that goes offline for a
 * reason without a catalogue text, a device session that ends without one, and a media socket error
 * without an OS code. The user reads a catalogue reason in their language; the words go to the log.
 */
import type dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { reason, type Reason } from '@opencvr/shared';
import { offlineReason } from '../../src/gb/invite/client.js';
import { RtpPortPool, RtpReceiver } from '../../src/gb/media/index.js';
import { activeConnectReason } from '../../src/gb/media/socket-reasons.js';
import { freePort } from '../fixtures/camera.js';

const render = (why: Reason, lang: 'zh-CN' | 'en-US') => reason(why.key, lang, why.vars);

describe('a device offline or a session ended without words of the catalogue', () => {
  it('the known offline reasons keep their own text; any other words are not shown', () => {
    expect(offlineReason('keepalive timeout')).toEqual({ key: 'gbOfflineKeepalive' });
    const why = offlineReason('the power went out at the substation');
    expect(why).toEqual({ key: 'gbDeviceWentOffline' });
    expect(render(why, 'zh-CN')).toBe('设备已离线');
    expect(render(why, 'en-US')).toBe('the device went offline');
  });

  it('gbSessionEnded takes no words', () => {
    expect(render({ key: 'gbSessionEnded' }, 'zh-CN')).toBe('设备的媒体会话已结束');
    expect(render({ key: 'gbSessionEnded', vars: { detail: 'BYE' } }, 'zh-CN')).not.toContain('BYE');
  });
});

describe('a GB media socket error', () => {
  const receivers: RtpReceiver[] = [];
  afterEach(() => {
    for (const r of receivers.splice(0)) r.close();
  });

  /** A bound UDP receiver, started; its socket's error, its failure and its log. */
  async function receiver() {
    const base = await freePort();
    const logged: string[] = [];
    const r = await RtpReceiver.open({
      transport: 'udp',
      pool: new RtpPortPool(() => ({ min: base, max: base + 10 })),
      bindHost: '127.0.0.1',
      announcedIp: '127.0.0.1',
      firstPacketTimeoutMs: 60_000,
      log: { info: () => undefined, warn: (o) => logged.push(JSON.stringify(o)) },
    });
    receivers.push(r);
    const failures: { words: string; why: Reason }[] = [];
    r.start({}, { packet: () => undefined, failed: (words, why) => failures.push({ words, why }) });
    const socket = (r as unknown as { udp: dgram.Socket }).udp;
    return { r, socket, failures, logged };
  }

  it('with an OS code: the code, which reads the same in every language', async () => {
    const { r, socket, failures } = await receiver();
    socket.emit('error', Object.assign(new Error('recv ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    expect(failures).toHaveLength(1);
    expect(failures[0].why).toEqual({ key: 'gbMediaSocketError', vars: { where: `UDP ${r.port}`, code: 'ECONNREFUSED' } });
  });

  it('without one: where, and that the log has the details; the message is logged, not shown', async () => {
    const { r, socket, failures, logged } = await receiver();
    socket.emit('error', new Error('something broke in the socket layer'));
    expect(failures).toHaveLength(1);
    const why = failures[0].why;
    expect(why).toEqual({ key: 'gbMediaSocketFailedSeeLog', vars: { where: `UDP ${r.port}` } });
    expect(render(why, 'zh-CN')).toBe(`媒体连接出错（UDP ${r.port}，详情见服务器日志）`);
    expect(render(why, 'en-US')).not.toContain('something broke');
    expect(logged.join('\n')).toContain('something broke in the socket layer');
  });

  it('TCP active: connecting to the device without an OS code says where, not the message', () => {
    const why = activeConnectReason(new Error('socket hang up somewhere'), '10.0.0.9:6000');
    expect(why).toEqual({ key: 'gbTcpActiveFailedSeeLog', vars: { address: '10.0.0.9:6000' } });
    expect(render(why, 'zh-CN')).toBe('TCP主动模式：连接设备的媒体地址 10.0.0.9:6000 失败（详情见服务器日志）');
    expect(activeConnectReason(Object.assign(new Error('x'), { code: 'EHOSTUNREACH' }), '10.0.0.9:6000').vars).toEqual({ address: '10.0.0.9:6000', code: 'EHOSTUNREACH' });
  });
});
