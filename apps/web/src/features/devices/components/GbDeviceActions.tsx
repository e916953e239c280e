/**
 * The GB28181 actions in a /device/list row: refresh the catalog (the progress is followed until the
 * device's answer is stored, then the list reloads), reboot (TeleBoot, after a confirm) and the
 * device information dialog.
 *
 * Why in a "more" menu: beside 通道, 编辑 and 删除 they made six buttons that wrapped the row to two
 * or three lines (the phone's 104 px pinned column, and the wide layout's 260 px one). Used less than
 * those, they sit behind one "…" button; the reboot confirm opens from it, and the dialog and the
 * catalog's progress live here, not in the menu (closed, it would take them with it).
 */
import { useState } from 'react';
import { Button, Dropdown, Popconfirm, type MenuProps } from 'antd';
import { EllipsisOutlined } from '@ant-design/icons';
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
  const [confirmReboot, setConfirmReboot] = useState(false);

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

  const items: MenuProps['items'] = [
    // Waiting is shown as disabled with its own words (never a loading icon in a menu).
    { key: 'catalog', label: fetching ? t('gbDevice.fetchingCatalog') : t('gbDevice.fetchCatalog'), disabled: fetching, 'data-testid': 'gb-fetch-catalog' },
    { key: 'info', label: t('gbDevice.info'), 'data-testid': 'gb-device-info' },
    { key: 'reboot', label: t('gbDevice.reboot'), 'data-testid': 'gb-reboot' },
  ];
  const onMenu: MenuProps['onClick'] = ({ key }) => {
    if (key === 'catalog') void refreshCatalog();
    else if (key === 'info') setInfoOpen(true);
    else if (key === 'reboot') setConfirmReboot(true);
  };

  return (
    <>
      <Popconfirm
        open={confirmReboot}
        onOpenChange={(open) => !open && setConfirmReboot(false)}
        title={t('gbDevice.rebootConfirm', { name: device.DeviceName })}
        onConfirm={() => {
          setConfirmReboot(false);
          void runAction(() => rebootDevice(device.DeviceID), t('gbDevice.rebootSent'));
        }}
        onCancel={() => setConfirmReboot(false)}
      >
        <Dropdown trigger={['click']} placement="bottomRight" menu={{ items, onClick: onMenu }}>
          <Button type="link" size="small" icon={<EllipsisOutlined />} aria-label={t('gbDevice.moreOf', { name: device.DeviceName })} title={t('common.moreActions')} data-testid="gb-more" />
        </Dropdown>
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
