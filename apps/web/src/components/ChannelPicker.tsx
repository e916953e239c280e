/**
 * A dialog to pick channels (or devices) for a group or a role: devices → their channels level by
 * level, loaded on expand; with a search text, the matching channels of every device (all/channels)
 * or the matching devices. Picking channels, a device's box takes all its cameras, and a GB folder's
 * box (business group, virtual organisation, civil code) all the cameras below it at every depth; both
 * are read from the server page by page (also those not shown yet), and the box is half-ticked while
 * only some are picked (pickerBoxes.ts).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Checkbox, Empty, Input, Modal, Space, Spin, Tree, Typography } from 'antd';
import { FolderOutlined, HddOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CHANNEL_SEARCH_LIMIT, TREE_PAGE_SIZE, type ChannelRow, type DeviceRow } from '@opencvr/shared';
import { fetchAllDeviceCameras, fetchChannelConfigs, fetchDeviceConfigs, searchAllChannels, type ChannelRef } from '../lib/api/inventory';
import { notify } from '../lib/notify';
import { useDebounced } from '../lib/useDebounced';
import { boxesAbove, boxTick, camerasOfBoxes, channelKey, countUnder, deviceKey, type FolderParents } from './pickerBoxes';
import { ROOT_KEY, useLazyTree, type LazyItem, type LazyLoader, type LazyTreeNode } from './lazyTree';

export interface PickedChannel extends ChannelRef {
  Name: string;
  DeviceName?: string;
  EnableRecord?: number;
}
type Node = { kind: 'device'; device: DeviceRow } | { kind: 'channel'; channel: ChannelRow };

const deviceItem = (d: DeviceRow, leaf: boolean): LazyItem<Node> => ({ key: deviceKey(d.DeviceID), data: { kind: 'device', device: d }, leaf });
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
  // Channels mode: the cameras under each ticked box (a device or a folder, by its node key: to tell
  // ticked from half-ticked), and the boxes whose cameras are being read (their box waits, the OK
  // button too, or it would send too few).
  const [cameras, setCameras] = useState<Map<string, ChannelRow[]>>(new Map());
  const [resolving, setResolving] = useState<Set<string>>(new Set());
  // Bumped at each opening: a box's cameras answering after the dialog closed pick nothing in the next.
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

  // Where each folder the tree has loaded hangs, to tell which folders a picked camera sits under.
  const folderParents = useMemo<FolderParents>(() => {
    const parents = new Map<string, ChannelRow>();
    for (const level of tree.levels.values()) {
      for (const i of level.items) if (i.data.kind === 'channel' && i.data.channel.Parental === 1) parents.set(i.key, i.data.channel);
    }
    return parents;
  }, [tree.levels]);
  const pickedUnder = useMemo(
    () => countUnder([...picked.values()].flatMap((n) => (n.kind === 'channel' ? [n.channel] : [])), folderParents),
    [picked, folderParents],
  );
  const boxCameras = useMemo(() => camerasOfBoxes(cameras, folderParents), [cameras, folderParents]);
  const tickOf = (key: string) => boxTick(boxCameras.get(key), pickedUnder.get(key) ?? 0, (k) => picked.has(k));
  const isBox = (n: Node) => mode === 'channels' && (n.kind === 'device' || n.channel.Parental === 1);

  /** The cameras under a box, read from the server page by page (a device's, or a folder's at every depth). */
  const readBox = async (key: string, n: Node): Promise<ChannelRow[] | undefined> => {
    const at = opening.current;
    setResolving((prev) => new Set(prev).add(key));
    try {
      const rows = n.kind === 'device' ? await fetchAllDeviceCameras(n.device.DeviceID) : await fetchAllDeviceCameras(n.channel.ParentDeviceID, n.channel.GBID);
      if (at !== opening.current) return undefined;
      setCameras((prev) => new Map(prev).set(key, rows));
      return rows;
    } catch {
      return undefined; /* the request layer said why; nothing changes */
    } finally {
      setResolving((prev) => {
        const next = new Set(prev);
        next.delete(key);
        return next;
      });
    }
  };

  /**
   * A device's or a folder's box in channels mode: ticked, it gives back every camera under it (a
   * folder known to be whole only through a box above it is read first: the tree may not have shown
   * where all of its cameras sit); otherwise it takes all of them.
   */
  const toggleBox = async (key: string, n: Node) => {
    if (tickOf(key) === 'all') {
      const rows = cameras.get(key) ?? (await readBox(key, n));
      if (!rows) return;
      const known = new Set(rows.map((c) => channelKey(c.ParentDeviceID, c.ChannelID)));
      setPicked((prev) => new Map([...prev].filter(([k, p]) => p.kind !== 'channel' || !(known.has(k) || boxesAbove(p.channel, folderParents).includes(key)))));
      return;
    }
    const rows = await readBox(key, n);
    if (!rows) return;
    if (!rows.length) {
      const name = n.kind === 'device' ? n.device.DeviceName || n.device.DeviceID : n.channel.Name || n.channel.ChannelID;
      notify.warning(t(n.kind === 'device' ? 'devices.picker.noCameras' : 'devices.picker.noFolderCameras', { name }));
    }
    setPicked((prev) => {
      const next = new Map(prev);
      for (const c of rows) next.set(channelKey(c.ParentDeviceID, c.ChannelID), { kind: 'channel', channel: c });
      return next;
    });
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
        checkable: n.kind === checkableKind || isBox(n),
        disableCheckbox: resolving.has(item.key),
        selectable: false,
      };
    },
    <Typography.Link>{t('devices.picker.loadMore')}</Typography.Link>,
  );
  const boxKeys = [...tree.levels.values()].flatMap((level) => level.items.filter((i) => isBox(i.data)).map((i) => i.key));
  const checkedKeys = {
    checked: [...picked.keys(), ...boxKeys.filter((k) => tickOf(k) === 'all')],
    halfChecked: boxKeys.filter((k) => tickOf(k) === 'some'),
  };
  // A search's cameras can be taken all at once: a site of 1,500 cameras is not picked one by one. A
  // folder it found is no camera to record or grant: its own box takes what is under it.
  const results = useMemo(
    () =>
      query && mode === 'channels'
        ? (tree.levels.get(ROOT_KEY)?.items ?? []).filter((i) => i.data.kind === 'channel' && i.data.channel.Parental !== 1)
        : [],
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
            {resolving.size > 0
              ? t([...resolving].some((k) => k.startsWith('d:')) ? 'devices.picker.reading' : 'devices.picker.readingFolder')
              : t('devices.picker.selected', { count: picked.size })}
          </Typography.Text>
          <Button onClick={onCancel}>{t('common.cancel')}</Button>
          {/* Waiting for a box's cameras, OK is only disabled: a button's loading icon leaves through a
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
                if (isBox(node.data)) {
                  void toggleBox(node.key, node.data);
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
