/** /user/role: roles; the built-in role (Builtin 1) cannot be edited or deleted. */
import { useLayoutEffect, useRef, useState } from 'react';
import { Button, Card, Popconfirm, Space, Tag } from 'antd';
import { ListTable } from '../../../components/ListTable';
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useAddAction } from '../../../lib/useAddAction';
import { runAction } from '../../../lib/runAction';
import { formatDateTime } from '../../../lib/time';
import { PAGE_SIZE, type RoleRow } from '@opencvr/shared';
import { PageTitle } from '../../../components/PageTitle';
import { RoleChannelsModal } from '../../../components/RoleChannelsModal';
import { deleteRole, fetchRoles } from '../api';
import { RoleFormModal } from '../components/RoleFormModal';

export default function RolesPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<RoleRow | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  // A new form dialog for every opening: the reused one kept a save's loading OK button (still running, or its
  // loading icon stuck in its leave motion when closed mid-transition) into the next opening.
  const [formKey, setFormKey] = useState(0);
  // The opening shown now: a save of an earlier opening that ends after this one opened still refreshes the
  // list, but must not close this one.
  const shownFormKey = useRef(formKey);
  useLayoutEffect(() => {
    shownFormKey.current = formKey;
  }, [formKey]);
  const [granting, setGranting] = useState<RoleRow | null>(null);
  // The channels dialog too: else the next opening showed a running save's loading button and, until its own
  // grants came, the last role's.
  const [grantKey, setGrantKey] = useState(0);
  const list = useQuery({ queryKey: ['roles', page], queryFn: () => fetchRoles(page, PAGE_SIZE), placeholderData: keepPreviousData });

  useAddAction(() => {
    setEditing(null);
    setFormKey((k) => k + 1);
    setFormOpen(true);
  });

  const remove = async (row: RoleRow) => {
    if (await runAction(() => deleteRole(row.ID))) void list.refetch();
  };

  return (
    <div style={{ padding: 16 }}>
      <PageTitle
        title={t('route.userRole')}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => {
              setEditing(null);
              setFormKey((k) => k + 1);
              setFormOpen(true);
            }}
          >
            {t('roles.add')}
          </Button>
        }
      />
      <Card>
        <ListTable<RoleRow>
          rowKey="ID"
          size="middle"
          loading={list.isFetching}
          dataSource={list.data?.data ?? []}
          pagination={{ current: page, pageSize: PAGE_SIZE, total: list.data?.count ?? 0, showSizeChanger: false, onChange: setPage }}
          columns={[
            {
              title: t('roles.name'),
              dataIndex: 'Name',
              render: (v: string, row) => (
                <Space>
                  {v}
                  {row.Builtin === 1 && <Tag color="blue">{t('roles.builtin')}</Tag>}
                </Space>
              ),
            },
            { title: t('roles.describe'), dataIndex: 'Describe' },
            { title: t('roles.userCount'), dataIndex: 'UserCount' },
            { title: t('common.createdAt'), dataIndex: 'CreateAt', render: (v: string) => formatDateTime(v) },
            {
              title: t('common.actions'),
              key: 'actions',
              render: (_, row) =>
                row.Builtin === 1 ? null : (
                  <Space>
                    <Button
                      type="link"
                      size="small"
                      onClick={() => {
                        setGranting(row);
                        setGrantKey((k) => k + 1);
                      }}
                    >
                      {t('devices.roleChannels.action')}
                    </Button>
                    <Button
                      type="link"
                      size="small"
                      onClick={() => {
                        setEditing(row);
                        setFormKey((k) => k + 1);
                        setFormOpen(true);
                      }}
                    >
                      {t('common.edit')}
                    </Button>
                    <Popconfirm title={t('roles.deleteConfirm', { name: row.Name })} onConfirm={() => remove(row)}>
                      <Button type="link" size="small" danger>
                        {t('common.delete')}
                      </Button>
                    </Popconfirm>
                  </Space>
                ),
            },
          ]}
        />
      </Card>
      <RoleChannelsModal key={`grant-${grantKey}`} role={granting} onClose={() => setGranting(null)} />
      <RoleFormModal
        key={`form-${formKey}`}
        open={formOpen}
        role={editing}
        onClose={() => setFormOpen(false)}
        onSaved={() => {
          if (shownFormKey.current === formKey) setFormOpen(false);
          void list.refetch();
        }}
      />
    </div>
  );
}
