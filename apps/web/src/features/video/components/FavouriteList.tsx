/** The favourites tab: the user's favourite channels (favorites), paged by 50; the star removes one. */
import { useCallback, useEffect, useState } from 'react';
import { Empty, Spin, Tree, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { TREE_PAGE_SIZE, type ChannelRow } from '@opencvr/shared';
import { useLazyTree, type LazyLoader, type LazyTreeNode } from '../../../components/lazyTree';
import { fetchFavorites } from '../api';
import { useChannelActions } from '../useChannelActions';
import { ChannelTitle } from './ChannelTitle';
import { useTreeFreshness } from './useTreeFreshness';
import { useTreeHeight } from './useTreeHeight';

export function FavouriteList() {
  const { t } = useTranslation();
  const { open, star } = useChannelActions();
  const [loading, setLoading] = useState(true);

  const load = useCallback<LazyLoader<ChannelRow>>(async (_parent, start, quiet) => {
    const page = await fetchFavorites(start, TREE_PAGE_SIZE, quiet);
    return {
      items: page.Channels.map((c) => ({ key: `${c.ParentDeviceID}:${c.ChannelID}`, data: c, leaf: true })),
      total: page.ChannelCount,
    };
  }, []);
  const tree = useLazyTree(load);
  const { loadChildren, loadMore, reset, refresh } = tree;
  // A favourite whose channel was deleted elsewhere goes without a reload (as the video tree's rows).
  useTreeFreshness(useCallback(() => refresh(() => true), [refresh]));

  const reload = useCallback(() => {
    reset();
    setLoading(true);
    loadChildren('', null)
      .catch(() => undefined)
      .finally(() => setLoading(false));
  }, [reset, loadChildren]);
  useEffect(reload, [reload]);

  const treeData = tree.build(
    ({ data: c }) => ({
      title: (
        <ChannelTitle
          name={c.Name}
          online={c.Online}
          disabledLabel={c.Enable === 0 ? t('video.channelDisabled') : undefined}
          drag={{ device: c.ParentDeviceID, channel: c.ChannelID, name: c.Name }}
          favourite={1}
          onStar={async () => {
            const flag = await star({
              DeviceID: c.ParentDeviceID,
              ChannelID: c.ChannelID,
              Name: c.Name,
              FavoritesChannel: 1,
            });
            if (flag === 0) reload();
          }}
        />
      ),
    }),
    <Typography.Link>{t('video.loadMore')}</Typography.Link>,
  );

  // A virtual list once its height is known: only the rows in view mount (useTreeHeight).
  const [box, height] = useTreeHeight();

  return (
    <div ref={box}>
      <Spin spinning={loading}>
        {treeData.length
          ? height !== undefined && (
              <Tree<LazyTreeNode<ChannelRow>>
                height={height || undefined}
                key={tree.version}
                blockNode
                treeData={treeData}
                selectedKeys={[]}
                // On select (Enter on the active row, or a click), as the video tree.
                onSelect={(_, { node }) => {
                  if (node.moreOf !== undefined) void loadMore(node.moreOf);
                  else if (node.data)
                    open({
                      DeviceID: node.data.ParentDeviceID,
                      ChannelID: node.data.ChannelID,
                      Online: node.data.Online,
                      Enable: node.data.Enable,
                    });
                }}
              />
            )
          : !loading && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('video.empty')} />}
      </Spin>
    </div>
  );
}
