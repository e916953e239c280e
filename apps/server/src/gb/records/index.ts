/** Recordings kept on GB28181 devices: RecordInfo search, playback at speed, download (issue 6). */
export { GbRecords, gbRecordsOf, DOWNLOAD_SPEEDS, type RecordTarget } from './service.js';
export { GbRecordQuery, mergeDeviceRecords, type DeviceRecord, type RecordSearch, type RecordSearchResult } from './query.js';
export { DevicePlaybackSession, DEVICE_SPEEDS, type DevicePlaybackState } from './playback.js';
export { DeviceDownload, type DownloadState } from './download.js';
export { Rescaler } from './rescale.js';
export { dateOfGbTime, gbTimeOf } from './time.js';
