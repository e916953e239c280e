/**
 * GB28181 device management shared by the server and the console (issue 6): catalog fetch progress
 * (devices/fetchcatalog, pushed on the events socket as topic 'catalog') and the device information
 * a GB device reports (DeviceInfo and DeviceStatus queries).
 */

/** How a catalog answer ended: every item arrived, pages stopped coming, the whole took too long, … */
export type CatalogOutcome = 'complete' | 'idle-timeout' | 'total-timeout' | 'cancelled' | 'overflow' | 'failed';

export interface CatalogProgress {
  DeviceID: string;
  SN: number;
  Running: boolean;
  /** Items (and malformed items) arrived so far, and how many the device announced. */
  Received: number;
  SumNum: number;
  StartedAt: string;
  EndedAt?: string;
  Outcome?: CatalogOutcome;
  /** Why it failed or ended early, in words an operator can act on. */
  Error?: string;
  /** Channels stored from this answer (a timed-out answer stores what arrived). */
  Added?: number;
  Updated?: number;
  Removed?: number;
  /** Items the device sent that could not be used (no valid ID …). */
  Rejected?: number;
}

/** What a GB device says about itself; answered by deviceinfo (with refresh=1 it asks the device first). */
export interface GbDeviceDetails {
  Manufacturer: string;
  Model: string;
  Firmware: string;
  /** Channel count from DeviceInfo (what the device says it has). */
  ChannelCount: number;
  Registered: boolean;
  SipTransport: string;
  RemoteAddress: string;
  RegisteredAt: string;
  RegisterExpiresAt: string;
  KeepaliveAt: string;
  CatalogAt: string;
  StatusReason: string;
  /** From the last DeviceStatus answer, when one arrived. */
  Status?: {
    Online?: boolean;
    /** OK / ERROR: whether the device works normally. */
    Result?: string;
    Encode?: boolean;
    Record?: boolean;
    DeviceTime?: string;
    Reason?: string;
    /** Alarm inputs: ONDUTY / OFFDUTY / ALARM. */
    Alarms: { DeviceID: string; DutyStatus: string }[];
    At: string;
  };
  Catalog?: CatalogProgress;
  /** Why the refresh asked for could not be done (device offline, no answer). */
  RefreshError?: string;
}
