/**
 * The CDN push column of the channel list and of the group page's channels: the push's state as a
 * tag, its figures or its reason in the tooltip. useCdnPushes reads the page's CdnPush again every
 * CDN_REFRESH_MS while a channel of it has EnableCdn on, and at once when the events socket says a
 * push of one of its channels moved (a group's page holds channels of several devices), apart from
 * the list's own query (whose refetch would show the table loading every few seconds).
 */
import { Tag, Tooltip } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CdnPushStatus, ChannelRow } from '@opencvr/shared';
import { formatBitrate, formatBytes } from '../../../lib/format';
import { useWsTopic } from '../../../lib/ws';
import { CDN_COLOURS, CDN_REFRESH_MS, cdnReasonLine } from './CdnPushState';

/** A channel across devices (the map's key). */
const channelKey = (deviceId: string, channelId: string) => `${deviceId}:${channelId}`;

/** `key` names the page (the list's own query key); `rows` its channels, [] when no column shows. */
export function useCdnPushes(rows: ChannelRow[], key: unknown[], readPage: () => Promise<{ Channels: ChannelRow[] }>) {
  const qc = useQueryClient();
  const queryKey = ['cdnPushes', ...key];
  const any = rows.some((r) => r.EnableCdn === 1);
  const fresh = useQuery({
    queryKey,
    queryFn: async () => new Map((await readPage()).Channels.map((c) => [channelKey(c.ParentDeviceID, c.ChannelID), c.CdnPush])),
    enabled: any,
    refetchInterval: CDN_REFRESH_MS,
  });
  useWsTopic('cdn', (e) => {
    if (rows.some((r) => r.ParentDeviceID === e.DeviceID && r.ChannelID === e.ChannelID)) void qc.invalidateQueries({ queryKey });
  });
  return (c: ChannelRow): CdnPushStatus | undefined => {
    const k = channelKey(c.ParentDeviceID, c.ChannelID);
    return fresh.data?.has(k) ? fresh.data.get(k) : c.CdnPush;
  };
}

export function CdnPushCell({ status }: { status: CdnPushStatus | undefined }) {
  const { t } = useTranslation();
  if (!status) return <>-</>;
  const detail =
    status.State === 'pushing'
      ? [t('devices.cdnPush.sent', { bytes: formatBytes(status.BytesSent ?? 0) }), t('devices.cdnPush.bitrate', { rate: formatBitrate((status.Bitrate ?? 0) / 8) })].join(' · ')
      : (cdnReasonLine(status, t)?.text ?? status.Url);
  return (
    <Tooltip title={detail}>
      <Tag color={CDN_COLOURS[status.State]} data-testid="cdn-push-cell">
        {t(`devices.cdnPush.${status.State}`)}
      </Tag>
    </Tooltip>
  );
}
