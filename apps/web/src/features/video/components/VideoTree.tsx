/**
 * The video tree tab (admins): devices paged by 50 with "load more"; a device expands into its
 * channels, a directory into its sub-channels, each level loaded when opened. With a search text
 * the tree gives way to the matching channels of every device. Online states follow the events
 * socket's news messages.
 */
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { Empty, Input, Spin, theme, Tree, type TreeProps } from 'antd';
import { HddOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { TREE_PAGE_SIZE, TREE_SEARCH_PAGE_SIZE, type ChannelRow, type DeviceRow } from '@opencvr/shared';
import { ROOT_KEY, useLazyTree, type LazyItem, type LazyLoader, type LazyTreeNode } from '../../../components/lazyTree';
import { useWsTopic } from '../../../lib/ws';
import { NEWS_REFRESH_GAP_MS, NEWS_SETTLE_MS } from '../../../lib/newsSettle';
import { useDebounced } from '../../../lib/useDebounced';
import { fetchTreeChannels, fetchTreeDevices, searchAllChannels, settledTreeDevices, usedTreeDevices } from '../api';
import { useChannelActions } from '../useChannelActions';
import { ChannelTitle } from './ChannelTitle';
import { ROW_NAME, SIDEBAR_TREE_STYLES } from './treeRow';
import { useTreeFreshness } from './useTreeFreshness';
import { useTreeHeight } from './useTreeHeight';

type Node = { kind: 'device'; device: DeviceRow } | { kind: 'channel'; channel: ChannelRow };

const deviceItem = (d: DeviceRow): LazyItem<Node> => ({ key: `d:${d.DeviceID}`, data: { kind: 'device', device: d }, leaf: false });
const channelItem = (c: ChannelRow, flat = false): LazyItem<Node> => ({
  key: `c:${c.ParentDeviceID}:${c.ChannelID}`,
  data: { kind: 'channel', channel: c },
  leaf: flat || c.Parental !== 1,
});


/** No row is ever shown selected; one array for every render (a new one re-renders every row). */
const NO_KEYS: string[] = [];

/**
 * A device's line: online icon, name, online/total channels, and 未开启 when its Enable is off (it
 * is offline then, and why is worth saying: nothing of it will play until it is enabled). Plain
 * spans: 50 of them on the first level.
 */
const DeviceTitle = memo(function DeviceTitle({ name, online, onlineChannels, channels, disabled, disabledLabel, countColor }: {
  name: string;
  online: number;
  onlineChannels: number;
  channels: number;
  disabled: boolean;
  disabledLabel: string;
  countColor: string;
}) {
  return (
    <span style={{ display: 'inline-flex', gap: 6, alignItems: 'center', maxWidth: '100%' }} data-enabled={disabled ? '0' : '1'}>
      <HddOutlined style={{ color: online === 1 ? '#52c41a' : '#bfbfbf' }} />
      {/* A long name gives way (ellipsis) to the counts and the label, which stay on one line. */}
      <span style={ROW_NAME} title={name}>
        {name}
      </span>
      <span style={{ color: countColor, flexShrink: 0, whiteSpace: 'nowrap' }}>
        ({onlineChannels}/{channels})
      </span>
      {disabled && <span style={{ color: countColor, flexShrink: 0, whiteSpace: 'nowrap' }}>{disabledLabel}</span>}
    </span>
  );
});

export function VideoTree() {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const query = useDebounced(q.trim());
  const { open, star } = useChannelActions();
  // Favourite flags changed here since the level was loaded.
  const [favs, setFavs] = useState<Map<string, number>>(new Map());
  const [loading, setLoading] = useState(false);

  const load = useCallback<LazyLoader<Node>>(
    async (parent, start, quiet) => {
      if (!parent) {
        if (query) {
          const page = await searchAllChannels(query, TREE_SEARCH_PAGE_SIZE, start, quiet);
          return { items: page.Channels.map((c) => channelItem(c, true)), total: page.ChannelCount };
        }
        const page = await fetchTreeDevices(start, TREE_PAGE_SIZE, quiet);
        return { items: page.Devices.map(deviceItem), total: page.TotalCount };
      }
      const device = parent.kind === 'device' ? parent.device.DeviceID : parent.channel.ParentDeviceID;
      const subset = parent.kind === 'channel' ? parent.channel.GBID : undefined;
      const page = await fetchTreeChannels(device, start, TREE_PAGE_SIZE, subset, quiet);
      return { items: page.Channels.map((c) => channelItem(c)), total: page.ChannelCount };
    },
    [query],
  );
  // The first page, when start-up's early call has already brought it, is in the first render:
  // the tree shows with the frame instead of one render (and one painted frame) later.
  const [initial] = useState(() => {
    const page = settledTreeDevices();
    return page && { items: page.Devices.map(deviceItem), total: page.TotalCount };
  });
  const tree = useLazyTree(load, initial);
  // Plain spans in the theme's colours: Typography measures itself, and the first level is 50 of them.
  const { colorTextSecondary, colorLink } = theme.useToken().token;
  const { reset, loadChildren, loadMore, refresh } = tree;

  // A channel going on or off line (a GB device registering again, a camera lost) arrives as a news
  // message on the events socket: the loaded rows of its device are fetched again, so the tree's
  // green/grey and counts follow, and a click opens a channel that came back instead of saying it is
  // offline. Messages come in bursts (every channel of a device): one refresh for a burst.
  // A burst that trickles (a stream check bringing 1,500 cameras back over a minute, a message
  // every few hundred ms) refreshes at most every NEWS_REFRESH_GAP_MS: it refreshed after each
  // pause, 61 reads of the tree's devices in 75 s.
  const changed = useRef(new Set<string>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const lastRefresh = useRef(0);
  useWsTopic('news', (item) => {
    changed.current.add(item.DeviceID);
    clearTimeout(timer.current);
    const wait = Math.max(NEWS_SETTLE_MS, lastRefresh.current + NEWS_REFRESH_GAP_MS - Date.now());
    timer.current = setTimeout(() => {
      lastRefresh.current = Date.now();
      const devices = [...changed.current];
      changed.current.clear();
      void refresh((key) => key === ROOT_KEY || devices.some((d) => key === `d:${d}` || key.startsWith(`c:${d}:`))).catch(() => undefined);
    }, wait);
  });
  useEffect(() => () => clearTimeout(timer.current), []);
  // A device or channel deleted elsewhere (another user, another tab) goes at the next focus, read
  // or player refused; so do rows added or renamed there.
  useTreeFreshness(useCallback(() => refresh(() => true), [refresh]));

  const haveInitial = useRef(initial !== undefined);
  useEffect(() => {
    if (haveInitial.current) {
      haveInitial.current = false;
      usedTreeDevices();
      return;
    }
    reset();
    setLoading(true);
    loadChildren('', null)
      .catch(() => undefined)
      .finally(() => setLoading(false));
  }, [reset, loadChildren]);

  const treeData = tree.build((item) => {
    const n = item.data;
    if (n.kind === 'device') {
      const d = n.device;
      return {
        title: (
          <DeviceTitle
            name={d.DeviceName}
            online={d.Online}
            onlineChannels={d.onlineChannelNums}
            channels={d.ChannelNum}
            disabled={d.Enable === 0}
            disabledLabel={t('video.deviceDisabled')}
            countColor={colorTextSecondary}
          />
        ),
      };
    }
    const c = n.channel;
    const fav = favs.get(item.key) ?? c.FavoritesChannel;
    const directory = c.Parental === 1;
    return {
      title: (
        <ChannelTitle
          name={query ? `${c.Name} (${c.DeviceName})` : c.Name}
          online={c.Online}
          directory={directory}
          disabledLabel={!directory && c.Enable === 0 ? t('video.channelDisabled') : undefined}
          drag={{ device: c.ParentDeviceID, channel: c.ChannelID, name: c.Name }}
          favourite={directory ? undefined : fav}
          onStar={async () => {
            const flag = await star({ DeviceID: c.ParentDeviceID, ChannelID: c.ChannelID, Name: c.Name, FavoritesChannel: fav });
            setFavs((prev) => new Map(prev).set(item.key, flag));
          }}
        />
      ),
    };
  }, <span style={{ color: colorLink }}>{t('video.loadMore')}</span>);

  const loadData = useCallback<NonNullable<TreeProps<LazyTreeNode<Node>>['loadData']>>(
    async (node) => {
      if (node.data && !node.moreOf) await loadChildren(node.key, node.data);
    },
    [loadChildren],
  );
  // On select, not on click: antd's Tree answers Enter on the active row with a select (a click is one too),
  // so a channel reached with the arrow keys opens.
  const onSelect = useCallback<NonNullable<TreeProps<LazyTreeNode<Node>>['onSelect']>>(
    (_, { node }) => {
      if (node.moreOf !== undefined) void loadMore(node.moreOf);
      else if (node.data?.kind === 'channel' && node.data.channel.Parental !== 1) {
        const c = node.data.channel;
        open({ DeviceID: c.ParentDeviceID, ChannelID: c.ChannelID, Online: c.Online, Enable: c.Enable, DeviceEnable: c.DeviceEnable });
      }
    },
    [loadMore, open],
  );
  // The tree is drawn once its height is known, so that its first render is already virtual.
  const [box, height] = useTreeHeight();

  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Input.Search allowClear placeholder={t('video.search')} value={q} onChange={(e) => setQ(e.target.value)} style={{ marginBottom: 8 }} />
      <div ref={box}>
        <Spin spinning={loading}>
          {treeData.length ? (
            height !== undefined && (
              <Tree<LazyTreeNode<Node>>
                key={tree.version}
                blockNode
                height={height || undefined}
                styles={SIDEBAR_TREE_STYLES}
                treeData={treeData}
                selectedKeys={NO_KEYS}
                loadData={loadData}
                onSelect={onSelect}
              />
            )
          ) : (
            !loading && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('video.empty')} />
          )}
        </Spin>
      </div>
    </div>
  );
}
