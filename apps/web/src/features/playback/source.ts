/**
 * Where a playback's recordings come from: the platform's own (Cloud, the default) or the GB28181
 * device's disk (Device: RecordInfo, INVITE s=Playback). A device plays at most 8× and puts the
 * speed in the stream's timestamps (the answer's SpeedInStream), so the <video> then stays at rate 1.
 */
import { SPEEDS } from './api';

export type RecordSource = 'Cloud' | 'Device';

/** Only GB28181 channels have recordings on the device the platform can ask for. */
export const deviceSourceAvailable = (deviceType: string | undefined) => deviceType === 'GB28181';

/** The source a page was opened with (?source=Device), the platform's own otherwise. */
export const sourceFromQuery = (v: string | null | undefined): RecordSource => (v?.trim().toLowerCase() === 'device' ? 'Device' : 'Cloud');

/** The record calls' recordType parameter (left out for the platform's own: the default). */
export const recordTypeOf = (source: RecordSource): { recordType?: string } => (source === 'Device' ? { recordType: 'Device' } : {});

/** Speeds offered: a device accepts MANSRTSP Scale up to 8. */
export const speedsFor = (source: RecordSource): number[] => SPEEDS.filter((s) => source === 'Cloud' || s <= 8);

/** The <video>'s playbackRate: the chosen speed, or 1 when the server already timed the stream at it. */
export const videoRateFor = (speed: number, speedInStream: boolean) => (speedInStream ? 1 : speed);
