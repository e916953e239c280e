/**
 * The video sidebar's button in the top bar on a phone. antd's zero-width trigger hangs over the
 * page's left edge, and at 390 px it covered the first letters of page titles, a player's status tag
 * and the square's search box; a 40 px strip kept free beside the page would cost a tenth of the
 * width. In the top bar it covers nothing and stays in reach while the open sidebar fills the screen.
 */
import { Button } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useUi } from '../../lib/stores/ui';

export function SiderToggle() {
  const { t } = useTranslation();
  const collapsed = useUi((s) => s.cvrLayoutCollapsed);
  const setCollapsed = useUi((s) => s.setCollapsed);
  const Icon = collapsed ? MenuUnfoldOutlined : MenuFoldOutlined;
  return (
    <Button
      type="text"
      aria-label={t('sider.toggle')}
      aria-expanded={!collapsed}
      icon={<Icon style={{ color: '#fff', fontSize: 18 }} />}
      onClick={() => setCollapsed(!collapsed)}
    />
  );
}
