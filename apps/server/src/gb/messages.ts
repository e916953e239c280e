/**
 * Inbound MESSAGE and NOTIFY with a MANSCDP body. Only registered devices are heard: a device the
 * platform does not know gets 404, a known one that is not registered gets 403 (both make a camera
 * register again). Keepalive is handled here before its 200; every other CmdType is answered 200 at
 * once (devices expect a quick answer) and then goes to the handlers registered for it.
 */
import { decodeManscdp, type ManscdpMessage } from '@opencvr/manscdp';
import { header, responseTo, userOf, type ServerTransaction, type SipRequest } from '@opencvr/sip';
import type { GbCore } from './core.js';
import { readPlainKeepalive } from './keepalive-body.js';
import type { Peer } from './peer.js';

export interface InboundMessage {
  /** The sender (From user): the device, or the platform for cascaded platforms. */
  deviceId: string;
  method: 'MESSAGE' | 'NOTIFY';
  cmdType: string;
  message: ManscdpMessage;
  /** The body as received (its charset in `charset`). */
  body: Uint8Array;
  charset: string;
  request: SipRequest;
  peer: Peer;
}

export type MessageHandler = (m: InboundMessage) => void | Promise<void>;

export async function handleManscdp(
  core: GbCore,
  req: SipRequest,
  tx: ServerTransaction,
  peer: Peer,
  dispatch: (m: InboundMessage) => void,
) {
  const answer = (status: number, reason?: string) => tx.respond(responseTo(req, status, { toTag: core.toTag(), reason }));
  const deviceId = userOf(header(req, 'From'));
  const session = deviceId ? core.registry.get(deviceId) : undefined;
  if (!deviceId || !session) {
    const known = deviceId ? await core.store.get(deviceId) : undefined;
    return known ? answer(403, 'Forbidden (not registered)') : answer(404, 'Not Found (unknown device)');
  }
  const type = (header(req, 'Content-Type') ?? '').toLowerCase();
  if (type && !type.includes('manscdp') && !type.includes('xml')) return answer(415);
  // Most of the traffic: the plain keepalive shape is read without the XML parser (keepalive-body.ts).
  if (readPlainKeepalive(req.body)) return keepalive(core, deviceId, peer, answer);
  const decoded = decodeManscdp(req.body);
  if (!decoded.ok) {
    core.log.debug({ device: deviceId, err: decoded.error.message }, 'gb: undecodable MANSCDP body');
    return answer(400, `Bad Request (${decoded.error.code})`);
  }
  const message = decoded.message;
  if (message.kind === 'keepalive') return keepalive(core, deviceId, peer, answer);
  answer(200);
  dispatch({
    deviceId,
    method: req.method as 'MESSAGE' | 'NOTIFY',
    cmdType: message.cmdType,
    message,
    body: req.body,
    charset: decoded.readAs,
    request: req,
    peer,
  });
}

async function keepalive(core: GbCore, deviceId: string, peer: Peer, answer: (status: number) => void) {
  // Refreshed (and back online) before the 200: a device that got its answer is online.
  await core.keepalive(deviceId, peer);
  answer(200);
}
