/**
 * Record queries, marks and playback calls (issue 5; server routes/api/records.ts and the playback
 * routes). Channels travel as id=device:channel.
 */
import { getV1, getV2, postV1, request, RequestError } from '../../lib/request';
import { recordTypeOf, type RecordSource } from './source';

export const channelIdOf = (device: string, channel: string) => `${device}:${channel}`;

export interface DailyRange {
  name: string;
  startAt: string;
  endAt: string;
  duration: number;
  /** Bytes of the range's files (the platform's recordings; a device's list has none). */
  size?: number;
  hls?: string;
  snap?: string;
  important: number;
  recording?: number;
  /** Segment ids in the range (setimportant accepts them comma-separated). */
  ids?: number[];
}

/*
 * The reads of the playback pages are quiet: each page says a failure where the answer would have
 * been (the day's list, the calendar), with its retry. The request layer's notice said it a second
 * time (a channel outside the role: 通道 2/1不存在 in the list and in a 请求失败 panel).
 */

/** One character per day of the month, '1' when the day has recordings. */
export const fetchMonthly = (device: string, channel: string, month: string, source: RecordSource = 'Cloud') =>
  request<string>('/api/v1/record/querymonthly', { data: { id: channelIdOf(device, channel), period: month, ...recordTypeOf(source) }, quiet: true }).then((s) =>
    typeof s === 'string' ? s : String(s ?? ''),
  );

export const fetchDaily = (device: string, channel: string, day: string, source: RecordSource = 'Cloud') =>
  request<{ total: number; list: DailyRange[]; complete?: number; received?: number; sumNum?: number }>('/api/v1/record/querydaily', {
    data: { id: channelIdOf(device, channel), period: day, ...recordTypeOf(source) },
    quiet: true,
  });

/** One recording file kept on a GB28181 device (RecordInfo), as devices/record/files lists them. */
export interface DeviceRecordFile {
  name: string;
  startAt: string;
  endAt: string;
  duration: number;
  FilePath: string;
  /** The device's record type: time, alarm, manual… */
  Type: string;
  FileSize: number;
}

/** The device's files of a day (a partial answer says Complete 0 with what arrived). */
export const fetchDeviceFiles = (device: string, channel: string, day: string) =>
  getV1<{ Total: number; RecordList: DeviceRecordFile[]; Complete: number; Received: number; SumNum: number }>(
    '/api/v1/devices/record/files',
    { id: channelIdOf(device, channel), period: day },
    { quiet: true },
  );

export const setImportant = (ids: number[], important: boolean) =>
  postV1<{ Count: number; Important: number }>('/api/v1/record/setimportant', { id: ids.join(','), important: important ? 1 : 0 });

/** Marks (or unmarks) the channel's segments overlapping from..to (local YYYYMMDDHHmmss): a selection, or the segment under the playhead. */
export const setImportantBetween = (device: string, channel: string, from: string, to: string, important: boolean) =>
  postV1<{ Count: number; Important: number }>('/api/v1/record/setimportant', { device, channel, starttime: from, endtime: to, important: important ? 1 : 0 });

export const removeDaily = (device: string, channel: string, day: string) =>
  postV1<{ Removed: number; Kept: number }>('/api/v1/record/removedaily', { id: channelIdOf(device, channel), period: day });

export const removeSegment = (id: number) => postV1<Record<string, never>>('/api/v1/record/remove', { id });

export interface PlaybackAnswer {
  URL: string;
  /** WS_FMP4, MP4, HLS; and WS_FMP4_H264 for an H.265 recording (the server's H.264 transcoding). */
  URLs?: Record<string, string>;
  request_id: string;
  /** 1 for a device recording: the speed is in the stream's timestamps. */
  SpeedInStream?: number;
}

/** Opens a playback session from `stime` to `etime` (local YYYYMMDDHHmmss). */
export const openPlayback = (device: string, channel: string, stime: string, etime: string, source: RecordSource = 'Cloud') =>
  getV1<PlaybackAnswer>('/api/v1/devices/record/playback', { channel: channelIdOf(device, channel), stime, etime, ...recordTypeOf(source) });

export const controlPlayback = (request_id: string, command: 'pause' | 'resume' | 'seek', time?: string) =>
  getV1<unknown>('/api/v1/devices/record/playback/control', { request_id, command, time }, { quiet: true });

export const setPlaybackSpeed = (request_id: string, speed: number) => getV1<unknown>('/api/v1/playbackspeed', { request_id, speed }, { quiet: true });

export interface PlayState {
  speed?: number;
  state?: string;
  time?: string;
  [k: string]: unknown;
}
export const fetchPlayState = (request_id: string) => getV2<PlayState>('/api/v2/playState', { request_id }, { quiet: true });

export const downloadUrl = (device: string, channel: string, start: string, end: string) =>
  `/api/v1/record/recordvideo/download/mp4/${encodeURIComponent(channelIdOf(device, channel))}/${start}/${end}`;

export const startManualRecord = (device: string, channel: string) => postV1<{ Recording: number }>('/api/v1/realtimerecord/start', { id: channelIdOf(device, channel) });
export const stopManualRecord = (device: string, channel: string) => postV1<{ Recording: number }>('/api/v1/realtimerecord/stop', { id: channelIdOf(device, channel) });

export const SPEEDS = [0.5, 1, 2, 4, 8, 16] as const;

/** Devices and channels the user may see (the video sidebar's calls). */
/** One device by its exact ID, or null when the server does not list it to the user (its 404, said by the caller). */
export const fetchDeviceById = (device: string) =>
  getV1<import('@opencvr/shared').DeviceRow>('/api/v1/deviceinfo', { device }, { quiet: true }).catch((err: unknown) => {
    if (err instanceof RequestError && err.code === 404) return null;
    throw err;
  });
export const fetchDevices = (start: number, limit: number, q?: string) =>
  getV1<{ Devices: import('@opencvr/shared').DeviceRow[]; TotalCount: number }>('/api/v1/devices', { start, limit, q: q || undefined });
/**
 * A page of a device's cameras, wherever they sit in its folders (cameras=1: a GB NVR's cameras under
 * civil-code, business-group and organisation folders; the top level alone showed 2 of 30), matching
 * q by name or ID when given.
 */
export const fetchCameras = (device: string, q: string, start: number, limit: number) =>
  getV1<{ Channels: import('@opencvr/shared').ChannelRow[]; ChannelCount: number }>('/api/v1/channels', { device, cameras: 1, q: q || undefined, start, limit });
/** Channels with recordings on a day (optionally of one device), every one or a page of them (Total counts all). */
export const fetchRecordedChannels = (day: string, device?: string, start?: number, limit?: number) =>
  getV1<{ Channels: { id: string; DeviceID: string; ChannelID: string; Name: string }[]; Total: number }>('/api/v1/record/querydevices', { period: day, device, start, limit });
