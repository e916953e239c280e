/**
 * PTZ of ONVIF channels (issue 4): continuous moves and stop, and presets, through the channel's ONVIF
 * service URL (or its device's address and port), with the channel's or the device's credentials.
 * A GB28181 channel goes to gb-ptz.ts instead (DeviceControl PTZCmd; presets numbered 1-255).
 * Any user who may see the channel may steer it (the role check of the stream calls).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { schemaReason } from '../../http/zod-reason.js';
import type { AppContext } from '../../context.js';
import type { Channel, Device } from '../../db/schema.js';
import { v1 } from '../../http/envelope.js';
import { ApiError, invalidParam } from '../../http/errors.js';
import { scopeOf } from '../../services/inventory/scope.js';
import { OnvifError } from '../../access/onvif/probe.js';
import { ptz, PTZ_DIRECTIONS, type PtzTarget } from '../../access/onvif/ptz.js';
import { channelId, deviceId } from './inventory-schemas.js';
import { CONSOLE_PTZ_COMMANDS } from '@opencvr/manscdp';
import { gbDragZoomRoutes, GbPtzCalls } from './gb-ptz.js';

const tags = ['ptz'];
const target = z.object({ device: deviceId, channel: channelId });
const speed = z.coerce.number().int().min(1).max(100).default(50);
/** Preset tokens are the device's identifiers: letters, digits and a few separators. */
const token = z.string().trim().min(1).max(64).regex(/^[\w.:-]+$/, schemaReason('allowedChars', { chars: '_ . : -' }));

/** Where and as whom to reach a channel's PTZ service. */
export function ptzTarget(d: Device, c: Channel): PtzTarget | undefined {
  const creds = {
    username: c.username || d.device_username || undefined,
    password: c.password || d.device_password || undefined,
  };
  if (/^https?:\/\//i.test(c.onvif)) {
    try {
      const u = new URL(c.onvif);
      return {
        hostname: u.hostname.replace(/^\[|\]$/g, ''),
        port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)),
        path: u.pathname && u.pathname !== '/' ? u.pathname : undefined,
        username: decodeURIComponent(u.username) || creds.username,
        password: decodeURIComponent(u.password) || creds.password,
      };
    } catch {
      return undefined;
    }
  }
  if (d.device_type !== 'ONVIF' || !d.device_ip) return undefined;
  return { hostname: d.device_ip, port: d.device_port || 80, ...creds };
}

const isDirection = (c: string): c is (typeof PTZ_DIRECTIONS)[number] => (PTZ_DIRECTIONS as readonly string[]).includes(c);

