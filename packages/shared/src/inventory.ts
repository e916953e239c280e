/**
 * The inventory of spec 3: devices, channels, groups (labels). API shapes as EasyCVR names them.
 */
import type { CdnPushStatus } from './cdn.js';

export const DEVICE_TYPES = ['GB28181', 'EHOME', 'JT808', 'RTSP', 'ONVIF', 'RTMP', 'GAT1400'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];
/** Devices of these types never appear in a tree (spec 2, 9). */
export const TREE_HIDDEN_TYPES: readonly DeviceType[] = ['GAT1400'];
/** Device types whose channels the platform pulls from a URL it knows. */
export const PULLED_TYPES: readonly DeviceType[] = ['RTSP', 'ONVIF'];

/**
 * Whether the server can steer a channel's camera (ptzcontrol, presets): a GB28181 device's channel
 * (SIP DeviceControl), an ONVIF device's, or one with an ONVIF service URL of its own. The console
 * offers the PTZ pad only there.
 */
export function hasPtz(c: { DeviceType?: string; Onvif?: string }): boolean {
  return c.DeviceType === 'GB28181' || c.DeviceType === 'ONVIF' || /^https?:\/\//i.test(c.Onvif ?? '');
}

export const CHANNEL_PROTOCOLS = ['RTSP', 'RTMP', 'HTTP', 'ONVIF', 'GB28181', 'EHOME', 'JT808'] as const;
export type ChannelProtocol = (typeof CHANNEL_PROTOCOLS)[number];

export interface DeviceRow {
  DeviceID: string;
  DeviceName: string;
  DeviceType: DeviceType;
  DeviceIp: string;
  DevicePort: number;
  DeviceUserName: string;
  /** Only in answers to administrators; empty for everyone else. */
  DeviceUserPW: string;
  Manufacturer: string;
  Model: string;
  Firmware: string;
  Enable: number;
  Online: number;
  Transport: string;
  TransportMode: string;
  ServerID: string;
  AlarmSubscribe: number;
  CatalogSubscribe: number;
  PositionSubscribe: number;
  /** Channels of the device (that the caller may see). */
  ChannelNum: number;
  onlineChannelNums: number;
  /** 1 while the node that owns the device is up (one node: this one). */
  clusterOnline: number;
  CreateAt: string;
  UpdateAt: string;
  LastSeenAt: string;
}

export interface ChannelRow {
  ChannelID: string;
  ParentDeviceID: string;
  DeviceName: string;
  DeviceType: string;
  Name: string;
  /** 1: a directory (has sub-channels), 0: a camera. */
  Parental: number;
  /** The parent within the device for sub-channels (GB ParentID); empty at the top. */
  ParentID: string;
  /** The key to list this channel's sub-channels with (`subset`). */
  GBID: string;
  Enable: number;
  /**
   * The parent device's Enable (1/0): a disabled device plays none of its channels, whatever their
   * own Enable says (ours, not EasyCVR's; the video square shows such a card as not enabled).
   */
  DeviceEnable: number;
  OnDemand: number;
  IP: string;
  Port: number;
  Username: string;
  /** Only in answers to administrators. */
  Password: string;
  Protocol: string;
  RtspUrl: string;
  RecordUrl: string;
  SnapUrl: string;
  CdnUrl: string;
  EnableCdn: number;
  EnableRecord: number;
  EnableAudio: number;
  EnableH265ToH264: number;
  Onvif: string;
  Online: number;
  Transport: string;
  ChannelNum: number;
  FavoritesChannel: number;
  ServerID: string;
  Manufacturer: string;
  Model: string;
  PlayTime: string;
  Longitude: number | null;
  Latitude: number | null;
  GpsLongitude: number | null;
  GpsLatitude: number | null;
  /** Why the channel is offline, when known (e.g. "RTSP 401 Unauthorized"). */
  StatusReason: string;
  CheckedAt: string;
  SubChannelNum: number;
  /** The CDN push's state (EnableCdn on; administrators only): see cdn.ts. */
  CdnPush?: CdnPushStatus;
  /** An rtsps:// or https:// channel's server certificate (administrators only; ours, not EasyCVR's). */
  TlsCert?: TlsCertStatus;
}

/**
 * How an rtsps:// or https:// channel's server certificate is trusted (the server's rtsps-trust.ts, https-trust.ts): `pinned`, its
 * SHA-256 fingerprint kept at the first connection (Pin); `authority`, a CA vouches for it, nothing
 * pinned; `none`, not connected yet (the first connection pins). Presented: the fingerprint of the
 * certificate refused because it is not the pinned one (the channel offline with tlsCertChanged),
 * which editchannel's TlsPin takes to trust it.
 */
export interface TlsCertStatus {
  State: 'pinned' | 'authority' | 'none';
  /** 'AB:CD:…' (SHA-256, 32 bytes), '' when none is pinned. */
  Pin: string;
  Presented?: string;
}

export type GroupNodeType = 'directory' | 'device' | 'deviceDirectory' | 'camera';
/** Spec 3 "Group (label) node". */
export interface GroupNode {
  ID: string;
  Name: string;
  ParentID: string;
  Parental: number;
  IsSearchDevice: number;
  NodeType: GroupNodeType;
  Online: number;
  DeviceID?: string;
  ChannelID?: string;
  Enable?: number;
  ChildNum?: number;
  /** A camera: 1 when it is among the asking user's favourites (the group tree's star). */
  FavoritesChannel?: number;
}

export interface LabelRow {
  ID: number;
  Name: string;
  ParentID: number;
  ChannelNum: number;
  DeviceNum: number;
  ChildNum: number;
}

/** A channel's display position: its own coordinates, else the GPS-reported ones (spec 3). */
export function channelPosition(c: Pick<ChannelRow, 'Longitude' | 'Latitude' | 'GpsLongitude' | 'GpsLatitude'>) {
  const lng = c.Longitude ?? c.GpsLongitude;
  const lat = c.Latitude ?? c.GpsLatitude;
  return lng == null || lat == null ? null : { lng, lat };
}

/** GET|POST /api/v1/probedevice: what an ONVIF device says about itself (issue 3). */
export interface OnvifDeviceInfo {
  Manufacturer: string;
  Model: string;
  FirmwareVersion: string;
  SerialNumber: string;
  HardwareId: string;
}
export interface OnvifProfile {
  Token: string;
  Name: string;
  /** Video encoding ("H264", "H265", "JPEG"); '' when the profile has no video encoder. */
  Encoding: string;
  Width: number;
  Height: number;
  FrameRate: number;
  /** rtsp:// address of the profile's stream; '' when the device gave none. */
  StreamUri: string;
  SnapshotUri: string;
}
export interface OnvifProbeBody {
  DeviceInfo: OnvifDeviceInfo;
  Profiles: OnvifProfile[];
}
/** GET /api/v1/discoverdevices: devices that answered one WS-Discovery probe. */
export interface DiscoveredDevice {
  /** The endpoint reference (urn:uuid:...). */
  Address: string;
  /** Device service URLs. */
  XAddrs: string[];
  Name: string;
  Hardware: string;
  Manufacturer: string;
}
export interface OnvifDiscoverBody {
  Devices: DiscoveredDevice[];
}
