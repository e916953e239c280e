/**
 * The GB28181 SIP server on ctx.gb: SIP over UDP and TCP on the SIP port (SIP_PORT, else the gb
 * Port setting), REGISTER with digest, keepalives and the online state of GB devices, and the API
 * the catalog/live/playback/PTZ/alarm features build on: sendRequest(), onMessage(cmdType),
 * onRequest(method) and device status events.
 */
import { randomBytes } from 'node:crypto';
import { DigestServer, header, newTag, responseTo, type ServerTransaction, type SipRequest, type SipResponse } from '@opencvr/sip';
import type { Kysely } from 'kysely';
import type { Config } from '../config/index.js';
import type { Database } from '../db/schema.js';
import type { ConfigStore } from '../services/config/store.js';
import type { GbLists } from '../services/gb-lists/index.js';
import type { NewsService } from '../services/news/news.js';
import type { GbConfig, GbCore, GbLog } from './core.js';
import { GbDeviceStore } from './device-store.js';
import { SipEndpoint } from './endpoint.js';
import { KeepaliveMonitor } from './keepalive.js';
import { localAddressFor } from './local-address.js';
import { handleManscdp, type InboundMessage, type MessageHandler } from './messages.js';
import { peerKey, type Peer } from './peer.js';
import { handleRegister } from './register.js';
import { DeviceRegistry, type DeviceSession } from './registry.js';
import { ack2xx, buildRequest, GbRequestError, type GbRequestOptions, type GbRequestResult } from './requests.js';
import { DeviceSerial } from './serial.js';
import { SipTransportError } from './transport-error.js';

export interface GbServiceDeps {
  settings: Pick<Config, 'host' | 'sipPort'>;
  config: ConfigStore;
  db: Kysely<Database>;
  news: NewsService;
  lists: Pick<GbLists, 'admits'>;
  log: GbLog;
}

export interface DeviceStatusEvent {
  deviceId: string;
  online: boolean;
  /** Why it went offline ('keepalive timeout', 'registration expired', 'unregistered'); '' when online. */
  reason: string;
}

export type RequestHandler = (req: SipRequest, tx: ServerTransaction | undefined, peer: Peer, session: DeviceSession | undefined) => void | Promise<void>;

export class GbService implements GbCore {
  readonly registry = new DeviceRegistry();
  readonly store: GbDeviceStore;
  readonly log: GbLog;
  private endpoint: SipEndpoint | undefined;
  private monitor: KeepaliveMonitor | undefined;
  private digestServer: DigestServer | undefined;
  private readonly digestSecret = randomBytes(32);
  private readonly serial = new DeviceSerial();
  private readonly messageHandlers = new Map<string, Set<MessageHandler>>();
  private readonly requestHandlers = new Map<string, Set<RequestHandler>>();
  private readonly statusListeners = new Set<(e: DeviceStatusEvent) => void>();
  private readonly registeredListeners = new Set<(s: DeviceSession, info: { first: boolean }) => void>();
  /** ACKs sent for 2xx to INVITE, to re-send when the device repeats its 2xx (Call-ID|CSeq → ACK). */
  private readonly acks = new Map<string, { ack: SipRequest; peer: Peer; at: number }>();
  private readonly pending = new Set<Promise<unknown>>();
  /** The finishers of requests sent and not yet answered (ended at stop()). */
  private readonly inflight = new Set<(r: GbRequestError) => void>();
  private unwatchConfig: (() => void) | undefined;

  constructor(private readonly deps: GbServiceDeps) {
    this.log = deps.log;
    this.store = new GbDeviceStore(deps.db, deps.news, deps.log);
  }

  /** The bound SIP port (0 before start). */
  get port(): number {
    return this.endpoint?.port ?? 0;
  }
  get running(): boolean {
    return !!this.endpoint;
  }

