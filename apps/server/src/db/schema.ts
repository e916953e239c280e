/**
 * Table types for Kysely. Both engines store the same shapes: integers for flags (SQLite has no
 * boolean), ISO-8601 UTC text for times (sortable as text on both).
 */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface RolesTable {
  id: Generated<number>;
  name: string;
  describe: string;
  builtin: number;
  created_at: string;
}
export interface UsersTable {
  id: Generated<number>;
  username: string;
  name: string;
  nick_name: string;
  /** argon2id of the lowercase md5 hex digest the console sends; never the digest itself. */
  password_hash: string;
  role_id: number;
  enable: number;
  must_change_password: number;
  created_at: string;
  updated_at: string;
}
export interface TokensTable {
  /** sha256 of the token: a stolen database does not yield usable tokens. */
  token_hash: string;
  user_id: number;
  kind: string;
  created_at: string;
  expires_at: string;
  ip: string;
}
export interface LoginFailuresTable {
  username: string;
  ip: string;
  count: number;
  first_failed_at: string;
  locked_until: string | null;
}
export interface ConfigTable {
  key: string;
  value: string;
  updated_at: string;
}
export interface NewsTable {
  id: Generated<number>;
  device_id: string;
  channel_id: string;
  channel_name: string;
  status: string;
  news_time: string;
}
export interface NewsStateTable {
  user_id: number;
  news_id: number;
  read: number;
  deleted: number;
}
export interface DevicesTable {
  id: Generated<number>;
  device_id: string;
  device_name: string;
  device_type: string;
  online: number;
  enable: number;
  created_at: string;
  device_ip: Generated<string>;
  device_port: Generated<number>;
  device_username: Generated<string>;
  /** Needed in clear to answer digest challenges and to log in to cameras; shown to admins only. */
  device_password: Generated<string>;
  manufacturer: Generated<string>;
  model: Generated<string>;
  firmware: Generated<string>;
  transport: Generated<string>;
  transport_mode: Generated<string>;
  server_id: Generated<string>;
  alarm_subscribe: Generated<number>;
  catalog_subscribe: Generated<number>;
  position_subscribe: Generated<number>;
  updated_at: Generated<string>;
  last_seen_at: Generated<string>;
  /** GB28181 (0004): Contact URI, transport and source address of the last REGISTER. */
  contact: Generated<string>;
  sip_transport: Generated<string>;
  sip_remote_ip: Generated<string>;
  sip_remote_port: Generated<number>;
  sip_local_ip: Generated<string>;
  /** Granted lifetime (s), when granted, when it runs out ('' = not registered). */
  register_expires: Generated<number>;
  registered_at: Generated<string>;
  register_expires_at: Generated<string>;
  keepalive_at: Generated<string>;
  /** Interval the device announced (s); 0 = the gb KeepaliveTimeout setting. */
  keepalive_interval: Generated<number>;
  /** GB2312, GB18030 or UTF-8: the charset of the device's MANSCDP bodies. */
  charset: Generated<string>;
  channel_count: Generated<number>;
  catalog_at: Generated<string>;
  /** Why the device is offline: a REASONS key (no vars), '' when online (services/inventory/status-reason.ts). */
  status_reason: Generated<string>;
}
export interface ChannelsTable {
  id: Generated<number>;
  channel_id: string;
  parent_device_id: string;
  name: string;
  online: number;
  enable: number;
  created_at: string;
  parent_id: Generated<string>;
  parental: Generated<number>;
  on_demand: Generated<number>;
  ip: Generated<string>;
  port: Generated<number>;
  username: Generated<string>;
  password: Generated<string>;
  protocol: Generated<string>;
  rtsp_url: Generated<string>;
  record_url: Generated<string>;
  snap_url: Generated<string>;
  cdn_url: Generated<string>;
  enable_cdn: Generated<number>;
  enable_record: Generated<number>;
  enable_audio: Generated<number>;
  enable_h265_to_h264: Generated<number>;
  onvif: Generated<string>;
  transport: Generated<string>;
  channel_num: Generated<number>;
  server_id: Generated<string>;
  manufacturer: Generated<string>;
  model: Generated<string>;
  play_time: Generated<string>;
  /** Why the channel is offline: a REASONS key, '' when none (services/inventory/status-reason.ts). */
  status_reason: Generated<string>;
  /** The key's {vars} as JSON, '' when none. */
  status_reason_vars: Generated<string>;
  /** An rtsps:// camera's certificate pinned at first use (SHA-256, 'AB:CD:…'), '' when none (access/tls/rtsps-trust.ts). */
  tls_pin: Generated<string>;
  checked_at: Generated<string>;
  updated_at: Generated<string>;
  longitude: number | null;
  latitude: number | null;
  gps_longitude: number | null;
  gps_latitude: number | null;
  /** GB28181 catalog item fields (0004). */
  civil_code: Generated<string>;
  block: Generated<string>;
  address: Generated<string>;
  owner: Generated<string>;
  business_group_id: Generated<string>;
  safety_way: Generated<number>;
  register_way: Generated<number>;
  cert_num: Generated<string>;
  certifiable: Generated<number>;
  err_code: Generated<number>;
  secrecy: Generated<number>;
  /** Status text as the device sent it (ON/OFF/OK); `online` stays the flag. */
  status: Generated<string>;
  /** 0 unknown, 1 dome, 2 half-dome, 3 fixed bullet, 4 remote-controlled bullet. */
  ptz_type: Generated<number>;
  sub_count: Generated<number>;
  /** MobilePosition: last fix time, speed km/h, direction degrees, altitude m. */
  gps_time: Generated<string>;
  gps_speed: number | null;
  gps_direction: number | null;
  gps_altitude: number | null;
  /** 1 when the channel came from a device catalog, 0 when added by hand. */
  from_catalog: Generated<number>;
}
export interface LabelsTable {
  id: Generated<number>;
  name: string;
  parent_id: number;
  sort: Generated<number>;
  created_at: string;
}
export interface LabelChannelsTable {
  label_id: number;
  channel_pk: number;
}
export interface LabelDevicesTable {
  label_id: number;
  device_pk: number;
}
export interface FavoritesTable {
  user_id: number;
  channel_pk: number;
  created_at: string;
}
export interface RoleChannelsTable {
  role_id: number;
  channel_pk: number;
}
export interface RoleLabelsTable {
  role_id: number;
  label_id: number;
}
export interface RecordPlansTable {
  id: Generated<number>;
  name: string;
  /** The weekly schedule in its API form (JSON), as validated by @opencvr/shared's schedule rules. */
  schedule: string;
  save_days: number;
  enable: number;
  created_at: string;
  updated_at: string;
}
export interface RecordPlanChannelsTable {
  plan_id: number;
  channel_pk: number;
}
export interface RecordingsTable {
  id: Generated<number>;
  channel_pk: number;
  /** The RecordPath setting the file was written under ('' = the default DATA_DIR/records). */
  root: string;
  /** Relative to the root: <channel pk>/<YYYYMMDD>/<HHmmss>.mp4 in server local time. */
  path: string;
  start_at: string;
  end_at: string;
  duration_ms: number;
  /** A bigint in PostgreSQL: read through Number(). */
  bytes: number;
  important: number;
  status: 'recording' | 'complete';
  created_at: string;
}
export interface RecordManualTable {
  channel_pk: number;
  started_at: string;
}
/** GB28181 registration lists: match by device ID, address (IP or CIDR) or both; '' = any. */
export interface GbListTable {
  id: Generated<number>;
  device_id: string;
  ip: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}
