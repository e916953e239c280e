/**
 * What a role may see (spec 6): groups (labels, each with its sub-groups) and single channels.
 * Opened from /user/role; loads the grants with GET role/channels and replaces them on save.
 * Lives in components/ because the roles page (feature users) opens it and features do not import
 * one another.
 */
import { useEffect, useMemo, useState } from 'react';
import { Button, Col, Empty, List, Modal, Row, Spin, Tree, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RoleRow } from '@opencvr/shared';
import { msg } from '../i18n';
import { notify } from '../lib/notify';
import { fetchAllLabels, fetchRoleChannels, saveRoleChannels } from '../lib/api/inventory';
import { ChannelPicker, type PickedChannel } from './ChannelPicker';
import { labelTreeData } from './labelTree';

const refKey = (c: { DeviceID: string; ChannelID: string }) => `${c.DeviceID}:${c.ChannelID}`;
const CHANNELS_PAGE = 50;

export function RoleChannelsModal({ role, onClose }: { role: RoleRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const roleid = role?.ID ?? 0;
  const labels = useQuery({ queryKey: ['alllabel', 'role', roleid], queryFn: fetchAllLabels, enabled: !!role });
  const grants = useQuery({ queryKey: ['role/channels', roleid], queryFn: () => fetchRoleChannels(roleid), enabled: !!role });
  const [checked, setChecked] = useState<number[]>([]);
  const [channels, setChannels] = useState<PickedChannel[]>([]);
  const [picking, setPicking] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!grants.data) return;
    setChecked(grants.data.Labels);
    setChannels(grants.data.Channels);
  }, [grants.data]);

  // Each group with its count, as the group page's tree shows it (it showed names only).
  const treeData = useMemo(() => labelTreeData(labels.data?.Labels ?? [], undefined, true), [labels.data]);

  const addPicked = (picked: PickedChannel[]) => {
    setChannels((prev) => {
      const have = new Set(prev.map(refKey));
      return [...prev, ...picked.filter((c) => !have.has(refKey(c)))];
    });
    setPicking(false);
  };

  const save = async () => {
    if (!role) return;
    setSaving(true);
    try {
      await saveRoleChannels(role.ID, checked, channels);
      notify.success(msg('saved'));
      onClose();
    } catch {
      // shown by the request layer
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={!!role}
      title={t('devices.roleChannels.title', { name: role?.Name ?? '' })}
      width={820}
      onCancel={onClose}
      onOk={save}
      okText={t('common.save')}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Spin spinning={labels.isLoading || grants.isLoading}>
        {/* Side by side from md up; stacked on a phone (two columns of 150 px wrapped every name). */}
        <Row gutter={[16, 16]}>
          <Col xs={24} md={11}>
            <Typography.Title level={5}>{t('devices.roleChannels.labels')}</Typography.Title>
            <div style={{ height: 380, overflow: 'auto', border: '1px solid #f0f0f0', padding: 8 }} data-testid="role-labels">
              {treeData.length ? (
                <Tree
                  checkable
                  checkStrictly
                  defaultExpandAll
                  selectable={false}
                  treeData={treeData}
                  checkedKeys={checked}
                  onCheck={(keys) => setChecked((Array.isArray(keys) ? keys : keys.checked).map(Number))}
                />
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('devices.roleChannels.noLabels')} />
              )}
            </div>
          </Col>
          <Col xs={24} md={13}>
            <Typography.Title level={5}>
              {t('devices.roleChannels.channels')}
              <Button size="small" icon={<PlusOutlined />} style={{ marginLeft: 8 }} onClick={() => setPicking(true)}>
                {t('devices.roleChannels.addChannels')}
              </Button>
            </Typography.Title>
            <div style={{ height: 380, overflow: 'auto', border: '1px solid #f0f0f0' }} data-testid="role-channels">
              <List
                size="small"
                dataSource={channels}
                // Paged: a role may see a site's 1,500 cameras.
                pagination={channels.length > CHANNELS_PAGE ? { pageSize: CHANNELS_PAGE, size: 'small', showSizeChanger: false, align: 'center' } : false}
                locale={{ emptyText: t('devices.roleChannels.noChannels') }}
                renderItem={(c) => (
                  <List.Item
                    actions={[
                      <Button
                        key="rm"
                        type="text"
                        size="small"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t('common.delete')}
                        onClick={() => setChannels((prev) => prev.filter((x) => refKey(x) !== refKey(c)))}
                      />,
                    ]}
                  >
                    <List.Item.Meta title={c.Name} description={refKey(c)} />
                  </List.Item>
                )}
              />
            </div>
          </Col>
        </Row>
      </Spin>
      <ChannelPicker
        open={picking}
        mode="channels"
        title={t('devices.picker.title')}
        onCancel={() => setPicking(false)}
        onOk={({ channels: picked }) => addPicked(picked)}
      />
    </Modal>
  );
}