  async start() {
    if (this.endpoint) return;
    // A new Port on /config/platform/gb takes effect without a restart (SIP_PORT, when set, wins),
    // also when the old port could not be bound at start.
    this.unwatchConfig ??= this.deps.config.onChange('gb', (next, prev) => {
      if (next.Port !== prev.Port && this.deps.settings.sipPort === undefined) void this.track(this.rebind(next.Port));
    });
    const cfg = await this.gbConfig();
    const port = this.deps.settings.sipPort ?? cfg.Port;
    const endpoint = this.newEndpoint(port);
    await endpoint.start();
    this.endpoint = endpoint;
    await this.restore();
    this.monitor = new KeepaliveMonitor({
      registry: this.registry,
      rules: async () => {
        const c = await this.gbConfig();
        return { timeoutSeconds: c.KeepaliveTimeout, count: c.KeepaliveCount };
      },
      onExpired: (id) => void this.track(this.unregister(id, 'registration expired')),
      onKeepaliveLost: (id, silent) => void this.track(this.keepaliveLost(id, silent)),
      log: this.log,
    });
    this.monitor.start();
    this.log.info({ port: endpoint.port }, 'gb: SIP server listening (UDP and TCP)');
  }

  private newEndpoint(port: number): SipEndpoint {
    return new SipEndpoint({
      host: this.deps.settings.host,
      port,
      log: this.log,
      onRequest: (req, tx, peer) => this.track(this.onRequestIn(req, tx, peer)),
      onStrayResponse: (res, peer) => this.onStrayResponse(res, peer),
    });
  }

  /**
   * Moves SIP to another port: the new sockets are bound first, so a taken port leaves the old ones
   * serving (and is logged); registrations stay, devices re-register on the new port when pointed at it.
   */
  private async rebind(port: number) {
    const old = this.endpoint;
    if (!old) {
      // Not listening (the port was taken at start): try again on the new one.
      await this.start().catch((err: unknown) => this.log.warn({ err, port }, 'gb: SIP server could not start on the new port'));
      return;
    }
    if (old.port === port) return;
    const next = this.newEndpoint(port);
    try {
      await next.start();
    } catch (err) {
      this.log.warn({ err, port }, 'gb: SIP server could not move to the new port; still on the old one');
      return;
    }
    if (this.endpoint !== old) {
      await next.stop(); // stopped or moved meanwhile
      return;
    }
    this.endpoint = next;
    await old.stop();
    this.log.info({ port: next.port }, 'gb: SIP server moved to a new port (UDP and TCP)');
  }

  async stop() {
    this.unwatchConfig?.();
    this.unwatchConfig = undefined;
    await this.monitor?.stop();
    this.monitor = undefined;
    const e = this.endpoint;
    this.endpoint = undefined;
    await e?.stop();
    // Requests still waiting for a device's answer end now: a stopped endpoint never hears it, and the
    // features awaiting them (a catalog query after registration) would hold the shutdown for AckTimeout.
    for (const finish of [...this.inflight]) finish(new GbRequestError('transport', 'the GB service is stopping', { key: 'gbServiceStopping' }));
    // Database writes in flight finish before the database closes (batched keepalive times too).
    await Promise.allSettled([...this.pending]);
    await this.store.flushKeepalives();
    this.registry.clear();
    this.acks.clear();
  }

  // ---- API for the features built on the SIP server ----

  /** Handles inbound MESSAGE/NOTIFY bodies of a CmdType (case-insensitive). Returns an unsubscribe. */
  onMessage(cmdType: string, handler: MessageHandler): () => void {
    return addTo(this.messageHandlers, cmdType.toLowerCase(), handler);
  }

  /** Handles inbound requests of a method other than REGISTER/MESSAGE/NOTIFY (INVITE, BYE, INFO, ACK…). The handler answers through tx. */
  onRequest(method: string, handler: RequestHandler): () => void {
    return addTo(this.requestHandlers, method.toUpperCase(), handler);
  }

