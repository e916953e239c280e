/**
 * A dialog to pick channels (or devices) for a group or a role: devices → their channels level by
 * level, loaded on expand; with a search text, the matching channels of every device (all/channels)
 * or the matching devices. Picking channels, a device's box takes all its cameras (loaded page by page,
 * also those not shown yet) and is half-ticked while only some are picked.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Checkbox, Empty, Input, Modal, Space, Spin, Tree, Typography } from 'antd';
import { FolderOutlined, HddOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CHANNEL_SEARCH_LIMIT, TREE_PAGE_SIZE, type ChannelRow, type DeviceRow } from '@opencvr/shared';
import { fetchAllDeviceCameras, fetchChannelConfigs, fetchDeviceConfigs, searchAllChannels, type ChannelRef } from '../lib/api/inventory';
import { notify } from '../lib/notify';
import { useDebounced } from '../lib/useDebounced';
import { deviceTick } from './pickerBoxes';
import { ROOT_KEY, useLazyTree, type LazyItem, type LazyLoader, type LazyTreeNode } from './lazyTree';

export interface PickedChannel extends ChannelRef {
  Name: string;
  DeviceName?: string;
  EnableRecord?: number;
}
type Node = { kind: 'device'; device: DeviceRow } | { kind: 'channel'; channel: ChannelRow };

const channelKey = (DeviceID: string, ChannelID: string) => `c:${DeviceID}:${ChannelID}`;
const deviceItem = (d: DeviceRow, leaf: boolean): LazyItem<Node> => ({ key: `d:${d.DeviceID}`, data: { kind: 'device', device: d }, leaf });
const channelItem = (c: ChannelRow, leaf = c.Parental !== 1): LazyItem<Node> => ({
  key: channelKey(c.ParentDeviceID, c.ChannelID),
  data: { kind: 'channel', channel: c },
  leaf,
});

interface Props {
  open: boolean;
  /** channels: pick channels at any level; devices: pick whole devices. */
  mode: 'channels' | 'devices';
  title: string;
  saving?: boolean;
  onCancel: () => void;
  onOk: (picked: { channels: PickedChannel[]; devices: string[] }) => void;
}

