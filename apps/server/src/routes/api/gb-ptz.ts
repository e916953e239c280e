/**
 * PTZ of GB28181 channels behind the console's PTZ calls: ptzcontrol and the preset calls (named
 * onvif* after EasyCVR, routed here for a GB channel by routes/api/ptz.ts), and the GB-only drag
 * zoom (`dragzoomin/control`, `dragzoomout/control`): a rectangle drawn on the picture, in the
 * picture's pixels as the viewer shows it (Length × Width), centre MidPointX/Y, size LengthX/Y.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ManscdpError, type ConsolePtzCommand } from '@opencvr/manscdp';
import type { AppContext } from '../../context.js';
import { GB_DEVICE_TYPE } from '../../gb/media/index.js';
import { GbPtz } from '../../gb/ptz.js';
import { v1 } from '../../http/envelope.js';
import { invalidParam } from '../../http/errors.js';
import { scopeOf } from '../../services/inventory/scope.js';
import { gbFailure } from './gb-devices.js';
import { channelId, deviceId } from './inventory-schemas.js';

const tags = ['ptz'];
const target = z.object({ device: deviceId, channel: channelId });
/** GB presets are numbers (PTZCmd data2): the preset calls' token. */
export const GB_PRESET = z.coerce.number().int().min(1).max(255);

export interface GbChannelRef {
  device: string;
  channel: string;
}

/** The GB side of the PTZ calls: resolves the channel, sends, turns device failures into answers. */
export class GbPtzCalls {
  readonly ptz: GbPtz;

  constructor(
    private readonly ctx: AppContext,
    /** Where an encoder's own words go (the user gets a reason in their language). */
    private readonly log: { warn(obj: object, msg: string): void },
  ) {
    this.ptz = new GbPtz(ctx.gbDevices.client, () => ctx.gb.gbConfig());
    this.ptz.start();
  }

  /** The channel when the user may see it and it belongs to a GB28181 device; undefined for other devices. */
  async target(req: FastifyRequest, q: GbChannelRef): Promise<GbChannelRef | undefined> {
    const { channels, devices } = this.ctx.inventory;
    await channels.requireVisible(await scopeOf(this.ctx.db, req.user!), q.device, q.channel);
    const d = await devices.require(q.device);
    return d.device_type === GB_DEVICE_TYPE ? { device: q.device, channel: q.channel } : undefined;
  }

  command(t: GbChannelRef, command: ConsolePtzCommand, speed: number) {
    return this.run(t, () => this.ptz.command(t.device, t.channel, command, speed));
  }

  preset(t: GbChannelRef, op: 'set' | 'goto' | 'delete', preset: number) {
    return this.run(t, () => this.ptz.preset(t.device, t.channel, op, preset));
  }

  async presets(t: GbChannelRef) {
    const list = await this.run(t, () => this.ptz.presets(t.device, t.channel));
    return list.map((p) => ({ Token: String(p.presetId), Name: p.presetName ?? '' }));
  }

  /** A preset token as a GB preset number, or a 400 that says so. */
  presetNumber(token: string | undefined): number {
    const n = GB_PRESET.safeParse(token);
    if (!n.success) throw invalidParam('token', 'gbPreset');
    return n.data;
  }

  async run<T>(t: GbChannelRef, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      // The encoder's words (MidPointX, PTZ speed …) are English and the log's; the user is told in their language.
      if (err instanceof ManscdpError) {
        this.log.warn({ device: t.device, channel: t.channel, err: err.message }, 'gb ptz: cannot make the command');
        throw invalidParam('command', 'gbCommandInvalid');
      }
      throw gbFailure(err, t.device);
    }
  }
}

const zoomQuery = target.extend({
  length: z.coerce.number().int().min(1).max(100000),
  width: z.coerce.number().int().min(1).max(100000),
  midpointx: z.coerce.number().int().min(0).max(100000),
  midpointy: z.coerce.number().int().min(0).max(100000),
  lengthx: z.coerce.number().int().min(0).max(100000),
  lengthy: z.coerce.number().int().min(0).max(100000),
});

/** dragzoomin/control and dragzoomout/control (registered by ptzRoutes, which owns the GbPtzCalls). */
export function gbDragZoomRoutes(app: FastifyInstance, calls: GbPtzCalls) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const direction of ['in', 'out'] as const) {
    r.get(`/api/v1/dragzoom${direction}/control`, { schema: { tags, querystring: zoomQuery } }, async (req) => {
      const q = req.query;
      const t = await calls.target(req, q);
      if (!t) throw invalidParam('channel', 'dragZoomGbOnly');
      if (q.midpointx > q.length || q.lengthx > q.length || q.midpointy > q.width || q.lengthy > q.width)
        throw invalidParam('midpointx', 'rectangleInPicture');
      await calls.run(t, () =>
        calls.ptz.dragZoom(t.device, t.channel, direction, {
          length: q.length,
          width: q.width,
          midPointX: q.midpointx,
          midPointY: q.midpointy,
          lengthX: q.lengthx,
          lengthY: q.lengthy,
        }),
      );
      return v1(`MSG_SC_PTZ_DRAG_ZOOM_${direction.toUpperCase()}_ACK`, { DeviceID: q.device, ChannelID: q.channel });
    });
  }
}