  onDeviceStatus(fn: (e: DeviceStatusEvent) => void): () => void {
    this.statusListeners.add(fn);
    return () => this.statusListeners.delete(fn);
  }

  /** Every successful REGISTER; `first` when the device was not registered before (where a catalog query hooks in). */
  onRegistered(fn: (s: DeviceSession, info: { first: boolean }) => void): () => void {
    this.registeredListeners.add(fn);
    return () => this.registeredListeners.delete(fn);
  }

  session(deviceId: string): DeviceSession | undefined {
    return this.registry.get(deviceId);
  }

  /** Sends a request to a registered device and resolves with its final response. */
  async sendRequest(deviceId: string, o: GbRequestOptions): Promise<GbRequestResult> {
    const endpoint = this.endpoint;
    const s = this.registry.get(deviceId);
    if (!endpoint || !s) throw new GbRequestError('not-registered', `device ${deviceId} is not registered`);
    const cfg = await this.gbConfig();
    const me = { serial: cfg.Serial, realm: cfg.Realm, localIp: this.localIp(s.peer, cfg), localPort: endpoint.port };
    const req = buildRequest(o, deviceId, s.peer, me, ++s.cseq);
    const timeoutMs = o.timeoutMs ?? cfg.AckTimeout * 1000;
    return new Promise<GbRequestResult>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => finish(
          new GbRequestError('timeout', `no answer from ${deviceId} to ${o.method} within ${timeoutMs} ms`, { key: 'gbNoAnswerWithin', vars: { method: o.method, ms: timeoutMs } }),
        ), timeoutMs);
      timer.unref();
      const finish = (r: GbRequestError | SipResponse) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.inflight.delete(finish);
        if (r instanceof GbRequestError) reject(r);
        else resolve({ request: req, response: r });
      };
      this.inflight.add(finish);
      endpoint.request(req, s.peer, {
        onResponse: (res) => {
          if (res.status < 200) return;
          if (req.method === 'INVITE' && res.status < 300) this.ackInvite(req, res, s.peer);
          finish(res);
        },
        onTimeout: () => finish(new GbRequestError('timeout', `no answer from ${deviceId} to ${o.method} (transaction timed out)`, { key: 'gbTransactionTimeout', vars: { method: o.method } })),
        // Why, for the user: the transport's own reason, else the OS code (its English message is the log's).
        onTransportError: (err) =>
          finish(
            new GbRequestError(
              'transport',
              `cannot send to ${deviceId}: ${err.message}`,
              err instanceof SipTransportError ? err.why : { key: 'gbCannotSend', vars: { detail: (err as NodeJS.ErrnoException).code ?? err.message } },
            ),
          ),
      });
    });
  }

  // ---- GbCore (used by the request handlers) ----

  gbConfig(): Promise<GbConfig> {
    return this.deps.config.get('gb');
  }
  admits(deviceId: string, ip: string) {
    return this.deps.lists.admits(deviceId, ip);
  }
  digest(realm: string): DigestServer {
    if (this.digestServer?.realm !== realm) this.digestServer = new DigestServer({ realm, secret: this.digestSecret });
    return this.digestServer;
  }
  toTag(): string {
    return newTag();
  }

  async registered(r: { deviceId: string; peer: Peer; contact: string; expires: number }) {
    await this.serial.run(r.deviceId, async () => {
      const now = Date.now();
      const prev = this.registry.get(r.deviceId);
      const session: DeviceSession = {
        deviceId: r.deviceId,
        peer: r.peer,
        contact: r.contact,
        registeredAt: now,
        expiresAt: now + r.expires * 1000,
        keepaliveAt: now,
        online: true,
        cseq: prev?.cseq ?? 0,
      };
      this.registry.set(session);
      const cfg = await this.gbConfig();
      await this.store.registered({
        ...r,
        localIp: this.localIp(r.peer, cfg),
        registeredAt: new Date(now),
        expiresAt: new Date(session.expiresAt),
      });
      if (!prev?.online) this.emitStatus({ deviceId: r.deviceId, online: true, reason: '' });
      if (!prev || peerKey(prev.peer) !== peerKey(r.peer)) this.log.info({ device: r.deviceId, peer: r.peer, expires: r.expires }, 'gb: device registered');
      for (const fn of this.registeredListeners) safe(() => fn(session, { first: !prev }), this.log);
    });
  }

  async unregister(deviceId: string, reason: string) {
    await this.serial.run(deviceId, async () => {
      const s = this.registry.get(deviceId);
      // Expiry seen by the sweep, but a REGISTER renewed it meanwhile: nothing to do.
      if (reason === 'registration expired' && s && s.expiresAt > Date.now()) return;
      this.registry.delete(deviceId);
      await this.store.unregistered(deviceId, reason);
      if (s?.online) this.emitStatus({ deviceId, online: false, reason });
      this.log.info({ device: deviceId, reason }, 'gb: device unregistered');
    });
  }

  async keepalive(deviceId: string, peer: Peer) {
    await this.serial.run(deviceId, async () => {
      const s = this.registry.get(deviceId);
      if (!s) return;
      const now = Date.now();
      s.keepaliveAt = now;
      // A device behind NAT may come back from another port: follow it (UDP only; TCP is its connection).
      if (peer.transport === s.peer.transport && peerKey(peer) !== peerKey(s.peer)) s.peer = peer;
      this.store.keepalive(deviceId, new Date(now));
      if (!s.online) {
        s.online = true;
        await this.store.setOnline(deviceId, true, '');
        this.emitStatus({ deviceId, online: true, reason: '' });
        this.log.info({ device: deviceId }, 'gb: device back online (keepalive)');
      }
    });
  }

  private async keepaliveLost(deviceId: string, silentSeconds: number) {
    await this.serial.run(deviceId, async () => {
      const s = this.registry.get(deviceId);
      const cfg = await this.gbConfig();
      if (!s || !s.online || Date.now() - s.keepaliveAt <= cfg.KeepaliveTimeout * cfg.KeepaliveCount * 1000) return;
      s.online = false;
      const reason = 'keepalive timeout';
      await this.store.setOnline(deviceId, false, reason);
      this.emitStatus({ deviceId, online: false, reason });
      this.log.info({ device: deviceId, silentSeconds }, 'gb: device offline (keepalives missed)');
    });
  }

  // ---- inbound ----

  private async onRequestIn(req: SipRequest, tx: ServerTransaction | undefined, peer: Peer) {
    if (!tx) {
      // An ACK to a 2xx (INVITE answered by a handler): the dialog's owner may want it.
      for (const h of this.requestHandlers.get(req.method) ?? []) await h(req, undefined, peer, this.sessionFor(req));
      return;
    }
    try {
      switch (req.method) {
        case 'REGISTER':
          return await handleRegister(this, req, tx, peer);
        case 'MESSAGE':
        case 'NOTIFY':
          return await handleManscdp(this, req, tx, peer, (m) => this.dispatch(m));
        case 'OPTIONS':
          return tx.respond(responseTo(req, 200, { toTag: newTag(), headers: [{ name: 'Allow', value: 'REGISTER, MESSAGE, NOTIFY, INVITE, ACK, BYE, CANCEL, INFO, SUBSCRIBE, OPTIONS' }] }));
      }
      const handlers = this.requestHandlers.get(req.method);
      if (!handlers?.size) {
        return tx.respond(responseTo(req, req.method === 'BYE' ? 481 : 405, { toTag: newTag() }));
      }
      for (const h of handlers) await h(req, tx, peer, this.sessionFor(req));
    } catch (err) {
      this.log.warn({ err, method: req.method, peer }, 'gb: request failed');
      tx.respond(responseTo(req, 500, { toTag: newTag() }));
    }
  }

  private dispatch(m: InboundMessage) {
    const handlers = this.messageHandlers.get(m.cmdType.toLowerCase());
    if (!handlers?.size) {
      this.log.debug({ device: m.deviceId, cmdType: m.cmdType }, 'gb: message without a handler');
      return;
    }
    for (const h of handlers) {
      this.track(
        Promise.resolve()
          .then(() => h(m))
          .catch((err) => this.log.warn({ err, device: m.deviceId, cmdType: m.cmdType }, 'gb: message handler failed')),
      );
    }
  }

  private onStrayResponse(res: SipResponse, peer: Peer) {
    // A repeated 2xx to an INVITE whose transaction has ended: the ACK was lost, send it again.
    const key = `${header(res, 'Call-ID')}|${(header(res, 'CSeq') ?? '').split(/\s+/)[0]}`;
    const sent = this.acks.get(key);
    if (res.status >= 200 && res.status < 300 && sent) this.sendQuietly(sent.ack, peer);
  }

  private ackInvite(invite: SipRequest, res: SipResponse, peer: Peer) {
    const ack = ack2xx(invite, res);
    this.sendQuietly(ack, peer);
    const now = Date.now();
    for (const [k, v] of this.acks) if (now - v.at > 64_000) this.acks.delete(k);
    this.acks.set(`${header(invite, 'Call-ID')}|${(header(invite, 'CSeq') ?? '').split(/\s+/)[0]}`, { ack, peer, at: now });
  }

  // ---- helpers ----

  private sendQuietly(msg: SipRequest, peer: Peer) {
    try {
      this.endpoint?.sendRaw(msg, peer);
    } catch (err) {
      // The device's TCP connection is gone: it will register again.
      this.log.debug({ err, peer }, 'gb: cannot send');
    }
  }

  private sessionFor(req: SipRequest): DeviceSession | undefined {
    const from = header(req, 'From') ?? '';
    const m = /sip:(\d{20})@/.exec(from);
    return m ? this.registry.get(m[1]) : undefined;
  }

  private localIp(peer: Peer, cfg: GbConfig) {
    return localAddressFor(peer.address, cfg.Host, this.deps.settings.host);
  }

  private emitStatus(e: DeviceStatusEvent) {
    for (const fn of this.statusListeners) safe(() => fn(e), this.log);
  }

  /** Registrations still valid in the database are taken back after a restart (UDP devices keep working). */
  private async restore() {
    const now = new Date();
    const rows = await this.store.listRegistered(now);
    for (const r of rows) {
      if (r.sip_transport !== 'UDP' && r.sip_transport !== 'TCP') continue;
      this.registry.set({
        deviceId: r.device_id,
        peer: { transport: r.sip_transport, address: r.sip_remote_ip, port: r.sip_remote_port },
        contact: r.contact,
        registeredAt: Date.parse(r.registered_at) || now.getTime(),
        expiresAt: Date.parse(r.register_expires_at),
        // A grace period: the device has had no chance to reach a server that was down.
        keepaliveAt: now.getTime(),
        online: true,
        cseq: 0,
      });
    }
    const stale = await this.store.listStaleOnline(rows.map((r) => r.device_id));
    for (const s of stale) await this.store.setOnline(s.device_id, false, 'registration expired');
    if (rows.length) this.log.info({ devices: rows.length }, 'gb: registrations restored');
  }

  private track<T>(p: Promise<T>): Promise<T> {
    const wrapped = p.catch((err) => {
      this.log.warn({ err }, 'gb: background task failed');
    }) as Promise<T>;
    this.pending.add(wrapped);
    void wrapped.finally(() => this.pending.delete(wrapped));
    return wrapped;
  }
}

function addTo<K, V>(map: Map<K, Set<V>>, key: K, v: V): () => void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(v);
  return () => set.delete(v);
}

function safe(fn: () => void, log: GbLog) {
  try {
    fn();
  } catch (err) {
    log.warn({ err }, 'gb: listener failed');
  }
}
