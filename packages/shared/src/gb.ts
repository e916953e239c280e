/**
 * GB28181 administration types shared by the server and the console: the settings form, the
 * registration whitelist/blacklist and protocol alarms (issue 6, spec 3 alarm types).
 */

/** The GB settings as getbaseconfig answers them (a flat object, EasyCVR's sibling products' shape). */
export interface GbBaseConfig {
  Serial: string;
  Realm: string;
  Host: string;
  Port: number;
  /** Admins only; '' is sent to anyone else (a public CVE was this leak). */
  DevicePassword: string;
  MediaIP: string;
  RtpPortMin: number;
  RtpPortMax: number;
  MediaTransport: 'UDP' | 'TCP';
  MediaTransportMode: 'passive' | 'active';
  KeepaliveTimeout: number;
  KeepaliveCount: number;
  RegisterExpires: number;
  AckTimeout: number;
  WhiteSwitch: boolean;
  /** The port the SIP server actually listens on (SIP_PORT overrides Port), 0 when it is not listening; read-only. */
  ListenPort?: number;
  /** True when SIP_PORT is set, so changing Port has no effect until it is unset. */
  PortFromEnv?: boolean;
}

/** One whitelist/blacklist entry. A filled field must match; '' matches anything. */
export interface GbListItem {
  ID: number;
  DeviceID: string;
  /** One address or a CIDR block. */
  IP: string;
  Name: string;
  Description: string;
  CreateTime: string;
  UpdateTime: string;
}
export interface GbListPage {
  Total: number;
  List: GbListItem[];
  /** The whitelist switch (on the whitelist's answer only). */
  WhiteSwitch?: boolean;
}

/** Spec 3: alarm types (value: meaning); 0 = all types (a filter, never a stored alarm's type). */
export const ALARM_TYPES = [
  { value: 0, zh: '全部类型', en: 'All types' },
  { value: 1, zh: '视频丢失报警', en: 'Video loss' },
  { value: 2, zh: '设备防拆报警', en: 'Device tamper' },
  { value: 3, zh: '存储设备磁盘满报警', en: 'Storage full' },
  { value: 4, zh: '设备高温报警', en: 'High temperature' },
  { value: 5, zh: '设备低温报警', en: 'Low temperature' },
  { value: 6, zh: '人工视频报警', en: 'Manual video alarm' },
  { value: 7, zh: '运动目标检测报警', en: 'Motion detection' },
  { value: 8, zh: '遗留物检测报警', en: 'Left object' },
  { value: 9, zh: '物体移除检测报警', en: 'Object removal' },
  { value: 10, zh: '绊线检测报警', en: 'Tripwire' },
  { value: 11, zh: '入侵检测报警', en: 'Intrusion' },
  { value: 12, zh: '逆行检测报警', en: 'Retrograde' },
  { value: 13, zh: '徘徊检测报警', en: 'Loitering' },
  { value: 14, zh: '流量统计报警', en: 'Traffic statistics' },
  { value: 15, zh: '密度检测报警', en: 'Density' },
  { value: 16, zh: '视频异常检测报警', en: 'Video anomaly' },
  { value: 17, zh: '快速移动报警', en: 'Fast movement' },
  { value: 18, zh: '存储设备磁盘故障报警', en: 'Disk fault' },
  { value: 19, zh: '存储设备风扇故障报警', en: 'Fan fault' },
] as const;
export const ALARM_TYPE_MAX = 19;

/** GB/T 28181 AlarmPriority: 1 first level (highest) to 4 fourth level. */
export const ALARM_PRIORITIES = [
  { value: 1, zh: '一级警情', en: 'Level 1' },
  { value: 2, zh: '二级警情', en: 'Level 2' },
  { value: 3, zh: '三级警情', en: 'Level 3' },
  { value: 4, zh: '四级警情', en: 'Level 4' },
] as const;

/** GB/T 28181 AlarmMethod. */
export const ALARM_METHODS = [
  { value: 1, zh: '电话报警', en: 'Telephone' },
  { value: 2, zh: '设备报警', en: 'Device' },
  { value: 3, zh: '短信报警', en: 'SMS' },
  { value: 4, zh: 'GPS报警', en: 'GPS' },
  { value: 5, zh: '视频报警', en: 'Video' },
  { value: 6, zh: '设备故障报警', en: 'Device fault' },
  { value: 7, zh: '其他报警', en: 'Other' },
] as const;

export function alarmTypeLabel(type: number, lang: 'zh-CN' | 'en-US'): string {
  const t = ALARM_TYPES.find((a) => a.value === type);
  if (!t || type === 0) return lang === 'en-US' ? 'Other' : '其他报警';
  return lang === 'en-US' ? t.en : t.zh;
}

/** One protocol alarm as alarmlist answers it and as the events socket pushes it (topic 'alarm'). */
export interface AlarmItem {
  ID: number;
  DeviceID: string;
  ChannelID: string;
  DeviceName: string;
  ChannelName: string;
  AlarmPriority: number;
  AlarmMethod: number;
  /** Spec 3 alarm type 1-19; 0 = other. */
  AlarmType: number;
  /** ISO-8601 UTC. */
  AlarmTime: string;
  AlarmDescription: string;
  Longitude: number | null;
  Latitude: number | null;
  /** Relative URL of the snapshot taken at alarm time, '' when none. */
  Snapshot: string;
  CreateTime: string;
}
export interface AlarmPage {
  Total: number;
  Alarms: AlarmItem[];
}
