/**
 * The channel's CDN push as the server sees it (channelsconfig's CdnPush, administrators only):
 * pushing since when with bytes and bitrate, retrying or login refused with the reason and the next
 * try counting down, stopped with why. Read again every REFRESH_MS while shown, and at once when the
 * events socket says the push moved (topic 'cdn'), so a push switched on is seen to work or fail.
 * The reason is rendered from its catalogue code in the console's language (the socket's text is
 * in the server's default one).
 */
import { useEffect, useState } from 'react';
import { Space, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { isReasonKey, reason, type CdnPushStateName, type CdnPushStatus } from '@opencvr/shared';
import { currentLang } from '../../../i18n';
import { formatBitrate, formatBytes } from '../../../lib/format';
import { formatDateTime } from '../../../lib/time';
import { useWsTopic } from '../../../lib/ws';
import { fetchChannel } from '../api';

/** Bytes and bitrate move all the time: read this often (state changes come on the socket). */
export const CDN_REFRESH_MS = 5000;

export const CDN_COLOURS: Record<CdnPushStateName, string> = {
  connecting: 'processing',
  pushing: 'success',
  retrying: 'warning',
  loginRefused: 'error',
  stopped: 'default',
};

/** The reason in the console's language when its code is one this console knows. */
export function cdnReasonText(s: CdnPushStatus): string {
  if (s.ReasonCode && isReasonKey(s.ReasonCode)) return reason(s.ReasonCode, currentLang(), s.ReasonVars);
  return s.Reason ?? '';
}

/**
 * The reason as a line of the push state: while a new run connects, the reason is the previous
 * run's failure, history rather than the state (the run may well succeed), so it says "last
 * failure" in a neutral tone; red only when the push is waiting to retry or refused.
 */
export function cdnReasonLine(s: CdnPushStatus, t: TFunction): { text: string; tone: 'danger' | 'secondary' } | undefined {
  const why = cdnReasonText(s);
  if (!why) return undefined;
  if (s.State === 'connecting') return { text: t('devices.cdnPush.lastFailure', { reason: why }), tone: 'secondary' };
  return { text: t('devices.cdnPush.reason', { reason: why }), tone: s.State === 'retrying' || s.State === 'loginRefused' ? 'danger' : 'secondary' };
}

/** The time now, once a second while `on`. */
function useSecondTick(on: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [on]);
  return now;
}

export function CdnPushState({ device, channel }: { device: string; channel: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const key = ['cdnPush', device, channel];
  const state = useQuery({
    queryKey: key,
    queryFn: async () => (await fetchChannel(device, channel))?.CdnPush ?? null,
    refetchInterval: CDN_REFRESH_MS,
  });
  useWsTopic('cdn', (e) => {
    if (e.DeviceID === device && e.ChannelID === channel) void qc.invalidateQueries({ queryKey: key });
  });
  const s = state.data;
  const waiting = s?.State === 'retrying' || s?.State === 'loginRefused';
  const now = useSecondTick(waiting);

  if (s === undefined) return <Typography.Text type="secondary">{t('devices.cdnPush.unknown')}</Typography.Text>;
  if (s === null) return <Typography.Text type="secondary">{t('devices.cdnPush.saveFirst')}</Typography.Text>;

  // NextTryIn counts from the answer; the page counts it down.
  const left = s.NextTryIn === undefined ? undefined : Math.max(0, Math.ceil(s.NextTryIn - Math.max(0, now - state.dataUpdatedAt) / 1000));
  const why = cdnReasonLine(s, t);
  return (
    <Space direction="vertical" size={2} data-testid="cdn-push-state" aria-live="polite">
      <Space wrap size={4}>
        <Tag color={CDN_COLOURS[s.State]}>{t(`devices.cdnPush.${s.State}`)}</Tag>
        <Typography.Text type="secondary">{s.Url}</Typography.Text>
      </Space>
      {s.State === 'pushing' && (
        <Typography.Text>
          {[
            s.Since && t('devices.cdnPush.since', { time: formatDateTime(s.Since) }),
            t('devices.cdnPush.sent', { bytes: formatBytes(s.BytesSent ?? 0) }),
            t('devices.cdnPush.bitrate', { rate: formatBitrate((s.Bitrate ?? 0) / 8) }),
          ]
            .filter(Boolean)
            .join(' · ')}
        </Typography.Text>
      )}
      {s.Transcoded && <Typography.Text type="secondary">{t('devices.cdnPush.transcoded')}</Typography.Text>}
      {why && <Typography.Text type={why.tone}>{why.text}</Typography.Text>}
      {waiting && left !== undefined && (
        <Typography.Text type="secondary">
          {[left > 0 ? t('devices.cdnPush.nextTry', { seconds: left }) : t('devices.cdnPush.nextTryNow'), t('devices.cdnPush.runs', { runs: s.Runs })].join(' · ')}
        </Typography.Text>
      )}
    </Space>
  );
}
