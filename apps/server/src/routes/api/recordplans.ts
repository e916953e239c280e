/**
 * Record plans and the record folder (issue 5, the /config/recording and /config/program pages):
 * recordplanlist, setrecordplan (create or update), recordplaninfo, delrecordplan, checkpush (checks
 * a schedule without saving and answers its per-day lists), recordpath GET/POST. Administrators only.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ScheduleError, toDayLists, type WeeklySchedule } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import { v1 } from '../../http/envelope.js';
import { duplicate, invalidParam, notFound } from '../../http/errors.js';
import { flag, id, text } from '../../http/schemas.js';
import type { PlanView } from '../../services/recording/plans.js';
import { isSystemFolder, recordRoot } from '../../services/recording/paths.js';
import { statfsFree } from '../../services/recording/retention.js';
import { refIn } from './records.js';

const tags = ['recordplans'];
const admin = { access: 'admin' as const };

/** The weekly form as an object or as its JSON text (form-encoded posts). */
const scheduleField = z.union([z.string().max(100_000), z.record(z.string(), z.unknown())]);
/** Channels as "dev:chn,dev:chn", a JSON array of such strings, or of {DeviceID, ChannelID}. */
const channelsField = z.union([z.string().max(100_000), z.array(z.union([z.string(), z.object({ DeviceID: z.string(), ChannelID: z.string() })])).max(10_000)]);

function parseSchedule(v: unknown): WeeklySchedule {
  let obj = v;
  if (typeof v === 'string') {
    try {
      obj = JSON.parse(v);
    } catch {
      throw invalidParam('schedule', 'notJson');
    }
  }
  try {
    toDayLists(obj);
  } catch (err) {
    if (err instanceof ScheduleError) throw invalidParam('schedule', err.reason.key, err.reason.vars);
    throw err;
  }
  return obj as WeeklySchedule;
}

function parseChannels(v: z.infer<typeof channelsField> | undefined): { device: string; channel: string }[] {
  if (v === undefined) return [];
  let list: unknown = v;
  if (typeof v === 'string') {
    const s = v.trim();
    if (!s) return [];
    if (s.startsWith('[')) {
      try {
        list = JSON.parse(s);
      } catch {
        throw invalidParam('channels', 'notJson');
      }
    } else list = s.split(',').map((x) => x.trim()).filter(Boolean);
  }
  if (!Array.isArray(list)) throw invalidParam('channels', 'channelRefList');
  return list.map((x) => refIn('channels', typeof x === 'string' ? x : `${String(x?.DeviceID ?? '')}:${String(x?.ChannelID ?? '')}`));
}

const planInput = z.object({
  id: id.optional(),
  name: text(128).pipe(z.string().min(1)),
  schedule: scheduleField,
  save_days: z.coerce.number().int().min(1).max(3650).default(30),
  enable: flag.default(true),
  channels: channelsField.optional(),
  /** 1: also turn on the recording switch (EnableRecord) of the plan's channels that have it off. */
  enable_record: flag.optional(),
});

/** The size in bytes of the file system holding `abs` (its nearest existing folder), undefined when unreadable. */
function diskSize(abs: string): number | undefined {
  for (let p = abs; ; p = path.dirname(p)) {
    try {
      const s = fs.statfsSync(p);
      return Number(s.blocks) * Number(s.bsize);
    } catch {
      if (p === path.dirname(p)) return undefined;
    }
  }
}

