/** Record plans and the record folder (issue 5; server routes/api/recordplans.ts). */
import type { DayLists, WeeklySchedule } from '@opencvr/shared';
import { getV1, postV1 } from '../../lib/request';

export interface PlanChannel {
  id: string;
  DeviceID: string;
  ChannelID: string;
  Name: string;
  DeviceName?: string;
  /** The channel's own recording switch (a plan only times channels with it on); absent: not known. */
  EnableRecord?: number;
}
/**
 * The save days a plan and the default take (the server's setrecordplan save_days and record config
 * DefaultSaveDays: 1-3650; the spec names no limits). Said beside the input when out of range: an
 * input's own min/max changed a typed 0 to 1 without a word.
 */
export const SAVE_DAYS = { min: 1, max: 3650 };

/** A plan as recordplanlist lists it: its channels counted, not listed (a plan may hold every camera). */
export interface PlanSummary {
  ID: number;
  Name: string;
  Schedule: WeeklySchedule;
  Days: DayLists;
  SaveDays: number;
  Enable: boolean | number;
  ChannelCount: number;
  CreatedAt?: string;
  UpdatedAt?: string;
}
/** A plan as recordplaninfo answers it, with its channels. */
export interface RecordPlan extends PlanSummary {
  Channels: PlanChannel[];
}
export interface RecordPath {
  RecordPath: string;
  Default: string;
  SegmentSeconds: number;
  MinFreeBytes: number;
  DefaultSaveDays: number;
  FreeBytes: number;
}

export const fetchPlans = (p: { start: number; limit: number; q?: string }) =>
  getV1<{ Plans: PlanSummary[]; Total: number }>('/api/v1/recordplanlist', { start: p.start, limit: p.limit, q: p.q || undefined });

export const fetchPlan = (id: number) => getV1<RecordPlan>('/api/v1/recordplaninfo', { id });

export interface PlanInput {
  id?: number;
  name: string;
  schedule: WeeklySchedule;
  save_days: number;
  enable: boolean;
  channels: { DeviceID: string; ChannelID: string }[];
  /** 1: also turn on the recording switch of the channels that have it off. */
  enable_record?: 1;
}
/** Quiet: the form says a refused field (name, save days, schedule, channels) or a taken name where it is (fieldRefusal.ts). */
export const savePlan = (p: PlanInput) =>
  postV1<{ ID: number }>(
    '/api/v1/setrecordplan',
    {
      ...p,
      channels: p.channels.map(({ DeviceID, ChannelID }) => ({ DeviceID, ChannelID })),
    },
    { quiet: true },
  );

export const deletePlan = (id: number) => postV1<Record<string, never>>('/api/v1/delrecordplan', { id });

/** Checks a schedule without saving; answers the per-day lists the server will use. Quiet: a refused schedule is said at the editor. */
export const checkSchedule = (schedule: WeeklySchedule) => postV1<{ Days: DayLists }>('/api/v1/checkpush', { schedule }, { quiet: true });

export const fetchRecordPath = () => getV1<RecordPath>('/api/v1/recordpath');

/** Quiet: the page says a refused folder at its field and other failures as a notice (fieldRefusal.ts). */
export const saveRecordPath = (p: { RecordPath: string; SegmentSeconds?: number; MinFreeBytes?: number; DefaultSaveDays?: number }) =>
  postV1<{ RecordPath: string }>('/api/v1/recordpath', p, { quiet: true });

export const planEnabled = (p: Pick<RecordPlan, 'Enable'>) => p.Enable === true || p.Enable === 1;
