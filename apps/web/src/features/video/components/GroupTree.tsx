/**
 * The group list tab: groups (labels) the user may see, opened level by level with group/children
 * (a page of 50 at a time: a group may hold a site's cameras);
 * a device placed in a group, or a GB directory, opens with group/devicechannels (paged by 50).
 */
import { useCallback, useEffect, useState } from 'react';
import { Empty, Spin, Tree, Typography } from 'antd';
import { ApartmentOutlined, HddOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { TREE_PAGE_SIZE, type GroupNode } from '@opencvr/shared';
import { useLazyTree, type LazyLoader, type LazyTreeNode } from '../../../components/lazyTree';
import { fetchGroupChildren, fetchGroupDeviceChannels } from '../api';
import { useChannelActions } from '../useChannelActions';
import { ChannelTitle } from './ChannelTitle';
import { ROW_NAME, SIDEBAR_TREE_STYLES } from './treeRow';
import { useTreeFreshness } from './useTreeFreshness';
import { useTreeHeight } from './useTreeHeight';

/** A node with the group it was found under (device levels need it) and its tree key. */
interface Item {
  node: GroupNode;
  labelid: string;
  key: string;
}

export function GroupTree() {
  const { t } = useTranslation();
  const { open, star } = useChannelActions();
  const [loading, setLoading] = useState(true);
  // Favourite flags changed here since the rows were loaded, by channel (a camera may sit in two groups).
  const [favs, setFavs] = useState<Map<string, number>>(new Map());

  const load = useCallback<LazyLoader<Item>>(async (parent, start, quiet) => {
    const wrap = (nodes: GroupNode[], labelid: string, parentKey: string) =>
      nodes.map((node) => {
        // The same channel may sit in two groups: keys carry the path.
        const key = `${parentKey}/${node.NodeType}:${node.ID}`;
        return { key, data: { node, labelid, key }, leaf: node.NodeType === 'camera' };
      });
    if (!parent || parent.node.NodeType === 'directory') {
      const labelid = parent ? parent.node.ID : '0';
      const { Nodes, Count } = await fetchGroupChildren(labelid, start, TREE_PAGE_SIZE, quiet);
      return { items: wrap(Nodes, labelid, parent?.key ?? ''), total: Count ?? start + Nodes.length };
    }
    const { node, labelid } = parent;
    const page = await fetchGroupDeviceChannels({
      deviceid: node.DeviceID ?? node.ID,
      labelid,
      subset: node.NodeType === 'deviceDirectory' ? node.ChannelID : undefined,
      start,
      limit: TREE_PAGE_SIZE,
    }, quiet);
    return { items: wrap(page.Nodes, labelid, parent.key), total: page.Count };
  }, []);
  const tree = useLazyTree(load);
  const { loadChildren, loadMore, refresh } = tree;
  // Channels deleted elsewhere, or taken out of the role or group, go without a reload (as the video tree's).
  useTreeFreshness(useCallback(() => refresh(() => true), [refresh]));

  useEffect(() => {
    loadChildren('', null)
      .catch(() => undefined)
      .finally(() => setLoading(false));
  }, [loadChildren]);

  const treeData = tree.build(
    (item) => {
      const n = item.data.node;
      if (n.NodeType === 'directory') {
        return {
          title: (
            <span style={{ display: 'inline-flex', gap: 6, alignItems: 'center', maxWidth: '100%' }}>
              <ApartmentOutlined style={{ color: '#1677ff' }} />
              <span style={ROW_NAME} title={n.Name}>
                {n.Name}
              </span>
            </span>
          ),
        };
      }
      if (n.NodeType === 'device') {
        return {
          title: (
            <span style={{ display: 'inline-flex', gap: 6, alignItems: 'center', maxWidth: '100%' }}>
              <HddOutlined style={{ color: n.Online === 1 ? '#52c41a' : '#bfbfbf' }} />
              <span style={ROW_NAME} title={n.Name}>
                {n.Name}
              </span>
            </span>
          ),
        };
      }
      // The star of a camera: an operator's only way to its favourites (the video tree is the administrator's).
      const channel = `${n.DeviceID}:${n.ChannelID}`;
      const fav = n.NodeType === 'camera' && n.FavoritesChannel !== undefined ? (favs.get(channel) ?? n.FavoritesChannel) : undefined;
      return {
        title: (
          <ChannelTitle
            name={n.Name}
            online={n.Online}
            favourite={fav}
            onStar={
              fav === undefined
                ? undefined
                : async () => {
                    const flag = await star({ DeviceID: n.DeviceID ?? '', ChannelID: n.ChannelID ?? '', Name: n.Name, FavoritesChannel: fav });
                    setFavs((prev) => new Map(prev).set(channel, flag));
                  }
            }
            directory={n.NodeType === 'deviceDirectory'}
            disabledLabel={n.NodeType !== 'deviceDirectory' && n.Enable === 0 ? t('video.channelDisabled') : undefined}
            drag={n.DeviceID && n.ChannelID ? { device: n.DeviceID, channel: n.ChannelID, name: n.Name } : undefined}
          />
        ),
      };
    },
    <Typography.Link>{t('video.loadMore')}</Typography.Link>,
  );

  // A virtual list once its height is known: only the rows in view mount (useTreeHeight).
  const [box, height] = useTreeHeight();

  return (
    <div ref={box}>
      <Spin spinning={loading}>
        {treeData.length
          ? height !== undefined && (
              <Tree<LazyTreeNode<Item>>
                height={height || undefined}
                blockNode
                styles={SIDEBAR_TREE_STYLES}
                treeData={treeData}
                selectedKeys={[]}
                loadData={async (node) => {
                  if (node.data && !node.moreOf) await loadChildren(node.key, node.data);
                }}
                // On select (Enter on the active row, or a click), as the video tree.
                onSelect={(_, { node }) => {
                  if (node.moreOf !== undefined) void loadMore(node.moreOf);
                  else if (node.data?.node.NodeType === 'camera') {
                    const n = node.data.node;
                    open({
                      DeviceID: n.DeviceID ?? '',
                      ChannelID: n.ChannelID ?? '',
                      Online: n.Online,
                      Enable: n.Enable ?? 1,
                    });
                  }
                }}
              />
            )
          : !loading && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('video.empty')} />}
      </Spin>
    </div>
  );
}