/** Protocol alarms (GB28181 Alarm NOTIFY/MESSAGE). */
export interface AlarmsTable {
  id: Generated<number>;
  device_id: string;
  channel_id: string;
  priority: number;
  method: number;
  /** Spec 3 alarm type 1-19; 0 = other. */
  type: number;
  alarm_time: string;
  description: string;
  longitude: number | null;
  latitude: number | null;
  /** Relative to DATA_DIR/alarms; '' = none. */
  snapshot: string;
  created_at: string;
}

export interface Database {
  roles: RolesTable;
  users: UsersTable;
  tokens: TokensTable;
  login_failures: LoginFailuresTable;
  config: ConfigTable;
  news: NewsTable;
  news_state: NewsStateTable;
  devices: DevicesTable;
  channels: ChannelsTable;
  labels: LabelsTable;
  label_channels: LabelChannelsTable;
  label_devices: LabelDevicesTable;
  favorites: FavoritesTable;
  role_channels: RoleChannelsTable;
  role_labels: RoleLabelsTable;
  record_plans: RecordPlansTable;
  record_plan_channels: RecordPlanChannelsTable;
  recordings: RecordingsTable;
  record_manual: RecordManualTable;
  gb_whitelist: GbListTable;
  gb_blacklist: GbListTable;
  alarms: AlarmsTable;
}

export type Role = Selectable<RolesTable>;
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type News = Selectable<NewsTable>;
export type Device = Selectable<DevicesTable>;
export type Channel = Selectable<ChannelsTable>;
export type Label = Selectable<LabelsTable>;
export type RecordPlan = Selectable<RecordPlansTable>;
export type Recording = Selectable<RecordingsTable>;
export type GbListEntry = Selectable<GbListTable>;
export type Alarm = Selectable<AlarmsTable>;
