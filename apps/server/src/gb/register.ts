/**
 * REGISTER (GB/T 28181-2016 §9.1): list check, 401 digest challenge, verification against the
 * device's own password (DeviceUserPW) or the global one, 403 on wrong credentials, Expires 0 to
 * unregister, 200 with a GB Date header. The device row is created on its first success.
 */
import { DigestServer, header, parseNameAddr, parseUri, parseVia, responseTo, headerAll, type ServerTransaction, type SipRequest } from '@opencvr/sip';
import { isDeviceId } from '@opencvr/manscdp';
import type { GbCore } from './core.js';
import { gbDate } from './gb-time.js';
import type { Peer } from './peer.js';

/** Asked lifetime: Expires header, else the Contact's ;expires, else 3600. */
export function requestedExpires(req: SipRequest): number | undefined {
  const h = header(req, 'Expires');
  if (h !== undefined) return /^\d{1,10}$/.test(h.trim()) ? Number(h.trim()) : undefined;
  const contact = parseNameAddr(header(req, 'Contact') ?? '');
  const e = contact?.params.expires;
  if (e != null) return /^\d{1,10}$/.test(e) ? Number(e) : undefined;
  return 3600;
}

export async function handleRegister(core: GbCore, req: SipRequest, tx: ServerTransaction, peer: Peer) {
  const answer = (status: number, extra: { name: string; value: string }[] = [], reason?: string) =>
    tx.respond(responseTo(req, status, { toTag: core.toTag(), headers: extra, reason }));
  const from = parseNameAddr(header(req, 'From') ?? '');
  const deviceId = from ? parseUri(from.uri)?.user : undefined;
  if (!deviceId || !isDeviceId(deviceId)) return answer(400, [], 'Bad Request (From is not a 20-digit device ID)');
  const expires = requestedExpires(req);
  if (expires === undefined) return answer(400, [], 'Bad Request (Expires)');
  const cfg = await core.gbConfig();

  const admission = await core.admits(deviceId, peer.address);
  if (admission !== 'ok') {
    core.log.info({ device: deviceId, peer, admission }, 'gb: registration refused by the lists');
    return answer(403, [], admission === 'black' ? 'Forbidden (blacklisted)' : 'Forbidden (not in whitelist)');
  }
  const device = await core.store.get(deviceId);
  if (device && device.device_type !== 'GB28181') return answer(403, [], 'Forbidden (ID taken by another device)');
  if (device && !device.enable) return answer(403, [], 'Forbidden (device disabled)');

  const digest = core.digest(cfg.Realm);
  const authorization = header(req, 'Authorization');
  if (!authorization) return answer(401, [{ name: 'WWW-Authenticate', value: digest.challenge() }]);
  const password = device?.device_password || cfg.DevicePassword;
  const verdict = digest.verify(authorization, 'REGISTER', password);
  if (verdict === 'stale') return answer(401, [{ name: 'WWW-Authenticate', value: digest.challenge(true) }]);
  if (verdict !== 'ok') {
    core.log.info({ device: deviceId, peer, verdict }, 'gb: registration with wrong credentials');
    return answer(403, [], 'Forbidden (wrong credentials)');
  }

  const dateHeader = { name: 'Date', value: gbDate() };
  if (expires === 0) {
    await core.unregister(deviceId, 'unregistered');
    return answer(200, [dateHeader, { name: 'Expires', value: '0' }]);
  }
  const granted = Math.min(expires, cfg.RegisterExpires);
  const via = parseVia(headerAll(req, 'Via')[0] ?? '');
  const transport = peer.transport === 'TCP' || via?.transport === 'TCP' ? 'TCP' : 'UDP';
  if (!device) await core.store.create(deviceId, transport);
  await core.registered({ deviceId, peer, contact: header(req, 'Contact') ?? '', expires: granted });
  const contact = header(req, 'Contact');
  answer(200, [dateHeader, ...(contact ? [{ name: 'Contact', value: contact }] : []), { name: 'Expires', value: String(granted) }]);
}

export type { DigestServer };