export function ChannelPicker({ open, mode, title, saving, onCancel, onOk }: Props) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const query = useDebounced(q.trim());
  const [picked, setPicked] = useState<Map<string, Node>>(new Map());
  const [loading, setLoading] = useState(false);
  // Channels mode: each ticked device's camera keys (to tell ticked from half-ticked), and the devices
  // whose cameras are being loaded (their box waits, the OK button too, or it would send too few).
  const [cameras, setCameras] = useState<Map<string, string[]>>(new Map());
  const [resolving, setResolving] = useState<Set<string>>(new Set());
  // Bumped at each opening: a device's cameras answering after the dialog closed pick nothing in the next.
  const opening = useRef(0);

  const load = useCallback<LazyLoader<Node>>(
    async (parent, start) => {
      if (!parent) {
        if (query && mode === 'channels') {
          const page = await searchAllChannels(query, CHANNEL_SEARCH_LIMIT);
          return { items: page.Channels.map((c) => channelItem(c, true)), total: page.ChannelCount };
        }
        const page = await fetchDeviceConfigs({ start, limit: TREE_PAGE_SIZE, q: query });
        return { items: page.Devices.map((d) => deviceItem(d, mode === 'devices')), total: page.TotalCount };
      }
      const device = parent.kind === 'device' ? parent.device.DeviceID : parent.channel.ParentDeviceID;
      const subset = parent.kind === 'channel' ? parent.channel.GBID : undefined;
      const page = await fetchChannelConfigs({ device, subset, start, limit: TREE_PAGE_SIZE });
      return { items: page.Channels.map((c) => channelItem(c)), total: page.ChannelCount };
    },
    [query, mode],
  );
  const tree = useLazyTree(load);
  const { reset, loadChildren } = tree;

  useEffect(() => {
    if (!open) return;
    reset();
    setLoading(true);
    loadChildren('', null)
      .catch(() => undefined)
      .finally(() => setLoading(false));
  }, [open, query, reset, loadChildren]);
  useEffect(() => {
    if (!open) return;
    opening.current += 1;
    setPicked(new Map());
    setCameras(new Map());
    setResolving(new Set());
  }, [open]);

  const pickedPerDevice = useMemo(() => {
    const counts = new Map<string, number>();
    for (const n of picked.values()) if (n.kind === 'channel') counts.set(n.channel.ParentDeviceID, (counts.get(n.channel.ParentDeviceID) ?? 0) + 1);
    return counts;
  }, [picked]);
  const tickOf = (device: string) => deviceTick(device, cameras, pickedPerDevice, (key) => picked.has(key));

  /** A device's box in channels mode: ticked, it gives back all its channels; otherwise it takes all its cameras. */
  const toggleDevice = async (device: DeviceRow) => {
    const id = device.DeviceID;
    if (tickOf(id) === 'all') {
      setPicked((prev) => new Map([...prev].filter(([, n]) => n.kind !== 'channel' || n.channel.ParentDeviceID !== id)));
      return;
    }
    const at = opening.current;
    setResolving((prev) => new Set(prev).add(id));
    try {
      const rows = await fetchAllDeviceCameras(id);
      if (at !== opening.current) return;
      if (!rows.length) notify.warning(t('devices.picker.noCameras', { name: device.DeviceName || id }));
      setCameras((prev) => new Map(prev).set(id, rows.map((c) => channelKey(c.ParentDeviceID, c.ChannelID))));
      setPicked((prev) => {
        const next = new Map(prev);
        for (const c of rows) next.set(channelKey(c.ParentDeviceID, c.ChannelID), { kind: 'channel', channel: c });
        return next;
      });
    } catch {
      /* the request layer said why; nothing was picked */
    } finally {
      setResolving((prev) => {
        const next = new Set(prev);
        next.delete(id);
        return next;
      });
    }
  };

  const checkableKind = mode === 'devices' ? 'device' : 'channel';
  const treeData = tree.build(
    (item) => {
      const n = item.data;
      const name = n.kind === 'device' ? n.device.DeviceName : n.channel.Name;
      const icon = n.kind === 'device' ? <HddOutlined /> : n.channel.Parental === 1 ? <FolderOutlined /> : <VideoCameraOutlined />;
      const extra = n.kind === 'channel' && query ? ` (${n.channel.DeviceName})` : '';
      return {
        title: (
          <Space size={4}>
            {icon}
            {name}
            {extra && <Typography.Text type="secondary">{extra}</Typography.Text>}
          </Space>
        ),
        checkable: n.kind === checkableKind || (mode === 'channels' && n.kind === 'device'),
        disableCheckbox: n.kind === 'device' && resolving.has(n.device.DeviceID),
        selectable: false,
      };
    },
    <Typography.Link>{t('devices.picker.loadMore')}</Typography.Link>,
  );
  const deviceKeys = mode === 'channels' ? (tree.levels.get(ROOT_KEY)?.items ?? []).filter((i) => i.data.kind === 'device') : [];
  const checkedKeys = {
    checked: [...picked.keys(), ...deviceKeys.filter((i) => i.data.kind === 'device' && tickOf(i.data.device.DeviceID) === 'all').map((i) => i.key)],
    halfChecked: deviceKeys.filter((i) => i.data.kind === 'device' && tickOf(i.data.device.DeviceID) === 'some').map((i) => i.key),
  };
  // A search's channels can be taken all at once: a site of 1,500 cameras is not picked one by one.
  const results = useMemo(
    () => (query && mode === 'channels' ? (tree.levels.get(ROOT_KEY)?.items ?? []).filter((i) => i.data.kind === 'channel') : []),
    [query, mode, tree.levels],
  );
  const resultsPicked = results.filter((i) => picked.has(i.key)).length;
  const pickResults = (on: boolean) =>
    setPicked((prev) => {
      const next = new Map(prev);
      for (const i of results) {
        if (on) next.set(i.key, i.data);
        else next.delete(i.key);
      }
      return next;
    });

  const submit = () => {
    const channels: PickedChannel[] = [];
    const devices: string[] = [];
    for (const n of picked.values()) {
      if (n.kind === 'channel') channels.push({ DeviceID: n.channel.ParentDeviceID, ChannelID: n.channel.ChannelID, Name: n.channel.Name, DeviceName: n.channel.DeviceName, EnableRecord: n.channel.EnableRecord });
      else devices.push(n.device.DeviceID);
    }
    onOk({ channels, devices });
  };

  return (
    <Modal
      open={open}
      title={title}
      onCancel={onCancel}
      destroyOnHidden
      footer={
        <Space>
          <Typography.Text type="secondary" aria-live="polite">
            {resolving.size > 0 ? t('devices.picker.reading') : t('devices.picker.selected', { count: picked.size })}
          </Typography.Text>
          <Button onClick={onCancel}>{t('common.cancel')}</Button>
          {/* Waiting for a device's cameras, OK is only disabled: a button's loading icon leaves through a
              motion, and when that motion's end is missed (a busy machine) the hidden icon stays in the
              button and its name reads "loading OK" for good. */}
          <Button type="primary" disabled={!picked.size || resolving.size > 0} loading={saving} onClick={submit}>
            {t('devices.picker.ok')}
          </Button>
        </Space>
      }
    >
      <Input.Search
        allowClear
        value={q}
        onChange={(e) => setQ(e.target.value)}
        placeholder={mode === 'channels' ? t('devices.picker.search') : t('devices.picker.searchDevices')}
        style={{ marginBottom: 8 }}
      />
      {results.length > 1 && (
        <Checkbox
          style={{ marginBottom: 8 }}
          checked={resultsPicked === results.length}
          indeterminate={resultsPicked > 0 && resultsPicked < results.length}
          onChange={(e) => pickResults(e.target.checked)}
        >
          {t('devices.picker.allResults', { count: results.length })}
        </Checkbox>
      )}
      <Spin spinning={loading}>
        <div style={{ height: 400 }} data-testid="channel-picker">
          {treeData.length ? (
            <Tree<LazyTreeNode<Node>>
              key={tree.version}
              // A virtual list: a search can list tens of thousands of channels.
              height={400}
              checkable
              checkStrictly
              blockNode
              treeData={treeData}
              checkedKeys={checkedKeys}
              loadData={async (node) => {
                if (node.data && !node.moreOf) await loadChildren(node.key, node.data);
              }}
              onClick={(_, node) => {
                if (node.moreOf !== undefined) void tree.loadMore(node.moreOf);
              }}
              onCheck={(_, info) => {
                const node = info.node as unknown as LazyTreeNode<Node>;
                if (!node.data) return;
                if (mode === 'channels' && node.data.kind === 'device') {
                  void toggleDevice(node.data.device);
                  return;
                }
                setPicked((prev) => {
                  const next = new Map(prev);
                  if (next.has(node.key)) next.delete(node.key);
                  else next.set(node.key, node.data!);
                  return next;
                });
              }}
            />
          ) : (
            !loading && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
          )}
        </div>
      </Spin>
    </Modal>
  );
}
