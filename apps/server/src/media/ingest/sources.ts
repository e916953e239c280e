import { PULLED_TYPES, type DeviceType } from '@opencvr/shared';
import type { SourceFactory } from '../../services/media/streams.js';
import { FfmpegPullSource } from './ffmpeg-pull-source.js';
import { pullSchemeOf } from './pull-url.js';
import { RtmpPullSource } from './rtmp-source.js';
import { RtspSource } from './rtsp-source.js';

/**
 * Pulled channels: rtsp:// by the native RTSP client, rtmp(s):// by the native RTMP client
 * (rtmp-source.ts; ffmpeg only for audio it cannot carry), rtsps:// by the same RTSP client inside TLS
 * (the camera's certificate trusted by authority or pinned for the channel: access/tls/rtsps-trust.ts);
 * HTTP(S) (HTTP-FLV, HLS) through ffmpeg into the same hub, an https:// server's certificate held to the same
 * policy (pull-gateway.ts; the sub-stream URL comes with ONVIF profiles later).
 */
export const pulledSourceFactory: SourceFactory = (device, channel) => {
  // Device types whose channels are pulled from their stream address (RtspUrl).
  if (!PULLED_TYPES.includes(device.device_type as DeviceType)) return undefined;
  const username = channel.username || device.device_username;
  const password = channel.password || device.device_password;
  const scheme = pullSchemeOf(channel.rtsp_url);
  if (scheme === 'rtmp' || scheme === 'rtmps') return new RtmpPullSource(channel.rtsp_url, { username, password, audio: channel.enable_audio !== 0 });
  if (scheme) return new FfmpegPullSource(channel.rtsp_url, { username, password, audio: channel.enable_audio !== 0, pinFor: channel.id });
  if (!/^rtsps?:\/\//i.test(channel.rtsp_url)) return undefined;
  return new RtspSource(channel.rtsp_url, {
    username,
    password,
    // The channel's Transport (TCP by default); UDP falls back to TCP when the camera refuses it. RTSPS: TCP only.
    transport: channel.transport === 'UDP' ? 'udp' : 'tcp',
    audio: channel.enable_audio !== 0,
    pinFor: channel.id,
  });
};
