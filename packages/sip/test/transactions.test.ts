/** RFC 3261 §17 timers driven by a fake clock: retransmission schedules, time-outs and absorption. */
import { describe, expect, it } from 'vitest';
import {
  createRequest,
  DEFAULT_TIMERS,
  newBranch,
  responseTo,
  TransactionLayer,
  type SipMessage,
  type SipRequest,
  type SipResponse,
} from '../src/index.js';
import { FakeClock } from './fixtures.js';

interface Peer {
  reliable: boolean;
}

function setup(reliable: boolean) {
  const clock = new FakeClock();
  const sent: { at: number; msg: SipMessage }[] = [];
  const requests: { req: SipRequest; tx: unknown }[] = [];
  const layer = new TransactionLayer<Peer>({
    timers: clock,
    values: DEFAULT_TIMERS,
    isReliable: (p) => p.reliable,
    send: (msg) => sent.push({ at: clock.now, msg }),
    onRequest: (req, tx) => requests.push({ req, tx }),
  });
  return { clock, sent, requests, layer, peer: { reliable } };
}

function req(method: string, branch = newBranch()): SipRequest {
  return createRequest({
    method,
    uri: 'sip:34020000001320000001@3402000000',
    via: `SIP/2.0/UDP 127.0.0.1:15060;rport;branch=${branch}`,
    from: '<sip:34020000002000000001@3402000000>;tag=p1',
    to: '<sip:34020000001320000001@3402000000>',
    callId: 'call-1',
    cseq: 1,
    body: method === 'INVITE' ? 'v=0' : '',
    contentType: 'application/sdp',
  });
}
const times = (sent: { at: number; msg: SipMessage }[], pick: (m: SipMessage) => boolean) => sent.filter((s) => pick(s.msg)).map((s) => s.at);

