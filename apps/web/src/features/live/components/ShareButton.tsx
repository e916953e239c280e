/** Share a channel: pick how long, get a signed link (sharelink) and copy its absolute form. */
import { useState } from 'react';
import { Button, Form, Modal, Select, Space, Typography } from 'antd';
import { ShareAltOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { createShareLink, type ShareLink } from '../api';
import { formatDateTime } from '../../../lib/time';

const HOUR = 3600;
const EXPIRES = [HOUR, 6 * HOUR, 24 * HOUR, 7 * 24 * HOUR];

export function absoluteShareUrl(path: string, origin = window.location.origin): string {
  return /^https?:\/\//i.test(path) ? path : `${origin}${path.startsWith('/') ? '' : '/'}${path}`;
}

export function ShareButton({ device, channel, flow }: { device: string; channel: string; flow: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [expire, setExpire] = useState(24 * HOUR);
  const [link, setLink] = useState<ShareLink | null>(null);
  const [loading, setLoading] = useState(false);

  const create = async () => {
    setLoading(true);
    try {
      setLink(await createShareLink(device, channel, flow, expire));
    } catch {
      /* the request layer showed the error */
    } finally {
      setLoading(false);
    }
  };
  const label = (s: number) => (s < 24 * HOUR ? t('live.share.hours', { n: s / HOUR }) : t('live.share.days', { n: s / (24 * HOUR) }));

  return (
    <>
      <Button icon={<ShareAltOutlined />} onClick={() => (setOpen(true), setLink(null))} data-testid="share-button">
        {t('live.share.button')}
      </Button>
      <Modal open={open} title={t('live.share.title')} onCancel={() => setOpen(false)} footer={null} destroyOnHidden>
        <Form layout="vertical">
          <Form.Item label={t('live.share.expire')}>
            <Space>
              <Select style={{ width: 140 }} value={expire} onChange={setExpire} options={EXPIRES.map((s) => ({ value: s, label: label(s) }))} />
              <Button type="primary" loading={loading} onClick={() => void create()} data-testid="share-create">
                {t('live.share.create')}
              </Button>
            </Space>
          </Form.Item>
          {link && (
            <Form.Item label={t('live.share.link')}>
              <Typography.Paragraph copyable={{ tooltips: [undefined, t('live.share.copied')] }} data-testid="share-link" style={{ wordBreak: 'break-all' }}>
                {absoluteShareUrl(link.URL)}
              </Typography.Paragraph>
              <Typography.Text type="secondary" data-testid="share-expires">
                {t('live.share.expiresAt', { time: formatDateTime(link.ExpiresAt * 1000) })}
              </Typography.Text>
            </Form.Item>
          )}
        </Form>
      </Modal>
    </>
  );
}
