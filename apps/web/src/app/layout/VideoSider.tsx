/**
 * The video pages' sidebar: three reorderable tabs (drag a tab onto another), the video tree
 * (admins), the group list and the favourites. Only the active tab is mounted, so a tab shows
 * fresh data (e.g. a star just set in the tree) whenever it is opened.
 */
import { useState } from 'react';
import { Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { isAdminRole } from '../../lib/session';
import { useSession } from '../../lib/stores/session';
import { useUi } from '../../lib/stores/ui';
import { FavouriteList } from '../../features/video/components/FavouriteList';
import { GroupTree } from '../../features/video/components/GroupTree';
import { VideoTree } from '../../features/video/components/VideoTree';
import { loadSiderTabs, moveTab, saveSiderTabs, type SiderTab } from './siderTabs';

export function VideoSider() {
  const { t } = useTranslation();
  const admin = isAdminRole(useSession((s) => s.userinfo?.role));
  const active = useUi((s) => s.siderTabPane);
  const setActive = useUi((s) => s.setSiderTabPane);
  const [tabs, setTabs] = useState<SiderTab[]>(loadSiderTabs);
  const [dragging, setDragging] = useState<number | null>(null);

  // The video tree tab is for admins only (spec 6).
  const visible = tabs.filter((tab) => admin || tab.key !== 'spgc');
  const current = visible.some((tab) => tab.key === active) ? active : visible[0]?.key;

  const drop = (target: SiderTab) => {
    if (dragging === null) return;
    const to = tabs.indexOf(target);
    const next = moveTab(tabs, dragging, to);
    setTabs(next);
    saveSiderTabs(next);
    setDragging(null);
  };

  return (
    <Flex vertical style={{ height: '100%' }}>
      <Flex role="tablist" style={{ borderBottom: '1px solid #f0f0f0' }}>
        {visible.map((tab) => (
          <div
            key={tab.key}
            role="tab"
            aria-selected={tab.key === current}
            draggable
            onDragStart={() => setDragging(tabs.indexOf(tab))}
            onDragOver={(e) => e.preventDefault()}
            onDrop={() => drop(tab)}
            onClick={() => setActive(tab.key)}
            style={{
              // Widths follow the labels on one line: three equal thirds wrapped "Video square" in English.
              flex: '1 1 auto',
              whiteSpace: 'nowrap',
              textAlign: 'center',
              padding: '10px 4px',
              cursor: 'pointer',
              userSelect: 'none',
              borderBottom: tab.key === current ? '2px solid #1677ff' : '2px solid transparent',
              color: tab.key === current ? '#1677ff' : undefined,
            }}
          >
            {t(tab.label)}
          </div>
        ))}
      </Flex>
      <div style={{ flex: 1, padding: 12, overflow: 'auto' }} role="tabpanel" data-testid={`sider-${current}`}>
        {current === 'spgc' && <VideoTree />}
        {current === 'fzlb' && <GroupTree />}
        {current === 'sc' && <FavouriteList />}
      </div>
    </Flex>
  );
}
