/**
 * The PTZ pad's presets: the device's list (onvifgetpresetlist; a GB28181 device answers a
 * PresetQuery), go to one, delete one, and save the current position under a number (a GB28181
 * preset is a number 1-255; an ONVIF camera takes it as the token). The device's answer or error
 * shows below, as the pad does.
 */
import { useState } from 'react';
import { Button, InputNumber, Popconfirm, Select, Space, Typography } from 'antd';
import { AimOutlined, DeleteOutlined, ReloadOutlined, SaveOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fetchPresets, gotoPreset, removePreset, setPreset } from './api';

/** `padError`: the pad's own line below; the list's error is not said twice when it is the same
 *  (an unreachable device answers the list and the move alike). */
export function PtzPresets({ device, channel, onError, padError = '' }: { device: string; channel: string; onError: (message: string) => void; padError?: string }) {
  const { t } = useTranslation();
  const target = { device, channel };
  const list = useQuery({ queryKey: ['ptz', 'presets', device, channel], queryFn: () => fetchPresets(target), retry: false });
  const presets = list.data?.Presets ?? [];
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const [number, setNumber] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const label = (p: { Token: string; Name: string }) => (p.Name && p.Name !== p.Token ? `${p.Token} ${p.Name}` : p.Token);

  const run = async (fn: () => Promise<unknown>, refetch = false) => {
    setBusy(true);
    try {
      await fn();
      onError('');
      if (refetch) await list.refetch();
    } catch (err) {
      onError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const existing = number ? presets.find((p) => p.Token === String(number)) : undefined;
  const save = () => void run(() => setPreset(target, String(number), existing?.Name || t('player.ptz.presetName', { n: number })), true);

  return (
    <div data-testid="ptz-presets" style={{ marginTop: 6 }}>
      <Space size={4} style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Text style={{ fontSize: 12 }}>{t('player.ptz.presets')}</Typography.Text>
        <Button size="small" type="text" icon={<ReloadOutlined />} aria-label={t('player.ptz.presetsRefresh')} loading={list.isFetching} onClick={() => void list.refetch()} />
      </Space>
      {list.isError && (list.error as Error).message !== padError && (
        <Typography.Text type="danger" style={{ fontSize: 12, display: 'block' }} data-testid="ptz-presets-error">
          {(list.error as Error).message}
        </Typography.Text>
      )}
      <Select
        size="small"
        style={{ width: '100%' }}
        data-testid="ptz-preset-select"
        placeholder={list.isSuccess && !presets.length ? t('player.ptz.presetsNone') : t('player.ptz.presetPick')}
        value={picked}
        onChange={setPicked}
        options={presets.map((p) => ({ value: p.Token, label: label(p) }))}
        getPopupContainer={(node: HTMLElement) => node.parentElement ?? document.body}
      />
      <div style={{ display: 'flex', gap: 4, marginTop: 4 }}>
        <Button size="small" block icon={<AimOutlined />} disabled={!picked || busy} onClick={() => void run(() => gotoPreset(target, picked!))}>
          {t('player.ptz.presetGoto')}
        </Button>
        <Popconfirm
          title={t('player.ptz.presetRemoveConfirm', { name: label(presets.find((p) => p.Token === picked) ?? { Token: picked ?? '', Name: '' }) })}
          onConfirm={() => void run(() => removePreset(target, picked!).then(() => setPicked(undefined)), true)}
          okButtonProps={{ danger: true }}
        >
          <Button size="small" block danger icon={<DeleteOutlined />} disabled={!picked || busy}>
            {t('player.ptz.presetRemove')}
          </Button>
        </Popconfirm>
      </div>
      <div style={{ display: 'flex', gap: 4, marginTop: 4 }}>
        <InputNumber size="small" min={1} max={255} precision={0} style={{ flex: 1 }} placeholder={t('player.ptz.presetNumber')} aria-label={t('player.ptz.presetNumber')} value={number} onChange={(v) => setNumber(v)} />
        {/* Saving under the number of a preset the device has overwrites it: asked first. */}
        <Popconfirm
          title={t('player.ptz.presetOverwriteConfirm', { name: existing ? label(existing) : '' })}
          disabled={!existing}
          onConfirm={save}
          okButtonProps={{ danger: true }}
        >
          <Button size="small" icon={<SaveOutlined />} title={t('player.ptz.presetSetTitle')} disabled={!number || busy} onClick={existing ? undefined : save}>
            {t('player.ptz.presetSet')}
          </Button>
        </Popconfirm>
      </div>
    </div>
  );
}
