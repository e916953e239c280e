/**
 * What a GB28181 device reports about itself: DeviceInfo (manufacturer, model, firmware, channel count),
 * its registration, the last DeviceStatus and catalog query. Opening it asks the device again
 * (deviceinfo?refresh=1); a device that does not answer still shows what is stored, with the cause.
 */
import { Alert, Button, Descriptions, Modal, Spin, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DeviceRow } from '@opencvr/shared';
import { fetchGbDeviceInfo } from '../gbApi';
import { formatDateTime } from '../../../lib/time';
import { usePhone } from '../../../components/usePhone';

const time = (iso: string | undefined) => formatDateTime(iso, '-');

export function GbDeviceInfoModal({ device, onClose }: { device: DeviceRow; onClose: () => void }) {
  const { t } = useTranslation();
  const info = useQuery({
    queryKey: ['gb-deviceinfo', device.DeviceID],
    queryFn: () => fetchGbDeviceInfo(device.DeviceID, true),
    gcTime: 0,
  });
  const phone = usePhone();
  const gb = info.data?.GB;
  const onOff = (v: boolean | undefined) => (v === undefined ? '-' : v ? t('gbDevice.on') : t('gbDevice.off'));
  const status = gb?.Status;
  const catalog = gb?.Catalog;

  return (
    <Modal
      open
      title={t('gbDevice.infoTitle', { name: device.DeviceName })}
      onCancel={onClose}
      width={640}
      footer={[
        <Button key="refresh" onClick={() => void info.refetch()} loading={info.isFetching}>
          {t('gbDevice.refresh')}
        </Button>,
        <Button key="close" type="primary" onClick={onClose}>
          {t('gbDevice.close')}
        </Button>,
      ]}
    >
      <Spin spinning={info.isFetching}>
        {gb?.RefreshError && <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={t('gbDevice.refreshError', { error: gb.RefreshError })} />}
        {/* On a phone each label over its value: two pairs a row left a 20-digit ID three lines tall and
            labels broken mid-word, one pair a row still two lines for the ID beside its label. */}
        <Descriptions column={phone ? 1 : 2} layout={phone ? 'vertical' : 'horizontal'} size="small" bordered data-testid="gb-device-info-table">
          <Descriptions.Item label={t('devices.id')}>{device.DeviceID}</Descriptions.Item>
          <Descriptions.Item label={t('gbDevice.manufacturer')}>{gb?.Manufacturer || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('gbDevice.model')}>{gb?.Model || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('gbDevice.firmware')}>{gb?.Firmware || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('gbDevice.channelCount')}>{gb?.ChannelCount ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('gbDevice.registered')}>
            {gb?.Registered ? <Tag color="green">{t('gbDevice.registeredYes')}</Tag> : <Tag>{t('gbDevice.registeredNo')}</Tag>}
          </Descriptions.Item>
          <Descriptions.Item label={t('gbDevice.transport')}>{gb?.SipTransport || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('gbDevice.remote')}>{gb?.RemoteAddress || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('gbDevice.registeredAt')}>{time(gb?.RegisteredAt)}</Descriptions.Item>
          <Descriptions.Item label={t('gbDevice.expiresAt')}>{time(gb?.RegisterExpiresAt)}</Descriptions.Item>
          <Descriptions.Item label={t('gbDevice.keepaliveAt')}>{time(gb?.KeepaliveAt)}</Descriptions.Item>
          <Descriptions.Item label={t('gbDevice.catalogAt')}>{time(gb?.CatalogAt)}</Descriptions.Item>
          {gb?.StatusReason ? <Descriptions.Item label={t('gbDevice.statusReason')}>{gb.StatusReason}</Descriptions.Item> : null}
          {status ? (
            <>
              <Descriptions.Item label={t('gbDevice.deviceStatus')}>
                {status.Result === 'OK' ? <Tag color="green">{t('gbDevice.statusOk')}</Tag> : <Tag color="red">{status.Reason || t('gbDevice.statusError')}</Tag>}
              </Descriptions.Item>
              <Descriptions.Item label={t('gbDevice.deviceTime')}>{status.DeviceTime ?? '-'}</Descriptions.Item>
              <Descriptions.Item label={t('gbDevice.encode')}>{onOff(status.Encode)}</Descriptions.Item>
              <Descriptions.Item label={t('gbDevice.record')}>{onOff(status.Record)}</Descriptions.Item>
            </>
          ) : null}
          {catalog ? (
            <Descriptions.Item label={t('gbDevice.catalog')} span={2}>
              {catalog.Running
                ? t('gbDevice.catalogRunning', { received: catalog.Received, sum: catalog.SumNum })
                : catalog.Outcome === 'complete'
                  ? t('gbDevice.catalogDone', { received: catalog.Received, added: catalog.Added ?? 0, updated: catalog.Updated ?? 0, removed: catalog.Removed ?? 0 })
                  : t('gbDevice.catalogPartial', { error: catalog.Error ?? catalog.Outcome ?? '' })}
            </Descriptions.Item>
          ) : null}
        </Descriptions>
      </Spin>
    </Modal>
  );
}
