/**
 * The GB28181 actions in a /device/list row: refresh the catalog (the progress is followed until the
 * device's answer is stored, then the list reloads), reboot (TeleBoot, after a confirm) and the
 * device information dialog.
 */
import { useState } from 'react';
import { Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DeviceRow } from '@opencvr/shared';
import { notify } from '../../../lib/notify';
import { useWsTopic } from '../../../lib/ws';
import { runAction } from '../../../lib/runAction';
import { fetchCatalog, rebootDevice, waitCatalog } from '../gbApi';
import { GbDeviceInfoModal } from './GbDeviceInfoModal';

export function GbDeviceActions({ device, onChanged }: { device: DeviceRow; onChanged: () => void }) {
  const { t } = useTranslation();
  const [fetching, setFetching] = useState(false);
  const [infoOpen, setInfoOpen] = useState(false);

  const refreshCatalog = async () => {
    setFetching(true);
    try {
      const started = await fetchCatalog(device.DeviceID).catch(() => undefined);
      if (!started) return;
      notify.success(t('gbDevice.fetchCatalogStarted'));
      const p = await waitCatalog(device.DeviceID, started.SN);
      if (p?.Outcome === 'complete') {
        notify.success(t('gbDevice.catalogDone', { received: p.Received ?? 0, added: p.Added ?? 0, updated: p.Updated ?? 0, removed: p.Removed ?? 0 }));
      } else if (p) {
        notify.warning(t('gbDevice.catalogPartial', { error: p.Error ?? p.Outcome ?? '' }));
      }
      onChanged();
    } finally {
      setFetching(false);
    }
  };

  return (
    <>
      <Button type="link" size="small" loading={fetching} onClick={() => void refreshCatalog()} data-testid="gb-fetch-catalog">
        {t('gbDevice.fetchCatalog')}
      </Button>
      <Button type="link" size="small" onClick={() => setInfoOpen(true)} data-testid="gb-device-info">
        {t('gbDevice.info')}
      </Button>
      <Popconfirm
        title={t('gbDevice.rebootConfirm', { name: device.DeviceName })}
        onConfirm={() => void runAction(() => rebootDevice(device.DeviceID), t('gbDevice.rebootSent'))}
      >
        <Button type="link" size="small" data-testid="gb-reboot">
          {t('gbDevice.reboot')}
        </Button>
      </Popconfirm>
      {infoOpen && <GbDeviceInfoModal device={device} onClose={() => setInfoOpen(false)} />}
    </>
  );
}

/** Calls `onEnded` when any GB device's catalog answer has been stored (pushed to admins as topic 'catalog'), e.g. after a registration. */
export function useCatalogEnded(onEnded: () => void) {
  useWsTopic('catalog', (p) => {
    if (!p.Running) onEnded();
  });
}