export async function recordPlanRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const plans = ctx.recording.plans;

  /**
   * A plan as the list shows it: its channels counted, not listed. A "record everything" plan holds
   * every camera of the site, and the list carried each plan's channel rows for a count: 830 kB for
   * three plans of 2,000 channels (session 25); recordplaninfo lists them for the form.
   */
  function summary(p: PlanView) {
    return {
      ID: p.plan.id,
      Name: p.plan.name,
      Schedule: p.schedule,
      Days: toDayLists(p.schedule),
      SaveDays: p.plan.save_days,
      Enable: p.plan.enable,
      ChannelCount: p.channelPks.length,
      CreatedAt: p.plan.created_at,
      UpdatedAt: p.plan.updated_at,
    };
  }

  async function view(p: PlanView) {
    // With the device's name and the channel's own recording switch: the plan form flags channels
    // the plan cannot record without asking per device.
    const chans = p.channelPks.length
      ? await ctx.db
          .selectFrom('channels')
          .innerJoin('devices', 'devices.device_id', 'channels.parent_device_id')
          .select(['channels.id', 'channels.parent_device_id', 'channels.channel_id', 'channels.name', 'channels.enable_record', 'devices.device_name'])
          .where('channels.id', 'in', p.channelPks)
          .orderBy('channels.id')
          .execute()
      : [];
    return {
      ...summary(p),
      Channels: chans.map((c) => ({
        id: `${c.parent_device_id}:${c.channel_id}`,
        DeviceID: c.parent_device_id,
        ChannelID: c.channel_id,
        Name: c.name,
        DeviceName: c.device_name,
        EnableRecord: c.enable_record ? 1 : 0,
      })),
    };
  }

  r.get(
    '/api/v1/recordplanlist',
    { config: admin, schema: { tags, querystring: z.object({ start: z.coerce.number().int().min(0).default(0), limit: z.coerce.number().int().min(1).max(9999).default(20), q: text(128).optional() }) } },
    async (req) => {
      const { start, limit, q } = req.query;
      const all = (await plans.list()).filter((p) => !q || p.plan.name.toLowerCase().includes(q.toLowerCase()));
      return v1('MSG_SC_RECORD_PLAN_LIST_ACK', { Plans: all.slice(start, start + limit).map(summary), Total: all.length });
    },
  );

  r.get('/api/v1/recordplaninfo', { config: admin, schema: { tags, querystring: z.object({ id }) } }, async (req) => {
    const p = await plans.get(req.query.id);
    if (!p) throw notFound('recordPlan', { id: req.query.id });
    return v1('MSG_SC_RECORD_PLAN_INFO_ACK', await view(p));
  });

  r.post('/api/v1/setrecordplan', { config: admin, schema: { tags, body: planInput } }, async (req) => {
    const b = req.body;
    const schedule = parseSchedule(b.schedule);
    const pks: number[] = [];
    for (const ref of parseChannels(b.channels)) pks.push((await ctx.inventory.channels.require(ref.device, ref.channel)).id);
    if (b.id !== undefined && !(await plans.get(b.id))) throw notFound('recordPlan', { id: b.id });
    const taken = (await plans.list()).find((p) => p.plan.name === b.name && p.plan.id !== b.id);
    if (taken) throw duplicate('recordPlan', { id: b.name });
    const planId = await plans.save({ id: b.id, name: b.name, schedule, saveDays: b.save_days, enable: b.enable, channelPks: pks });
    if (b.enable_record && (await ctx.inventory.channels.setRecording(pks, true)) > 0) ctx.inventory.onChannelsChanged();
    void ctx.recording.engine.kick();
    return v1('MSG_SC_SET_RECORD_PLAN_ACK', { ID: planId });
  });

  const del = async (planId: number) => {
    if (!(await plans.remove(planId))) throw notFound('recordPlan', { id: planId });
    void ctx.recording.engine.kick();
    return v1('MSG_SC_DEL_RECORD_PLAN_ACK', {});
  };
  r.get('/api/v1/delrecordplan', { config: admin, schema: { tags, querystring: z.object({ id }) } }, (req) => del(req.query.id));
  r.post('/api/v1/delrecordplan', { config: admin, schema: { tags, body: z.object({ id }) } }, (req) => del(req.body.id));

  /** Checks a schedule without saving; answers its per-day lists. */
  r.post('/api/v1/checkpush', { config: admin, schema: { tags, body: z.object({ schedule: scheduleField }) } }, async (req) => {
    const schedule = parseSchedule(req.body.schedule);
    return v1('MSG_SC_CHECK_PUSH_ACK', { Days: toDayLists(schedule) });
  });

  r.get('/api/v1/recordpath', { config: admin, schema: { tags } }, async () => {
    const cfg = await ctx.config.get('record');
    const abs = recordRoot(cfg.RecordPath, ctx.settings.dataDir);
    let FreeBytes = 0;
    try {
      FreeBytes = await statfsFree(abs);
    } catch {
      FreeBytes = 0;
    }
    return v1('MSG_SC_RECORD_PATH_ACK', {
      RecordPath: abs,
      Default: recordRoot('', ctx.settings.dataDir),
      SegmentSeconds: cfg.SegmentSeconds,
      MinFreeBytes: cfg.MinFreeBytes,
      DefaultSaveDays: cfg.DefaultSaveDays,
      FreeBytes,
    });
  });

  /** Sets the record folder (absolute; created if missing; must be writable). Earlier segments stay where they are. */
  r.post(
    '/api/v1/recordpath',
    {
      config: admin,
      schema: {
        tags,
        body: z.object({
          RecordPath: z.string().trim().min(1).max(1024),
          SegmentSeconds: z.coerce.number().int().min(1).max(3600).optional(),
          MinFreeBytes: z.coerce.number().int().min(0).optional(),
          DefaultSaveDays: z.coerce.number().int().min(1).max(3650).optional(),
        }),
      },
    },
    async (req) => {
      const b = req.body;
      if (!path.isAbsolute(b.RecordPath) || b.RecordPath.includes('\0')) throw invalidParam('RecordPath', 'absoluteFolder');
      const abs = path.resolve(b.RecordPath);
      if (isSystemFolder(abs)) throw invalidParam('RecordPath', 'systemFolder');
      // Free space to keep of the whole disk or more: the keep-free guard would delete every recording
      // there is (a slip of GB for MB), and go on deleting each new one.
      if (b.MinFreeBytes !== undefined) {
        const size = diskSize(abs);
        // The size also in the console's unit (GB of 2^30 bytes, its free-space field), cut down to
        // two decimals so that the figure said is itself below the limit.
        if (size !== undefined && b.MinFreeBytes >= size) throw invalidParam('MinFreeBytes', 'lessThanDisk', { size, gb: (Math.floor((size / 2 ** 30) * 100) / 100).toFixed(2) });
      }
      try {
        fs.mkdirSync(abs, { recursive: true });
        const probe = path.join(abs, `.write-test-${process.pid}-${Date.now()}`);
        fs.writeFileSync(probe, 'ok');
        fs.unlinkSync(probe);
      } catch (err) {
        throw invalidParam('RecordPath', 'folderNotWritable', { code: (err as NodeJS.ErrnoException).code ?? 'error' });
      }
      const cfg = await ctx.config.get('record');
      const isDefault = abs === recordRoot('', ctx.settings.dataDir);
      const key = isDefault ? '' : abs;
      const OldPaths = key === cfg.RecordPath ? cfg.OldPaths : [...new Set([cfg.RecordPath, ...cfg.OldPaths])].filter((k) => k !== key).slice(0, 32);
      await ctx.config.set('record', {
        RecordPath: key,
        OldPaths,
        ...(b.SegmentSeconds !== undefined ? { SegmentSeconds: b.SegmentSeconds } : {}),
        ...(b.MinFreeBytes !== undefined ? { MinFreeBytes: b.MinFreeBytes } : {}),
        ...(b.DefaultSaveDays !== undefined ? { DefaultSaveDays: b.DefaultSaveDays } : {}),
      });
      void ctx.recording.engine.kick();
      return v1('MSG_SC_RECORD_PATH_ACK', { RecordPath: abs });
    },
  );
}
