/** Playback page paths (spec 2: playback pages go to backchannel with today's date YYYYMMDD). */
import { today } from './day';
import type { RecordSource } from './source';

const enc = encodeURIComponent;
export const backchannelPath = (device: string, channel: string, day = today()) => `/video/backchannel/${enc(device)}/${enc(channel)}/${day}`;
export const backtimePath = (device: string, channel: string, day = today()) => `/video/backtime/${enc(device)}/${enc(channel)}/${day}`;
export const backlistPath = (device = '0') => `/video/backlist/${enc(device)}`;
/** A playback page's path with its record source (the device's recordings travel as ?source=Device; the platform's are the default). */
export const withSource = (path: string, source: RecordSource) => (source === 'Device' ? `${path}${path.includes('?') ? '&' : '?'}source=Device` : path);
