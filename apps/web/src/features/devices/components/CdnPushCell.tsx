/**
 * The channel list's CDN push column: the push's state as a tag, its figures or its reason in the
 * tooltip. useCdnPushes reads the page's CdnPush again every CDN_REFRESH_MS while a channel of it has
 * EnableCdn on, and at once when the events socket says a push of this device moved, apart from the
 * list's own query (whose refetch would show the table loading every few seconds).
 */
import { Tag, Tooltip } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CdnPushStatus, ChannelRow } from '@opencvr/shared';
import { formatBitrate, formatBytes } from '../../../lib/format';
import { useWsTopic } from '../../../lib/ws';
import { CDN_COLOURS, CDN_REFRESH_MS, cdnReasonLine } from './CdnPushState';

export function useCdnPushes(device: string, rows: ChannelRow[], key: unknown[], readPage: () => Promise<{ Channels: ChannelRow[] }>) {
  const qc = useQueryClient();
  const queryKey = ['cdnPushes', device, ...key];
  const any = rows.some((r) => r.EnableCdn === 1);
  const fresh = useQuery({
    queryKey,
    queryFn: async () => new Map((await readPage()).Channels.map((c) => [c.ChannelID, c.CdnPush])),
    enabled: any,
    refetchInterval: CDN_REFRESH_MS,
  });
  useWsTopic('cdn', (e) => {
    if (e.DeviceID === device && rows.some((r) => r.ChannelID === e.ChannelID)) void qc.invalidateQueries({ queryKey });
  });
  return (c: ChannelRow): CdnPushStatus | undefined => (fresh.data?.has(c.ChannelID) ? fresh.data.get(c.ChannelID) : c.CdnPush);
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
