/** /device/group: the group (label) tree on the left, the selected group's channels and devices on the right. */
import { useState } from 'react';
import { Card, Col, Empty, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LabelRow } from '@opencvr/shared';
import { PageTitle } from '../../../components/PageTitle';
import { DeviceBreadcrumb } from '../components/DeviceBreadcrumb';
import { LabelMembers } from '../components/LabelMembers';
import { LabelTree } from '../components/LabelTree';

export default function DeviceGroupPage() {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<LabelRow | null>(null);
  return (
    <div style={{ padding: 16 }}>
      <DeviceBreadcrumb />
      <PageTitle title={t('route.deviceGroup')} />
      <Row gutter={16}>
        <Col xs={24} md={8} xl={6}>
          <Card title={t('devices.group.tree')} size="small" styles={{ body: { minHeight: 400 } }}>
            <LabelTree selected={selected} onSelect={setSelected} />
          </Card>
        </Col>
        <Col xs={24} md={16} xl={18}>
          <Card title={selected?.Name} size="small" styles={{ body: { minHeight: 400 } }}>
            {selected ? <LabelMembers key={selected.ID} label={selected} /> : <Empty description={t('devices.group.select')} />}
          </Card>
        </Col>
      </Row>
    </div>
  );
}