export async function ptzRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { channels, devices } = ctx.inventory;
  const gb = new GbPtzCalls(ctx, app.log);
  gbDragZoomRoutes(app, gb);

  async function resolve(req: FastifyRequest, q: z.infer<typeof target>) {
    const c = await channels.requireVisible(await scopeOf(ctx.db, req.user!), q.device, q.channel);
    const d = await devices.require(q.device);
    const t = ptzTarget(d, c);
    if (!t) throw new ApiError(400, 'ptzNotSupported');
    return t;
  }

  async function onDevice<T>(t: PtzTarget, fn: () => Promise<T>): Promise<T> {
    const address = t.port === 80 ? t.hostname : `${t.hostname}:${t.port}`;
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof OnvifError)) throw err;
      switch (err.kind) {
        case 'timeout':
          throw new ApiError(504, 'onvifTimeout', { address, ms: t.timeoutMs ?? 5000 });
        case 'auth':
          throw new ApiError(400, 'onvifAuthFailed', { address });
        case 'unreachable':
          throw new ApiError(502, 'onvifUnreachable', { address, reason: err.why ?? err.detail });
        default:
          throw new ApiError(502, 'onvifNotOnvif', { address, reason: err.why ?? err.detail.slice(0, 200) });
      }
    }
  }

  r.get(
    '/api/v1/ptzcontrol',
    { schema: { tags, querystring: target.extend({ command: z.enum(CONSOLE_PTZ_COMMANDS), speed }) } },
    async (req) => {
      const q = req.query;
      const g = await gb.target(req, q);
      if (g) {
        await gb.command(g, q.command, q.speed);
        return v1('MSG_SC_PTZ_CONTROL_ACK', { Command: q.command, Speed: q.speed });
      }
      const t = await resolve(req, q);
      const command = q.command;
      if (command !== 'stop' && !isDirection(command))
        throw invalidParam('command', 'notOnOnvif', { command });
      await onDevice(t, () => (command === 'stop' ? ptz.stop(t) : ptz.move(t, command, q.speed)));
      return v1('MSG_SC_PTZ_CONTROL_ACK', { Command: q.command, Speed: q.speed });
    },
  );

  r.get('/api/v1/onvifgetpresetlist', { schema: { tags, querystring: target } }, async (req) => {
    const g = await gb.target(req, req.query);
    if (g) {
      const presets = await gb.presets(g);
      return v1('MSG_SC_PTZ_PRESET_LIST_ACK', { PresetCount: presets.length, Presets: presets });
    }
    const t = await resolve(req, req.query);
    const presets = await onDevice(t, () => ptz.presets(t));
    return v1('MSG_SC_PTZ_PRESET_LIST_ACK', { PresetCount: presets.length, Presets: presets });
  });

  r.get(
    '/api/v1/onvifsetpreset',
    { schema: { tags, querystring: target.extend({ name: z.string().trim().min(1).max(64), token: token.optional() }) } },
    async (req) => {
      const g = await gb.target(req, req.query);
      if (g) {
        // A GB preset has no name on the device: the number is the token.
        const n = gb.presetNumber(req.query.token);
        await gb.preset(g, 'set', n);
        return v1('MSG_SC_PTZ_SET_PRESET_ACK', { Token: String(n), Name: req.query.name });
      }
      const t = await resolve(req, req.query);
      // ONVIF (PTZ service, SetPreset): a token names an existing preset to overwrite, and a new one
      // is asked for without a token, the device naming it. The console saves under a number: a
      // number that is none of the device's presets yet creates one (a camera answers an unknown
      // token with the NoToken fault, so nothing could be added).
      const asked = req.query.token;
      const overwrite = asked !== undefined && (await onDevice(t, () => ptz.presets(t))).some((p) => p.Token === asked);
      const { Token } = await onDevice(t, () => ptz.setPreset(t, req.query.name, overwrite ? asked : undefined));
      return v1('MSG_SC_PTZ_SET_PRESET_ACK', { Token, Name: req.query.name });
    },
  );

  r.get('/api/v1/onvifgotopreset', { schema: { tags, querystring: target.extend({ token, speed: speed.optional() }) } }, async (req) => {
    const g = await gb.target(req, req.query);
    if (g) {
      await gb.preset(g, 'goto', gb.presetNumber(req.query.token));
      return v1('MSG_SC_PTZ_GOTO_PRESET_ACK', { Token: req.query.token });
    }
    const t = await resolve(req, req.query);
    await onDevice(t, () => ptz.gotoPreset(t, req.query.token, req.query.speed));
    return v1('MSG_SC_PTZ_GOTO_PRESET_ACK', { Token: req.query.token });
  });

  r.get('/api/v1/onvifremovepreset', { schema: { tags, querystring: target.extend({ token }) } }, async (req) => {
    const g = await gb.target(req, req.query);
    if (g) {
      await gb.preset(g, 'delete', gb.presetNumber(req.query.token));
      return v1('MSG_SC_PTZ_REMOVE_PRESET_ACK', { Token: req.query.token });
    }
    const t = await resolve(req, req.query);
    await onDevice(t, () => ptz.removePreset(t, req.query.token));
    return v1('MSG_SC_PTZ_REMOVE_PRESET_ACK', { Token: req.query.token });
  });
}
