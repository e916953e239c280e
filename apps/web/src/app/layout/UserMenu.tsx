/** The user dropdown: plugin centre, API docs, version, change password, log out (spec 2). */
import { Dropdown, type MenuProps } from 'antd';
import { ApiOutlined, AppstoreOutlined, DownOutlined, InfoCircleOutlined, KeyOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { logout } from '../../lib/logout';
import { useUi } from '../../lib/stores/ui';

export function UserMenu({ name, admin }: { name: string; admin: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isMobile = useUi((s) => s.isMobile);
  const openModifyPwd = useUi((s) => s.openModifyPwd);

  const items: MenuProps['items'] = [];
  if (admin) {
    items.push(
      { key: 'plugin', icon: <AppstoreOutlined />, label: t('userMenu.plugin') },
      { key: 'apidoc', icon: <ApiOutlined />, label: t('userMenu.apidoc') },
      { key: 'version', icon: <InfoCircleOutlined />, label: t('userMenu.version') },
    );
  }
  if (!isMobile) items.push({ key: 'password', icon: <KeyOutlined />, label: t('userMenu.password') });
  items.push({ type: 'divider' }, { key: 'logout', icon: <LogoutOutlined />, label: t('userMenu.logout') });

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'plugin') navigate('/plugin');
    else if (key === 'apidoc') window.open('/apidoc/', '_blank', 'noopener');
    else if (key === 'version') navigate('/version/index');
    else if (key === 'password') openModifyPwd(false);
    else if (key === 'logout') void logout();
  };

  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']}>
      <a onClick={(e) => e.preventDefault()} style={{ color: '#fff', whiteSpace: 'nowrap' }} data-testid="user-menu">
        <UserOutlined /> {name} <DownOutlined style={{ fontSize: 10 }} />
      </a>
    </Dropdown>
  );
}
