/** The server's reconnect reasons in the console's language (reasonText.ts); unknown ones as written. */
import { describe, expect, it } from 'vitest';
import i18n from '../src/i18n';
import { reason } from '@opencvr/shared';
import { reasonText } from '../src/components/player/reasonText';

describe('reasonText', () => {
  const zh = i18n.getFixedT('zh-CN');
  const en = i18n.getFixedT('en-US');
  it('shows a reason of the shared catalogue (the server writes its English) in the console’s language', () => {
    const hevc = reason('pullHevcFlvNeedsFfmpeg61', 'en-US');
    expect(reasonText(hevc, zh)).toBe(reason('pullHevcFlvNeedsFfmpeg61', 'zh-CN'));
    expect(reasonText(hevc, zh)).toMatch(/H\.265.*ffmpeg/);
    expect(reasonText(hevc, en)).toBe(hevc);
  });
  it('names the common camera failures in Chinese and English', () => {
    expect(reasonText('connection refused', zh)).toBe('摄像机拒绝连接');
    expect(reasonText('connection refused', en)).toBe('The camera refused the connection');
    expect(reasonText('no media for 10 s', zh)).toBe('10 秒内没有收到摄像机的视频');
    expect(reasonText('connect timeout after 5000 ms', en)).toBe('The camera did not answer within 5000 ms');
    expect(reasonText('DESCRIBE: 401 Unauthorized', zh)).toBe('摄像机拒绝了用户名或密码');
    expect(reasonText('OPTIONS timeout after 5000 ms', zh)).toBe('摄像机的 OPTIONS 应答超时（5000 毫秒）');
    expect(reasonText('connection closed by the camera', zh)).toBe('摄像机断开了连接');
    expect(reasonText('bad data from the camera: RTP version 0', en)).toBe('The camera sent data that cannot be read');
    // another RTSP status: the camera's reason phrase as it wrote it, the words around it in the console's language
    expect(reasonText('DESCRIBE: 404 Not Found', zh)).toBe('摄像机对 DESCRIBE 请求回应 404 Not Found');
    expect(reasonText('SETUP: 461 Unsupported Transport', en)).toBe('The camera answered SETUP with 461 Unsupported Transport');
    expect(reasonText('no playable track in the SDP (MP2T not supported)', zh)).toBe('摄像机的视频中没有可播放的轨道（支持 H.264、H.265、AAC、G.711）');
  });
  it('names what a GB28181 device did (offline, silent, refusing) in Chinese and English', () => {
    const off = 'device 34020000001180000001 is not registered (offline): cannot ask it for channel 34020000001310000003';
    expect(reasonText(off, zh)).toBe('设备已离线（未注册），设备重新上线后自动恢复');
    expect(reasonText(off, en)).toMatch(/^The device is offline/);
    expect(reasonText('RTP stopped: nothing on UDP port 24195 for 10 s', zh)).toBe('设备已停止发送视频（10 秒没有收到 RTP）');
    const noRtp = 'no RTP received on UDP port 24196 within 10 s: check the media IP announced (127.0.0.1) and that the port is reachable from the device';
    expect(reasonText(noRtp, zh)).toBe('10 秒内没有收到设备的视频流（UDP 端口 24196）：请检查媒体流 IP（127.0.0.1）及端口是否可达');
    expect(reasonText(noRtp, en)).toBe('No video from the device within 10 s (UDP port 24196): check that the media IP (127.0.0.1) and port are reachable');
    const late = 'device 34020000001180000001 did not answer the INVITE for channel 34020000001310000001 within 10 s (AckTimeout): check that it is online and reachable';
    expect(reasonText(late, zh)).toBe('设备在 10 秒内没有应答点播请求');
    expect(reasonText('device 34020000001180000001 refused the live stream of channel 34020000001310000001: 486 Busy Here', zh)).toBe('设备拒绝了点播（486 Busy Here）');
    expect(reasonText('the device ended the media session: BYE', en)).toBe('The device ended the video session');
    expect(reasonText('the device did not connect to TCP port 24100 within 10 s: check the media IP announced (10.0.0.2) and that the port is reachable from the device', zh)).toBe(
      '设备在 10 秒内没有连接 TCP 端口 24100：请检查媒体流 IP（10.0.0.2）及端口是否可达',
    );
  });
  it('names a GB device whose TCP connection is gone (the address as written)', () => {
    const gone = 'cannot send to 34020000001320000001: no TCP connection from 127.0.0.1:5061';
    expect(reasonText(gone, zh)).toBe('设备的 TCP 连接（127.0.0.1:5061）已断开，设备重新连接并注册后自动恢复');
    expect(reasonText(gone, en)).toBe('The device’s TCP connection (127.0.0.1:5061) is gone; play resumes once it reconnects and registers');
  });
  it('keeps a reason it does not know as the server wrote it', () => {
    expect(reasonText('INVITE refused: 488 Not Acceptable Here', zh)).toBe('INVITE refused: 488 Not Acceptable Here');
    expect(reasonText('', zh)).toBe('');
  });
});
