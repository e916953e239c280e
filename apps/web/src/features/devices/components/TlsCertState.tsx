/**
 * An rtsps:// or https:// channel's server certificate on the channel form (channelsconfig's TlsCert,
 * administrators only): the pinned SHA-256 fingerprint, or that none is pinned yet, or that an
 * authority vouches for it. While the camera presents another certificate (the channel offline with
 * tlsCertChanged) both fingerprints show, with "trust the new certificate": editchannel's TlsPin
 * pins exactly the fingerprint shown, not whatever the camera presents next (a pin cleared instead
 * would take an attacker's certificate arriving first). Read on its own query, not the form's, so a
 * refresh does not reset what the administrator is typing; again every REFRESH_MS while shown, as
 * the stream checker finds a change within its interval.
 */
import { Button, Popconfirm, Space, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { editChannel, fetchChannel } from '../api';
import { tlsCertKey } from '../tlsCertWords';

export const TLS_REFRESH_MS = 5000;

function Fingerprint({ value, testId }: { value: string; testId: string }) {
  return (
    <Typography.Text code copyable={{ text: value }} data-testid={testId} style={{ wordBreak: 'break-all', fontFamily: 'monospace' }}>
      {value}
    </Typography.Text>
  );
}

/** `server`: an https:// channel's, named a stream server's certificate rather than a camera's. */
export function TlsCertState({ device, channel, server = false }: { device: string; channel: string; server?: boolean }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const key = ['tlsCert', device, channel];
  const state = useQuery({ queryKey: key, queryFn: async () => (await fetchChannel(device, channel))?.TlsCert ?? null, refetchInterval: TLS_REFRESH_MS });
  const s = state.data;
  if (!s) return null;

  const trust = async (presented: string) => {
    try {
      await editChannel(device, channel, { TlsPin: presented });
      notify.success(t('devices.tlsCert.trusted'));
      await qc.invalidateQueries({ queryKey: key });
    } catch {
      // the request layer shows the server's text
    }
  };

  return (
    <Space orientation="vertical" size={4} data-testid="tls-cert-state" style={{ maxWidth: '100%' }}>
      {s.State === 'pinned' && (
        <>
          <Typography.Text type="secondary">{t('devices.tlsCert.pinned')}</Typography.Text>
          <Fingerprint value={s.Pin} testId="tls-pin" />
        </>
      )}
      {s.State === 'none' && <Typography.Text type="secondary">{t(tlsCertKey(server, 'none'))}</Typography.Text>}
      {s.State === 'authority' && <Typography.Text type="secondary">{t('devices.tlsCert.authority')}</Typography.Text>}
      {s.Presented && (
        <>
          <Typography.Text type="danger">{t(tlsCertKey(server, 'presented'))}</Typography.Text>
          <Fingerprint value={s.Presented} testId="tls-presented" />
          <Popconfirm
            title={t(tlsCertKey(server, 'confirmTitle'))}
            description={
              <Space orientation="vertical" size={2} style={{ maxWidth: 420 }} data-testid="tls-trust-confirm">
                <Typography.Text>{t(tlsCertKey(server, 'confirmBody'))}</Typography.Text>
                <Typography.Text type="secondary">{t('devices.tlsCert.confirmOld')}</Typography.Text>
                <Typography.Text code style={{ wordBreak: 'break-all' }}>
                  {s.Pin}
                </Typography.Text>
                <Typography.Text type="secondary">{t('devices.tlsCert.confirmNew')}</Typography.Text>
                <Typography.Text code style={{ wordBreak: 'break-all' }}>
                  {s.Presented}
                </Typography.Text>
              </Space>
            }
            onConfirm={() => trust(s.Presented!)}
          >
            <Button danger>{t('devices.tlsCert.trust')}</Button>
          </Popconfirm>
        </>
      )}
    </Space>
  );
}
