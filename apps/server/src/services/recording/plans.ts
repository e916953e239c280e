/**
 * Record plans: a weekly schedule, how many days its channels' recordings are kept, a switch, and the
 * channels it applies to. A channel in at least one plan records (when EnableRecord is on) only while
 * one of its enabled plans says so; a channel in no plan records all the time when EnableRecord is on.
 */
import type { Kysely } from 'kysely';
import { fromNormal, normaliseSchedule, type NormalSchedule, type WeeklySchedule } from '@opencvr/shared';
import type { Database, RecordPlan } from '../../db/schema.js';

export interface PlanInput {
  id?: number;
  name: string;
  schedule: WeeklySchedule;
  saveDays: number;
  enable: boolean;
  channelPks: number[];
}

export interface PlanView {
  plan: RecordPlan;
  schedule: WeeklySchedule;
  channelPks: number[];
}

/** The stored schedule, normalised; an unreadable one counts as empty (never records). */
export function planSchedule(p: Pick<RecordPlan, 'schedule'>): NormalSchedule {
  try {
    return normaliseSchedule(JSON.parse(p.schedule));
  } catch {
    return normaliseSchedule({});
  }
}

export class RecordPlanService {
  constructor(private readonly db: Kysely<Database>) {}

  async list(): Promise<PlanView[]> {
    const plans = await this.db.selectFrom('record_plans').selectAll().orderBy('id').execute();
    const links = await this.db.selectFrom('record_plan_channels').selectAll().execute();
    return plans.map((plan) => ({
      plan,
      schedule: fromNormal(planSchedule(plan)),
      channelPks: links.filter((l) => l.plan_id === plan.id).map((l) => l.channel_pk),
    }));
  }

  async get(id: number): Promise<PlanView | undefined> {
    return (await this.list()).find((p) => p.plan.id === id);
  }

  /** Creates (no id) or updates a plan and replaces its channel list, in one transaction. */
  async save(input: PlanInput): Promise<number> {
    const now = new Date().toISOString();
    // Stored in the normalised API form (midnight slots split, overlaps merged).
    const schedule = JSON.stringify(fromNormal(normaliseSchedule(input.schedule)));
    return this.db.transaction().execute(async (tx) => {
      let id = input.id;
      const values = { name: input.name, schedule, save_days: input.saveDays, enable: input.enable ? 1 : 0, updated_at: now };
      if (id === undefined) {
        id = (await tx.insertInto('record_plans').values({ ...values, created_at: now }).returning('id').executeTakeFirstOrThrow()).id;
      } else {
        const r = await tx.updateTable('record_plans').set(values).where('id', '=', id).executeTakeFirst();
        if (!Number(r.numUpdatedRows)) throw new Error('plan not found');
        await tx.deleteFrom('record_plan_channels').where('plan_id', '=', id).execute();
      }
      const pks = [...new Set(input.channelPks)];
      if (pks.length) await tx.insertInto('record_plan_channels').values(pks.map((channel_pk) => ({ plan_id: id!, channel_pk }))).execute();
      return id;
    });
  }

  async remove(id: number): Promise<boolean> {
    const r = await this.db.deleteFrom('record_plans').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** For the engine: the schedules of each channel's enabled plans ([] = in plans, none enabled). */
  async schedulesByChannel(): Promise<Map<number, NormalSchedule[]>> {
    const rows = await this.db
      .selectFrom('record_plan_channels')
      .innerJoin('record_plans', 'record_plans.id', 'record_plan_channels.plan_id')
      .select(['record_plan_channels.channel_pk as pk', 'record_plans.schedule as schedule', 'record_plans.enable as enable'])
      .execute();
    const out = new Map<number, NormalSchedule[]>();
    for (const r of rows) {
      const list = out.get(r.pk) ?? [];
      if (r.enable) list.push(planSchedule(r));
      out.set(r.pk, list);
    }
    return out;
  }

  /** For retention: days to keep per channel (the longest of its plans). */
  async saveDaysByChannel(): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('record_plan_channels')
      .innerJoin('record_plans', 'record_plans.id', 'record_plan_channels.plan_id')
      .select(['record_plan_channels.channel_pk as pk', 'record_plans.save_days as days'])
      .execute();
    const out = new Map<number, number>();
    for (const r of rows) out.set(r.pk, Math.max(out.get(r.pk) ?? 0, r.days));
    return out;
  }
}
