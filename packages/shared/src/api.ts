/**
 * Shapes of the calls the console makes (spec 7) that the foundation serves. One definition,
 * read by the server's handlers and the console's request functions.
 */

import type { AlarmItem } from './gb.js';
import type { CatalogProgress } from './gb-devices.js';
import type { CdnPushEvent } from './cdn.js';

/** The EasyCVR /api/v1 envelope. ErrorNum is a string, as EasyCVR sends it. */
export interface EasyDarwinHeader {
  CSeq: string;
  Version: string;
  MessageType: string;
  ErrorNum: string;
  ErrorString: string;
}
export interface EasyDarwinEnvelope<B = Record<string, unknown>> {
  EasyDarwin: { Header: EasyDarwinHeader; Body: B };
}
/** The /api/v2 envelope. */
export interface V2Envelope<D = unknown> {
  code: number;
  msg: string;
  data: D;
}
/** Every error answer carries code and msg beside the envelope, so either reader finds the text. */
export interface ErrorAnswer extends Partial<EasyDarwinEnvelope> {
  code: number;
  msg: string;
  /**
   * A refused parameter (400 参数 {field} 不合法: {reason}) is also named apart, with its reason in the
   * answer's language, so a form says it at its field rather than in a notice (session 26).
   */
  field?: string;
  reason?: string;
}

export type RoleKind = 'admin' | string;

/** Spec 3 "User info". */
export interface UserInfo {
  Token?: string;
  id: number;
  name: string;
  nick_name: string;
  role: RoleKind;
  role_name: string;
  role_id: number;
  Status: number;
  MustChangePassword: boolean;
}

export interface LoginBody {
  Token: string;
  TokenTimeout: number;
  UserInfo: UserInfo;
}

export interface UserRow {
  ID: number;
  Name: string;
  Username: string;
  NickName: string;
  RoleID: number;
  RoleName: string;
  Enable: number;
  MustChangePassword: number;
  CreateAt: string;
  UpdateAt: string;
}
export interface UserList {
  count: number;
  data: UserRow[];
}

export interface RoleRow {
  ID: number;
  Name: string;
  Describe: string;
  Builtin: number;
  UserCount: number;
  CreateAt: string;
}
export interface RoleList {
  count: number;
  data: RoleRow[];
}

/** Spec 3 "Server configuration" otherConfig. */
export interface OtherConfig {
  Copyright: string;
  Initial: boolean;
  DefaultPlayer: 'ep';
  Title: string;
  Version: string;
  RecordVersion: boolean;
  MapKey: string;
}
/** What the login page and the route guard read before anyone logs in. */
export interface HomeConfig {
  Title: string;
  Version: string;
  Copyright: string;
  Initial: boolean;
  RecordVersion: boolean;
}

/** Spec 3 "Network form". */
export interface NetworkConfig {
  sip_host: string;
  rtc_host: string;
  terminal_host: string;
  ehome_host: string;
}
export interface IpListing {
  /** Addresses of this machine's interfaces (intranet addresses). */
  LocalIPs: string[];
  Current: NetworkConfig;
  /** True while the administrator has not yet chosen the network. */
  CheckIP: boolean;
}

export interface SwitchConfig {
  ai_platform: boolean;
  vqd_show: boolean;
}

export interface ServerInfo {
  Hardware: string;
  InterfaceVersion: string;
  Server: string;
  VersionType: string;
  Version: string;
  StartUpTime: string;
  RunningTime: string;
  RunningSeconds: number;
  ChannelCount: number;
  Platform: string;
  Hostname: string;
  NodeVersion: string;
  CPUCount: number;
  CPUModel: string;
  CPUUsage: number;
  LoadAvg: number[];
  MemTotal: number;
  MemUsed: number;
  ProcessRss: number;
  DiskTotal: number;
  DiskUsed: number;
  DiskPath: string;
  Database: 'sqlite' | 'postgres';
}

export interface StateTop {
  cpu: number;
  memory: { total: number; used: number };
  disk: { total: number; used: number };
  network: { rx: number; tx: number };
  uptime: number;
  time: string;
}
export interface StateDevice {
  devices: { total: number; online: number };
  channels: { total: number; online: number };
  users: number;
}

/** Spec 3 "News item": a channel going online (ON) or offline (OFF). */
export interface NewsItem {
  ID: number;
  Status: 'ON' | 'OFF';
  DeviceID: string;
  ChannelID: string;
  ChannelName: string;
  NewsTime: string;
  /** 0 unread, 1 read. */
  sign: 0 | 1;
}
export interface NewsList {
  total: number;
  unread: number;
  list: NewsItem[];
}

/** Messages pushed on the events websocket, keyed by topic. */
export type EventMessage =
  | { topic: 'news'; payload: NewsItem }
  | { topic: 'alarm'; payload: AlarmItem }
  | { topic: 'catalog'; payload: CatalogProgress }
  /** Administrators only. */
  | { topic: 'cdn'; payload: CdnPushEvent }
  | { topic: 'hello'; payload: { time: string } };
