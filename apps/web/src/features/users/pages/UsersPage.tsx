/** /user/index: users, with search, paging of 20, add/edit and delete. `?action=add` opens the add dialog. */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Button, Card, Input, Popconfirm, Space, Tag } from 'antd';
import { ListTable } from '../../../components/ListTable';
import { ListToolbar } from '../../../components/ListToolbar';
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useAddAction } from '../../../lib/useAddAction';
import { runAction } from '../../../lib/runAction';
import { formatDateTime } from '../../../lib/time';
import { PAGE_SIZE, type UserRow } from '@opencvr/shared';
import { PageTitle } from '../../../components/PageTitle';
import { deleteUser, fetchUsers } from '../api';
import { UserFormModal } from '../components/UserFormModal';
import { useDebounced } from '../../../lib/useDebounced';

export default function UsersPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [q, setQ] = useState('');
  const query = useDebounced(q.trim());
  const [editing, setEditing] = useState<UserRow | null>(null);
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

  const list = useQuery({ queryKey: ['users', page, query], queryFn: () => fetchUsers(page, PAGE_SIZE, query), placeholderData: keepPreviousData });

  useEffect(() => setPage(1), [query]);
  useAddAction(() => {
    setEditing(null);
    setFormKey((k) => k + 1);
    setFormOpen(true);
  });

  const remove = async (row: UserRow) => {
    if (await runAction(() => deleteUser(row.ID))) void list.refetch();
  };

  return (
    <div style={{ padding: 16 }}>
      <PageTitle
        title={t('route.userIndex')}
        extra={
          <ListToolbar
            search={<Input.Search allowClear placeholder={t('users.search')} value={q} onChange={(e) => setQ(e.target.value)} style={{ width: 220 }} />}
            primary={{
              label: t('users.add'),
              icon: <PlusOutlined />,
              onClick: () => {
                setEditing(null);
                setFormKey((k) => k + 1);
                setFormOpen(true);
              },
            }}
          />
        }
      />
      <Card>
        <ListTable<UserRow>
          rowKey="ID"
          size="middle"
          loading={list.isFetching}
          dataSource={list.data?.data ?? []}
          scroll={{ x: 800 }}
          pagination={{ current: page, pageSize: PAGE_SIZE, total: list.data?.count ?? 0, showSizeChanger: false, onChange: setPage }}
          columns={[
            { title: t('users.username'), dataIndex: 'Username' },
            { title: t('users.name'), dataIndex: 'Name' },
            { title: t('users.nickName'), dataIndex: 'NickName' },
            { title: t('users.role'), dataIndex: 'RoleName' },
            {
              title: t('users.enable'),
              dataIndex: 'Enable',
              render: (v: number) => (v === 1 ? <Tag color="green">{t('common.enabled')}</Tag> : <Tag>{t('common.disabled')}</Tag>),
            },
            {
              title: t('users.mustChangeShort'),
              dataIndex: 'MustChangePassword',
              render: (v: number) => (v === 1 ? t('common.yes') : t('common.no')),
            },
            { title: t('common.createdAt'), dataIndex: 'CreateAt', render: (v: string) => formatDateTime(v) },
            {
              title: t('common.actions'),
              key: 'actions',
              render: (_, row) => (
                <Space>
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
                  <Popconfirm title={t('users.deleteConfirm', { name: row.Username })} onConfirm={() => remove(row)}>
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
      <UserFormModal
        key={formKey}
        open={formOpen}
        user={editing}
        onClose={() => setFormOpen(false)}
        onSaved={() => {
          if (shownFormKey.current === formKey) setFormOpen(false);
          void list.refetch();
        }}
      />
    </div>
  );
}
