/** INVITE sessions with GB28181 devices (live here; playback and download use the same client). */
export { GbInviteClient, GbInviteError, type GbInviteErrorCode, type GbInviteSession, type InviteGbApi, type InviteParams } from './client.js';
export { GbDialog, IN_DIALOG_TIMEOUT_MS, type DialogIds, type DialogMedia } from './dialog.js';
export { SsrcPool, type HeldSsrc } from './ssrc-pool.js';
export { liveInviter } from './live.js';
export { DEFAULT_INVITE_QUEUE, InviteQueue, type InviteQueueOptions } from './queue.js';