describe('non-INVITE client transaction', () => {
  it('retransmits on E (500, 1000, 2000, 4000, 4000 …) and times out at F = 32 s', () => {
    const { clock, sent, layer, peer } = setup(false);
    let timedOut = 0;
    layer.request(req('MESSAGE'), peer, { onResponse: () => {}, onTimeout: () => timedOut++ });
    clock.advance(40_000);
    expect(times(sent, () => true)).toEqual([0, 500, 1500, 3500, 7500, 11500, 15500, 19500, 23500, 27500, 31500]);
    expect(timedOut).toBe(1);
    expect(layer.clientCount).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it('after a provisional retransmits every T2; a final ends it after K = T4, absorbing copies', () => {
    const { clock, sent, layer, peer } = setup(false);
    const got: number[] = [];
    const r = req('MESSAGE');
    layer.request(r, peer, { onResponse: (res) => got.push(res.status), onTimeout: () => {} });
    clock.advance(100);
    layer.receive(responseTo(r, 100), peer);
    clock.advance(400); // E at 500 (Proceeding → next after T2)
    clock.advance(4000);
    expect(times(sent, () => true)).toEqual([0, 500, 4500]);
    layer.receive(responseTo(r, 200, { toTag: 'd' }), peer);
    layer.receive(responseTo(r, 200, { toTag: 'd' }), peer);
    expect(got).toEqual([100, 200]);
    expect(layer.clientCount).toBe(1);
    clock.advance(5000);
    expect(layer.clientCount).toBe(0);
  });

  it('on a reliable transport sends once and ends at once after the final', () => {
    const { clock, sent, layer, peer } = setup(true);
    const r = req('MESSAGE');
    layer.request(r, peer, { onResponse: () => {}, onTimeout: () => {} });
    clock.advance(10_000);
    expect(sent).toHaveLength(1);
    layer.receive(responseTo(r, 200), peer);
    expect(layer.clientCount).toBe(0);
  });
});

describe('INVITE client transaction', () => {
  it('retransmits on A with doubling (no cap) and times out at B = 32 s', () => {
    const { clock, sent, layer, peer } = setup(false);
    let timedOut = 0;
    layer.request(req('INVITE'), peer, { onResponse: () => {}, onTimeout: () => timedOut++ });
    clock.advance(33_000);
    expect(times(sent, () => true)).toEqual([0, 500, 1500, 3500, 7500, 15500, 31500]);
    expect(timedOut).toBe(1);
  });

  it('ACKs a 486 itself, re-ACKs its retransmission, ends at D', () => {
    const { clock, sent, layer, peer } = setup(false);
    const r = req('INVITE');
    const got: number[] = [];
    layer.request(r, peer, { onResponse: (res) => got.push(res.status), onTimeout: () => {} });
    layer.receive(responseTo(r, 100), peer);
    clock.advance(5000); // no retransmission in Proceeding
    const busy = responseTo(r, 486, { toTag: 'x' });
    layer.receive(busy, peer);
    layer.receive(busy, peer);
    const acks = sent.filter((s) => s.msg.kind === 'request' && s.msg.method === 'ACK');
    expect(acks).toHaveLength(2);
    expect(acks[0].msg.headers.find((h) => h.name === 'CSeq')?.value).toBe('1 ACK');
    expect(acks[0].msg.headers.find((h) => h.name === 'To')?.value).toContain('tag=x');
    expect(got).toEqual([100, 486]);
    clock.advance(32_000);
    expect(layer.clientCount).toBe(0);
  });

  it('passes a 2xx up and ends (the ACK is the dialog layer’s)', () => {
    const { layer, peer, sent } = setup(false);
    const r = req('INVITE');
    const got: number[] = [];
    layer.request(r, peer, { onResponse: (res) => got.push(res.status), onTimeout: () => {} });
    layer.receive(responseTo(r, 200, { toTag: 'y' }), peer);
    expect(got).toEqual([200]);
    expect(layer.clientCount).toBe(0);
    expect(sent).toHaveLength(1);
  });
});

describe('server transactions', () => {
  it('non-INVITE: a retransmitted request gets the last response again, until J = 32 s', () => {
    const { clock, sent, requests, layer, peer } = setup(false);
    const r = req('MESSAGE');
    layer.receive(r, peer);
    expect(requests).toHaveLength(1);
    layer.receive(r, peer); // retransmission before the TU answered: absorbed
    expect(requests).toHaveLength(1);
    const tx = requests[0].tx as { respond(res: SipResponse): void };
    tx.respond(responseTo(r, 200));
    layer.receive(r, peer);
    expect(sent.map((s) => (s.msg as SipResponse).status)).toEqual([200, 200]);
    clock.advance(32_000);
    expect(layer.serverCount).toBe(0);
    layer.receive(r, peer); // after J: a new transaction
    expect(requests).toHaveLength(2);
  });

  it('INVITE: 100 Trying at once; a 404 is retransmitted on G until the ACK, then absorbed for I', () => {
    const { clock, sent, requests, layer, peer } = setup(false);
    const r = req('INVITE');
    layer.receive(r, peer);
    expect((sent[0].msg as SipResponse).status).toBe(100);
    const tx = requests[0].tx as { respond(res: SipResponse): void; state: string };
    tx.respond(responseTo(r, 404, { toTag: 'z' }));
    clock.advance(1600);
    expect(times(sent, (m) => m.kind === 'response' && m.status === 404)).toEqual([0, 500, 1500]);
    const ack: SipRequest = { ...r, method: 'ACK', headers: r.headers.map((h) => (h.name === 'CSeq' ? { name: 'CSeq', value: '1 ACK' } : h)) };
    layer.receive(ack, peer);
    expect(tx.state).toBe('confirmed');
    clock.advance(10_000);
    expect(times(sent, (m) => m.kind === 'response' && m.status === 404)).toHaveLength(3);
    expect(layer.serverCount).toBe(0);
    expect(requests).toHaveLength(1);
  });

  it('INVITE: gives up at H = 32 s without an ACK', () => {
    const { clock, requests, layer, peer } = setup(false);
    const r = req('INVITE');
    layer.receive(r, peer);
    (requests[0].tx as { respond(res: SipResponse): void }).respond(responseTo(r, 480, { toTag: 'z' }));
    clock.advance(32_000);
    expect(layer.serverCount).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it('CANCEL answers 200 and ends the INVITE with 487; a CANCEL of nothing gets 481', () => {
    const { sent, layer, peer } = setup(true);
    const branch = newBranch();
    const inv = req('INVITE', branch);
    layer.receive(inv, peer);
    const cancel = req('CANCEL', branch);
    layer.receive(cancel, peer);
    expect(sent.map((s) => (s.msg as SipResponse).status)).toEqual([100, 200, 487]);
    layer.receive(req('CANCEL'), peer);
    expect((sent.at(-1)!.msg as SipResponse).status).toBe(481);
  });

  it('an ACK outside any transaction (to a 2xx) goes to the TU without one', () => {
    const { requests, layer, peer } = setup(false);
    const r = req('ACK');
    layer.receive(r, peer);
    expect(requests[0].tx).toBeUndefined();
  });

  it('stop() clears every timer', () => {
    const { clock, layer, peer } = setup(false);
    layer.request(req('MESSAGE'), peer, { onResponse: () => {}, onTimeout: () => {} });
    layer.request(req('INVITE'), peer, { onResponse: () => {}, onTimeout: () => {} });
    layer.stop();
    expect(clock.pending).toBe(0);
  });
});
