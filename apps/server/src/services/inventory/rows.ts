/** Database rows to the API shapes of spec 3. Secrets are blanked for non-administrators. */
import type { ChannelRow, DeviceRow, DeviceType, Lang } from '@opencvr/shared';
import type { Channel, Device } from '../../db/schema.js';
import { statusReasonText } from './status-reason.js';
import { maskedPushUrl } from '../../media/ffmpeg/push-url-mask.js';
import { tlsCertStatus } from './tls-cert-status.js';

export function deviceRow(d: Device, counts: { total: number; online: number }, admin: boolean): DeviceRow {
  return {
    DeviceID: d.device_id,
    DeviceName: d.device_name,
    DeviceType: d.device_type as DeviceType,
    DeviceIp: d.device_ip,
    DevicePort: d.device_port,
    DeviceUserName: admin ? d.device_username : '',
    DeviceUserPW: admin ? d.device_password : '',
    Manufacturer: d.manufacturer,
    Model: d.model,
    Firmware: d.firmware,
    Enable: d.enable,
    Online: d.online,
    Transport: d.transport,
    TransportMode: d.transport_mode,
    ServerID: d.server_id,
    AlarmSubscribe: d.alarm_subscribe,
    CatalogSubscribe: d.catalog_subscribe,
    PositionSubscribe: d.position_subscribe,
    ChannelNum: counts.total,
    onlineChannelNums: counts.online,
    clusterOnline: 1,
    CreateAt: d.created_at,
    UpdateAt: d.updated_at,
    LastSeenAt: d.last_seen_at,
  };
}

export function channelRow(
  c: Channel,
  extra: { deviceName: string; deviceType: string; deviceEnable: number; favorite: boolean; subChannels: number },
  admin: boolean,
  /** The asker's: StatusReason is rendered in it. */
  lang: Lang,
): ChannelRow {
  const row: ChannelRow = {
    ChannelID: c.channel_id,
    ParentDeviceID: c.parent_device_id,
    DeviceName: extra.deviceName,
    DeviceType: extra.deviceType,
    Name: c.name,
    Parental: c.parental,
    ParentID: c.parent_id,
    GBID: c.channel_id,
    Enable: c.enable,
    DeviceEnable: extra.deviceEnable,
    OnDemand: c.on_demand,
    IP: c.ip,
    Port: c.port,
    Username: admin ? c.username : '',
    Password: admin ? c.password : '',
    Protocol: c.protocol,
    // A URL may carry credentials (rtsp://user:pass@host): only administrators see it whole.
    RtspUrl: admin ? c.rtsp_url : stripCredentials(c.rtsp_url),
    RecordUrl: admin ? c.record_url : stripCredentials(c.record_url),
    SnapUrl: admin ? c.snap_url : stripCredentials(c.snap_url),
    // An RTMP ingest's stream key is its password (whoever has it publishes on the CDN account).
    CdnUrl: admin || !c.cdn_url ? c.cdn_url : maskedPushUrl(c.cdn_url),
    EnableCdn: c.enable_cdn,
    EnableRecord: c.enable_record,
    EnableAudio: c.enable_audio,
    EnableH265ToH264: c.enable_h265_to_h264,
    Onvif: admin ? c.onvif : stripCredentials(c.onvif),
    Online: c.online,
    Transport: c.transport,
    ChannelNum: c.channel_num,
    FavoritesChannel: extra.favorite ? 1 : 0,
    ServerID: c.server_id,
    Manufacturer: c.manufacturer,
    Model: c.model,
    PlayTime: c.play_time,
    Longitude: c.longitude,
    Latitude: c.latitude,
    GpsLongitude: c.gps_longitude,
    GpsLatitude: c.gps_latitude,
    StatusReason: statusReasonText(c.status_reason, c.status_reason_vars, lang),
    CheckedAt: c.checked_at,
    SubChannelNum: extra.subChannels,
  };
  // The certificate pin is a channel setting (an rtsps:// camera's): administrators only.
  const tls = admin ? tlsCertStatus(c) : undefined;
  return tls ? { ...row, TlsCert: tls } : row;
}

export function stripCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, '$1');
}
